//! The players of a match: wuzi engines in-process, and external Gomocup brains run as
//! child processes speaking the protocol.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use wuzi_engine::{Clock, Engine, EngineOptions, PlayerKind, Position, SearchLimits};
use wuzi_rules::{Game, GameConfig, Pos};

/// Who plays: an engine level, a classic AI, or an external brain command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// wuzi's engine or a classic AI, in-process.
    Engine(PlayerKind),
    /// A Gomocup brain: program and arguments.
    Brain(Vec<String>),
}

impl FromStr for PlayerSpec {
    type Err = String;
    /// `full`, `level1`..`level10`, `classic-rank|tuple|greedy`, or a brain command: a
    /// path (`./pbrain-x`, `/opt/pbrain-x --flag`) or anything after `cmd:`.
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("full") {
            return Ok(PlayerSpec::Engine(PlayerKind::STRONGEST));
        }
        if let Ok(kind) = t.parse::<PlayerKind>() {
            return Ok(PlayerSpec::Engine(kind));
        }
        let command = t.strip_prefix("cmd:").unwrap_or(t);
        let words: Vec<String> = command.split_whitespace().map(str::to_string).collect();
        let looks_like_path = words
            .first()
            .is_some_and(|w| w.contains('/') || std::path::Path::new(w).is_file());
        if !words.is_empty() && (t.starts_with("cmd:") || looks_like_path) {
            Ok(PlayerSpec::Brain(words))
        } else {
            Err(format!(
                "unknown player {s:?}: expected full, level1..level10, classic-rank, classic-tuple, \
                 classic-greedy, or a brain command (a path such as ./pbrain-x, or cmd:NAME ARGS)"
            ))
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Engine(PlayerKind::Level(10)) => f.write_str("full"),
            PlayerSpec::Engine(k) => write!(f, "{k}"),
            PlayerSpec::Brain(words) => {
                let program = words.first().map_or("brain", String::as_str);
                let name = std::path::Path::new(program)
                    .file_name()
                    .map_or(program.into(), |n| n.to_string_lossy());
                f.write_str(&name)
            }
        }
    }
}

/// What a player may spend on one move.
#[derive(Clone, Copy, Debug)]
pub struct MoveTime {
    /// The limit the move is judged against.
    pub limit: Duration,
    /// The match clock, when the time control has one.
    pub clock: Option<Clock>,
}

/// Why a player produced no move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// No answer in time.
    Timeout,
    /// The program could not be run, or it refused the game or never answered `START`.
    Start(String),
    /// The process died or closed its output.
    Crash(String),
    /// Gave no move although one was legal.
    NoMove,
    /// Answered something that is not a move.
    Garbage(String),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Timeout => f.write_str("no move in time"),
            Failure::Start(why) => write!(f, "did not start ({why})"),
            Failure::Crash(why) => write!(f, "crashed ({why})"),
            Failure::NoMove => f.write_str("gave no move"),
            Failure::Garbage(l) => write!(f, "answered {l:?}"),
        }
    }
}

/// A player in a match.
pub trait Player {
    /// Prepares for a new game.
    fn new_game(&mut self, config: &GameConfig, time: MoveTime) -> Result<(), Failure>;
    /// The player's move in `game` (the side to move).
    fn play(&mut self, game: &Game, time: MoveTime) -> Result<Pos, Failure>;
    /// What the player said about its last move, for the game's thinking log: a
    /// brain's last [`THINKING_LINES`] `MESSAGE` lines, an engine's depth, score and
    /// principal variation.
    fn thinking(&self) -> &[String] {
        &[]
    }
}

/// How many of a brain's `MESSAGE` lines are kept for each move: enough for Rapfi's
/// last depth line and its summary, or wuzi's last two iterations.
pub const THINKING_LINES: usize = 3;

/// The time an in-process engine is told it has: the limit less the same safety margin
/// `pbrain-wuzi` keeps under Gomocup ([`wuzi_engine::time::turn_margin`]), so a match
/// measures the engine as the brain would play.
fn engine_budget(limit: Duration) -> Duration {
    let margin = wuzi_engine::time::turn_margin(limit);
    limit.saturating_sub(margin).max(Duration::from_millis(1))
}

/// wuzi's engine (any level) or a classic AI.
#[derive(Debug)]
pub struct EnginePlayer {
    kind: PlayerKind,
    engine: Engine,
    /// Node limit per move.
    nodes: Option<u64>,
    /// The last search's depth, score and principal variation (none after a search
    /// that failed).
    thinking: Option<String>,
}

impl EnginePlayer {
    /// A player with its own engine.
    pub fn new(
        kind: PlayerKind,
        threads: usize,
        nodes: Option<u64>,
        hash_mb: usize,
    ) -> EnginePlayer {
        EnginePlayer {
            kind,
            engine: Engine::new(EngineOptions { hash_mb, threads }),
            nodes,
            thinking: None,
        }
    }
}

impl Player for EnginePlayer {
    fn new_game(&mut self, _: &GameConfig, _: MoveTime) -> Result<(), Failure> {
        self.engine.clear();
        Ok(())
    }

    fn play(&mut self, game: &Game, time: MoveTime) -> Result<Pos, Failure> {
        self.thinking = None;
        let limits = SearchLimits {
            time: Some(engine_budget(time.limit)),
            clock: time.clock.map(|c| Clock {
                remaining: engine_budget(c.remaining),
                ..c
            }),
            nodes: self.nodes,
            ..SearchLimits::default()
        };
        let stop = AtomicBool::new(false);
        let (kind, engine) = (self.kind, &mut self.engine);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            kind.choose(
                engine,
                &Position::from_game(game),
                &limits,
                &stop,
                &mut |_| {},
            )
        }))
        .map_err(|_| Failure::Crash("the engine panicked".into()))?;
        let size = game.size();
        let pv: Vec<String> = result
            .pv
            .iter()
            .map(|&p| size.notation(p).to_string())
            .collect();
        self.thinking = Some(format!(
            "depth {} score {} nodes {} pv {}",
            result.depth,
            result.score,
            result.nodes,
            pv.join(" ")
        ));
        result.best.ok_or(Failure::NoMove)
    }

    fn thinking(&self) -> &[String] {
        self.thinking.as_slice()
    }
}

/// A running brain process.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Process {
    fn send(&mut self, line: &str) -> Result<(), Failure> {
        self.stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| self.stdin.flush())
            .map_err(|e| Failure::Crash(format!("cannot write to the brain: {e}")))
    }

    /// Waits until `deadline` for a line accepted by `want`; other lines are skipped.
    fn wait_for<T>(
        &mut self,
        deadline: Instant,
        mut want: impl FnMut(&str) -> Option<T>,
    ) -> Result<T, Failure> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    if let Some(v) = want(line.trim()) {
                        return Ok(v);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err(Failure::Timeout),
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self.child.try_wait().ok().flatten();
                    return Err(Failure::Crash(match status {
                        Some(s) => format!("exited with {s}"),
                        None => "closed its output".into(),
                    }));
                }
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.send("END");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Time a brain gets to start up and answer `START`.
const START_PATIENCE: Duration = Duration::from_secs(30);

/// An external Gomocup brain.
pub struct BrainPlayer {
    command: Vec<String>,
    process: Option<Process>,
    /// Moves of the current game the brain has been told about.
    known: usize,
    /// Extra time allowed for pipes and process scheduling beyond the move limit.
    grace: Duration,
    /// Node limit per move (`INFO max_node`).
    nodes: Option<u64>,
    /// The last `MESSAGE` lines of the brain's last move.
    thinking: Vec<String>,
}

impl fmt::Debug for BrainPlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BrainPlayer")
            .field("command", &self.command)
            .finish_non_exhaustive()
    }
}

impl BrainPlayer {
    /// A brain run as `command` (program and arguments).
    pub fn new(command: Vec<String>, grace: Duration, nodes: Option<u64>) -> BrainPlayer {
        BrainPlayer {
            command,
            process: None,
            known: 0,
            grace,
            nodes,
            thinking: Vec::new(),
        }
    }

    fn spawn(&self) -> Result<Process, Failure> {
        let mut child = Command::new(&self.command[0])
            .args(&self.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Failure::Start(format!("{:?}: {e}", self.command[0])))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&buf);
                        for part in text.split('\r') {
                            let part = part.trim();
                            if !part.is_empty() && tx.send(part.to_string()).is_err() {
                                return;
                            }
                        }
                    }
                }
            }
        });
        Ok(Process {
            child,
            stdin,
            lines,
        })
    }

    fn infos(time: MoveTime) -> Vec<String> {
        let ms = |d: Duration| d.as_millis().min(2_147_483_647);
        let mut v = vec![format!("INFO timeout_turn {}", ms(time.limit))];
        match time.clock {
            Some(c) => {
                v.push(format!("INFO time_left {}", ms(c.remaining)));
            }
            None => {
                v.push("INFO timeout_match 0".into());
                v.push("INFO time_left 2147483647".into());
            }
        }
        v
    }
}

fn parse_xy(line: &str) -> Option<(u32, u32)> {
    let (x, y) = line.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

impl BrainPlayer {
    /// Tells the running brain the rule, the time and the board, and waits for its `OK`.
    fn start_game(&mut self, config: &GameConfig, time: MoveTime) -> Result<(), Failure> {
        let p = self.process.as_mut().expect("spawned");
        p.send(&format!("INFO rule {}", config.rule.gomocup_code()))?;
        p.send("INFO max_memory 367001600")?;
        p.send("INFO game_type 1")?;
        if let Some(c) = time.clock {
            p.send(&format!("INFO timeout_match {}", c.remaining.as_millis()))?;
        }
        for line in Self::infos(time) {
            p.send(&line)?;
        }
        if let Some(n) = self.nodes {
            p.send(&format!("INFO max_node {n}"))?;
        }
        let size = config.size;
        if size.is_square() {
            p.send(&format!("START {}", size.width()))?;
        } else {
            p.send(&format!("RECTSTART {},{}", size.width(), size.height()))?;
        }
        p.wait_for(Instant::now() + START_PATIENCE, |l| {
            let up = l.to_ascii_uppercase();
            if up == "OK" {
                Some(Ok(()))
            } else if up.starts_with("ERROR") {
                Some(Err(Failure::Start(format!("refused START: {l}"))))
            } else {
                None
            }
        })
        .map_err(|f| match f {
            Failure::Timeout => Failure::Start(format!(
                "no answer to START within {} s",
                START_PATIENCE.as_secs()
            )),
            other => other,
        })?
    }
}

impl Player for BrainPlayer {
    fn new_game(&mut self, config: &GameConfig, time: MoveTime) -> Result<(), Failure> {
        let reused = self.process.is_some();
        if !reused {
            self.process = Some(self.spawn()?);
        }
        let mut result = self.start_game(config, time);
        if reused && result.is_err() {
            // A brain kept from the last game may still be busy with it and drop what it
            // is told (Rapfi ignores commands while its search winds down, then reads
            // `INFO rule 0` as a command `RULE`): as a manager does when a brain refuses
            // a new game, start a fresh process and offer the game once more.
            result = self.spawn().and_then(|fresh| {
                self.process = Some(fresh);
                self.start_game(config, time)
            });
        }
        self.known = 0;
        if result.is_err() {
            self.process = None;
        }
        result
    }

    fn play(&mut self, game: &Game, time: MoveTime) -> Result<Pos, Failure> {
        let Some(p) = self.process.as_mut() else {
            return Err(Failure::Crash("not running".into()));
        };
        let start = Instant::now();
        let moves = game.moves();
        let me = game.side_to_move();
        let sent = (|| {
            for line in Self::infos(time) {
                p.send(&line)?;
            }
            if moves.is_empty() {
                p.send("BEGIN")
            } else if self.known > 0 && moves.len() == self.known + 1 {
                let m = moves[moves.len() - 1].pos;
                p.send(&format!("TURN {},{}", m.x, m.y))
            } else {
                p.send("BOARD")?;
                for m in moves {
                    let field = if m.color == me { 1 } else { 2 };
                    p.send(&format!("{},{},{field}", m.pos.x, m.pos.y))?;
                }
                p.send("DONE")
            }
        })();
        let thinking = &mut self.thinking;
        thinking.clear();
        let answer = sent.and_then(|()| {
            p.wait_for(start + time.limit + self.grace, |l| {
                if let Some(xy) = parse_xy(l) {
                    return Some(Ok(xy));
                }
                let up = l.to_ascii_uppercase();
                if up.starts_with("MESSAGE") {
                    if thinking.len() == THINKING_LINES {
                        thinking.remove(0);
                    }
                    thinking.push(l["MESSAGE".len()..].trim().to_string());
                }
                let chatter = ["MESSAGE", "DEBUG", "ERROR", "UNKNOWN", "SUGGEST", "OK"];
                if chatter.iter().any(|c| up.starts_with(c)) {
                    None
                } else {
                    Some(Err(Failure::Garbage(l.to_string())))
                }
            })?
        });
        match answer {
            Ok((x, y)) => {
                let size = game.size();
                let pos = size
                    .pos(x.min(1000) as i32, y.min(1000) as i32)
                    .map_err(|_| Failure::Garbage(format!("{x},{y}")))?;
                self.known = moves.len() + 1;
                Ok(pos)
            }
            Err(e) => {
                // The brain is in an unknown state now: start a fresh one next game.
                self.process = None;
                Err(e)
            }
        }
    }

    fn thinking(&self) -> &[String] {
        &self.thinking
    }
}

/// Builds a player from its spec.
pub fn build(
    spec: &PlayerSpec,
    threads: usize,
    nodes: Option<u64>,
    hash_mb: usize,
    grace: Duration,
) -> Box<dyn Player + Send> {
    match spec {
        PlayerSpec::Engine(kind) => Box::new(EnginePlayer::new(*kind, threads, nodes, hash_mb)),
        PlayerSpec::Brain(words) => Box::new(BrainPlayer::new(words.clone(), grace, nodes)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_specs() {
        assert_eq!(
            "full".parse::<PlayerSpec>().unwrap(),
            PlayerSpec::Engine(PlayerKind::Level(10))
        );
        assert_eq!(
            "level5".parse::<PlayerSpec>().unwrap(),
            PlayerSpec::Engine(PlayerKind::Level(5))
        );
        assert_eq!(
            "classic-rank".parse::<PlayerSpec>().unwrap().to_string(),
            "classic-rank"
        );
        let b = "cmd:pbrain-x --fast".parse::<PlayerSpec>().unwrap();
        assert_eq!(
            b,
            PlayerSpec::Brain(vec!["pbrain-x".into(), "--fast".into()])
        );
        assert_eq!(
            "./bin/pbrain-x".parse::<PlayerSpec>().unwrap().to_string(),
            "pbrain-x"
        );
        assert!("levle5".parse::<PlayerSpec>().is_err());
        assert!("".parse::<PlayerSpec>().is_err());
    }

    #[test]
    fn engines_keep_a_margin() {
        assert_eq!(
            engine_budget(Duration::from_millis(200)),
            Duration::from_millis(190)
        );
        assert_eq!(
            engine_budget(Duration::from_millis(50)),
            Duration::from_millis(40)
        );
        assert_eq!(
            engine_budget(Duration::from_secs(1)),
            Duration::from_micros(984_375)
        );
        assert_eq!(
            engine_budget(Duration::from_secs(10)),
            Duration::from_micros(9_843_750)
        );
    }
}
