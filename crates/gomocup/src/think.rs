//! What the session asks of a search, and what it gets back.
//!
//! The session never runs a search itself: it hands a [`ThinkRequest`] to the I/O loop,
//! whose worker thread passes it to a [`Thinker`] (the wuzi engine) with a stop flag, and
//! the answer comes back as a [`Thought`].

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use wuzi_rules::{Board, Color, GameConfig, Pos};

/// Limits for one search. `time` counts from `issued`, so time spent waiting in queues
/// (or allocating the hash table) is charged to the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Hard time limit for the move.
    pub time: Option<Duration>,
    /// Depth limit (`INFO max_depth`).
    pub depth: Option<u32>,
    /// Node limit (`INFO max_node`).
    pub nodes: Option<u64>,
}

/// One search to run.
#[derive(Clone, Debug)]
pub struct ThinkRequest {
    /// Rule and board size (k = 5; walls are on the board).
    pub config: GameConfig,
    /// The position.
    pub board: Board,
    /// The side to move (the brain).
    pub to_move: Color,
    /// Limits.
    pub budget: Budget,
    /// Number of best lines wanted (1 for a normal move).
    pub multipv: usize,
    /// When the command that asked for this search arrived.
    pub issued: Instant,
}

impl ThinkRequest {
    /// The time left for the search at `now`, if it has a time limit.
    #[must_use]
    pub fn remaining(&self, now: Instant) -> Option<Duration> {
        self.budget
            .time
            .map(|t| t.saturating_sub(now.saturating_duration_since(self.issued)))
    }
}

/// A search score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// A heuristic evaluation (positive: good for the side to move).
    Value(i32),
    /// A forced win in this many plies.
    Win(u32),
    /// A forced loss in this many plies.
    Loss(u32),
}

impl std::fmt::Display for Eval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Eval::Value(v) => write!(f, "{v}"),
            Eval::Win(n) => write!(f, "+M{n}"),
            Eval::Loss(n) => write!(f, "-M{n}"),
        }
    }
}

/// A progress report while thinking.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Completed depth.
    pub depth: u32,
    /// Selective depth.
    pub seldepth: u32,
    /// Score of this line.
    pub eval: Eval,
    /// Nodes so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time so far.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Pos>,
    /// Which of the best lines this is (1-based).
    pub multipv: usize,
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The move to play, if any legal move exists.
    pub best: Option<Pos>,
    /// Its score.
    pub eval: Eval,
    /// The best lines (first move, score), best first; at least the best move when known.
    pub lines: Vec<(Pos, Eval)>,
    /// Depth reached.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// Engine options the protocol can set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineSettings {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
}

/// A search the worker thread can run.
pub trait Thinker: Send {
    /// Applies new options (may reallocate the hash table).
    fn configure(&mut self, settings: EngineSettings);
    /// Forgets everything learned in the previous game.
    fn new_game(&mut self);
    /// Searches until a limit is reached or `stop` is set, reporting progress.
    fn think(
        &mut self,
        request: &ThinkRequest,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> Thought;
}
