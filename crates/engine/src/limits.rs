//! What a search may spend: depth, nodes, time per move or a match clock.

use std::time::Duration;

/// A match clock as the Gomocup manager reports it: time left for the game, the
/// increment added after each move, and optionally how many moves remain to the next
/// control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on our clock.
    pub remaining: Duration,
    /// Time added after each of our moves.
    pub increment: Duration,
    /// Moves until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// Limits of one search. Every limit that is set applies; the search stops at the first
/// one reached. With nothing set (the default) it runs until the stop flag is raised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    /// Hard time limit for this move.
    pub time: Option<Duration>,
    /// Match clock; the time manager budgets a share of it for this move.
    pub clock: Option<Clock>,
    /// Maximum nominal depth (plies of the main search).
    pub depth: Option<u32>,
    /// Maximum number of nodes. A search limited by nodes alone (no time, no clock)
    /// plays as a timed search does, with nodes in place of time: it keeps back a
    /// tenth of them ([`crate::time::FINAL_CHECK_PERCENT`]) for the final safety check
    /// of the move it is about to play. Single-threaded, it is deterministic, so
    /// fixed-node matches and tests see the same checks as timed play without
    /// depending on the machine's load. (With a time limit as well, as the weaker
    /// levels have, no nodes are kept back and no check follows a cut search.)
    pub nodes: Option<u64>,
    /// Number of best moves to report (N-best analysis); 0 counts as 1.
    pub multipv: usize,
}

impl Default for SearchLimits {
    fn default() -> Self {
        SearchLimits {
            time: None,
            clock: None,
            depth: None,
            nodes: None,
            multipv: 1,
        }
    }
}

impl SearchLimits {
    /// Limits of a fixed time per move.
    #[must_use]
    pub fn per_move(time: Duration) -> Self {
        SearchLimits {
            time: Some(time),
            ..SearchLimits::default()
        }
    }

    /// Limits of a fixed nominal depth.
    #[must_use]
    pub fn depth(depth: u32) -> Self {
        SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        }
    }

    /// Whether any limit other than the stop flag ends the search.
    #[must_use]
    pub fn is_infinite(&self) -> bool {
        self.time.is_none() && self.clock.is_none() && self.depth.is_none() && self.nodes.is_none()
    }
}
