//! `wuzi analyze`: the engine's view of a position: best move, score, principal
//! variation and the N best moves; or the threat solver's winning line.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use wuzi_engine::threat::{self, Solver};
use wuzi_engine::{Engine, EngineOptions, Position, SearchInfo, SearchLimits};
use wuzi_rules::{Board, Cell, Color, Game, GameConfig, Pos, Rule, Size};

use super::{CliError, hash_mb, parse_move_args};

const EXAMPLES: &str = "\
Examples:
  wuzi analyze --rule renju --time 2s h8 i9 j10
  wuzi analyze --depth 8 --multipv 3 h8h9i8i9
  wuzi analyze --rule renju --solve vcf h8 h9 i8 i9 j8 j9 k7 k9
  wuzi analyze --rule renju --solve vcf --board puzzle.txt --to-move black

Progress lines (depth, score, nodes, nodes/s, principal variation) go to stdout while the
engine thinks. Scores are for the side to move; `win in N` counts its own moves.
--solve vcf|vct runs the threat solver alone and prints the winning line or `none`.";

/// Which threat solver to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Solve {
    /// Victory by continuous fours.
    Vcf,
    /// Victory by continuous threats (fours and open threes).
    Vct,
}

/// Analyse a position with the engine.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// Rule: freestyle, standard, renju or caro.
    #[arg(long, short, default_value = "freestyle")]
    rule: Rule,
    /// Board size: N or WxH.
    #[arg(long, short, default_value = "15")]
    size: Size,
    /// Thinking time: `500ms`, `2s`, `1.5` (seconds). Default 2s unless --depth is given.
    #[arg(long, short, value_parser = parse_duration)]
    time: Option<Duration>,
    /// Search depth limit.
    #[arg(long, short)]
    depth: Option<u32>,
    /// Number of best moves to report.
    #[arg(long, default_value_t = 1)]
    multipv: usize,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hash table, MiB.
    #[arg(long, default_value_t = 64, value_parser = hash_mb())]
    hash: usize,
    /// Run a threat solver instead of the search.
    #[arg(long, value_enum)]
    solve: Option<Solve>,
    /// Read the position from a board diagram instead of moves: one row per line, top row
    /// first, `X` black, `O` white, `.` empty (`-` for stdin). The size comes from it.
    #[arg(long, conflicts_with = "moves")]
    board: Option<PathBuf>,
    /// Side to move with --board (default: Black if both have as many stones, else White).
    #[arg(long, requires = "board")]
    to_move: Option<Color>,
    /// Moves in renju notation, Black first: `h8 i9 j10` or `h8i9j10`.
    moves: Vec<String>,
}

/// Reads `500ms`, `2s`, `1.5s` or a bare number of seconds.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    let (num, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else {
        (t, 1.0)
    };
    num.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v > 0.0 && *v * scale < 1e6)
        .map(|v| Duration::from_secs_f64(v * scale))
        .ok_or_else(|| format!("cannot read a duration from {s:?} (e.g. 500ms, 2s, 1.5)"))
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
    if let Some(result) = game.result() {
        say!("the game is over: {}", result.describe(size));
        return Ok(());
    }
    if args.multipv == 0 || args.threads == 0 {
        return Err(CliError::input(
            "--multipv and --threads must be at least 1",
        ));
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
    say!(
        "position: {} to move, {} {}, {} stones",
        game.side_to_move(),
        args.rule,
        size,
        game.board().stone_count()
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
        if let Some(slot) = best_lines.get_mut(info.multipv.max(1) - 1) {
            *slot = Some(info.clone());
        }
    });
    let Some(best) = result.best else {
        say!("no legal move");
        return Ok(());
    };
    say!("best move: {}", size.notation(best));
    say!(
        "score: {} (win probability {:.1}%)",
        result.score,
        100.0 * result.score.win_probability()
    );
    say!("pv: {}", line_text(size, &result.pv));
    let secs = result.time.as_secs_f64();
    let nps = if secs > 0.0 {
        (result.nodes as f64 / secs) as u64
    } else {
        0
    };
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
    }
}
