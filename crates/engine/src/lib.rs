//! # wuzi-engine
//!
//! The playing and analysis engine of wuzi: evaluation, search, threat-space search
//! (VCF / VCT), transposition table, time management and difficulty levels. It depends
//! on [`wuzi_rules`] only; front ends (the Gomocup brain, the server, the CLI) drive it
//! through [`Engine`], [`Position`], [`SearchLimits`] and [`PlayerKind`].
//!
//! How it is built, one module per concern:
//! - [`eval::pattern`]: line patterns (five, straight four, four, open three, …) for
//!   every line key, generated at first use by a classifier written from the
//!   definitions; [`eval`] combines a point's four lines into a [`eval::Threat`]. The
//!   static evaluation sums a learned value per point and colour, by the combination
//!   of its four line patterns ([`eval::learned`], fitted by `examples/train.rs` to
//!   `wuzi selfplay` data); the hand-set values it started from are linear in per-point
//!   pattern and threat counts ([`eval::features`], `examples/tune.rs`).
//! - [`board`]: the search board keeps every empty point's patterns and threats for
//!   both colours incrementally, so threats are known in O(1) after a move; renju
//!   forbidden points come from the patterns, with the exact `wuzi_rules` check only for
//!   double-three candidates.
//! - [`movegen`]: candidates near the stones, restricted to defences and counter-fours
//!   when the opponent threatens to win.
//! - [`search`]: iterative deepening, PVS, aspiration windows, killers/history,
//!   late-move reductions and pruning, a quiescence search of fours at the leaves;
//!   [`threat`]: VCF/VCT proofs (a VCF at the root, and root safety: the opponent's
//!   VCT after each new best move, and a final check of the move to be played, in
//!   time kept back from the search); [`tt`]: the shared table; [`time`]: soft,
//!   search and hard deadlines;
//!   [`instant`]: the clock (std's natively, the embedder's on wasm32);
//!   [`threads`]: the Lazy SMP, and from three threads on a threat thread (one
//!   helper's VCT work); [`params`]: the tunables and their measured gains;
//!   [`bench`](mod@bench): the node signature.
//! - [`player`]: levels 1..=10 (see [`player::LEVELS`]) and the classic AIs.
//! - [`selfplay`]: games against itself with the search's scores (`wuzi selfplay`),
//!   the data `examples/train.rs` fits the evaluation to.
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
pub mod instant;
pub mod limits;
pub mod movegen;
pub mod params;
pub mod player;
pub mod position;
pub mod puzzle;
pub mod score;
pub mod search;
pub mod selfplay;
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
pub use tt::MAX_HASH_MB;
