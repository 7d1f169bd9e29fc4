//! Line shapes for the classic AIs: what one stone makes on one line.
//!
//! A line is read as a window of `2k + 1` cells centred on the stone; the shape is found
//! by trying stones on the empty cells of the window (a four is one stone from a five, a
//! three one stone from a four, a two one stone from a three), so the same code serves
//! every k and every rule.

use std::collections::HashMap;

use wuzi_rules::board::DIRECTIONS;
use wuzi_rules::{Board, Cell, Color, GameConfig, Pos, Rule};

/// What a stone makes on one line, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LineShape {
    /// Nothing that can grow into a five here.
    Nothing,
    /// Two stones, one side blocked (or a gap that allows only one way on): `OXX___`.
    DeadTwo,
    /// Two stones that can become an open three: `__XX__`.
    LiveTwo,
    /// Three stones that can only become a simple four: `OXXX__`.
    DeadThree,
    /// Three stones that become an open four with one more stone: `__XXX_`.
    LiveThree,
    /// Four stones with one way to five: `OXXXX_`, `XX_XX`.
    DeadFour,
    /// Four stones with two or more ways to five: `_XXXX_`, `X_XXX_X`.
    LiveFour,
    /// A five (as the rule counts it).
    Five,
}

/// What occupies a window cell, from the point of view of the stone's owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Empty = 0,
    Mine = 1,
    /// An opponent stone: blocks, and counts as a block for caro.
    Theirs = 2,
    /// The edge or a wall: blocks, but is no caro block.
    Edge = 3,
}

/// The winning condition for one colour.
#[derive(Clone, Copy, Debug)]
struct WinRule {
    k: usize,
    exact: bool,
    caro: bool,
}

impl WinRule {
    fn new(config: &GameConfig, color: Color) -> WinRule {
        let k = usize::from(config.k);
        match config.rule {
            Rule::Freestyle => WinRule {
                k,
                exact: false,
                caro: false,
            },
            Rule::Standard => WinRule {
                k,
                exact: true,
                caro: false,
            },
            Rule::Renju => WinRule {
                k: 5,
                exact: color == Color::Black,
                caro: false,
            },
            Rule::Caro => WinRule {
                k,
                exact: true,
                caro: true,
            },
        }
    }
}

/// Classifies windows for one colour under one rule, caching by window contents.
#[derive(Debug)]
pub struct ShapeCache {
    color: Color,
    win: WinRule,
    cache: HashMap<u64, LineShape>,
}

impl ShapeCache {
    /// A classifier for `color`'s stones under `config`.
    pub fn new(config: &GameConfig, color: Color) -> ShapeCache {
        ShapeCache {
            color,
            win: WinRule::new(config, color),
            cache: HashMap::new(),
        }
    }

    /// The shape a `self.color` stone at the empty point `pos` makes in direction `dir`.
    pub fn shape(&mut self, board: &Board, pos: Pos, dir: (i32, i32)) -> LineShape {
        let k = self.win.k as i32;
        let mut slots = Vec::with_capacity(2 * self.win.k + 1);
        let mut key = 0u64;
        for o in -k..=k {
            let slot = if o == 0 {
                Slot::Mine
            } else {
                match board.get_xy(i32::from(pos.x) + dir.0 * o, i32::from(pos.y) + dir.1 * o) {
                    Some(Cell::Empty) => Slot::Empty,
                    Some(c) if c == Cell::stone(self.color) => Slot::Mine,
                    Some(Cell::Black | Cell::White) => Slot::Theirs,
                    _ => Slot::Edge,
                }
            };
            key = key << 2 | slot as u64;
            slots.push(slot);
        }
        if let Some(&s) = self.cache.get(&key) {
            return s;
        }
        let s = classify(&mut slots, self.win, 2);
        self.cache.insert(key, s);
        s
    }

    /// The shapes on all four lines through `pos`.
    pub fn shapes(&mut self, board: &Board, pos: Pos) -> [LineShape; 4] {
        DIRECTIONS.map(|d| self.shape(board, pos, d))
    }
}

/// Whether the run of our stones through the centre is a five.
fn is_five(v: &[Slot], win: WinRule) -> bool {
    let c = v.len() / 2;
    let mut s = c;
    while s > 0 && v[s - 1] == Slot::Mine {
        s -= 1;
    }
    let mut e = c;
    while e + 1 < v.len() && v[e + 1] == Slot::Mine {
        e += 1;
    }
    let len = e - s + 1;
    if len < win.k || (win.exact && len > win.k) {
        return false;
    }
    if win.caro {
        // Both ends held by opponent stones: dead. (len == k, so both ends are in the window.)
        let before = s.checked_sub(1).map(|i| v[i]);
        let after = v.get(e + 1).copied();
        return !(before == Some(Slot::Theirs) && after == Some(Slot::Theirs));
    }
    true
}

/// The shape of the centre stone's line, looking `depth` stones beyond a four.
fn classify(v: &mut [Slot], win: WinRule, depth: u32) -> LineShape {
    if is_five(v, win) {
        return LineShape::Five;
    }
    let mut fives = 0;
    for i in 0..v.len() {
        if v[i] == Slot::Empty {
            v[i] = Slot::Mine;
            if is_five(v, win) {
                fives += 1;
            }
            v[i] = Slot::Empty;
        }
    }
    match fives {
        0 => {}
        1 => return LineShape::DeadFour,
        _ => return LineShape::LiveFour,
    }
    if depth == 0 {
        return LineShape::Nothing;
    }
    let mut best = LineShape::Nothing;
    for i in 0..v.len() {
        if v[i] == Slot::Empty {
            v[i] = Slot::Mine;
            best = best.max(classify(v, win, depth - 1));
            v[i] = Slot::Empty;
        }
    }
    match best {
        LineShape::LiveFour => LineShape::LiveThree,
        LineShape::DeadFour => LineShape::DeadThree,
        LineShape::LiveThree => LineShape::LiveTwo,
        LineShape::DeadThree => LineShape::DeadTwo,
        _ => LineShape::Nothing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_rules::Size;

    /// The shape a stone at `?` makes on a one-row board.
    fn row_shape(row: &str, rule: Rule, color: Color) -> LineShape {
        let x = row.find('?').unwrap();
        // `X` is the stone's owner and `O` the other side, whatever the colour.
        let cells: String = row
            .chars()
            .map(|c| match c {
                '?' => '.',
                'X' => color.symbol(),
                'O' => color.opponent().symbol(),
                c => c,
            })
            .collect();
        let blank = ".".repeat(cells.len());
        let rows = [cells.as_str(), &blank, &blank, &blank, &blank];
        let board = Board::from_rows(&rows).unwrap();
        let mut config = GameConfig::new(rule, Size::new(cells.len() as u8, 5).unwrap());
        config.k = 5;
        let mut cache = ShapeCache::new(&config, color);
        cache.shape(&board, Pos::new_unchecked(x as u8, 0), (1, 0))
    }

    #[test]
    fn ladder_of_shapes() {
        use LineShape::*;
        let b = Color::Black;
        let f = Rule::Freestyle;
        for (row, want) in [
            ("...XX?XX...", Five),
            ("...XXX?X...", Five),
            ("...XXX?....", LiveFour),
            ("..OXXX?....", DeadFour),
            ("...XX?.X...", DeadFour),
            ("..X.XX?.X..", LiveFour),
            ("....X?X....", LiveThree),
            ("...X?.X....", LiveThree),
            ("...OX?X....", DeadThree),
            ("....?X.....", LiveTwo),
            ("...O?X.....", DeadTwo),
            ("....?......", Nothing),
            ("O..?O......", Nothing),
        ] {
            assert_eq!(row_shape(row, f, b), want, "{row}");
        }
    }

    #[test]
    fn overlines_depend_on_rule_and_colour() {
        use LineShape::*;
        let row = "..XXX?XX...";
        assert_eq!(row_shape(row, Rule::Freestyle, Color::Black), Five);
        assert_ne!(row_shape(row, Rule::Standard, Color::Black), Five);
        assert_ne!(row_shape(row, Rule::Renju, Color::Black), Five);
        assert_eq!(row_shape(row, Rule::Renju, Color::White), Five);
        // XXX?_X: for Black under renju the gap would make six, so only one way to five.
        assert_eq!(
            row_shape(".XXX?.X....", Rule::Renju, Color::Black),
            DeadFour
        );
        assert_eq!(
            row_shape(".XXX?.X....", Rule::Freestyle, Color::Black),
            LiveFour
        );
    }

    #[test]
    fn caro_five_needs_an_open_end() {
        assert_eq!(
            row_shape("OXXXX?O....", Rule::Caro, Color::Black),
            LineShape::Nothing
        );
        assert_eq!(
            row_shape("XXXX?O.....", Rule::Caro, Color::Black),
            LineShape::Five
        );
    }
}
