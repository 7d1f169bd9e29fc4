//! Line patterns: what one stone on an empty point makes along one line, and the
//! tables that give the pattern of every point in O(1) from its line key.
//!
//! A point's *line key* packs the ten cells at offsets −5..=−1 and 1..=5 along one
//! direction, two bits each ([`EMPTY`], [`BLACK`], [`WHITE`], [`WALL`]; the edge reads
//! as a wall), the nearest cell on the negative side in the low bits. The board keeps
//! every key up to date as stones come and go, so a lookup gives the pattern.
//!
//! The tables are generated at first use by [`classify`], a direct reading of the
//! definitions (a four has one completion to a five, a straight four two, a three
//! makes a straight four with one more stone, …) with per-rule fives: exact five for
//! standard, caro (not blocked by the opponent at both ends) and Black under renju.

use std::sync::OnceLock;

use wuzi_rules::{Color, Rule};

/// Line-key code of an empty cell.
pub const EMPTY: u32 = 0;
/// Line-key code of a black stone.
pub const BLACK: u32 = 1;
/// Line-key code of a white stone.
pub const WHITE: u32 = 2;
/// Line-key code of a wall or the outside of the board.
pub const WALL: u32 = 3;

/// Cells on each side of the point covered by a line key.
pub const HALF: usize = 5;
/// Number of line-key states (`4^(2*HALF)`).
pub const KEYS: usize = 1 << (4 * HALF);

/// The line-key code of a stone of `color`.
#[must_use]
pub const fn stone_code(color: Color) -> u32 {
    match color {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// Bit shift of the cell at offset `o` (`o` in −5..=5, not 0) inside a line key.
#[must_use]
pub const fn shift(o: i32) -> u32 {
    let i = if o < 0 {
        o + HALF as i32
    } else {
        o + HALF as i32 - 1
    };
    2 * i as u32
}

/// What a stone on an empty point makes along one line, weakest first. Diagrams show
/// the line after the stone (`*`) is placed; `X` own, `O` opponent or edge, `_` empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(u8)]
pub enum Pattern {
    /// No five can ever be made through the point here: `O_X*XO`.
    #[default]
    Dead = 0,
    /// An overline that does not win (exact-five rules): `XX*XXX`.
    Overline,
    /// A one that can only become a closed four: `O*____`.
    Block1,
    /// A one that can become an open three: `__*___`.
    Flex1,
    /// A two that can only become a closed four: `O*X___`.
    Block2,
    /// A two that can become an open three in one way: `__*X__`.
    Flex2,
    /// A two with several ways to an open three: `__*_X__`-like, or `_X*__`.
    Flex2A,
    /// A three that can become a closed four only: `OXX*__`.
    Block3,
    /// An open three: one more stone makes a straight four: `__XX*__`, `_X_X*_`.
    Flex3,
    /// A four with one completion: `OXXX*_`, `X_X*X`.
    Block4,
    /// A straight four with two completions: `_XXX*_`.
    Flex4,
    /// Two fours on the one line: `X_X*X_X`. Forbidden for Black under renju.
    DoubleFour,
    /// A winning row.
    Five,
}

impl Pattern {
    /// All patterns, weakest first.
    pub const ALL: [Pattern; 13] = [
        Pattern::Dead,
        Pattern::Overline,
        Pattern::Block1,
        Pattern::Flex1,
        Pattern::Block2,
        Pattern::Flex2,
        Pattern::Flex2A,
        Pattern::Block3,
        Pattern::Flex3,
        Pattern::Block4,
        Pattern::Flex4,
        Pattern::DoubleFour,
        Pattern::Five,
    ];

    /// Whether the stone makes a four or better (a five threat) on this line.
    #[must_use]
    pub const fn is_four_or_better(self) -> bool {
        matches!(
            self,
            Pattern::Block4 | Pattern::Flex4 | Pattern::DoubleFour | Pattern::Five
        )
    }
}

/// What counts as a five for one colour under one rule with k in a row.
#[derive(Clone, Copy, Debug)]
struct FiveRule {
    rule: Rule,
    k: usize,
    color: Color,
}

impl FiveRule {
    /// Whether runs longer than k are no win (and are overlines).
    fn exact(self) -> bool {
        match self.rule {
            Rule::Freestyle => false,
            Rule::Standard | Rule::Caro => true,
            Rule::Renju => self.color == Color::Black,
        }
    }
}

/// A window of `2 * HALF + 1` cells, the point in the middle.
type Window = [u32; 2 * HALF + 1];

fn decode(key: u32) -> Window {
    let mut w = [EMPTY; 2 * HALF + 1];
    for o in -(HALF as i32)..=HALF as i32 {
        if o != 0 {
            w[(o + HALF as i32) as usize] = (key >> shift(o)) & 3;
        }
    }
    w
}

fn encode(w: &Window) -> u32 {
    let mut key = 0;
    for o in -(HALF as i32)..=HALF as i32 {
        if o != 0 {
            key |= w[(o + HALF as i32) as usize] << shift(o);
        }
    }
    key
}

/// The run of own stones through the centre: `(start, end)` inclusive.
fn centre_run(w: &Window, own: u32) -> (usize, usize) {
    let (mut s, mut e) = (HALF, HALF);
    while s > 0 && w[s - 1] == own {
        s -= 1;
    }
    while e + 1 < w.len() && w[e + 1] == own {
        e += 1;
    }
    (s, e)
}

/// Five, overline or neither, for the run through the centre.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RunKind {
    Five,
    Overline,
    Short,
}

fn run_kind(w: &Window, fr: FiveRule) -> RunKind {
    let own = stone_code(fr.color);
    let opp = stone_code(fr.color.opponent());
    let (s, e) = centre_run(w, own);
    let len = e - s + 1;
    if len < fr.k {
        return RunKind::Short;
    }
    if len > fr.k && fr.exact() {
        return RunKind::Overline;
    }
    if fr.rule == Rule::Caro {
        // Blocked at both ends by opponent stones (outside the window counts as open).
        let before = s.checked_sub(1).map(|i| w[i]);
        let after = w.get(e + 1).copied();
        if before == Some(opp) && after == Some(opp) {
            return RunKind::Short;
        }
    }
    RunKind::Five
}

struct Classifier {
    fr: FiveRule,
    memo: Vec<u8>,
    canonical_walls: bool,
}

const UNKNOWN: u8 = u8::MAX;

impl Classifier {
    fn new(fr: FiveRule) -> Self {
        Classifier {
            fr,
            memo: vec![UNKNOWN; KEYS],
            // Only caro tells the opponent's stones from walls (edges do not block a
            // caro five); elsewhere both just block, so walls are read as opponent
            // stones and far fewer keys need classifying.
            canonical_walls: fr.rule != Rule::Caro,
        }
    }

    fn canonical(&self, key: u32) -> u32 {
        let mut key = key;
        if self.canonical_walls {
            // Walls (0b11) become the opponent's stones: clear the bit that the
            // opponent's code lacks.
            let walls = key & (key >> 1) & 0x5_5555;
            key = match self.fr.color {
                Color::Black => key ^ walls,        // 11 -> 10 (white)
                Color::White => key ^ (walls << 1), // 11 -> 01 (black)
            };
        }
        // Nothing beyond the first blocking cell on either side can touch a five
        // through the centre: read it all as wall.
        let opp = stone_code(self.fr.color.opponent());
        for side in [-1i32, 1] {
            let mut blocked = false;
            for n in 1..=HALF as i32 {
                let sh = shift(side * n);
                let c = (key >> sh) & 3;
                if blocked {
                    key |= WALL << sh;
                } else if c == opp || c == WALL {
                    blocked = true;
                }
            }
        }
        key
    }

    fn classify(&mut self, key: u32) -> Pattern {
        let key = self.canonical(key);
        let m = self.memo[key as usize];
        if m != UNKNOWN {
            return Pattern::ALL[m as usize];
        }
        let p = self.classify_uncached(key);
        self.memo[key as usize] = p as u8;
        p
    }

    fn classify_uncached(&mut self, key: u32) -> Pattern {
        let own = stone_code(self.fr.color);
        let mut w = decode(key);
        w[HALF] = own;
        match run_kind(&w, self.fr) {
            RunKind::Five => return Pattern::Five,
            RunKind::Overline => return Pattern::Overline,
            RunKind::Short => {}
        }
        // Completions: empty cells that make a five through the centre.
        let mut completions = [0usize; 2 * HALF + 1];
        let mut n = 0;
        for i in 0..w.len() {
            if w[i] == EMPTY {
                w[i] = own;
                if run_kind(&w, self.fr) == RunKind::Five {
                    completions[n] = i;
                    n += 1;
                }
                w[i] = EMPTY;
            }
        }
        if n >= 2 {
            // One straight four (both completions touch one run of four) or two fours.
            let (a, b) = (completions[0], completions[n - 1]);
            let straight = n == 2 && b - a == self.fr.k && (a + 1..b).all(|i| w[i] == own);
            return if straight {
                Pattern::Flex4
            } else {
                Pattern::DoubleFour
            };
        }
        if n == 1 {
            return Pattern::Block4;
        }
        // Below a four: the best this line can become with one more stone.
        let renju_black = self.fr.rule == Rule::Renju && self.fr.color == Color::Black;
        let mut best = Pattern::Dead;
        let mut flex3_ways = 0;
        for i in 0..w.len() {
            if w[i] != EMPTY {
                continue;
            }
            let mut child = w;
            child[i] = own;
            child[HALF] = EMPTY;
            let p = self.classify(encode(&child));
            let up = match p {
                Pattern::Flex4 => Pattern::Flex3,
                Pattern::DoubleFour if !renju_black => Pattern::Flex3,
                Pattern::Block4 | Pattern::DoubleFour => Pattern::Block3,
                Pattern::Flex3 => {
                    flex3_ways += 1;
                    Pattern::Flex2
                }
                Pattern::Block3 => Pattern::Block2,
                Pattern::Flex2 | Pattern::Flex2A => Pattern::Flex1,
                Pattern::Block2 => Pattern::Block1,
                _ => Pattern::Dead,
            };
            best = best.max(up);
        }
        if best == Pattern::Flex2 && flex3_ways >= 3 {
            best = Pattern::Flex2A;
        }
        best
    }
}

/// Number of ternary line keys (`3^(2*HALF)`): each neighbour is empty (0), own (1) or
/// blocked (2: opponent or wall), from one colour's point of view.
pub const TERNARY_KEYS: usize = 59_049;

/// Place values of the ternary key, by neighbour index (as [`shift`]` / 2`).
pub const POW3: [u32; 2 * HALF] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683];

/// The ternary digit of a cell code for `color`.
#[inline]
#[must_use]
pub const fn ternary_digit(code: u32, color: Color) -> u32 {
    if code == EMPTY {
        0
    } else if code == stone_code(color) {
        1
    } else {
        2
    }
}

/// The patterns of every line key for both colours, for one rule and k.
///
/// Rules where walls and opponent stones block alike (all but caro) use small ternary
/// tables (59,049 entries a colour: quick to build, and they stay in cache); caro,
/// where only opponent stones block a five, uses the full two-bit key (2^20 entries).
#[derive(Debug)]
pub struct PatternTable {
    /// Caro: `full[key]` = the patterns for Black and White.
    full: Option<Vec<[Pattern; 2]>>,
    /// Other rules: `ternary[color][ternary key]`.
    ternary: Option<[Vec<Pattern>; 2]>,
}

impl PatternTable {
    fn build(rule: Rule, k: u8) -> PatternTable {
        let classifier = |color: Color| {
            Classifier::new(FiveRule {
                rule,
                k: usize::from(k),
                color,
            })
        };
        let (mut b, mut w) = (classifier(Color::Black), classifier(Color::White));
        if rule == Rule::Caro {
            return PatternTable {
                full: Some(
                    (0..KEYS as u32)
                        .map(|key| [b.classify(key), w.classify(key)])
                        .collect(),
                ),
                ternary: None,
            };
        }
        let make = |c: &mut Classifier, color: Color| -> Vec<Pattern> {
            let own = stone_code(color);
            let opp = stone_code(color.opponent());
            (0..TERNARY_KEYS as u32)
                .map(|t| {
                    let mut key = 0;
                    let mut rest = t;
                    for i in 0..2 * HALF as u32 {
                        let code = match rest % 3 {
                            0 => EMPTY,
                            1 => own,
                            _ => opp,
                        };
                        key |= code << (2 * i);
                        rest /= 3;
                    }
                    c.classify(key)
                })
                .collect()
        };
        let tb = make(&mut b, Color::Black);
        let tw = make(&mut w, Color::White);
        PatternTable {
            full: None,
            ternary: Some([tb, tw]),
        }
    }

    /// Whether this table is read by ternary keys (every rule but caro).
    #[must_use]
    pub fn is_ternary(&self) -> bool {
        self.ternary.is_some()
    }

    /// The pattern of `color` by its ternary key (ternary tables only).
    #[inline]
    #[must_use]
    pub fn by_ternary(&self, color: Color, tkey: u32) -> Pattern {
        match &self.ternary {
            Some(t) => t[color.index()][tkey as usize],
            None => Pattern::Dead,
        }
    }

    /// The ternary tables, Black's then White's (`None` for caro's full table), for
    /// loops that look up many keys ([`PatternTable::by_ternary`] checks which table
    /// this is at every call).
    #[inline]
    #[must_use]
    pub fn ternary_tables(&self) -> Option<&[Vec<Pattern>; 2]> {
        self.ternary.as_ref()
    }

    /// The ternary key of a two-bit line key for `color`.
    #[must_use]
    pub fn ternary_key(key: u32, color: Color) -> u32 {
        (0..2 * HALF as u32)
            .map(|i| ternary_digit((key >> (2 * i)) & 3, color) * POW3[i as usize])
            .sum()
    }

    /// The shared table for `rule` and `k` (built on first use).
    #[must_use]
    pub fn get(rule: Rule, k: u8) -> &'static PatternTable {
        static TABLES: [[OnceLock<PatternTable>; 4]; 4] =
            [const { [const { OnceLock::new() }; 4] }; 4];
        let r = match rule {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 2,
            Rule::Caro => 3,
        };
        let k = k.clamp(4, 7);
        TABLES[r][usize::from(k - 4)].get_or_init(|| PatternTable::build(rule, k))
    }

    /// Builds the tables of the usual rules (k = 5) on a background thread, so the
    /// first search does not wait for them. (Not on wasm32, which has no threads: the
    /// tables are built at first use.)
    pub fn prewarm() {
        #[cfg(not(target_arch = "wasm32"))]
        {
            static STARTED: OnceLock<()> = OnceLock::new();
            STARTED.get_or_init(|| {
                std::thread::spawn(|| {
                    for rule in [Rule::Freestyle, Rule::Renju, Rule::Standard] {
                        let _ = PatternTable::get(rule, 5);
                    }
                });
            });
        }
    }

    /// The pattern a `color` stone makes on the line with key `key`.
    #[inline]
    #[must_use]
    pub fn pattern(&self, color: Color, key: u32) -> Pattern {
        match &self.full {
            Some(t) => t[key as usize][color.index()],
            None => self.by_ternary(color, Self::ternary_key(key, color)),
        }
    }

    /// The patterns of both colours (Black first) on the line with two-bit key `key`.
    #[inline]
    #[must_use]
    pub fn patterns(&self, key: u32) -> [Pattern; 2] {
        match &self.full {
            Some(t) => t[key as usize],
            None => [
                self.pattern(Color::Black, key),
                self.pattern(Color::White, key),
            ],
        }
    }
}

/// The pattern of the centre of a written line (see [`line_key`]).
#[must_use]
pub fn classify(rule: Rule, k: u8, color: Color, key: u32) -> Pattern {
    PatternTable::get(rule, k).pattern(color, key)
}

/// The line key of cell `i` of a line given as codes; cells beyond the ends are walls.
#[must_use]
pub fn line_key(line: &[u32], i: usize) -> u32 {
    let mut key = 0;
    for o in -(HALF as i32)..=HALF as i32 {
        if o == 0 {
            continue;
        }
        let j = i as i32 + o;
        let c = if j < 0 || j >= line.len() as i32 {
            WALL
        } else {
            line[j as usize]
        };
        key |= c << shift(o);
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(s: &str, own: char) -> Vec<u32> {
        s.chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| match c {
                '.' | '_' | '*' => EMPTY,
                '#' => WALL,
                c if c == own => BLACK,
                _ => WHITE,
            })
            .collect()
    }

    /// The pattern Black gets at `*` on a written line (`X` black, `O` white).
    fn pat(rule: Rule, s: &str) -> Pattern {
        let l = line(s, 'X');
        let i = s
            .chars()
            .filter(|c| !c.is_whitespace())
            .position(|c| c == '*')
            .unwrap();
        classify(rule, 5, Color::Black, line_key(&l, i))
    }

    #[test]
    fn shapes() {
        use Pattern::*;
        let f = Rule::Freestyle;
        assert_eq!(pat(f, "..XX*XX.."), Five);
        assert_eq!(pat(f, ".XXX*XX.."), Five);
        assert_eq!(pat(Rule::Standard, ".XXX*XX.."), Overline);
        assert_eq!(pat(Rule::Renju, ".XXX*XX.."), Overline);
        assert_eq!(pat(f, "...XXX*..."), Flex4);
        assert_eq!(pat(f, "..OXXX*..."), Block4);
        assert_eq!(pat(f, "..X.X*X.X.."), DoubleFour);
        assert_eq!(pat(f, "....XX*...."), Flex3);
        assert_eq!(pat(f, "...OXX*...."), Block3);
        assert_eq!(pat(f, "....X.*...."), Flex2A);
        assert_eq!(pat(f, "...OX*....."), Block2);
        assert_eq!(pat(f, ".....*....."), Flex1);
        assert_eq!(pat(f, "OX*XO......"), Dead);
        // The edge bounds a line like an opponent stone.
        assert_eq!(pat(f, "XXX*."), Block4);
        // Renju: a straight four whose completion would be an overline is a mere four.
        assert_eq!(pat(Rule::Renju, "X.XXX*.."), Block4);
        assert_eq!(pat(f, "X.XXX*.."), Flex4);
    }

    #[test]
    fn caro_edge_is_no_block() {
        // O X X X X * | : the edge does not block a caro five; O . X X X X * O: the
        // five after the completion would be blocked at both ends.
        assert_eq!(pat(Rule::Caro, "..OXXXX*"), Pattern::Five);
        assert_ne!(pat(Rule::Caro, "..OXXXX*O"), Pattern::Five);
        assert_eq!(pat(Rule::Standard, "..OXXXX*O"), Pattern::Five);
    }

    /// mintaka's one-line pattern tests (testdata/renju_line_patterns_mintaka.jsonl):
    /// open three, fours and fives must be exactly the marked cells.
    #[test]
    fn mintaka_line_patterns() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../testdata/renju_line_patterns_mintaka.jsonl"
        );
        let text = std::fs::read_to_string(path).unwrap();
        let mut checked = 0;
        for rec in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(rec).unwrap();
            let spec = v["color_spec"].as_str().unwrap();
            let written: Vec<char> = v["line"]
                .as_str()
                .unwrap()
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            // (colour to test, whether to swap X and O first)
            let cases: Vec<(Color, bool)> = if spec.starts_with("both") {
                vec![(Color::White, false), (Color::Black, true)]
            } else if spec.starts_with("black") {
                vec![(Color::Black, false)]
            } else {
                vec![(Color::White, false)]
            };
            for (color, swap) in cases {
                let codes: Vec<u32> = written
                    .iter()
                    .map(|&c| match (c, swap) {
                        ('X', false) | ('O', true) => BLACK,
                        ('O', false) | ('X', true) => WHITE,
                        _ => EMPTY,
                    })
                    .collect();
                let expect = v["expect"].as_object().unwrap();
                let marked = |kind: &str, i: usize| {
                    expect.get(kind).map(|m| {
                        m.as_str()
                            .unwrap()
                            .chars()
                            .filter(|c| !c.is_whitespace())
                            .nth(i)
                            == Some('V')
                    })
                };
                for i in 0..codes.len() {
                    if codes[i] != EMPTY {
                        continue;
                    }
                    let got = classify(Rule::Renju, 5, color, line_key(&codes, i));
                    let ctx = || {
                        format!(
                            "{color} at {i} of {:?} (swap {swap}): got {got:?}",
                            v["line"]
                        )
                    };
                    // five, open four and open three are exact; mintaka's closed-four
                    // kinds overlap, so together they must be exactly our fours.
                    for (kind, want) in [
                        ("five", Pattern::Five),
                        ("open_four", Pattern::Flex4),
                        ("open_three", Pattern::Flex3),
                    ] {
                        if let Some(m) = marked(kind, i) {
                            assert_eq!(got == want, m, "{kind}: {}", ctx());
                            checked += 1;
                        }
                    }
                    let fours: Vec<bool> =
                        ["closed_four_single", "closed_four_double", "open_four"]
                            .iter()
                            .filter_map(|k| marked(k, i))
                            .collect();
                    if expect.contains_key("closed_four_single")
                        || expect.contains_key("closed_four_double")
                    {
                        let is_four =
                            matches!(got, Pattern::Block4 | Pattern::Flex4 | Pattern::DoubleFour);
                        assert_eq!(is_four, fours.contains(&true), "fours: {}", ctx());
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 200, "{checked}");
    }
}
