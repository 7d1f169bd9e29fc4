//! Renju forbidden moves for Black, exactly per the RIF definitions.
//!
//! Definitions (for Black, with the new stone on the board; only rows through it count):
//! - **five**: exactly five in a row. A five beats every forbidden shape.
//! - **overline**: six or more in a row.
//! - **four**: four stones in a row to which one stone makes an exact five. A straight
//!   four `_XXXX_` is *one* four; `X_XXX_X` (one line) is *two*.
//! - **three**: three stones to which one stone `q` makes a straight four whose two
//!   completions are exact fives, where `q` makes no five and is itself not forbidden
//!   (judged with the first stone on the board). That last part is recursive.
//! - **double-four** / **double-three**: two or more fours / threes through the stone.
//!
//! Speed: a cheap count of nearby black stones rules out almost every point; only the
//! remaining candidates get the exact, recursive check. The board is scanned through an
//! 11-cell window (offsets −5..=5) per direction, with the edge read as a wall.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::board::DIRECTIONS;
use crate::{Board, Cell, Color, Pos};

/// Why a point is forbidden for Black under renju.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ForbiddenKind {
    /// Two or more threes at once (`33`).
    DoubleThree,
    /// Two or more fours at once (`44`), possibly on one line.
    DoubleFour,
    /// Six or more in a row (`6`).
    Overline,
}

impl ForbiddenKind {
    /// The short code used by `wuzi forbidden`: `33`, `44` or `6`.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            ForbiddenKind::DoubleThree => "33",
            ForbiddenKind::DoubleFour => "44",
            ForbiddenKind::Overline => "6",
        }
    }

    /// The English name (`double-three`, `double-four`, `overline`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ForbiddenKind::DoubleThree => "double-three",
            ForbiddenKind::DoubleFour => "double-four",
            ForbiddenKind::Overline => "overline",
        }
    }
}

impl fmt::Display for ForbiddenKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A string that names no forbidden kind.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown forbidden kind {0:?} (expected 33, 44, 6 or double-three, double-four, overline)")]
pub struct ParseForbiddenKindError(pub String);

impl FromStr for ForbiddenKind {
    type Err = ParseForbiddenKindError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "33" | "double-three" | "double_three" | "3-3" => Ok(ForbiddenKind::DoubleThree),
            "44" | "double-four" | "double_four" | "4-4" => Ok(ForbiddenKind::DoubleFour),
            "6" | "overline" | "long" => Ok(ForbiddenKind::Overline),
            _ => Err(ParseForbiddenKindError(s.to_string())),
        }
    }
}

/// Window half-width: offsets −5..=5 around the point.
const HALF: usize = 5;
const WIDTH: usize = 2 * HALF + 1;
type Window = [Cell; WIDTH];

/// The cells at offsets −5..=5 from `pos` (on the board) in `dir` (a unit step of
/// [`DIRECTIONS`]); off-board cells read as walls. The offsets that stay on the board
/// are worked out once, so the cells are read without a bounds test each.
fn window(board: &Board, pos: Pos, dir: (i32, i32)) -> Window {
    let mut w = [Cell::Wall; WIDTH];
    let width = i32::from(board.size().width());
    let height = i32::from(board.size().height());
    let (x, y) = (i32::from(pos.x), i32::from(pos.y));
    let (mut lo, mut hi) = (-(HALF as i32), HALF as i32);
    for (p, d, n) in [(x, dir.0, width), (y, dir.1, height)] {
        match d {
            1 => (lo, hi) = (lo.max(-p), hi.min(n - 1 - p)),
            -1 => (lo, hi) = (lo.max(p - (n - 1)), hi.min(p)),
            _ => {}
        }
    }
    let cells = board.cells();
    let (centre, step) = (y * width + x, dir.1 * width + dir.0);
    for o in lo..=hi {
        w[(o + HALF as i32) as usize] = cells[(centre + step * o) as usize];
    }
    w
}

/// The run of `want` containing index `i` of the window: `(start, end)` inclusive.
fn run(w: &Window, i: usize, want: Cell) -> (usize, usize) {
    run_with(w, i, want, i)
}

/// [`run`] with the cell at index `extra` read as `want` too (a stone about to be
/// placed there), without copying the window.
fn run_with(w: &Window, i: usize, want: Cell, extra: usize) -> (usize, usize) {
    let is = |k: usize| k == extra || w[k] == want;
    let mut s = i;
    while s > 0 && is(s - 1) {
        s -= 1;
    }
    let mut e = i;
    while e + 1 < WIDTH && is(e + 1) {
        e += 1;
    }
    (s, e)
}

/// Whether a run of `len` stones of `color` is a five under renju.
const fn is_five(color: Color, len: usize) -> bool {
    match color {
        Color::Black => len == 5,
        Color::White => len >= 5,
    }
}

/// The fours through the centre of `w` (the centre holds a `color` stone): each is
/// identified by its four stones as a bit mask, so `_XXXX_` counts once.
fn fours_in_window(w: &Window, color: Color) -> u32 {
    let me = Cell::stone(color);
    let mut masks = [0u16; 4];
    let mut n = 0usize;
    for o in 1..WIDTH - 1 {
        if o == HALF || w[o] != Cell::Empty {
            continue;
        }
        let (s, e) = run_with(w, o, me, o);
        if s <= HALF && HALF <= e && is_five(color, e - s + 1) && !(s == 0 || e == WIDTH - 1) {
            let mask = ((1u16 << (e + 1)) - (1u16 << s)) & !(1u16 << o);
            if !masks[..n].contains(&mask) && n < masks.len() {
                masks[n] = mask;
                n += 1;
            }
        }
    }
    n as u32
}

/// The empty window cells where a `color` stone turns the centre's row into a straight
/// four (`_XXXX_` whose two completions are fives). Returned as window indices.
fn straight_four_squares(w: &Window, color: Color) -> impl Iterator<Item = usize> + '_ {
    let me = Cell::stone(color);
    (1..WIDTH - 1).filter(move |&o| {
        if o == HALF || w[o] != Cell::Empty {
            return false;
        }
        // The row with a stone at `o`: the cells outside the run (read below) are `w`'s.
        let (s, e) = run_with(w, HALF, me, o);
        if e - s + 1 != 4 || !(s..=e).contains(&o) || s < 2 || e > WIDTH - 3 {
            return false;
        }
        let open = w[s - 1] == Cell::Empty && w[e + 1] == Cell::Empty;
        // Each completion must be a five: for Black nothing of ours may stand beyond it.
        let exact = color == Color::White || (w[s - 2] != me && w[e + 2] != me);
        open && exact
    })
}

/// The point at window index `i` around `pos` in `dir`.
fn at(pos: Pos, dir: (i32, i32), i: usize) -> Pos {
    let o = i as i32 - HALF as i32;
    Pos::new_unchecked(
        (i32::from(pos.x) + dir.0 * o) as u8,
        (i32::from(pos.y) + dir.1 * o) as u8,
    )
}

/// Whether `color` at `pos` (placed or not) makes a five in any direction.
fn makes_five(board: &Board, pos: Pos, color: Color) -> bool {
    DIRECTIONS.iter().any(|&d| {
        let (a, b) = board.run_through(pos, d, color);
        is_five(color, a + b + 1)
    })
}

/// Cheap necessary condition: a point can only be forbidden if two lines hold at least two
/// other black stones within distance 4, or one line holds four (single-line double-four,
/// overline).
fn is_candidate(board: &Board, pos: Pos) -> bool {
    let mut busy_lines = 0;
    for d in DIRECTIONS {
        let w = window(board, pos, d);
        let n = w[1..WIDTH - 1]
            .iter()
            .filter(|&&c| c == Cell::Black)
            .count();
        if n >= 4 {
            return true;
        }
        if n >= 2 {
            busy_lines += 1;
        }
    }
    busy_lines >= 2
}

/// The exact check with the black stone already placed at `pos` on `board`.
fn classify_placed(board: &mut Board, pos: Pos) -> Option<ForbiddenKind> {
    let mut overline = false;
    let mut windows = [[Cell::Empty; WIDTH]; 4];
    for (k, &d) in DIRECTIONS.iter().enumerate() {
        windows[k] = window(board, pos, d);
        let (s, e) = run(&windows[k], HALF, Cell::Black);
        let len = e - s + 1;
        if len == 5 && s != 0 && e != WIDTH - 1 {
            return None; // five first
        }
        overline |= len >= 6;
    }
    let fours: u32 = windows
        .iter()
        .map(|w| fours_in_window(w, Color::Black))
        .sum();
    if fours >= 2 {
        return Some(ForbiddenKind::DoubleFour);
    }
    if overline {
        return Some(ForbiddenKind::Overline);
    }
    let mut threes = 0;
    for (k, &d) in DIRECTIONS.iter().enumerate() {
        if is_true_three(board, pos, d, &windows[k]) {
            threes += 1;
            if threes >= 2 {
                return Some(ForbiddenKind::DoubleThree);
            }
        }
    }
    None
}

/// Whether the black row through `pos` (placed) in `dir` is a real three: some square
/// makes a straight four, makes no five, and is not itself forbidden.
fn is_true_three(board: &mut Board, pos: Pos, dir: (i32, i32), w: &Window) -> bool {
    let squares: Vec<usize> = straight_four_squares(w, Color::Black).collect();
    squares.into_iter().any(|i| {
        let q = at(pos, dir, i);
        !makes_five(board, q, Color::Black) && kind_at(board, q).is_none()
    })
}

/// The forbidden kind of the empty point `pos` on a scratch board (restored on return).
fn kind_at(board: &mut Board, pos: Pos) -> Option<ForbiddenKind> {
    if !is_candidate(board, pos) {
        return None;
    }
    board.set(pos, Cell::Black);
    let kind = classify_placed(board, pos);
    board.set(pos, Cell::Empty);
    kind
}

/// Whether Black may not play at `pos`, and why. `None` for legal points, occupied points
/// and points off the board. The stones already on the board are taken as they are (a
/// position that already holds a black five or overline is judged the same way).
#[must_use]
pub fn forbidden_kind(board: &Board, pos: Pos) -> Option<ForbiddenKind> {
    if !board.size().contains(pos) || !board.is_empty(pos) || !is_candidate(board, pos) {
        return None;
    }
    let mut scratch = board.clone();
    kind_at(&mut scratch, pos)
}

/// Every point forbidden for Black, in row-major order from the top-left.
#[must_use]
pub fn forbidden_points(board: &Board) -> Vec<(Pos, ForbiddenKind)> {
    let mut scratch = board.clone();
    board
        .size()
        .points()
        .filter(|&p| board.is_empty(p))
        .filter_map(|p| kind_at(&mut scratch, p).map(|k| (p, k)))
        .collect()
}

/// What one stone makes on one line, under renju (Black: exact five; White: five or more).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineShape {
    /// The stone completes a five on this line.
    pub five: bool,
    /// Number of distinct fours on this line through the stone (0, 1 or 2).
    pub fours: u32,
    /// The line holds a straight four `_XXXX_` through the stone.
    pub open_four: bool,
    /// The line is a real three through the stone (for Black: with the recursive check).
    pub three: bool,
}

/// What a `color` stone at the empty point `pos` makes in direction `dir` under renju.
#[must_use]
pub fn line_shape(board: &Board, pos: Pos, dir: (i32, i32), color: Color) -> LineShape {
    let mut b = board.clone();
    b.set(pos, Cell::stone(color));
    let w = window(&b, pos, dir);
    let me = Cell::stone(color);
    let (s, e) = run(&w, HALF, me);
    let len = e - s + 1;
    let five = is_five(color, len) && (color == Color::White || (s != 0 && e != WIDTH - 1));
    let fours = if five { 0 } else { fours_in_window(&w, color) };
    let open_four = !five
        && len == 4
        && s >= 2
        && e <= WIDTH - 3
        && w[s - 1] == Cell::Empty
        && w[e + 1] == Cell::Empty
        && (color == Color::White || (w[s - 2] != me && w[e + 2] != me));
    let three = !five
        && fours == 0
        && match color {
            Color::Black => is_true_three(&mut b, pos, dir, &w),
            Color::White => straight_four_squares(&w, color).next().is_some(),
        };
    LineShape {
        five,
        fours,
        open_four,
        three,
    }
}
