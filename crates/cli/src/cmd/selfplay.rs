//! `wuzi selfplay`: the engine plays itself and writes each game with the search's
//! scores (the record format of [`wuzi_engine::selfplay`]), for fitting the evaluation.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use wuzi_engine::selfplay::{self, Record};
use wuzi_engine::{Engine, EngineOptions, SearchLimits};
use wuzi_rules::{Color, Rule, Size};

use super::progress::Progress;
use super::{CliError, hash_mb, positive};

const EXAMPLES: &str = "\
Examples:
  wuzi selfplay --out data/free.txt --games 2000 --nodes 20000
  wuzi selfplay --out data/mixed.txt --rule freestyle,renju,standard --time-per-move 50

Each game starts from a random opening of 3 to 6 stones near the centre, made from the seed
and the game's number, and then every move is searched within the limit. Games go to the
output one a line as they finish (format: see the wuzi_engine::selfplay docs):
  RULE SIZE RESULT OPENING MOVE MOVE ...   e.g.  freestyle 15 b 4 h8 i9 g7 j9 h7:+21 ...
A searched move carries the search's score for its side (`+21`, `-8`, `w3` a win in 3
plies, `l2` a loss in 2). Run the same command again to resume: the games already in the
file are kept (a cut-off last line is dropped) and the run continues with the next game
number, so the file is the same as one uninterrupted run (at fixed nodes).";

/// Play the engine against itself and record the games for training.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// Output file (appended to; the games already in it count towards --games).
    #[arg(long, short)]
    out: PathBuf,
    /// Total games in the file when the run ends.
    #[arg(long, short, default_value_t = 100, value_parser = positive::<u64>)]
    games: u64,
    /// Rules, comma-separated; game n is played under rule n mod their number.
    #[arg(long, short, default_value = "freestyle", value_delimiter = ',')]
    rule: Vec<Rule>,
    /// Board size: N or WxH.
    #[arg(long, short, default_value = "15")]
    size: Size,
    /// Nodes a move (deterministic: the default, 20000, unless --time-per-move is given).
    #[arg(long, conflicts_with = "time_per_move", value_parser = positive::<u64>)]
    nodes: Option<u64>,
    /// Nodes a move for White alone (default: --nodes): data in which one side searches
    /// deeper, to show what a stronger defence makes of Black's positions.
    #[arg(long, conflicts_with = "time_per_move", value_parser = positive::<u64>)]
    white_nodes: Option<u64>,
    /// Milliseconds a move instead of a node budget.
    #[arg(long, value_parser = positive::<u64>)]
    time_per_move: Option<u64>,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Hash table, MiB (cleared before each game).
    #[arg(long, default_value_t = 16, value_parser = hash_mb())]
    hash: usize,
    /// No progress on stderr.
    #[arg(long, short)]
    quiet: bool,
}

/// The games already in `path`: the number of complete records, and the length of the
/// file up to the end of the last one (a line cut off by an interrupted run is not a
/// game and is dropped).
fn existing(path: &PathBuf) -> Result<(u64, u64), CliError> {
    let text = match std::fs::read(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((0, 0)),
        Err(e) => return Err(CliError::failure(format!("{}: {e}", path.display()))),
    };
    let complete = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let text = String::from_utf8_lossy(&text[..complete]);
    let mut games = 0;
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        line.parse::<Record>()
            .map_err(|e| CliError::input(format!("{}: line {}: {e}", path.display(), n + 1)))?;
        games += 1;
    }
    Ok((games, complete as u64))
}

/// Runs `wuzi selfplay`.
pub fn run(args: Args) -> Result<(), CliError> {
    let (done, keep) = existing(&args.out)?;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .map_err(|e| CliError::failure(format!("{}: {e}", args.out.display())))?;
    file.set_len(keep)
        .map_err(|e| CliError::failure(format!("{}: {e}", args.out.display())))?;
    let limits = match args.time_per_move {
        Some(ms) => SearchLimits::per_move(Duration::from_millis(ms)),
        None => SearchLimits {
            nodes: Some(args.nodes.unwrap_or(20_000)),
            ..SearchLimits::default()
        },
    };
    // --white-nodes conflicts with --time-per-move, so it only ever replaces a node budget.
    let white = SearchLimits {
        nodes: args.white_nodes.or(limits.nodes),
        ..limits.clone()
    };
    let budget = match (args.time_per_move, args.white_nodes) {
        (Some(ms), _) => format!("{ms} ms"),
        (None, None) => format!("{} nodes", limits.nodes.unwrap_or_default()),
        (None, Some(w)) => format!("{} nodes (White {w})", limits.nodes.unwrap_or_default()),
    };
    let limits = [limits, white];
    if done >= args.games {
        eprintln!(
            "{}: already {done} games (of {})",
            args.out.display(),
            args.games
        );
        return Ok(());
    }
    if done == 0 && keep == 0 {
        let rules: Vec<&str> = args.rule.iter().map(|r| r.name()).collect();
        writeln!(
            file,
            "# wuzi selfplay {} rule {} size {} {budget} a move seed {}",
            env!("CARGO_PKG_VERSION"),
            rules.join(","),
            args.size,
            args.seed
        )
        .map_err(|e| CliError::failure(format!("{}: {e}", args.out.display())))?;
    }
    let mut engine = Engine::new(EngineOptions {
        hash_mb: args.hash,
        threads: 1,
    });
    let progress = Progress::new(args.games - done, "games", false, args.quiet);
    let (mut black, mut white, mut draws, mut moves) = (0, 0, 0, 0);
    for index in done..args.games {
        let rule = args.rule[(index % args.rule.len() as u64) as usize];
        let seed = selfplay::game_seed(args.seed, index);
        let record = selfplay::play_game(&mut engine, rule, args.size, seed, &limits);
        writeln!(file, "{record}")
            .and_then(|()| file.flush())
            .map_err(|e| CliError::failure(format!("{}: {e}", args.out.display())))?;
        match record.winner {
            Some(Color::Black) => black += 1,
            Some(Color::White) => white += 1,
            None => draws += 1,
        }
        moves += record.moves.len();
        let status = format!("black {black} white {white} draws {draws}, {moves} moves");
        progress.step(
            index - done + 1,
            &format!(
                "game {}/{} ({rule}, {budget}): {} moves, {status}",
                index + 1,
                args.games,
                record.moves.len()
            ),
            &status,
        );
    }
    progress.finish();
    Ok(())
}
