//! `wuzi match`: engines against each other over an openings file, judged by wuzi-rules.

pub(super) mod openings;
mod paired;
mod players;
mod record;
mod stats;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::Duration;

use wuzi_engine::Clock;
use wuzi_rules::{Color, EndReason, Game, GameConfig, Pos, Rule, Size};

use self::players::{Failure, MoveTime, Player, PlayerSpec};
use self::stats::{Sprt, Tally, Verdict};
use super::progress::Progress;
use super::{CliError, hash_mb, positive};

const EXAMPLES: &str = "\
Examples:
  wuzi match full classic-rank --rule renju --time-per-move 200 --games 50 --out games/
  wuzi match full level5 --tc 10+0.1 --games 20 --sprt 0,50
  wuzi match full ./pbrain-rapfi --rule standard --time-per-move 1000
  wuzi match full full --threads-a 2 --threads-b 1 --games 40
  wuzi match full ./pbrain-rapfi --nodes-a 120000 --nodes-b 80000 --time-per-move 5000
  wuzi match level1 level2 level3 level4 --games 20      (a ladder of neighbours)

Players: full (= level10), level1..level10, classic-rank, classic-tuple, classic-greedy, or a
Gomocup brain command (a path like ./pbrain-x, or cmd:NAME ARGS). Each opening is played twice,
once with each player as Black. A move that is illegal, forbidden (renju), late or missing
loses the game; so does a brain that crashes. A brain that cannot start (no such program, or
it refuses the board) is an error before the first game, exit status 2.";

/// Play engines against each other and report score, Elo and SPRT.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The players. With two, the first one's score is reported; with more, each plays
    /// its neighbour in the list (a ladder, e.g. level1 level2 … level10) and a table of
    /// the neighbours' Elo differences follows.
    #[arg(num_args = 2.., required = true, value_name = "PLAYER")]
    players: Vec<String>,
    #[arg(long, short, default_value = "freestyle", help = concat!("Rule: ", rule_names!()))]
    rule: Rule,
    /// Board size: N or WxH.
    #[arg(long, short, default_value = "15")]
    size: Size,
    /// Time per move in milliseconds (default 200 unless --tc is given).
    #[arg(long, conflicts_with = "tc")]
    time_per_move: Option<u64>,
    /// Match clock per player: BASE+INC in seconds, e.g. 10+0.1.
    #[arg(long)]
    tc: Option<TimeControl>,
    /// Number of games (openings are used in order, each with both colours).
    #[arg(long, short, default_value_t = 50, value_parser = positive::<usize>)]
    games: usize,
    /// Openings file (Gomocup offsets `dx,dy, dx,dy` from the centre, or renju notation).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Search threads of each wuzi engine.
    #[arg(long, default_value_t = 1, value_parser = positive::<usize>)]
    threads: usize,
    /// Search threads of the first player (overrides --threads).
    #[arg(long, value_parser = positive::<usize>)]
    threads_a: Option<usize>,
    /// Search threads of the second player (overrides --threads).
    #[arg(long, value_parser = positive::<usize>)]
    threads_b: Option<usize>,
    /// Node limit per move of each player (a wuzi engine's search; a brain is told `INFO
    /// max_node`, which Rapfi and Yixin-style brains obey). The time limit still holds;
    /// give it room (e.g. --time-per-move 5000) so that the nodes decide.
    #[arg(long, value_parser = positive::<u64>)]
    nodes: Option<u64>,
    /// Node limit per move of the first player (overrides --nodes).
    #[arg(long, value_parser = positive::<u64>)]
    nodes_a: Option<u64>,
    /// Node limit per move of the second player (overrides --nodes).
    #[arg(long, value_parser = positive::<u64>)]
    nodes_b: Option<u64>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1, value_parser = positive::<usize>)]
    concurrency: usize,
    /// Hash table of each wuzi engine, MiB.
    #[arg(long, default_value_t = 64, value_parser = hash_mb())]
    hash: usize,
    /// Milliseconds a move may exceed its limit (pipes, scheduling) before it loses on time.
    #[arg(long, default_value_t = 100)]
    grace: u64,
    /// Directory for the game records: PSQ and SGF per game, and a thinking log (`.txt`:
    /// each move's time and what its player said about it, a brain's last `MESSAGE`
    /// lines).
    #[arg(long)]
    out: Option<PathBuf>,
    /// An earlier run's --out directory to compare with, game by game (the same openings,
    /// players in the same order): how many results got better, worse or stayed.
    #[arg(long, value_name = "DIR")]
    paired_with: Option<PathBuf>,
    /// Sequential test: elo0,elo1[,alpha,beta]; the match stops at a verdict.
    #[arg(long, allow_hyphen_values = true)]
    sprt: Option<Sprt>,
    /// No progress on stderr (a bar with the time left on a terminal, else a line a game).
    #[arg(long, short)]
    quiet: bool,
}

/// A match clock: base time and increment per move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    base: Duration,
    increment: Duration,
}

impl std::str::FromStr for TimeControl {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let secs = |t: &str| {
            t.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e7)
                .map(Duration::from_secs_f64)
                .ok_or_else(|| {
                    format!(
                        "cannot read time control {s:?} (expected BASE+INC in seconds, e.g. 10+0.1)"
                    )
                })
        };
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        let tc = TimeControl {
            base: secs(base)?,
            increment: secs(inc)?,
        };
        if tc.base.is_zero() {
            return Err("time control base must be positive".into());
        }
        Ok(tc)
    }
}

/// How one game ended, from the match's point of view.
#[derive(Clone, Debug)]
struct Outcome {
    /// Winning player index (0 = a, 1 = b), or `None` for a draw.
    winner: Option<usize>,
    /// A sentence: `black wins: 5 in a row h8-l8`, `white loses: no move in time`.
    reason: String,
    /// The loser failed (no move in time, a crash, an illegal move, an answer that is
    /// not a move); the rules did not decide the game.
    failure: bool,
}

/// One finished game.
struct Report {
    index: usize,
    /// Player index of Black.
    black: usize,
    game: Game,
    outcome: Outcome,
    /// Slowest move per player: (time, ply 1-based).
    slowest: [Option<(Duration, usize)>; 2],
    /// The thinking log: a line per move (ply, colour, point, time) followed by what its
    /// player said about it, indented.
    thinking: Vec<String>,
}

/// Everything a game needs to know, shared by the worker threads.
struct Setup {
    config: GameConfig,
    openings: Vec<Vec<Pos>>,
    specs: [PlayerSpec; 2],
    threads: [usize; 2],
    /// Node limit per move of each player.
    nodes: [Option<u64>; 2],
    hash: usize,
    grace: Duration,
    per_move: Option<Duration>,
    tc: Option<TimeControl>,
}

impl Setup {
    /// What a player may spend on its next move, with `clock` left on its match clock.
    fn move_time(&self, clock: Option<Duration>) -> MoveTime {
        MoveTime {
            limit: match (self.per_move, clock) {
                (Some(t), _) => t,
                (None, Some(left)) => left,
                (None, None) => Duration::from_secs(1),
            },
            clock: clock.zip(self.tc).map(|(left, tc)| Clock {
                remaining: left,
                increment: tc.increment,
                moves_to_go: None,
            }),
        }
    }
}

/// One worker's pair of players.
fn build_players(setup: &Setup) -> [Box<dyn Player + Send>; 2] {
    [0, 1].map(|p| {
        players::build(
            &setup.specs[p],
            setup.threads[p],
            setup.nodes[p],
            setup.hash,
            setup.grace,
        )
    })
}

/// Runs `wuzi match`.
pub fn run(args: Args) -> Result<(), CliError> {
    let specs: Vec<PlayerSpec> = args
        .players
        .iter()
        .map(|p| p.parse::<PlayerSpec>().map_err(CliError::input))
        .collect::<Result<_, _>>()?;
    if specs.len() == 2 {
        let threads = [
            args.threads_a.unwrap_or(args.threads),
            args.threads_b.unwrap_or(args.threads),
        ];
        run_pair(
            &args,
            [specs[0].clone(), specs[1].clone()],
            threads,
            args.out.clone(),
        )?;
        return Ok(());
    }
    if args.threads_a.is_some() || args.threads_b.is_some() {
        return Err(CliError::input(
            "--threads-a/--threads-b need exactly two players",
        ));
    }
    if args.nodes_a.is_some() || args.nodes_b.is_some() {
        return Err(CliError::input(
            "--nodes-a/--nodes-b need exactly two players",
        ));
    }
    if args.paired_with.is_some() {
        return Err(CliError::input("--paired-with needs exactly two players"));
    }
    // A ladder: each player against the next.
    let mut rows = Vec::new();
    for pair in specs.windows(2) {
        let out = args
            .out
            .as_ref()
            .map(|d| d.join(format!("{}-vs-{}", pair[0], pair[1])));
        let tally = run_pair(
            &args,
            [pair[0].clone(), pair[1].clone()],
            [args.threads; 2],
            out,
        )?;
        rows.push((pair[0].to_string(), pair[1].to_string(), tally));
        say!("");
    }
    say!("ladder ({} games a pair):", args.games);
    say!(
        "{:<36} {:>6}  {:<24} {}",
        "pair",
        "score",
        "Elo of first (95%)",
        "rating (first player = 0)"
    );
    say!("{:<36} {:>6}  {:<24} {} 0", "", "", "", specs[0]);
    // Each player's rating relative to the first of the list. A one-sided pairing has an
    // infinite estimate; its interval bound nearest zero is used instead (marked `*`).
    let mut rating = 0.0f64;
    let mut bounded = false;
    for (a, b, t) in rows {
        let Some((e, lo, hi)) = t.elo() else { continue };
        let used = if e.is_finite() {
            e
        } else {
            bounded = true;
            if e > 0.0 { lo } else { hi }
        };
        rating -= used;
        say!(
            "{:<36} {:>5.1}%  {:<24} {b} {}{}",
            format!("{a} vs {b}"),
            100.0 * t.score().unwrap_or(0.0),
            format!(
                "{} ({} .. {})",
                signed_elo(e),
                signed_elo(lo),
                signed_elo(hi)
            ),
            signed_elo(rating),
            if bounded { "*" } else { "" }
        );
    }
    if bounded {
        say!("* a pairing was one-sided: its 95% bound stands in for the infinite estimate");
    }
    Ok(())
}

/// Plays one pairing and prints its summary; returns the first player's tally.
fn run_pair(
    args: &Args,
    specs: [PlayerSpec; 2],
    threads: [usize; 2],
    out_dir: Option<PathBuf>,
) -> Result<Tally, CliError> {
    let config = GameConfig::new(args.rule, args.size);
    config
        .validate()
        .map_err(|e| CliError::input(e.to_string()))?;
    let (text, source) = match &args.openings {
        Some(path) => (
            std::fs::read_to_string(path).map_err(|e| {
                CliError::input(format!("cannot read openings {}: {e}", path.display()))
            })?,
            path.display().to_string(),
        ),
        None => (
            openings::BUILT_IN.to_string(),
            "built-in (Piskvork)".to_string(),
        ),
    };
    let parsed = openings::parse(&text, &config).map_err(CliError::input)?;
    let (openings, skipped) = (parsed.list, parsed.skipped.len());
    let baseline = match &args.paired_with {
        Some(dir) => {
            Some(paired::Baseline::load(dir, args.games, &openings).map_err(CliError::input)?)
        }
        None => None,
    };
    let mut pairing = paired::Pairing::default();
    if let Some(dir) = &out_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::failure(format!("cannot create {}: {e}", dir.display())))?;
    }
    let per_move = match (args.time_per_move, args.tc) {
        (Some(0), _) => return Err(CliError::input("--time-per-move must be positive")),
        (Some(ms), _) => Some(Duration::from_millis(ms)),
        (None, None) => Some(Duration::from_millis(200)),
        (None, Some(_)) => None,
    };
    let nodes = [args.nodes_a.or(args.nodes), args.nodes_b.or(args.nodes)];
    let names = display_names(&specs, threads, nodes);
    let setup = Arc::new(Setup {
        config,
        openings,
        specs,
        threads,
        nodes,
        hash: args.hash,
        grace: Duration::from_millis(args.grace),
        per_move,
        tc: args.tc,
    });
    // The first worker's players start here, before any game: a brain that cannot start
    // (no such program, or it refuses the board) makes the match meaningless, so it is an
    // error, never a game lost by it. Later failures are the brain's losses.
    let mut first = build_players(&setup);
    for (p, player) in first.iter_mut().enumerate() {
        let time = setup.move_time(setup.tc.map(|tc| tc.base));
        if let Err(f) = player.new_game(&setup.config, time) {
            let why = match f {
                Failure::Start(why) => why,
                other => other.to_string(),
            };
            return Err(CliError::input(format!("{} cannot start: {why}", names[p])));
        }
    }
    let time_text = match (per_move, args.tc) {
        (Some(t), _) => format!("{} ms/move", t.as_millis()),
        (None, Some(tc)) => format!("{}+{} s", tc.base.as_secs_f64(), tc.increment.as_secs_f64()),
        _ => unreachable!("one of them is set"),
    };
    let time_text = match nodes {
        [None, None] => time_text,
        [a, b] if a == b => format!("{time_text}, {} nodes/move", a.unwrap_or_default()),
        [a, b] => {
            let n = |x: Option<u64>| x.map_or("unlimited".to_string(), |n| n.to_string());
            format!("{time_text}, {} / {} nodes/move", n(a), n(b))
        }
    };
    let count = setup.openings.len();
    let used = if args.games > 2 * count {
        format!("all {count} used, from the first again after the last")
    } else {
        format!("{} of {count} used", args.games.div_ceil(2))
    };
    let skipped = match skipped {
        0 => String::new(),
        1 => " (1 skipped: does not fit the board)".to_string(),
        n => format!(" ({n} skipped: do not fit the board)"),
    };
    say!(
        "match: {} vs {} — {} {}, {time_text}, {} games, openings: {source}, {used}{skipped}",
        names[0],
        names[1],
        setup.config.rule,
        setup.config.size,
        args.games,
    );

    let next = Arc::new(AtomicUsize::new(0));
    let halt = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Report>();
    let mut workers = Vec::new();
    let mut first = Some(first);
    for _ in 0..args.concurrency.min(args.games) {
        let (setup, next, halt, tx) = (
            Arc::clone(&setup),
            Arc::clone(&next),
            Arc::clone(&halt),
            tx.clone(),
        );
        let games = args.games;
        let ready = first.take();
        workers.push(thread::spawn(move || {
            let mut players = ready.unwrap_or_else(|| build_players(&setup));
            loop {
                if halt.load(Ordering::SeqCst) {
                    return;
                }
                let index = next.fetch_add(1, Ordering::SeqCst);
                if index >= games {
                    return;
                }
                let report = play_game(&setup, &mut players, index);
                if tx.send(report).is_err() {
                    return;
                }
            }
        }));
    }
    drop(tx);

    let progress = Progress::new(args.games as u64, "games", true, args.quiet);
    let mut tally = Tally::default();
    let mut by_colour = [Tally::default(), Tally::default()]; // a as black, a as white
    let mut slowest: [Option<(Duration, usize, usize)>; 2] = [None, None];
    let mut lost_by_a: Vec<String> = Vec::new();
    // Games each player lost by failing rather than on the board.
    let mut failures: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    let mut reports = 0;
    let mut sprt_result = None;
    for report in rx {
        reports += 1;
        let a_black = report.black == 0;
        if let Some(b) = &baseline {
            b.count(
                &mut pairing,
                report.index,
                paired::half_points(report.outcome.winner),
            );
        }
        let t = &mut by_colour[usize::from(!a_black)];
        match report.outcome.winner {
            Some(0) => {
                tally.wins += 1;
                t.wins += 1;
            }
            Some(_) => {
                tally.losses += 1;
                t.losses += 1;
            }
            None => {
                tally.draws += 1;
                t.draws += 1;
            }
        }
        for (mine, theirs) in slowest.iter_mut().zip(report.slowest) {
            if let Some((d, ply)) = theirs
                && mine.is_none_or(|s| d > s.0)
            {
                *mine = Some((d, report.index + 1, ply));
            }
        }
        let record_note = match &out_dir {
            Some(dir) => {
                let stem = dir.join(format!("game-{:03}", report.index + 1));
                let winner_color = report.outcome.winner.map(|w| {
                    if w == report.black {
                        Color::Black
                    } else {
                        Color::White
                    }
                });
                let rec = record::record(
                    &report.game,
                    [&names[report.black], &names[1 - report.black]],
                    winner_color,
                    &report.outcome.reason,
                );
                let (psq, sgf) = record::texts(&rec).map_err(CliError::failure)?;
                let mut log = report.thinking.join("\n");
                log.push('\n');
                std::fs::write(stem.with_extension("psq"), psq)
                    .and_then(|()| std::fs::write(stem.with_extension("sgf"), sgf))
                    .and_then(|()| std::fs::write(stem.with_extension("txt"), log))
                    .map_err(|e| {
                        CliError::failure(format!("cannot write records in {}: {e}", dir.display()))
                    })?;
                format!(" ({})", stem.with_extension("psq").display())
            }
            None => String::new(),
        };
        if let (true, Some(w)) = (report.outcome.failure, report.outcome.winner) {
            failures[1 - w].push(format!(
                "game {}: {}",
                report.index + 1,
                report.outcome.reason
            ));
        }
        if report.outcome.winner == Some(1) {
            lost_by_a.push(format!(
                "game {} ({} as {}): {}{record_note}",
                report.index + 1,
                names[0],
                if a_black { "black" } else { "white" },
                report.outcome.reason
            ));
        }
        if let Some(sprt) = &args.sprt {
            let r = sprt.test(&tally);
            if r.verdict != Verdict::Continue {
                halt.store(true, Ordering::SeqCst);
            }
            sprt_result = Some(r);
        }
        let line = format!(
            "game {}/{}: {} (black) vs {} (white): {}",
            report.index + 1,
            args.games,
            names[report.black],
            names[1 - report.black],
            report.outcome.reason
        );
        let status = format!("+{} ={} -{}", tally.wins, tally.draws, tally.losses);
        progress.step(reports as u64, &line, &status);
    }
    progress.finish();
    for w in workers {
        let _ = w.join();
    }

    print_summary(&names, &tally, &by_colour, &slowest, &lost_by_a, per_move);
    print_failures(&names, &failures);
    if let Some(dir) = &args.paired_with {
        let z = pairing.z().map_or_else(
            || "no result changed".to_string(),
            |z| format!("sign test z {z:+.2}"),
        );
        say!(
            "paired with {}: {} better, {} worse, {} the same for {} ({z}){}",
            dir.display(),
            pairing.better,
            pairing.worse,
            pairing.same,
            names[0],
            if pairing.unpaired > 0 {
                format!("; {} games without an earlier record", pairing.unpaired)
            } else {
                String::new()
            }
        );
    }
    if let (Some(sprt), Some(r)) = (&args.sprt, sprt_result) {
        let verdict = match r.verdict {
            Verdict::H1 => format!(
                "H1 accepted: {} is at least {} Elo stronger",
                names[0], sprt.elo1
            ),
            Verdict::H0 => format!(
                "H0 accepted: {} is not {} Elo stronger",
                names[0], sprt.elo1
            ),
            Verdict::Continue => "no verdict yet (play more games)".to_string(),
        };
        say!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} [{:.2}, {:.2}] — {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            r.llr,
            r.lower,
            r.upper
        );
    }
    Ok(tally)
}

/// Names for the table: equal players are told apart by their thread counts when those
/// differ (`full-2t`, `full-1t`), else by their node limits when those differ
/// (`full-3000n`, `full`), else by `#1`/`#2`.
fn display_names(
    specs: &[PlayerSpec; 2],
    threads: [usize; 2],
    nodes: [Option<u64>; 2],
) -> [String; 2] {
    let (a, b) = (specs[0].to_string(), specs[1].to_string());
    if a != b {
        [a, b]
    } else if threads[0] != threads[1] {
        [
            format!("{a}-{}t", threads[0]),
            format!("{b}-{}t", threads[1]),
        ]
    } else if nodes[0] != nodes[1] {
        let named = |name: &str, limit: Option<u64>| match limit {
            Some(n) => format!("{name}-{n}n"),
            None => name.to_string(),
        };
        [named(&a, nodes[0]), named(&b, nodes[1])]
    } else {
        [format!("{a}#1"), format!("{b}#2")]
    }
}

/// An Elo figure with its sign, rounded: `+35`, `-12`, `0` (never `-0`, which an even
/// score gives as -0.0), `+inf`.
fn signed_elo(e: f64) -> String {
    let rounded = e.round();
    if rounded == 0.0 {
        "0".into()
    } else if e.is_infinite() {
        if e > 0.0 { "+inf" } else { "-inf" }.into()
    } else {
        format!("{rounded:+.0}")
    }
}

fn print_summary(
    names: &[String; 2],
    tally: &Tally,
    by_colour: &[Tally; 2],
    slowest: &[Option<(Duration, usize, usize)>; 2],
    lost_by_a: &[String],
    per_move: Option<Duration>,
) {
    let width = names.iter().map(String::len).max().unwrap_or(4).max(10);
    say!("{:width$}  games  wins  draws  losses   score", "");
    let row = |label: &str, t: &Tally| {
        let score = t
            .score()
            .map_or("-".to_string(), |s| format!("{:.1}%", 100.0 * s));
        say!(
            "{label:width$}  {:5}  {:4}  {:5}  {:6}  {:>6}",
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            score
        );
    };
    row(&names[0], tally);
    row("  as black", &by_colour[0]);
    row("  as white", &by_colour[1]);
    if let Some((e, lo, hi)) = tally.elo() {
        say!(
            "Elo difference ({} - {}): {} (95% interval {} .. {})",
            names[0],
            names[1],
            signed_elo(e),
            signed_elo(lo),
            signed_elo(hi)
        );
    }
    let limit = per_move.map_or(String::new(), |t| format!(", limit {} ms", t.as_millis()));
    for (p, name) in names.iter().enumerate() {
        match slowest[p] {
            Some((d, game, ply)) => say!(
                "slowest move of {name}: {:.1} ms (game {game}, move {ply}{limit})",
                d.as_secs_f64() * 1000.0
            ),
            None => say!("slowest move of {name}: no moves"),
        }
    }
    if lost_by_a.is_empty() {
        say!("games lost by {}: none", names[0]);
    } else {
        say!("games lost by {}:", names[0]);
        for l in lost_by_a {
            say!("  {l}");
        }
    }
}

/// How many of the games each player lost by failing (no move in time, a crash, an
/// illegal move, an answer that is not a move) rather than on the board, with the
/// first few: a brain that fails often is not being measured, and its wins and
/// losses say nothing of its strength.
fn print_failures(names: &[String; 2], failures: &[Vec<String>; 2]) {
    const SHOWN: usize = 5;
    for (name, lost) in names.iter().zip(failures) {
        if lost.is_empty() {
            continue;
        }
        say!(
            "games {name} lost by failing, not on the board: {}",
            lost.len()
        );
        for l in lost.iter().take(SHOWN) {
            say!("  {l}");
        }
        if lost.len() > SHOWN {
            say!("  and {} more", lost.len() - SHOWN);
        }
    }
}

/// Plays game `index`: opening `index / 2`, player a Black in even games.
fn play_game(setup: &Setup, players: &mut [Box<dyn Player + Send>; 2], index: usize) -> Report {
    let opening = &setup.openings[(index / 2) % setup.openings.len()];
    let black = index % 2; // player index of Black
    let player_of = |c: Color| if c == Color::Black { black } else { 1 - black };
    let mut game = Game::new(setup.config.clone()).expect("validated config");
    for &p in opening {
        game.try_play(p).expect("openings are validated");
    }
    let mut slowest: [Option<(Duration, usize)>; 2] = [None, None];
    let mut thinking = Vec::new();
    let mut clocks = [setup.tc.map(|tc| tc.base); 2];
    let move_time = |clock: Option<Duration>| setup.move_time(clock);
    let lose = |player: usize, why: String| Outcome {
        winner: Some(1 - player),
        reason: format!(
            "{} loses: {why}",
            if player == black { "black" } else { "white" }
        ),
        failure: true,
    };
    for (p, player) in players.iter_mut().enumerate() {
        if let Err(f) = player.new_game(&setup.config, move_time(clocks[p])) {
            return Report {
                index,
                black,
                outcome: lose(p, format!("{f} at the start")),
                game,
                slowest,
                thinking,
            };
        }
    }
    let outcome = loop {
        if let Some(result) = game.result() {
            break Outcome {
                winner: result.winner.map(player_of),
                reason: result.describe(game.size()),
                failure: false,
            };
        }
        let side = game.side_to_move();
        let p = player_of(side);
        let time = move_time(clocks[p]);
        let started = std::time::Instant::now();
        let answer = players[p].play(&game, time);
        let spent = started.elapsed();
        let ply = game.ply() + 1;
        if slowest[p].is_none_or(|s| spent > s.0) {
            slowest[p] = Some((spent, ply));
        }
        thinking.push(format!(
            "{ply} {side} {} {} ms",
            answer.as_ref().map_or_else(
                |f| format!("({f})"),
                |&pos| game.size().notation(pos).to_string()
            ),
            spent.as_millis()
        ));
        thinking.extend(players[p].thinking().iter().map(|l| format!("  {l}")));
        let pos = match answer {
            Ok(pos) => pos,
            Err(Failure::Timeout) => {
                break lose(p, format!("no move in time at move {ply}"));
            }
            Err(f) => break lose(p, format!("{f} at move {ply}")),
        };
        let late = match (setup.per_move, clocks[p]) {
            (Some(limit), _) => spent > limit + setup.grace,
            (None, Some(left)) => spent > left + setup.grace,
            (None, None) => false,
        };
        if late {
            let _ = game.lose_on_time(side);
            break lose(
                p,
                format!(
                    "move {ply} took {} ms (limit {} ms)",
                    spent.as_millis(),
                    time.limit.as_millis()
                ),
            );
        }
        if let (Some(left), Some(tc)) = (clocks[p], setup.tc) {
            clocks[p] = Some(left.saturating_sub(spent) + tc.increment);
        }
        let ms = u64::try_from(spent.as_millis()).unwrap_or(u64::MAX);
        if let Err(e) = game.try_play_timed(pos, Some(ms)) {
            break lose(
                p,
                format!("illegal move {},{} at move {ply}: {e}", pos.x, pos.y),
            );
        }
        if let Some(r) = game.result()
            && matches!(r.reason, EndReason::Forbidden { .. })
        {
            break Outcome {
                winner: r.winner.map(player_of),
                reason: r.describe(game.size()),
                failure: false,
            };
        }
    };
    Report {
        index,
        black,
        game,
        outcome,
        slowest,
        thinking,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_figures_have_a_sign_but_zero_has_none() {
        // An even score: elo_of gives -0.0, which `{:+.0}` wrote as "-0".
        assert_eq!(signed_elo(stats::elo_of(0.5)), "0");
        assert_eq!(signed_elo(-0.4), "0");
        assert_eq!(signed_elo(0.4), "0");
        assert_eq!(signed_elo(-0.6), "-1");
        assert_eq!(signed_elo(35.2), "+35");
        assert_eq!(signed_elo(f64::INFINITY), "+inf");
        assert_eq!(signed_elo(f64::NEG_INFINITY), "-inf");
    }

    #[test]
    fn equal_players_are_told_apart() {
        let full = PlayerSpec::Engine(wuzi_engine::PlayerKind::Level(10));
        let level = PlayerSpec::Engine(wuzi_engine::PlayerKind::Level(3));
        let two = [full.clone(), full.clone()];
        assert_eq!(
            display_names(&[full.clone(), level], [1, 1], [Some(5), None]),
            ["full", "level3"]
        );
        assert_eq!(
            display_names(&two, [2, 1], [Some(5), None]),
            ["full-2t", "full-1t"]
        );
        assert_eq!(
            display_names(&two, [1, 1], [Some(3000), None]),
            ["full-3000n", "full"]
        );
        assert_eq!(
            display_names(&two, [1, 1], [Some(7), Some(7)]),
            ["full#1", "full#2"]
        );
    }
}
