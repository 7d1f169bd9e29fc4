//! Who plays: an engine level (1 = beginner … 10 = full strength) or a classic AI.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

use crate::classic::ClassicAi;
use crate::{Engine, Position, Score, SearchInfo, SearchLimits, SearchResult};

/// A computer player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayerKind {
    /// The engine at a level from 1 (beginner) to 10 (full strength).
    Level(u8),
    /// One of the original designs' AIs.
    Classic(ClassicAi),
}

/// A player string that names no player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePlayerError(pub String);

impl fmt::Display for ParsePlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown player {:?} (expected level1..level10, classic-rank, classic-tuple or classic-greedy)",
            self.0
        )
    }
}

impl std::error::Error for ParsePlayerError {}

impl FromStr for PlayerKind {
    type Err = ParsePlayerError;
    /// `level5` (also `5`, `l5`), `classic-rank`, `classic-tuple`, `classic-greedy`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        let err = || ParsePlayerError(s.to_string());
        if t.starts_with("classic-") {
            return t
                .parse::<ClassicAi>()
                .map(PlayerKind::Classic)
                .map_err(|_| err());
        }
        let digits = t
            .strip_prefix("level")
            .or_else(|| t.strip_prefix('l'))
            .unwrap_or(&t);
        let n: u8 = digits.parse().map_err(|_| err())?;
        if (1..=10).contains(&n) {
            Ok(PlayerKind::Level(n))
        } else {
            Err(err())
        }
    }
}

impl fmt::Display for PlayerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerKind::Level(n) => write!(f, "level{n}"),
            PlayerKind::Classic(ai) => f.write_str(ai.name()),
        }
    }
}

impl PlayerKind {
    /// Full strength.
    pub const STRONGEST: PlayerKind = PlayerKind::Level(10);

    /// The player's move in `pos`. Levels below 10 cap the given limits with their own
    /// budget; classic AIs ignore the limits.
    pub fn choose(
        &self,
        engine: &mut Engine,
        pos: &Position,
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        match *self {
            PlayerKind::Classic(ai) => {
                let start = std::time::Instant::now();
                let best = ai.choose_move(pos.config(), pos.board(), pos.to_move());
                SearchResult {
                    best,
                    score: Score::Eval(0),
                    pv: best.into_iter().collect(),
                    depth: 0,
                    nodes: 0,
                    time: start.elapsed(),
                }
            }
            PlayerKind::Level(level) => {
                let level = level.clamp(1, 10);
                let mut l = limits.clone();
                if level < 10 {
                    let depth = u32::from(level).div_ceil(2);
                    l.depth = Some(l.depth.map_or(depth, |d| d.min(depth)));
                }
                engine.search(pos, &l, stop, on_info)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_roundtrip() {
        for p in (1..=10)
            .map(PlayerKind::Level)
            .chain(ClassicAi::ALL.map(PlayerKind::Classic))
        {
            assert_eq!(p.to_string().parse::<PlayerKind>().unwrap(), p);
        }
        assert_eq!("5".parse::<PlayerKind>().unwrap(), PlayerKind::Level(5));
        for bad in ["level0", "level11", "classic-", "classic-foo", "", "lvl"] {
            assert!(bad.parse::<PlayerKind>().is_err(), "{bad}");
        }
    }
}
