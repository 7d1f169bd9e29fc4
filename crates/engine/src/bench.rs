//! The search benchmark: fixed positions searched to a fixed depth on one thread with
//! a cleared hash table, so the total node count is a signature of the search (a test
//! checks it) and nodes per second measure speed.
//!
//! The positions are Rapfi's benchmark set (testdata/bench_positions_rapfi.tsv):
//! position strings whose rows count from the **top** (`h8` = x 7, y 7; `b3` = x 1,
//! y 2).

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use wuzi_rules::{Game, GameConfig, Pos, Rule, Size};

use crate::instant::Instant;
use crate::{Engine, EngineOptions, Position, SearchLimits};

/// The benchmark file, embedded.
pub const POSITIONS_TSV: &str = include_str!("../../../testdata/bench_positions_rapfi.tsv");

/// Depth `wuzi bench` searches by default.
pub const DEFAULT_DEPTH: u32 = 8;

/// One benchmark position.
#[derive(Clone, Debug)]
pub struct BenchPosition {
    /// The rule.
    pub rule: Rule,
    /// The position string as written.
    pub moves: String,
    /// The position.
    pub position: Position,
}

/// A position string with rows counted from the top (`a1` = x 0, y 0).
fn parse_top_down(s: &str, size: Size) -> Result<Vec<Pos>, String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let col = b[i].to_ascii_lowercase();
        if !col.is_ascii_lowercase() {
            return Err(format!("bad column at {i} in {s:?}"));
        }
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let row: i32 = s[start..i]
            .parse()
            .map_err(|_| format!("bad row at {start} in {s:?}"))?;
        let p = size
            .pos(i32::from(col - b'a'), row - 1)
            .map_err(|e| e.to_string())?;
        out.push(p);
    }
    Ok(out)
}

/// The benchmark positions.
///
/// # Panics
/// If the embedded file is malformed (a test guards this).
#[must_use]
pub fn positions() -> Vec<BenchPosition> {
    POSITIONS_TSV
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("rule\t") && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let rule: Rule = f[0].parse().expect("rule");
            let size = Size::square(f[1].parse().expect("size")).expect("size");
            let moves = parse_top_down(f[3], size).expect("moves");
            let game = Game::from_moves(GameConfig::new(rule, size), &moves).expect("legal");
            BenchPosition {
                rule,
                moves: f[3].to_string(),
                position: Position::from_game(&game),
            }
        })
        .collect()
}

/// The result of one benchmark position.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// The position.
    pub position: BenchPosition,
    /// Best move found.
    pub best: Option<Pos>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

/// The whole benchmark's result.
#[derive(Clone, Debug)]
pub struct BenchReport {
    /// Per position.
    pub lines: Vec<BenchLine>,
    /// Sum of nodes (the signature, for one thread).
    pub nodes: u64,
    /// Total time.
    pub time: Duration,
}

impl BenchReport {
    /// Nodes per second over the whole run.
    #[must_use]
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-9)) as u64
    }
}

/// Searches every benchmark position to `depth` with `threads` threads and a fresh
/// `hash_mb` table.
#[must_use]
pub fn run(depth: u32, threads: usize, hash_mb: usize) -> BenchReport {
    run_with(depth, threads, hash_mb, |_| {})
}

/// As [`run`], calling `on_line` as each position is done (for progress reports).
#[must_use]
pub fn run_with(
    depth: u32,
    threads: usize,
    hash_mb: usize,
    mut on_line: impl FnMut(&BenchLine),
) -> BenchReport {
    let mut engine = Engine::new(EngineOptions { hash_mb, threads });
    let limits = SearchLimits::depth(depth);
    let stop = AtomicBool::new(false);
    let mut lines = Vec::new();
    for bp in positions() {
        // Build the rule's tables outside the timing.
        let _ = crate::eval::pattern::PatternTable::get(bp.rule, 5);
        engine.clear();
        let t = Instant::now();
        let r = engine.search(&bp.position, &limits, &stop, &mut |_| {});
        let line = BenchLine {
            position: bp,
            best: r.best,
            nodes: r.nodes,
            time: t.elapsed(),
        };
        on_line(&line);
        lines.push(line);
    }
    let nodes = lines.iter().map(|l| l.nodes).sum();
    let time = lines.iter().map(|l| l.time).sum();
    BenchReport { lines, nodes, time }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_parse_top_down() {
        let p = positions();
        assert_eq!(p.len(), 10);
        // "h8g7f6g8g9": g7 is x 6, y 6 (rows from the top).
        let first = &p[0].position;
        assert_eq!(first.moves()[1], Pos::new_unchecked(6, 6));
        assert_eq!(p[2].position.size(), Size::square(20).unwrap());
        assert!(parse_top_down("h8z", Size::STANDARD).is_err());
        assert!(parse_top_down("h99", Size::STANDARD).is_err());
    }
}
