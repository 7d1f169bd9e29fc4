//! `wuzi bench`: the engine's benchmark (fixed positions, fixed depth); prints nodes per
//! position, the node total (a signature of the search) and nodes per second.

use wuzi_engine::bench;
use wuzi_engine::engine::MAX_DEPTH;
use wuzi_rules::{Color, notation};

use super::{CliError, hash_mb, positive};

const EXAMPLES: &str = "\
Examples:
  wuzi bench
  wuzi bench --depth 10 --threads 2

The positions are Rapfi's benchmark set (freestyle 15 and 20, standard, renju). They and the
best moves are written in renju notation, as everywhere in wuzi: column letter from `a` on
the left, row 1 at the bottom (Rapfi's own files count rows from the top). The node total
is deterministic with one thread (a signature: a change means the search changed); with
more threads it varies from run to run.";

/// Search the benchmark positions to a fixed depth.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// Search depth for every position (1..=60).
    #[arg(long, short, default_value_t = bench::DEFAULT_DEPTH, value_parser = positive::<u32>)]
    depth: u32,
    /// Search threads.
    #[arg(long, short, default_value_t = 1, value_parser = positive::<usize>)]
    threads: usize,
    /// Hash table, MiB (cleared before each position).
    #[arg(long, default_value_t = 16, value_parser = hash_mb())]
    hash: usize,
}

/// Runs `wuzi bench`.
pub fn run(args: Args) -> Result<(), CliError> {
    if args.depth > MAX_DEPTH {
        return Err(CliError::input(format!(
            "--depth {} is too deep: the search goes to depth {MAX_DEPTH} at most",
            args.depth
        )));
    }
    say!(
        "bench: depth {}, {} thread(s), hash {} MiB; points in renju notation (a1 bottom left)",
        args.depth,
        args.threads,
        args.hash
    );
    let report = bench::run(args.depth, args.threads, args.hash);
    for (i, line) in report.lines.iter().enumerate() {
        let pos = &line.position.position;
        let size = pos.size();
        let best = line
            .best
            .map_or("-".to_string(), |p| size.notation(p).to_string());
        let to_move = if pos.to_move() == Color::Black {
            "b"
        } else {
            "w"
        };
        say!(
            "{:2} {:9} {:2} {:40} {to_move} best {:4} nodes {:>10} time {:>8.1} ms",
            i + 1,
            line.position.rule.name(),
            size.width(),
            notation::format_moves(pos.moves(), size, ""),
            best,
            line.nodes,
            line.time.as_secs_f64() * 1000.0
        );
    }
    say!("total nodes {}", report.nodes);
    say!("total time {:.0} ms", report.time.as_secs_f64() * 1000.0);
    say!("nodes/s {}", report.nps());
    Ok(())
}
