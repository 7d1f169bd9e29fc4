//! The board: cells, line scanning and win detection.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::{Color, Pos, Rule, Size};

/// What occupies one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Cell {
    /// Nobody has played here.
    #[default]
    Empty,
    /// A black stone.
    Black,
    /// A white stone.
    White,
    /// A rock (wall): nobody can play here; it ends a row like the board edge.
    Wall,
}

impl Cell {
    /// The stone of `color`.
    #[must_use]
    pub const fn stone(color: Color) -> Cell {
        match color {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }

    /// The colour of the stone here, if any.
    #[must_use]
    pub const fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }

    /// The board-diagram symbol: `.` empty, `X` black, `O` white, `#` wall.
    #[must_use]
    pub const fn symbol(self) -> char {
        match self {
            Cell::Empty => '.',
            Cell::Black => 'X',
            Cell::White => 'O',
            Cell::Wall => '#',
        }
    }

    /// Reads a board-diagram symbol (`.`/`-`/`_`/`+` empty, `X`/`x`/`B` black, `O`/`o`/`W` white, `#` wall).
    #[must_use]
    pub const fn from_symbol(c: char) -> Option<Cell> {
        match c {
            '.' | '-' | '_' | '+' => Some(Cell::Empty),
            'X' | 'x' | 'B' | 'b' => Some(Cell::Black),
            'O' | 'o' | 'W' | 'w' => Some(Cell::White),
            '#' => Some(Cell::Wall),
            _ => None,
        }
    }
}

/// The four line directions: horizontal, vertical, diagonal, anti-diagonal (as `(dx, dy)`, y down).
pub const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A rectangular board of cells. It knows no rule; see [`crate::Game`] for play.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    size: Size,
    cells: Vec<Cell>,
    stones: usize,
    walls: usize,
}

/// A board diagram that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardParseError {
    /// Rows of different lengths, or a size outside 5..=26.
    #[error("board diagram has bad dimensions: {0}")]
    Dimensions(String),
    /// An unknown symbol.
    #[error("unknown symbol {symbol:?} at row {row}, column {column} of the board diagram")]
    Symbol {
        /// The character.
        symbol: char,
        /// 1-based row from the top.
        row: usize,
        /// 1-based column.
        column: usize,
    },
}

impl Board {
    /// An empty board.
    #[must_use]
    pub fn new(size: Size) -> Board {
        Board {
            size,
            cells: vec![Cell::Empty; size.cells()],
            stones: 0,
            walls: 0,
        }
    }

    /// Reads a diagram: one string per row, the **top row first**, symbols as in
    /// [`Cell::from_symbol`]; spaces between symbols are ignored.
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Board, BoardParseError> {
        let parsed: Vec<Vec<char>> = rows
            .iter()
            .map(|r| r.as_ref().chars().filter(|c| !c.is_whitespace()).collect())
            .filter(|r: &Vec<char>| !r.is_empty())
            .collect();
        let height = parsed.len();
        let width = parsed.first().map_or(0, Vec::len);
        if parsed.iter().any(|r| r.len() != width) {
            return Err(BoardParseError::Dimensions("rows differ in length".into()));
        }
        let size = Size::from_u32(width as u32, height as u32)
            .map_err(|e| BoardParseError::Dimensions(e.to_string()))?;
        let mut board = Board::new(size);
        for (y, row) in parsed.iter().enumerate() {
            for (x, &c) in row.iter().enumerate() {
                let cell = Cell::from_symbol(c).ok_or(BoardParseError::Symbol {
                    symbol: c,
                    row: y + 1,
                    column: x + 1,
                })?;
                board.set(Pos::new_unchecked(x as u8, y as u8), cell);
            }
        }
        Ok(board)
    }

    /// The board's dimensions.
    #[must_use]
    pub const fn size(&self) -> Size {
        self.size
    }

    /// The cell at `pos` (which must be on the board).
    #[must_use]
    pub fn get(&self, pos: Pos) -> Cell {
        self.cells[self.size.index(pos)]
    }

    /// The cell at `(x, y)`, or `None` off the board.
    #[must_use]
    pub fn get_xy(&self, x: i32, y: i32) -> Option<Cell> {
        self.size
            .contains_xy(x, y)
            .then(|| self.cells[y as usize * self.size.width() as usize + x as usize])
    }

    /// Sets a cell, keeping the stone and wall counts.
    pub fn set(&mut self, pos: Pos, cell: Cell) {
        let i = self.size.index(pos);
        let old = self.cells[i];
        match old {
            Cell::Black | Cell::White => self.stones -= 1,
            Cell::Wall => self.walls -= 1,
            Cell::Empty => {}
        }
        match cell {
            Cell::Black | Cell::White => self.stones += 1,
            Cell::Wall => self.walls += 1,
            Cell::Empty => {}
        }
        self.cells[i] = cell;
    }

    /// Whether `pos` is empty.
    #[must_use]
    pub fn is_empty(&self, pos: Pos) -> bool {
        self.get(pos) == Cell::Empty
    }

    /// Number of stones on the board.
    #[must_use]
    pub const fn stone_count(&self) -> usize {
        self.stones
    }

    /// Whether no empty cell is left.
    #[must_use]
    pub fn is_full(&self) -> bool {
        self.stones + self.walls == self.cells.len()
    }

    /// All cells, row-major from the top-left.
    #[must_use]
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// Every empty point.
    pub fn empty_points(&self) -> impl Iterator<Item = Pos> + '_ {
        self.size.points().filter(|&p| self.is_empty(p))
    }

    /// Number of consecutive `color` stones from `pos` (exclusive) in direction `(dx, dy)`.
    #[must_use]
    pub fn count_dir(&self, pos: Pos, (dx, dy): (i32, i32), color: Color) -> usize {
        let want = Cell::stone(color);
        let (mut x, mut y) = (i32::from(pos.x) + dx, i32::from(pos.y) + dy);
        let mut n = 0;
        while self.get_xy(x, y) == Some(want) {
            n += 1;
            x += dx;
            y += dy;
        }
        n
    }

    /// The run of `color` through `pos` in direction `dir`, counting `pos` as `color`:
    /// `(stones before pos, stones after pos)`.
    #[must_use]
    pub fn run_through(&self, pos: Pos, dir: (i32, i32), color: Color) -> (usize, usize) {
        (
            self.count_dir(pos, (-dir.0, -dir.1), color),
            self.count_dir(pos, dir, color),
        )
    }

    /// Looks for a winning row through `pos` for `color` (the stone is assumed to be at
    /// `pos`, placed or not) under `rule` with `k` in a row. Returns the row's cells.
    #[must_use]
    pub fn winning_line(&self, pos: Pos, color: Color, rule: Rule, k: u8) -> Option<Vec<Pos>> {
        let k = usize::from(k);
        for dir in DIRECTIONS {
            let (back, fwd) = self.run_through(pos, dir, color);
            let len = back + fwd + 1;
            let wins = match rule {
                Rule::Freestyle => len >= k,
                Rule::Standard => len == k,
                Rule::Renju => match color {
                    Color::Black => len == 5,
                    Color::White => len >= 5,
                },
                Rule::Caro => len == k && !self.caro_blocked(pos, dir, color, back, fwd),
            };
            if wins {
                let start = (
                    i32::from(pos.x) - dir.0 * back as i32,
                    i32::from(pos.y) - dir.1 * back as i32,
                );
                return Some(
                    (0..len as i32)
                        .map(|i| {
                            Pos::new_unchecked(
                                (start.0 + dir.0 * i) as u8,
                                (start.1 + dir.1 * i) as u8,
                            )
                        })
                        .collect(),
                );
            }
        }
        None
    }

    /// Caro: a row is dead when opponent stones stand at both of its ends (edges and walls
    /// do not block).
    fn caro_blocked(
        &self,
        pos: Pos,
        dir: (i32, i32),
        color: Color,
        back: usize,
        fwd: usize,
    ) -> bool {
        let opp = Some(Cell::stone(color.opponent()));
        let (x, y) = (i32::from(pos.x), i32::from(pos.y));
        let before = self.get_xy(x - dir.0 * (back as i32 + 1), y - dir.1 * (back as i32 + 1));
        let after = self.get_xy(x + dir.0 * (fwd as i32 + 1), y + dir.1 * (fwd as i32 + 1));
        before == opp && after == opp
    }

    /// The diagram: one line per row from the top, with renju row numbers and column letters.
    #[must_use]
    pub fn diagram(&self) -> String {
        self.diagram_with(|_| None)
    }

    /// The diagram with some empty points marked by a caller-chosen character.
    pub fn diagram_with(&self, mark: impl Fn(Pos) -> Option<char>) -> String {
        let mut out = String::new();
        let h = self.size.height();
        for y in 0..h {
            out.push_str(&format!("{:>2} ", h - y));
            for x in 0..self.size.width() {
                let p = Pos::new_unchecked(x, y);
                let c = mark(p).unwrap_or_else(|| self.get(p).symbol());
                out.push(c);
                out.push(' ');
            }
            out.pop();
            out.push('\n');
        }
        out.push_str("   ");
        for x in 0..self.size.width() {
            out.push((b'a' + x) as char);
            out.push(' ');
        }
        out.pop();
        out.push('\n');
        out
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board {}\n{}", self.size, self.diagram())
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagram())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Board {
        Board::from_rows(rows).unwrap()
    }

    #[test]
    fn diagram_roundtrips() {
        let b = board(&[".....", ".X...", "..O..", "...#.", "....."]);
        let rows: Vec<String> = b
            .diagram()
            .lines()
            .take(5)
            .map(|l| l[3..].replace(' ', ""))
            .collect();
        assert_eq!(Board::from_rows(&rows).unwrap(), b);
    }

    #[test]
    fn win_rules_differ_on_overline_and_caro() {
        //               0123456
        let b = board(&[
            "XXX.XX.", ".......", "OXXXX.O", ".......", ".......", ".......", ".......",
        ]);
        let p = Pos::new_unchecked(3, 0);
        assert!(
            b.winning_line(p, Color::Black, Rule::Freestyle, 5)
                .is_some()
        );
        assert!(b.winning_line(p, Color::Black, Rule::Standard, 5).is_none());
        assert!(b.winning_line(p, Color::Black, Rule::Renju, 5).is_none());
        assert!(b.winning_line(p, Color::White, Rule::Renju, 5).is_none()); // white at p makes nothing
        let q = Pos::new_unchecked(5, 2);
        // O X X X X q O : an exact five blocked at both ends by white does not win caro.
        assert!(b.winning_line(q, Color::Black, Rule::Caro, 5).is_none());
        assert_eq!(
            b.winning_line(q, Color::Black, Rule::Standard, 5)
                .unwrap()
                .len(),
            5
        );
    }

    #[test]
    fn caro_edge_is_no_block() {
        let b = board(&["XXXX.O", "......", "......", "......", "......"]);
        let line = b
            .winning_line(Pos::new_unchecked(4, 0), Color::Black, Rule::Caro, 5)
            .unwrap();
        assert_eq!(line.len(), 5);
        assert_eq!(line[0], Pos::new_unchecked(0, 0));
    }
}
