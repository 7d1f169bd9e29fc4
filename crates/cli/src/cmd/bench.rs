//! `wuzi bench`: the engine's benchmark (fixed positions, fixed depth); prints nodes per
//! position, the node total (a signature of the search) and nodes per second.

use wuzi_engine::bench;
use wuzi_engine::engine::MAX_DEPTH;
use wuzi_rules::{Color, notation};

use super::progress::Progress;
use super::{CliError, hash_mb, positive};

const EXAMPLES: &str = "\
Examples:
  wuzi bench
  wuzi bench --depth 10 --threads 2

The positions are Rapfi's benchmark set (freestyle 15 and 20, standard, renju). They and the
best moves are written in renju notation, as everywhere in wuzi: column letter from `a` on
the left, row 1 at the bottom (Rapfi's own files count rows from the top). The node total
is deterministic with one thread (a signature: a change means the search changed); with
more threads it varies from run to run. Progress goes to stderr: a bar with the time left on
a terminal, a line per position otherwise (--quiet: none).";

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
    /// No progress output on stderr.
    #[arg(long, short)]
    quiet: bool,
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
    let total = bench::positions().len();
    let progress = Progress::new(total as u64, "positions", false, args.quiet);
    let mut done = 0;
    let report = bench::run_with(args.depth, args.threads, args.hash, |line| {
        done += 1;
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
        progress.suspend(|| {
            say!(
                "{done:2} {:9} {:2} {:40} {to_move} best {:4} nodes {:>10} time {:>8.1} ms",
                line.position.rule.name(),
                size.width(),
                notation::format_moves(pos.moves(), size, ""),
                best,
                line.nodes,
                line.time.as_secs_f64() * 1000.0
            );
        });
        let summary = format!(
            "{} {}, {} nodes",
            line.position.rule.name(),
            size.width(),
            line.nodes
        );
        progress.step(
            done as u64,
            &format!("bench {done}/{total}: {summary}"),
            &summary,
        );
    });
    progress.finish();
    say!("total nodes {}", report.nodes);
    say!("total time {:.0} ms", report.time.as_secs_f64() * 1000.0);
    say!("nodes/s {}", report.nps());
    Ok(())
}
