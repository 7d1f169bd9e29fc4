//! # wuzi-rules
//!
//! The rules of Gomoku and Renju (五子棋 / 連珠): board geometry, win detection under
//! freestyle, standard, renju and caro, exact renju forbidden moves, the rock and ocean
//! themes, game state with undo/redo, Zobrist hashing, symmetries and move notation.
//! No I/O: front ends build on this.
//!
//! ```
//! use wuzi_rules::{Game, GameConfig, Rule, Size, notation};
//!
//! let size = Size::STANDARD;
//! let config = GameConfig::new(Rule::Renju, size);
//! let moves = notation::parse_moves("h8 h9 i8 i9 j8 j9 k8 k9 l8", size).unwrap();
//! let game = Game::from_moves(config, &moves).unwrap();
//! assert_eq!(game.result().unwrap().describe(size), "black wins: 5 in a row h8-l8");
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod board;
pub mod color;
pub mod forbidden;
pub mod game;
pub mod notation;
pub mod opening;
pub mod pos;
pub mod random;
pub mod record;
pub mod rule;
pub mod symmetry;
pub mod variant;
pub mod zobrist;

pub use board::{Board, Cell};
pub use color::Color;
pub use forbidden::{ForbiddenKind, forbidden_kind, forbidden_points};
pub use game::{EndReason, Game, GameConfig, GameResult, IllegalMove, Move, SetupError};
pub use pos::{Pos, Size};
pub use rule::Rule;
pub use symmetry::Symmetry;
pub use variant::Variant;
