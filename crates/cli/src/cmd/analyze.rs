//! `wuzi analyze`: the engine's view of a position: best move, score, principal
//! variation and the N best moves; or the threat solver's winning line.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use wuzi_engine::engine::MAX_DEPTH;
use wuzi_engine::threat::{self, Solver};
use wuzi_engine::{Engine, EngineOptions, Position, Score, SearchInfo, SearchLimits};
use wuzi_rules::{Board, Cell, Color, Game, GameConfig, Pos, Rule, Size};

use super::{CliError, hash_mb, parse_move_args, positive};

const EXAMPLES: &str = "\
Examples:
  wuzi analyze --rule renju --time 2s h8 i9 j10
  wuzi analyze --depth 8 --multipv 3 h8h9i8i9
  wuzi analyze --rule renju --solve vcf h8 i9 i8 g8 j9 g10 j7 k6 h6 g5 k8 l9
  wuzi analyze --rule renju --solve vcf --board puzzle.txt --to-move black

Progress lines (depth, score, nodes, nodes/s, principal variation) go to stdout while the
engine thinks. Scores are for the side to move; `win in N` counts its own moves. When the
answer is newer than the last depth line (time cut the next depth short after a better
move turned up, or a safety check replaced the move), a `final` line shows it first.
--solve vcf|vct runs the threat solver alone and prints the winning line or `none`.";

/// Which threat solver to run. (The variants carry no doc comments: clap would list
/// them in a long help, laid out unlike every other command's.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Solve {
    // Victory by continuous fours.
    Vcf,
    // Victory by continuous threats (fours and open threes).
    Vct,
}

/// The longest `--time`: about 11.6 days.
const MAX_TIME_SECS: f64 = 1e6;

/// Analyse a position with the engine.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    #[arg(long, short, default_value = "freestyle", help = concat!("Rule: ", rule_names!()))]
    rule: Rule,
    /// Board size: N or WxH.
    #[arg(long, short, default_value = "15")]
    size: Size,
    /// Thinking time: `500ms`, `2s`, `1.5` (seconds). Default 2s unless --depth is given.
    #[arg(long, short, value_parser = parse_duration)]
    time: Option<Duration>,
    /// Search depth limit (1..=60; with --solve, the solver's depth in plies).
    #[arg(long, short, value_parser = positive::<u32>)]
    depth: Option<u32>,
    /// Number of best moves to report.
    #[arg(long, default_value_t = 1, value_parser = positive::<usize>)]
    multipv: usize,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = positive::<usize>)]
    threads: usize,
    /// Hash table, MiB.
    #[arg(long, default_value_t = 64, value_parser = hash_mb())]
    hash: usize,
    /// Run a threat solver instead of the search: vcf (continuous fours) or vct (fours and
    /// open threes).
    #[arg(long, value_enum)]
    solve: Option<Solve>,
    /// Read the position from a board diagram instead of moves: one row per line, top row
    /// first, `X` black, `O` white, `.` empty (`-` for stdin); the size comes from it.
    #[arg(long, conflicts_with = "moves")]
    board: Option<PathBuf>,
    /// Side to move with --board (default: Black if both have as many stones, else White).
    // Checked in `run`, not with `requires = "board"`: clap drops that requirement when
    // moves are given, since --board conflicts with them.
    #[arg(long)]
    to_move: Option<Color>,
    /// Moves in renju notation, Black first: `h8 i9 j10` or `h8i9j10`.
    moves: Vec<String>,
}

/// Reads `500ms`, `2s`, `1.5s` or a bare number of seconds, up to [`MAX_TIME_SECS`].
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    let (num, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else {
        (t, 1.0)
    };
    let secs = num
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|v| !v.is_nan())
        .map(|v| v * scale)
        .ok_or_else(|| format!("cannot read a duration from {s:?} (e.g. 500ms, 2s, 1.5)"))?;
    if secs <= 0.0 {
        return Err("a duration must be positive".to_string());
    }
    if secs > MAX_TIME_SECS {
        return Err(format!(
            "too long: at most {MAX_TIME_SECS}s (about {:.1} days)",
            MAX_TIME_SECS / 86_400.0
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}

fn line_text(size: Size, pv: &[Pos]) -> String {
    pv.iter()
        .map(|&p| size.notation(p).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A game set up from a diagram file (or stdin for `-`).
fn board_game(path: &Path, rule: Rule, to_move: Option<Color>) -> Result<Game, CliError> {
    let text = if path == Path::new("-") {
        std::io::read_to_string(std::io::stdin())
    } else {
        std::fs::read_to_string(path)
    }
    .map_err(|e| CliError::input(format!("cannot read board {}: {e}", path.display())))?;
    let rows: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let board = Board::from_rows(&rows).map_err(|e| CliError::input(e.to_string()))?;
    let count = |c: Cell| board.cells().iter().filter(|&&x| x == c).count();
    let to_move = to_move.unwrap_or(if count(Cell::Black) == count(Cell::White) {
        Color::Black
    } else {
        Color::White
    });
    Game::from_setup(GameConfig::new(rule, board.size()), &board, to_move)
        .map_err(|e| CliError::input(e.to_string()))
}

/// Replays a solver line on the game and says whether it ends in the attacker's win.
fn replay_check(game: &Game, line: &[Pos]) -> String {
    let attacker = game.side_to_move();
    let mut g = game.clone();
    for (i, &p) in line.iter().enumerate() {
        if let Err(e) = g.try_play(p) {
            return format!("move {} of the line is illegal: {e}", i + 1);
        }
        if g.is_over() && i + 1 < line.len() {
            return format!("the game ended early at move {} of the line", i + 1);
        }
    }
    match g.result() {
        Some(r) if r.winner == Some(attacker) => format!("replayed, {}", r.describe(g.size())),
        Some(r) => format!("replayed, but {}", r.describe(g.size())),
        None => "replayed, but the line does not end the game".to_string(),
    }
}

/// Runs `wuzi analyze`.
pub fn run(args: Args) -> Result<(), CliError> {
    let game = match &args.board {
        Some(path) => board_game(path, args.rule, args.to_move)?,
        None => {
            let config = GameConfig::new(args.rule, args.size);
            let moves = parse_move_args(&args.moves, args.size)?;
            Game::from_moves(config, &moves).map_err(|e| CliError::input(e.to_string()))?
        }
    };
    let size = game.size();
    if args.to_move.is_some() && args.board.is_none() {
        return Err(CliError::input(
            "--to-move needs --board: after moves, the side to move follows from them",
        ));
    }
    if let Some(depth) = args.depth
        && args.solve.is_none()
        && depth > MAX_DEPTH
    {
        return Err(CliError::input(format!(
            "--depth {depth} is too deep: the search goes to depth {MAX_DEPTH} at most"
        )));
    }
    if let Some(result) = game.result() {
        say!("the game is over: {}", result.describe(size));
        return Ok(());
    }
    let pos = Position::from_game(&game);
    let time = match (args.time, args.depth) {
        (None, None) => Some(Duration::from_secs(2)),
        (t, _) => t,
    };
    let limits = SearchLimits {
        time,
        depth: args.depth,
        multipv: args.multipv,
        ..SearchLimits::default()
    };
    let stones = game.board().stone_count();
    say!(
        "position: {} to move, {} {}, {stones} stone{}",
        game.side_to_move(),
        args.rule,
        size,
        if stones == 1 { "" } else { "s" }
    );
    if let Some(kind) = args.solve {
        let started = Instant::now();
        let stop = AtomicBool::new(false);
        let mut board = wuzi_engine::board::Board::new(&pos);
        let mut solver = Solver::new(&limits, &stop);
        let mut line = Vec::new();
        let found = match kind {
            Solve::Vcf => solver.vcf(
                &mut board,
                args.depth.unwrap_or(threat::VCF_DEFAULT_DEPTH),
                &mut line,
            ),
            Solve::Vct => solver.vct(
                &mut board,
                args.depth.unwrap_or(threat::VCT_DEFAULT_DEPTH),
                &mut line,
            ),
        };
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        let name = if kind == Solve::Vcf { "vcf" } else { "vct" };
        if found {
            let line: Vec<Pos> = line.into_iter().map(wuzi_engine::board::pos_of).collect();
            say!("{name}: {} ({} plies)", line_text(size, &line), line.len());
            say!("check: {}", replay_check(&game, &line));
        } else if solver.aborted() {
            say!("{name}: none found within the limits");
        } else {
            say!("{name}: none");
        }
        say!("time {ms:.1} ms, nodes {}", solver.nodes);
        return Ok(());
    }
    let mut engine = Engine::new(EngineOptions {
        hash_mb: args.hash,
        threads: args.threads,
    });
    // Make and write the table before the clock starts, so the search takes no page
    // faults on it (on two threads their faults would contend).
    engine.clear();
    let stop = AtomicBool::new(false);
    let mut best_lines: Vec<Option<SearchInfo>> = vec![None; args.multipv];
    // The pv of the last depth line printed for the best move.
    let mut last_pv: Option<Vec<Pos>> = None;
    let result = engine.search(&pos, &limits, &stop, &mut |info| {
        let multipv = if args.multipv > 1 {
            format!(" multipv {}", info.multipv)
        } else {
            String::new()
        };
        say!(
            "depth {}-{}{multipv} score {} nodes {} nps {} time {} ms pv {}",
            info.depth,
            info.seldepth,
            info.score,
            info.nodes,
            info.nps,
            info.time.as_millis(),
            line_text(size, &info.pv)
        );
        if info.multipv <= 1 {
            last_pv = Some(info.pv.clone());
        }
        if let Some(slot) = best_lines.get_mut(info.multipv.max(1) - 1) {
            *slot = Some(info.clone());
        }
    });
    let Some(best) = result.best else {
        say!("no legal move");
        return Ok(());
    };
    let secs = result.time.as_secs_f64();
    let nps = if secs > 0.0 {
        (result.nodes as f64 / secs) as u64
    } else {
        0
    };
    // The engine's answer can be newer than its last depth line: time cut the next
    // iteration short after a move beat the old best, a safety check replaced the move,
    // or a threat line settled it before any depth. Show that answer as a line too, so
    // the output ends on the line it reports.
    if last_pv.as_ref() != Some(&result.pv) {
        let why = if last_pv.is_some() {
            format!(
                "after depth {}: from a cut-short iteration or a safety check",
                result.depth
            )
        } else if matches!(result.score, Score::Win(_)) {
            "a winning threat line, found before the search".to_string()
        } else {
            "the only move: no search".to_string()
        };
        say!(
            "final score {} nodes {} nps {nps} time {} ms pv {} ({why})",
            result.score,
            result.nodes,
            result.time.as_millis(),
            line_text(size, &result.pv)
        );
    }
    say!("best move: {}", size.notation(best));
    say!(
        "score: {} (win probability {:.1}%)",
        result.score,
        100.0 * result.score.win_probability()
    );
    say!("pv: {}", line_text(size, &result.pv));
    say!(
        "depth {}, nodes {}, time {:.0} ms, {nps} nodes/s",
        result.depth,
        result.nodes,
        secs * 1000.0
    );
    if args.multipv > 1 {
        say!("best {} moves:", args.multipv);
        for (i, info) in best_lines.iter().flatten().enumerate() {
            if let Some(&first) = info.pv.first() {
                say!(
                    "  {}. {} {}  pv {}",
                    i + 1,
                    size.notation(first),
                    info.score,
                    line_text(size, &info.pv)
                );
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("1.5"), Ok(Duration::from_millis(1500)));
        for bad in ["", "0", "-1s", "abc", "1e12", "NaN"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse_duration("99999999999999999s"),
            Err("too long: at most 1000000s (about 11.6 days)".into())
        );
        assert_eq!(
            parse_duration("1000000s"),
            Ok(Duration::from_secs(1_000_000))
        );
        assert!(parse_duration("0ms").unwrap_err().contains("positive"));
    }
}
