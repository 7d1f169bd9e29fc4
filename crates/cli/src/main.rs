//! The `wuzi` command: one binary for every front end of wuzi.
//!
//! Each subcommand lives in its own module under `cmd/` with an `Args` struct (clap
//! derive) and a `run(Args) -> Result<(), CliError>` function. Adding a command means one
//! variant in [`Command`] and one arm in [`main`].
#![forbid(unsafe_code)]

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd;

/// Top-level help shown after the command list.
const EXAMPLES: &str = "\
Examples:
  wuzi                                  (same as `wuzi serve`: play in the browser at http://127.0.0.1:8080/)
  wuzi judge --rule renju h8 h9 i8 i9 j8 j9 k8 k9 l8
  wuzi forbidden g9a1h9c1i7e1i8g1b13j1c13l1d13n1f13o3g13   (prints `e13:6 i9:33`)
  wuzi convert game.psq game.sgf        (formats from the extensions)

Points are in renju notation: column letter from `a` on the left, row number from 1 at the
bottom (h8 is the centre of 15x15). Exit status: 0 ok, 1 failure, 2 bad usage or input.";

/// wuzi (五子): Gomoku and Renju — rules, records, engine and play.
#[derive(Debug, Parser)]
#[command(name = "wuzi", version, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// The subcommands. Keep one variant per module under `cmd/`.
#[derive(Debug, Subcommand)]
enum Command {
    Judge(cmd::judge::Args),
    Forbidden(cmd::forbidden::Args),
    Convert(cmd::convert::Args),
    Match(cmd::match_::Args),
    Openings(cmd::openings::Args),
    Analyze(cmd::analyze::Args),
    Bench(cmd::bench::Args),
    Selfplay(cmd::selfplay::Args),
    Serve(cmd::serve::Args),
    Db(cmd::db::Args),
    Puzzles(cmd::puzzles::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Judge(args)) => cmd::judge::run(args),
        Some(Command::Forbidden(args)) => cmd::forbidden::run(args),
        Some(Command::Convert(args)) => cmd::convert::run(args),
        Some(Command::Match(args)) => cmd::match_::run(args),
        Some(Command::Openings(args)) => cmd::openings::run(args),
        Some(Command::Analyze(args)) => cmd::analyze::run(args),
        Some(Command::Bench(args)) => cmd::bench::run(args),
        Some(Command::Selfplay(args)) => cmd::selfplay::run(args),
        Some(Command::Serve(args)) => cmd::serve::run(args),
        Some(Command::Db(args)) => cmd::db::run(args),
        Some(Command::Puzzles(args)) => cmd::puzzles::run(args),
        // No command: serve the web app, as `cargo run --release` promises.
        None => cmd::serve::Args::from_env().and_then(cmd::serve::run),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wuzi: {e}");
            e.exit_code()
        }
    }
}
