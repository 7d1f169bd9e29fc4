//! The two sides.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A player's colour. Black is the side that is restricted under renju.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// The first player in a normal game; restricted by forbidden moves under renju.
    Black,
    /// The second player.
    White,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other colour.
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: an index for per-colour tables.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lowercase English name (`black`, `white`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// The one-character board symbol (`X` for Black, `O` for White).
    #[must_use]
    pub const fn symbol(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.opponent()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A string that names no colour.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown colour {0:?} (expected black/white, b/w or x/o)")]
pub struct ParseColorError(pub String);

impl FromStr for Color {
    type Err = ParseColorError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "black" | "b" | "x" => Ok(Color::Black),
            "white" | "w" | "o" => Ok(Color::White),
            _ => Err(ParseColorError(s.to_string())),
        }
    }
}
