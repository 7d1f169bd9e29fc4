//! # wuzi-engine
//!
//! The playing and analysis engine of wuzi: evaluation, search, threat-space search
//! (VCF / VCT), transposition table, time management and difficulty levels. It depends
//! on [`wuzi_rules`] only; front ends (the Gomocup brain, the server, the CLI) drive it
//! through [`Engine`], [`Position`], [`SearchLimits`] and [`PlayerKind`].
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use wuzi_engine::{Engine, EngineOptions, Position, SearchLimits};
//! use wuzi_rules::{Game, GameConfig, Rule, Size, notation};
//!
//! let config = GameConfig::new(Rule::Freestyle, Size::STANDARD);
//! let moves = notation::parse_moves("h8 a1 i8 a2 j8 a3 k8", Size::STANDARD).unwrap();
//! let game = Game::from_moves(config, &moves).unwrap();
//! let mut engine = Engine::new(EngineOptions::default());
//! let limits = SearchLimits { depth: Some(4), ..SearchLimits::default() };
//! let result = engine.search(&Position::from_game(&game), &limits, &AtomicBool::new(false), &mut |_| {});
//! // White must stop the open four at one end (g8 or l8); either way it is lost.
//! assert!(["g8", "l8"].contains(&Size::STANDARD.notation(result.best.unwrap()).to_string().as_str()));
//! ```
#![deny(missing_docs)]

pub mod bench;
pub mod board;
pub mod classic;
pub mod engine;
pub mod eval;
pub mod limits;
pub mod movegen;
pub mod params;
pub mod player;
pub mod position;
pub mod score;
pub mod search;
pub mod threads;
pub mod threat;
pub mod time;
pub mod tt;

pub use classic::ClassicAi;
pub use engine::{Engine, EngineOptions, SearchInfo, SearchResult};
pub use limits::{Clock, SearchLimits};
pub use player::{ParsePlayerError, PlayerKind};
pub use position::Position;
pub use score::Score;
pub use threat::{vcf, vct};
