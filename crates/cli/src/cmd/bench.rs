//! `wuzi bench`: fixed positions searched to a fixed depth; prints nodes per position,
//! the node total (a signature of the search) and nodes per second.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use wuzi_engine::{Engine, EngineOptions, Position, SearchLimits};
use wuzi_rules::{Color, Game, GameConfig, Pos, Rule, Size};

use super::CliError;

/// Rapfi's benchmark positions (rule, size, depth, position string with rows top-down).
const POSITIONS: &str = include_str!("../../../../testdata/bench_positions_rapfi.tsv");

const EXAMPLES: &str = "\
Examples:
  wuzi bench
  wuzi bench --depth 8 --threads 2

The node total is deterministic with one thread (a signature: a change in it means the
search changed). With more threads it varies from run to run.";

/// Search the benchmark positions to a fixed depth.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// Search depth for every position.
    #[arg(long, short, default_value_t = 6)]
    depth: u32,
    /// Search threads.
    #[arg(long, short, default_value_t = 1)]
    threads: usize,
    /// Hash table, MiB (cleared before each position).
    #[arg(long, default_value_t = 16)]
    hash: usize,
}

/// One benchmark position.
#[derive(Clone, Debug)]
pub struct BenchPosition {
    /// The rule.
    pub rule: Rule,
    /// The board size.
    pub size: Size,
    /// The moves, Black first.
    pub moves: Vec<Pos>,
    /// The position string as written in the file.
    pub text: String,
}

/// Reads Rapfi-style position strings: column letter + row number, rows counted from the
/// top starting at 1, no separators.
fn rapfi_moves(text: &str, size: Size) -> Result<Vec<Pos>, String> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    while i < b.len() {
        let letter = b[i];
        if !letter.is_ascii_lowercase() {
            return Err(format!("bad column at {i} in {text:?}"));
        }
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let row: i32 = text[start..i]
            .parse()
            .map_err(|_| format!("bad row at {start} in {text:?}"))?;
        let p = size
            .pos(i32::from(letter - b'a'), row - 1)
            .map_err(|e| e.to_string())?;
        out.push(p);
    }
    Ok(out)
}

/// The built-in benchmark positions.
pub fn positions() -> Result<Vec<BenchPosition>, String> {
    let mut out = Vec::new();
    for line in POSITIONS.lines() {
        let cols: Vec<&str> = line.split('\t').collect();
        if line.starts_with('#') || cols.len() != 4 || cols[0] == "rule" {
            continue;
        }
        let rule: Rule = cols[0].parse().map_err(|e| format!("{e}"))?;
        let size: Size = cols[1].parse().map_err(|e| format!("{e}"))?;
        let moves = rapfi_moves(cols[3], size)?;
        out.push(BenchPosition {
            rule,
            size,
            moves,
            text: cols[3].to_string(),
        });
    }
    Ok(out)
}

/// Runs `wuzi bench`.
pub fn run(args: Args) -> Result<(), CliError> {
    if args.threads == 0 || args.depth == 0 {
        return Err(CliError::input("--depth and --threads must be at least 1"));
    }
    let positions = positions().map_err(CliError::failure)?;
    let mut engine = Engine::new(EngineOptions {
        hash_mb: args.hash,
        threads: args.threads,
    });
    let stop = AtomicBool::new(false);
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    println!(
        "bench: depth {}, {} thread(s), hash {} MiB",
        args.depth, args.threads, args.hash
    );
    for (i, bp) in positions.iter().enumerate() {
        let game = Game::from_moves(GameConfig::new(bp.rule, bp.size), &bp.moves)
            .map_err(|e| CliError::failure(format!("bench position {}: {e}", i + 1)))?;
        let pos = Position::from_game(&game);
        engine.clear();
        let started = Instant::now();
        let r = engine.search(&pos, &SearchLimits::depth(args.depth), &stop, &mut |_| {});
        let spent = started.elapsed();
        total_nodes += r.nodes;
        total_time += spent;
        let best = r
            .best
            .map_or("-".to_string(), |p| bp.size.notation(p).to_string());
        let to_move = if game.side_to_move() == Color::Black {
            "b"
        } else {
            "w"
        };
        println!(
            "{:2} {:9} {:2} {:40} {to_move} best {:4} nodes {:>10} time {:>7.1} ms",
            i + 1,
            bp.rule.name(),
            bp.size.width(),
            bp.text,
            best,
            r.nodes,
            spent.as_secs_f64() * 1000.0
        );
    }
    let secs = total_time.as_secs_f64();
    let nps = if secs > 0.0 {
        (total_nodes as f64 / secs) as u64
    } else {
        0
    };
    println!("total nodes {total_nodes}");
    println!("total time {:.0} ms", secs * 1000.0);
    println!("nodes/s {nps}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_positions_load() {
        let p = positions().unwrap();
        assert_eq!(p.len(), 10);
        // "h8" in Rapfi's top-down strings is (7, 7); "h2" is (7, 1).
        assert_eq!(p[0].moves[0], Pos::new_unchecked(7, 7));
        assert_eq!(p[1].moves[0], Pos::new_unchecked(7, 1));
        assert_eq!(p[2].size.width(), 20);
        assert!(rapfi_moves("h8z", Size::STANDARD).is_err());
        assert!(rapfi_moves("h99", Size::STANDARD).is_err());
    }
}
