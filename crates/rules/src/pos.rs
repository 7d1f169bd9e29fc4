//! Board geometry: sizes, points and the two coordinate systems.
//!
//! Internally a point is `(x, y)` in Gomocup orientation: 0-based, `x` the column from
//! the left and `y` the row from the **top**. People read renju notation: a column letter
//! from `a` on the left and a row number from `1` at the **bottom**, so on 15×15 the
//! centre `(7, 7)` is `h8` and the top-left corner `(0, 0)` is `a15`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The smallest board side wuzi accepts.
pub const MIN_SIDE: u8 = 5;
/// The largest board side wuzi accepts (26 columns, one letter each).
pub const MAX_SIDE: u8 = 26;
/// The largest number of cells a board can have.
pub const MAX_CELLS: usize = MAX_SIDE as usize * MAX_SIDE as usize;

/// The dimensions of a board, each in `5..=26`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "SizeRepr", into = "SizeRepr")]
pub struct Size {
    width: u8,
    height: u8,
}

#[derive(Serialize, Deserialize)]
struct SizeRepr {
    width: u8,
    height: u8,
}

impl TryFrom<SizeRepr> for Size {
    type Error = SizeError;
    fn try_from(r: SizeRepr) -> Result<Self, SizeError> {
        Size::new(r.width, r.height)
    }
}

impl From<Size> for SizeRepr {
    fn from(s: Size) -> Self {
        SizeRepr {
            width: s.width,
            height: s.height,
        }
    }
}

/// A board size outside `5..=26`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    /// A side is out of range.
    #[error(
        "board size {width}x{height} is out of range (each side must be {MIN_SIDE}..={MAX_SIDE})"
    )]
    OutOfRange {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
    },
    /// The text is not a size.
    #[error("cannot read a board size from {0:?} (expected N or WxH, e.g. 15 or 20x15)")]
    Syntax(String),
}

impl Size {
    /// The 15×15 board of renju and most gomoku.
    pub const STANDARD: Size = Size {
        width: 15,
        height: 15,
    };

    /// A checked size.
    pub fn new(width: u8, height: u8) -> Result<Size, SizeError> {
        Self::from_u32(u32::from(width), u32::from(height))
    }

    /// A checked size from wider integers (protocol input).
    pub fn from_u32(width: u32, height: u32) -> Result<Size, SizeError> {
        let ok = |v: u32| (u32::from(MIN_SIDE)..=u32::from(MAX_SIDE)).contains(&v);
        if ok(width) && ok(height) {
            Ok(Size {
                width: width as u8,
                height: height as u8,
            })
        } else {
            Err(SizeError::OutOfRange { width, height })
        }
    }

    /// A checked square size.
    pub fn square(side: u8) -> Result<Size, SizeError> {
        Self::new(side, side)
    }

    /// Number of columns.
    #[must_use]
    pub const fn width(self) -> u8 {
        self.width
    }

    /// Number of rows.
    #[must_use]
    pub const fn height(self) -> u8 {
        self.height
    }

    /// Number of cells.
    #[must_use]
    pub const fn cells(self) -> usize {
        self.width as usize * self.height as usize
    }

    /// Whether the board is square.
    #[must_use]
    pub const fn is_square(self) -> bool {
        self.width == self.height
    }

    /// The centre point (`size/2` in both coordinates, as the Gomocup openings use).
    #[must_use]
    pub const fn center(self) -> Pos {
        Pos {
            x: self.width / 2,
            y: self.height / 2,
        }
    }

    /// Whether `(x, y)` lies on the board.
    #[must_use]
    pub fn contains_xy(self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < i32::from(self.width) && y < i32::from(self.height)
    }

    /// Whether `pos` lies on the board.
    #[must_use]
    pub const fn contains(self, pos: Pos) -> bool {
        pos.x < self.width && pos.y < self.height
    }

    /// A checked point from Gomocup coordinates.
    pub fn pos(self, x: i32, y: i32) -> Result<Pos, PosError> {
        if self.contains_xy(x, y) {
            Ok(Pos {
                x: x as u8,
                y: y as u8,
            })
        } else {
            Err(PosError::OffBoard {
                x: i64::from(x),
                y: i64::from(y),
                size: self,
            })
        }
    }

    /// The point at a cell index (row-major from the top-left).
    #[must_use]
    pub fn pos_at(self, index: usize) -> Pos {
        debug_assert!(index < self.cells());
        Pos {
            x: (index % self.width as usize) as u8,
            y: (index / self.width as usize) as u8,
        }
    }

    /// The cell index of `pos` (row-major from the top-left).
    #[must_use]
    pub const fn index(self, pos: Pos) -> usize {
        pos.y as usize * self.width as usize + pos.x as usize
    }

    /// Every point, row by row from the top-left.
    pub fn points(self) -> impl Iterator<Item = Pos> {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Pos { x, y }))
    }

    /// Parses a point in renju notation (`h8`, `A15`).
    pub fn parse_pos(self, s: &str) -> Result<Pos, PosError> {
        let t = s.trim();
        let mut chars = t.chars();
        let letter = chars
            .next()
            .ok_or_else(|| PosError::Syntax(s.to_string()))?;
        if !letter.is_ascii_alphabetic() {
            return Err(PosError::Syntax(s.to_string()));
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(PosError::Syntax(s.to_string()));
        }
        let col = i64::from(letter.to_ascii_lowercase() as u8 - b'a');
        let row: i64 = digits
            .parse()
            .map_err(|_| PosError::Syntax(s.to_string()))?;
        if col >= i64::from(self.width) || row < 1 || row > i64::from(self.height) {
            return Err(PosError::NotOnBoard {
                point: t.to_string(),
                size: self,
            });
        }
        let y = i64::from(self.height) - row;
        Ok(Pos {
            x: col as u8,
            y: y as u8,
        })
    }

    /// Formats a point in renju notation (`h8`).
    #[must_use]
    pub fn notation(self, pos: Pos) -> Notation {
        Notation {
            pos,
            height: self.height,
        }
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl FromStr for Size {
    type Err = SizeError;
    /// `15` or `20x15` (width × height).
    fn from_str(s: &str) -> Result<Self, SizeError> {
        let t = s.trim();
        let num = |p: &str| {
            p.trim()
                .parse::<u32>()
                .map_err(|_| SizeError::Syntax(s.to_string()))
        };
        match t.split_once(['x', 'X', '*', ',']) {
            Some((w, h)) => Size::from_u32(num(w)?, num(h)?),
            None => {
                let n = num(t)?;
                Size::from_u32(n, n)
            }
        }
    }
}

/// A point on a board, in Gomocup coordinates (`y` from the top).
///
/// A `Pos` does not know its board; use [`Size::parse_pos`] and [`Size::notation`]
/// to read and write renju notation, which depends on the board's height.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pos {
    /// Column from the left, 0-based.
    pub x: u8,
    /// Row from the top, 0-based.
    pub y: u8,
}

impl Pos {
    /// A point from coordinates the caller knows to be on the board.
    #[must_use]
    pub const fn new_unchecked(x: u8, y: u8) -> Pos {
        Pos { x, y }
    }

    /// The point `(x + dx, y + dy)` if it is on the board.
    #[must_use]
    pub fn offset(self, dx: i32, dy: i32, size: Size) -> Option<Pos> {
        let (x, y) = (i32::from(self.x) + dx, i32::from(self.y) + dy);
        size.contains_xy(x, y).then_some(Pos {
            x: x as u8,
            y: y as u8,
        })
    }

    /// Chebyshev distance (king moves).
    #[must_use]
    pub fn distance(self, other: Pos) -> u8 {
        self.x.abs_diff(other.x).max(self.y.abs_diff(other.y))
    }
}

/// A point bound to its board height, displayed in renju notation.
#[derive(Clone, Copy, Debug)]
pub struct Notation {
    pos: Pos,
    height: u8,
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.pos.x) as char,
            u32::from(self.height) - u32::from(self.pos.y)
        )
    }
}

/// A point that cannot be read or is not on the board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PosError {
    /// Not of the form letter + row number.
    #[error("{0:?} is not a point (expected a column letter and a row number, like h8)")]
    Syntax(String),
    /// A point in renju notation outside the board.
    #[error("{point} is off the {size} board (columns a-{}, rows 1-{})", (b'a' + size.width() - 1) as char, size.height())]
    NotOnBoard {
        /// The point as written.
        point: String,
        /// The board.
        size: Size,
    },
    /// Coordinates outside the board.
    #[error("point ({x},{y}) is off the {size} board")]
    OffBoard {
        /// Column.
        x: i64,
        /// Row from the top.
        y: i64,
        /// The board.
        size: Size,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_of_15_is_h8() {
        let s = Size::STANDARD;
        assert_eq!(s.center(), Pos::new_unchecked(7, 7));
        assert_eq!(s.notation(s.center()).to_string(), "h8");
        assert_eq!(s.parse_pos("h8").unwrap(), s.center());
        assert_eq!(s.parse_pos("A15").unwrap(), Pos::new_unchecked(0, 0));
        assert_eq!(s.parse_pos("o1").unwrap(), Pos::new_unchecked(14, 14));
    }

    #[test]
    fn bad_points_are_errors() {
        let s = Size::STANDARD;
        for bad in ["", "h", "8", "h0", "h16", "p8", "h8x", "hh", "h-1", "h0008"] {
            assert!(s.parse_pos(bad).is_err(), "{bad:?} should not parse");
        }
        assert_eq!(
            s.parse_pos("z9").unwrap_err().to_string(),
            "z9 is off the 15x15 board (columns a-o, rows 1-15)"
        );
    }

    #[test]
    fn sizes() {
        assert_eq!("15".parse::<Size>().unwrap(), Size::STANDARD);
        assert_eq!("20x15".parse::<Size>().unwrap(), Size::new(20, 15).unwrap());
        assert!("4".parse::<Size>().is_err());
        assert!("27".parse::<Size>().is_err());
        assert!("axb".parse::<Size>().is_err());
        assert!(Size::new(26, 5).is_ok());
    }
}
