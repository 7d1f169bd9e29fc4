//! `wuzi puzzles`: mine puzzles from games and positions, and check a puzzle file.
//!
//! A puzzle is a position where the side to move has a forced win whose every step is
//! the only winning move, or a single saving defence, proven by the threat solver (see
//! [`wuzi_engine::puzzle`]). The file format is [`wuzi_engine::puzzle::record`].

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use wuzi_engine::Position;
use wuzi_engine::puzzle::record::PuzzleRecord;
use wuzi_engine::puzzle::{self, MineLimits, Theme};
use wuzi_rules::record::{Format, ReadOptions};
use wuzi_rules::{Board, Color, Game, GameConfig, Pos, Rule};

use super::progress::Progress;
use super::{CliError, positive};

const EXAMPLES: &str = "\
Examples:
  wuzi puzzles mine --selfplay data/free.txt --out puzzles.jsonl --max 200
  wuzi puzzles mine --records game1.sgf --records game2.psq --out puzzles.jsonl
  wuzi puzzles mine --db wuzi.sqlite3 --out puzzles.jsonl      (the games reviewed on the server)
  wuzi puzzles mine --positions ../shared/data/renju_vcf_puzzles_mintaka.jsonl --rule renju --out p.jsonl
  wuzi puzzles check crates/server/puzzles/puzzles.jsonl

`mine` looks at every position of every game from --from-ply on (and at each position of a
--positions file) and keeps those where the side to move has a proven win by fours (vcf, or
forbidden: a renju win of White's ending on a block forbidden to Black) or by threats (vct),
each step the only winning move, or a single move that stops the opponent's VCF (defence).
Puzzles already in the output file are kept and not mined again, so a run can be resumed.
`check` proves every puzzle of a file again and fails on the first one that does not hold.";

/// Mine puzzles, or check a puzzle file.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Find puzzles in games and positions.
    Mine(MineArgs),
    /// Prove every puzzle of a file again.
    Check(CheckArgs),
}

/// `wuzi puzzles mine`.
#[derive(Debug, clap::Args)]
struct MineArgs {
    /// Output file (puzzles are appended; those in it are not mined again).
    #[arg(long, short)]
    out: PathBuf,
    /// Self-play files (`wuzi selfplay` output).
    #[arg(long)]
    selfplay: Vec<PathBuf>,
    /// Game records (SGF, PSQ, JSON, text).
    #[arg(long)]
    records: Vec<PathBuf>,
    /// JSON Lines of positions: `board` (rows, top first, `X` Black, `O` White) and
    /// `side_to_move` (the test-data format of ../shared/data).
    #[arg(long)]
    positions: Vec<PathBuf>,
    /// A wuzi database (a SQLite file or a postgres:// URL): the games reviewed on the
    /// server, most recent first.
    #[arg(long)]
    db: Option<String>,
    /// The rule of --positions files and of records that carry none.
    #[arg(long, default_value = "freestyle")]
    rule: Rule,
    /// Stop after this many new puzzles.
    #[arg(long, default_value_t = 100, value_parser = positive::<usize>)]
    max: usize,
    /// Most puzzles from one game.
    #[arg(long, default_value_t = 2, value_parser = positive::<usize>)]
    per_game: usize,
    /// First ply of a game looked at.
    #[arg(long, default_value_t = 8)]
    from_ply: usize,
    /// Solver nodes per position (a proof cut short keeps nothing).
    #[arg(long, default_value_t = 2_000_000, value_parser = positive::<u64>)]
    nodes: u64,
    /// Deepest VCT sought, in attacker moves (0: VCF and defence only).
    #[arg(long, default_value_t = 4)]
    vct_depth: u32,
    /// Fewest solver turns on the main line of a win (the five counts).
    #[arg(long, default_value_t = 3, value_parser = positive::<u32>)]
    min_length: u32,
    /// Only these themes (comma-separated: vcf, vct, forbidden, defence).
    #[arg(long, value_delimiter = ',')]
    theme: Vec<Theme>,
    /// No progress on stderr.
    #[arg(long, short)]
    quiet: bool,
}

/// `wuzi puzzles check`.
#[derive(Debug, clap::Args)]
struct CheckArgs {
    /// The puzzle file.
    file: PathBuf,
    /// Solver nodes per puzzle.
    #[arg(long, default_value_t = 2_000_000, value_parser = positive::<u64>)]
    nodes: u64,
    /// Deepest VCT, as the puzzles were mined with.
    #[arg(long, default_value_t = 4)]
    vct_depth: u32,
}

/// Runs `wuzi puzzles`.
pub fn run(args: Args) -> Result<(), CliError> {
    match args.command {
        Command::Mine(a) => mine(a),
        Command::Check(a) => check(&a),
    }
}

/// A game or position to mine, with where it came from.
struct Source {
    name: String,
    config: GameConfig,
    /// Either a game's moves (every position from --from-ply) or one position.
    moves: Vec<Pos>,
    position: Option<Position>,
}

fn read_text(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path).map_err(|e| CliError::input(format!("{}: {e}", path.display())))
}

fn sources(args: &MineArgs) -> Result<Vec<Source>, CliError> {
    let mut out = Vec::new();
    for path in &args.selfplay {
        let file = path
            .file_name()
            .map_or_else(String::new, |f| f.to_string_lossy().into());
        for (n, line) in read_text(path)?.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let r: wuzi_engine::selfplay::Record = line
                .parse()
                .map_err(|e| CliError::input(format!("{}: line {}: {e}", path.display(), n + 1)))?;
            out.push(Source {
                name: format!("selfplay {file} line {}", n + 1),
                config: GameConfig::new(r.rule, r.size),
                moves: r.moves,
                position: None,
            });
        }
    }
    for path in &args.records {
        let text = read_text(path)?;
        let format = Format::detect(&text)
            .ok_or_else(|| CliError::input(format!("{}: not a game record", path.display())))?;
        let options = ReadOptions {
            rule: Some(args.rule),
            ..ReadOptions::default()
        };
        let record = format
            .read(&text, &options)
            .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
        let file = path
            .file_name()
            .map_or_else(String::new, |f| f.to_string_lossy().into());
        out.push(Source {
            name: format!("record {file}"),
            config: record.config.clone(),
            moves: record.moves.iter().map(|m| m.pos).collect(),
            position: None,
        });
    }
    for path in &args.positions {
        for (n, line) in read_text(path)?.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at =
                |e: String| CliError::input(format!("{}: line {}: {e}", path.display(), n + 1));
            let v: serde_json::Value = serde_json::from_str(line).map_err(|e| at(e.to_string()))?;
            let rows: Vec<&str> = v["board"]
                .as_array()
                .ok_or_else(|| at("no `board`".into()))?
                .iter()
                .map(|r| r.as_str().unwrap_or(""))
                .collect();
            let board = Board::from_rows(&rows).map_err(|e| at(e.to_string()))?;
            let side: Color = v["side_to_move"]
                .as_str()
                .unwrap_or("black")
                .parse()
                .map_err(|e| at(format!("side_to_move: {e}")))?;
            let config = GameConfig::new(args.rule, board.size());
            let id = v["id"]
                .as_str()
                .map_or_else(|| format!("line {}", n + 1), String::from);
            let file = path
                .file_name()
                .map_or_else(String::new, |f| f.to_string_lossy().into());
            out.push(Source {
                name: format!("{file} {id}"),
                position: Some(Position::from_board(&config, &board, side)),
                config,
                moves: Vec::new(),
            });
        }
    }
    if let Some(location) = &args.db {
        out.extend(reviewed_games(location)?);
    }
    if out.is_empty() {
        return Err(CliError::input(
            "nothing to mine: give --selfplay, --records, --positions or --db (with reviewed games)",
        ));
    }
    Ok(out)
}

/// The games reviewed in the database at `location` (at most 10,000).
fn reviewed_games(location: &str) -> Result<Vec<Source>, CliError> {
    use wuzi_server::live::LiveGame;
    let location: wuzi_server::DbLocation = location
        .parse()
        .map_err(|e| CliError::input(format!("--db {location}: {e}")))?;
    let fail = |e: wuzi_server::store::StoreError| CliError::failure(format!("--db: {e}"));
    let store = wuzi_server::Store::connect(&location).map_err(fail)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::failure(e.to_string()))?;
    runtime.block_on(async {
        let mut out = Vec::new();
        for id in store.reviewed_games(10_000).await.map_err(fail)? {
            let Ok(gid) = id.parse() else { continue };
            let Some(stored) = store.load(&gid).await.map_err(fail)? else {
                continue;
            };
            let Ok(live) = LiveGame::from_stored(stored) else {
                continue;
            };
            let game = live.game();
            out.push(Source {
                name: format!("reviewed game {id}"),
                config: game.config().clone(),
                moves: game.moves().iter().map(|m| m.pos).collect(),
                position: None,
            });
        }
        Ok(out)
    })
}

/// The ids of the puzzles in `path` (none when it does not exist).
fn existing(path: &Path) -> Result<HashSet<String>, CliError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashSet::new()),
        Err(e) => return Err(CliError::failure(format!("{}: {e}", path.display()))),
    };
    let mut ids = HashSet::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let r = PuzzleRecord::parse(line)
            .map_err(|e| CliError::input(format!("{}: line {}: {e}", path.display(), n + 1)))?;
        ids.insert(r.id);
    }
    Ok(ids)
}

fn mine(args: MineArgs) -> Result<(), CliError> {
    let sources = sources(&args)?;
    let mut known = existing(&args.out)?;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .map_err(|e| CliError::failure(format!("{}: {e}", args.out.display())))?;
    let limits = MineLimits {
        nodes: args.nodes,
        vct_depth: args.vct_depth,
        min_length: args.min_length,
        defence: args.theme.is_empty() || args.theme.contains(&Theme::Defence),
        ..MineLimits::default()
    };
    let progress = Progress::new(sources.len() as u64, "sources", false, args.quiet);
    let mut found = 0usize;
    let mut by_theme = std::collections::BTreeMap::<Theme, usize>::new();
    let mut rejected = std::collections::BTreeMap::<String, usize>::new();
    let mut looked = 0u64;
    let started = std::time::Instant::now();
    'sources: for (index, source) in sources.iter().enumerate() {
        let positions: Vec<(String, Position)> = match &source.position {
            Some(p) => vec![(source.name.clone(), p.clone())],
            None => game_positions(source, args.from_ply),
        };
        let mut from_this = 0;
        let mut skip_until = 0;
        for (ply, (name, pos)) in positions.into_iter().enumerate() {
            if ply < skip_until {
                continue;
            }
            looked += 1;
            match puzzle::find(&pos, &limits) {
                Ok(p) if args.theme.is_empty() || args.theme.contains(&p.theme) => {
                    let record = PuzzleRecord::new(&pos, &p, name);
                    if !known.insert(record.id.clone()) {
                        *rejected.entry("already in the file".into()).or_default() += 1;
                        continue;
                    }
                    writeln!(file, "{}", record.to_json())
                        .and_then(|()| file.flush())
                        .map_err(|e| CliError::failure(format!("{}: {e}", args.out.display())))?;
                    found += 1;
                    *by_theme.entry(p.theme).or_default() += 1;
                    from_this += 1;
                    // The next positions of the same win are the same puzzle, shorter.
                    skip_until = ply + 2 * p.solution.length() as usize + 2;
                    if found >= args.max {
                        break 'sources;
                    }
                    if from_this >= args.per_game {
                        break;
                    }
                }
                Ok(p) => *rejected.entry(format!("theme {}", p.theme)).or_default() += 1,
                Err(e) => *rejected.entry(e.to_string()).or_default() += 1,
            }
        }
        progress.step(index as u64 + 1, &source.name, &format!("{found} puzzles"));
    }
    progress.finish();
    let themes: Vec<String> = by_theme.iter().map(|(t, n)| format!("{t} {n}")).collect();
    let reasons: Vec<String> = rejected.iter().map(|(r, n)| format!("{r}: {n}")).collect();
    println!(
        "{found} new puzzles ({}) from {looked} positions in {:.1} s; {} in {}",
        if themes.is_empty() {
            "none".into()
        } else {
            themes.join(", ")
        },
        started.elapsed().as_secs_f64(),
        known.len(),
        args.out.display()
    );
    println!("not kept: {}", reasons.join("; "));
    Ok(())
}

/// The positions of a game from `from_ply` on, each named by source and ply (a game
/// that stops being legal stops there).
fn game_positions(source: &Source, from_ply: usize) -> Vec<(String, Position)> {
    let Ok(mut game) = Game::new(source.config.clone()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (ply, &m) in source.moves.iter().enumerate() {
        if ply >= from_ply && !game.is_over() {
            out.push((
                format!("{} ply {ply}", source.name),
                Position::from_game(&game),
            ));
        }
        if game.try_play(m).is_err() {
            break;
        }
    }
    out
}

fn check(args: &CheckArgs) -> Result<(), CliError> {
    let text = read_text(&args.file)?;
    let limits = MineLimits {
        nodes: args.nodes,
        vct_depth: args.vct_depth,
        // A stored puzzle is checked whatever its length.
        min_length: 1,
        ..MineLimits::default()
    };
    let mut n = 0;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let at =
            |e: String| CliError::input(format!("{}: line {}: {e}", args.file.display(), i + 1));
        let r = PuzzleRecord::parse(line).map_err(at)?;
        puzzle::verify(&r.position(), r.theme, &r.solution, &limits)
            .map_err(|e| at(format!("puzzle {}: {e}", r.id)))?;
        n += 1;
    }
    println!("{n} puzzles proven: each solution unique at every step");
    Ok(())
}
