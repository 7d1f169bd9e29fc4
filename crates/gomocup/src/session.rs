//! The brain's state machine: commands in, response lines and search requests out.
//!
//! [`Session`] holds the board, the rule and the manager's settings. It answers most
//! commands at once; when a move is wanted it returns [`Reply::Think`] and waits for the
//! I/O loop to bring back a [`Thought`] through [`Session::finish`]. A command that is
//! malformed or comes at the wrong time gets `ERROR`/`UNKNOWN` and changes nothing.

use std::time::{Duration, Instant};

use wuzi_engine::ClassicAi;
use wuzi_rules::{Board, Cell, Color, GameConfig, Pos, Rule, Size, forbidden};

use crate::protocol::{self, Command, Coord, Field, Info};
use crate::think::{Budget, EngineSettings, Eval, Progress, ThinkRequest, Thought};

/// `time_left` at or above this means "unlimited".
const UNLIMITED_MS: u64 = 2_147_483_647;
/// Time per move when the manager never says (Gomocup's fast games use 5 s).
const DEFAULT_TURN: Duration = Duration::from_secs(5);
/// Hash table size when the manager sets no memory limit.
const DEFAULT_HASH_MB: usize = 64;
/// Largest hash table the brain takes on its own.
const MAX_AUTO_HASH_MB: usize = 256;
/// Share of `max_memory` given to the hash table (the rest: code, stacks, threads).
const HASH_SHARE_OF_MEMORY: u64 = 3; // one third
/// Largest table accepted from `INFO hash_size`, KiB (0 there means "choose").
const MAX_HASH_KIB: u64 = wuzi_engine::MAX_HASH_MB as u64 * 1024;
/// Most threads accepted from `INFO thread_num`.
const MAX_THREADS: u32 = 64;
/// The shortest search the brain runs (for `timeout_turn 0`: "move at once").
const MIN_THINK: Duration = Duration::from_millis(5);
/// Moves the remaining match time is assumed to be spread over.
const MATCH_MOVES_AHEAD: u32 = 15;
/// Under this (White's view, in evaluation units) the brain takes Black in swap2.
const SWAP2_TAKE_BLACK_BELOW: i32 = -30;

/// What the I/O loop must do for the session.
#[derive(Clone, Debug)]
pub enum Reply {
    /// Print this line.
    Line(String),
    /// Start a search (the session is now thinking).
    Think(ThinkRequest),
    /// Stop the running search now (its answer still comes back through `finish`).
    Stop,
    /// Apply new engine settings (done on the worker thread, before the next search).
    Configure(EngineSettings),
    /// A new game starts: the engine may forget the old one.
    NewGame,
    /// Quit.
    Exit,
}

/// Manager settings from `INFO`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `timeout_turn`.
    pub timeout_turn: Duration,
    /// `timeout_match` (`None`: no limit).
    pub timeout_match: Option<Duration>,
    /// `time_left` (`None`: unlimited).
    pub time_left: Option<Duration>,
    /// `max_memory` in bytes (`None`: no limit).
    pub max_memory: Option<u64>,
    /// `game_type`.
    pub game_type: u32,
    /// `rule` as sent (bit mask).
    pub rule_bits: u32,
    /// `evaluate`.
    pub evaluate: Option<(i64, i64)>,
    /// `folder`.
    pub folder: Option<String>,
    /// `max_depth`.
    pub max_depth: Option<u32>,
    /// `max_node`.
    pub max_node: Option<u64>,
    /// `thread_num`.
    pub threads: u32,
    /// `hash_size` in KiB.
    pub hash_kib: Option<u64>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            timeout_turn: DEFAULT_TURN,
            timeout_match: None,
            time_left: None,
            max_memory: None,
            game_type: 0,
            rule_bits: 0,
            evaluate: None,
            folder: None,
            max_depth: None,
            max_node: None,
            threads: 1,
            hash_kib: None,
        }
    }
}

impl Settings {
    /// The rule the bit mask names: bit 4 renju, bit 8 caro, bit 1 exactly five;
    /// bit 2 (continuous game) does not change the rule.
    #[must_use]
    pub fn rule(&self) -> Rule {
        Rule::from_gomocup_code(self.rule_bits)
    }

    /// Whether bit 2 (continuous game) is set.
    #[must_use]
    pub fn continuous(&self) -> bool {
        self.rule_bits & 2 != 0
    }

    /// The engine options these settings imply.
    #[must_use]
    pub fn engine(&self) -> EngineSettings {
        let hash_mb = match (self.hash_kib, self.max_memory) {
            (Some(kib), _) => (kib / 1024) as usize,
            (None, Some(bytes)) => {
                ((bytes / HASH_SHARE_OF_MEMORY) >> 20).min(MAX_AUTO_HASH_MB as u64) as usize
            }
            (None, None) => DEFAULT_HASH_MB,
        };
        EngineSettings {
            hash_mb: hash_mb.max(1),
            threads: self.threads.max(1) as usize,
        }
    }

    /// The hard time limit for one move: `timeout_turn` and the match clock, each with a
    /// safety margin for process start-up, I/O and the manager's own timing.
    #[must_use]
    pub fn move_time(&self) -> Duration {
        let margin = wuzi_engine::time::turn_margin;
        let mut t = self.timeout_turn.saturating_sub(margin(self.timeout_turn));
        if let Some(left) = self.time_left {
            let usable = left.saturating_sub(margin(left));
            t = t.min(usable / MATCH_MOVES_AHEAD);
        } else if let Some(total) = self.timeout_match {
            t = t.min(total / (2 * MATCH_MOVES_AHEAD));
        }
        t.max(MIN_THINK)
    }
}

/// Why a search was started: decides what its answer turns into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// Play the best move and print it.
    Move,
    /// Print the n best moves; the position stays.
    Nbest,
    /// Swap2: decide between SWAP and playing as the side to move.
    Swap2,
}

/// A `BOARD`-like block being read.
#[derive(Clone, Debug)]
struct Block {
    kind: BlockKind,
    stones: Vec<(Coord, Field)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BlockKind {
    Board,
    YxBoard,
    Swap2,
}

impl BlockKind {
    fn name(self) -> &'static str {
        match self {
            BlockKind::Board => "BOARD",
            BlockKind::YxBoard => "YXBOARD",
            BlockKind::Swap2 => "SWAP2BOARD",
        }
    }
}

/// The brain's state.
#[derive(Debug)]
pub struct Session {
    size: Option<Size>,
    settings: Settings,
    /// Stones in the order they were played: (point, owner). Walls have `Field::Wall`.
    stones: Vec<(Pos, Field)>,
    /// The brain's colour, fixed whenever it is asked to move or a position is set.
    me: Color,
    block: Option<Block>,
    deferred: Vec<String>,
    thinking: Option<Purpose>,
}

impl Default for Session {
    fn default() -> Self {
        Self::new()
    }
}

fn line(s: impl Into<String>) -> Reply {
    Reply::Line(s.into())
}

fn error(s: impl std::fmt::Display) -> Reply {
    Reply::Line(format!("ERROR {s}"))
}

impl Session {
    /// A brain with no board yet.
    #[must_use]
    pub fn new() -> Session {
        Session {
            size: None,
            settings: Settings::default(),
            stones: Vec::new(),
            me: Color::Black,
            block: None,
            deferred: Vec::new(),
            thinking: None,
        }
    }

    /// The manager's settings so far.
    #[must_use]
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The board size, once `START` has set one.
    #[must_use]
    pub fn size(&self) -> Option<Size> {
        self.size
    }

    /// Whether a search is running (its answer is awaited through [`Session::finish`]).
    #[must_use]
    pub fn is_thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// The colour the brain plays. It is fixed each time the brain is to move (`BEGIN`,
    /// `TURN`, `BOARD`, `YXBOARD`): Black when an even number of stones is on the board
    /// then (Black moves first), White otherwise.
    #[must_use]
    pub fn my_color(&self) -> Color {
        self.me
    }

    /// Fixes the brain's colour from the stone count, the brain being to move.
    fn set_side_to_move(&mut self) {
        let played = self.stones.iter().filter(|s| s.1 != Field::Wall).count();
        self.me = if played.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        };
    }

    /// The game configuration of the current board (k = 5), if there is a board.
    #[must_use]
    pub fn config(&self) -> Option<GameConfig> {
        self.size
            .map(|size| GameConfig::new(self.settings.rule(), size))
    }

    /// The current position as a board, the brain's stones in `my_color()`.
    #[must_use]
    pub fn board(&self) -> Option<Board> {
        let size = self.size?;
        let me = self.my_color();
        let mut board = Board::new(size);
        for &(p, f) in &self.stones {
            let cell = match f {
                Field::Own => Cell::stone(me),
                Field::Opponent => Cell::stone(me.opponent()),
                Field::Wall => Cell::Wall,
            };
            board.set(p, cell);
        }
        Some(board)
    }

    /// Parses and handles one input line.
    pub fn handle_line(&mut self, text: &str, now: Instant) -> Vec<Reply> {
        match protocol::parse(text) {
            Ok(None) => Vec::new(),
            Ok(Some(cmd)) => self.handle(cmd, now),
            Err(e) => {
                let is_info = text.trim_start().to_ascii_uppercase().starts_with("INFO");
                if is_info && self.block.is_none() {
                    // INFO gets no answer; the problem is told with the next command.
                    self.deferred.push(e.response());
                    Vec::new()
                } else {
                    let mut out = self.take_deferred();
                    out.push(line(e.response()));
                    out
                }
            }
        }
    }

    fn take_deferred(&mut self) -> Vec<Reply> {
        self.deferred.drain(..).map(Reply::Line).collect()
    }

    /// Handles one command.
    pub fn handle(&mut self, cmd: Command, now: Instant) -> Vec<Reply> {
        match cmd {
            Command::Stop => {
                return if self.thinking.is_some() {
                    vec![Reply::Stop]
                } else {
                    Vec::new() // nothing to stop; GUIs send it defensively
                };
            }
            Command::End => {
                let mut out = self.take_deferred();
                if self.thinking.is_some() {
                    out.push(Reply::Stop);
                }
                out.push(Reply::Exit);
                return out;
            }
            Command::Info(ref info) if self.block.is_none() => {
                return self.info(info.clone());
            }
            _ => {}
        }
        let mut out = self.take_deferred();
        if self.thinking.is_some() {
            out.push(error("busy: still thinking (send STOP first)"));
            return out;
        }
        if let Some(block) = self.block.as_mut() {
            match cmd {
                Command::Stone(c, f) => block.stones.push((c, f)),
                Command::Done => {
                    let block = self.block.take().expect("in a block");
                    out.extend(self.finish_block(block, now));
                }
                other => {
                    let name = block.kind.name();
                    self.block = None;
                    out.push(error(format!(
                        "{name} block interrupted before DONE; position unchanged"
                    )));
                    out.extend(self.handle(other, now));
                }
            }
            return out;
        }
        out.extend(self.command(cmd, now));
        out
    }

    /// A command outside any block, while not thinking.
    fn command(&mut self, cmd: Command, now: Instant) -> Vec<Reply> {
        match cmd {
            Command::Start(n) => self.start(n, n),
            Command::RectStart(w, h) => self.start(w, h),
            Command::About => vec![line(format!(
                "name=\"wuzi\", version=\"{}\", author=\"wuzi developers\", country=\"CN\", www=\"https://example.invalid/wuzi\"",
                env!("CARGO_PKG_VERSION")
            ))],
            Command::Stone(..) => vec![error("stone line outside a BOARD block")],
            Command::Done => vec![error("DONE without BOARD")],
            Command::Info(_) | Command::Stop | Command::End => Vec::new(), // handled above
            cmd => {
                if self.size.is_none() {
                    return vec![error("no board yet: send START first")];
                }
                match cmd {
                    Command::Restart => {
                        self.stones.clear();
                        self.me = Color::Black;
                        vec![Reply::NewGame, line("OK")]
                    }
                    Command::Begin => {
                        if self.stones.iter().any(|s| s.1 != Field::Wall) {
                            vec![error("BEGIN on a board with stones (send RESTART first)")]
                        } else {
                            self.think(Purpose::Move, 1, now)
                        }
                    }
                    Command::Turn(c) => match self.point(c) {
                        Ok(p) => {
                            self.stones.push((p, Field::Opponent));
                            self.think(Purpose::Move, 1, now)
                        }
                        Err(e) => vec![error(format!("TURN {c}: {e}"))],
                    },
                    Command::Board | Command::YxBoard | Command::Swap2Board => {
                        let kind = match cmd {
                            Command::Board => BlockKind::Board,
                            Command::YxBoard => BlockKind::YxBoard,
                            _ => BlockKind::Swap2,
                        };
                        self.block = Some(Block {
                            kind,
                            stones: Vec::new(),
                        });
                        Vec::new()
                    }
                    Command::Takeback(c) => {
                        let at = self.size.and_then(|s| s.pos(c.x as i32, c.y as i32).ok());
                        match at.and_then(|p| {
                            self.stones
                                .iter()
                                .rposition(|s| s.0 == p && s.1 != Field::Wall)
                        }) {
                            Some(i) => {
                                self.stones.remove(i);
                                vec![line("OK")]
                            }
                            None => vec![error(format!("TAKEBACK {c}: no stone there"))],
                        }
                    }
                    Command::YxShowForbid => vec![line(self.forbid_line())],
                    Command::YxNbest(n) => self.think(Purpose::Nbest, n, now),
                    _ => vec![error("unexpected command")],
                }
            }
        }
    }

    fn start(&mut self, w: u32, h: u32) -> Vec<Reply> {
        match Size::from_u32(w, h) {
            Ok(size) => {
                self.size = Some(size);
                self.stones.clear();
                self.me = Color::Black;
                vec![
                    Reply::Configure(self.settings.engine()),
                    Reply::NewGame,
                    line("OK"),
                ]
            }
            Err(e) => vec![error(format!("unsupported size: {e}"))],
        }
    }

    fn info(&mut self, info: Info) -> Vec<Reply> {
        let ms = Duration::from_millis;
        let s = &mut self.settings;
        let before = s.engine();
        match info {
            Info::TimeoutTurn(t) => s.timeout_turn = ms(t),
            Info::TimeoutMatch(t) => s.timeout_match = (t > 0).then(|| ms(t)),
            Info::TimeLeft(t) => s.time_left = (t < UNLIMITED_MS).then(|| ms(t)),
            Info::MaxMemory(b) => s.max_memory = (b > 0).then_some(b),
            Info::GameType(g) => s.game_type = g,
            Info::Rule(r) => {
                if r > 15 {
                    self.deferred.push(format!(
                        "ERROR INFO rule {r}: unknown bits (known: 1, 2, 4, 8)"
                    ));
                } else {
                    s.rule_bits = r;
                }
            }
            Info::Evaluate(x, y) => s.evaluate = Some((x, y)),
            Info::Folder(f) => s.folder = Some(f),
            Info::MaxDepth(d) => s.max_depth = (d > 0).then_some(d),
            Info::MaxNode(n) => s.max_node = (n > 0).then_some(n),
            Info::ThreadNum(n) => {
                if (1..=MAX_THREADS).contains(&n) {
                    s.threads = n;
                } else {
                    self.deferred.push(format!(
                        "ERROR INFO thread_num {n}: must be 1..={MAX_THREADS}"
                    ));
                }
            }
            Info::HashSize(k) => {
                if k <= MAX_HASH_KIB {
                    s.hash_kib = (k > 0).then_some(k);
                } else {
                    self.deferred.push(format!(
                        "ERROR INFO hash_size {k}: at most {MAX_HASH_KIB} (KiB)"
                    ));
                }
            }
            Info::Unknown(_) => {}
        }
        let after = self.settings.engine();
        if after != before && self.size.is_some() {
            vec![Reply::Configure(after)]
        } else {
            Vec::new()
        }
    }

    /// Checks a coordinate against the board: on it and empty.
    fn point(&self, c: Coord) -> Result<Pos, String> {
        let size = self.size.ok_or("no board")?;
        let p = size
            .pos(
                c.x.min(i32::MAX as u32) as i32,
                c.y.min(i32::MAX as u32) as i32,
            )
            .map_err(|e| e.to_string())?;
        if self.stones.iter().any(|s| s.0 == p) {
            return Err(format!("{} is occupied", size.notation(p)));
        }
        Ok(p)
    }

    fn finish_block(&mut self, block: Block, now: Instant) -> Vec<Reply> {
        let size = self.size.expect("blocks need a board");
        let mut stones: Vec<(Pos, Field)> = Vec::with_capacity(block.stones.len());
        for &(c, f) in &block.stones {
            let Ok(p) = size.pos(
                c.x.min(i32::MAX as u32) as i32,
                c.y.min(i32::MAX as u32) as i32,
            ) else {
                return vec![error(format!(
                    "{}: stone {c} is off the {size} board; position unchanged",
                    block.kind.name()
                ))];
            };
            if stones.iter().any(|s| s.0 == p) {
                return vec![error(format!(
                    "{}: two stones at {c}; position unchanged",
                    block.kind.name()
                ))];
            }
            stones.push((p, f));
        }
        match block.kind {
            BlockKind::Board => {
                self.stones = stones;
                self.think(Purpose::Move, 1, now)
            }
            BlockKind::YxBoard => {
                self.stones = stones;
                self.set_side_to_move();
                Vec::new()
            }
            BlockKind::Swap2 => {
                // Swap2 stones come in move order; the owner field does not matter.
                let placed: Vec<Pos> = stones
                    .iter()
                    .filter(|s| s.1 != Field::Wall)
                    .map(|s| s.0)
                    .collect();
                match placed.len() {
                    0 => {
                        let c = size.center();
                        let offsets = [(0, 0), (1, -1), (-2, -2)];
                        let moves: Vec<String> = offsets
                            .iter()
                            .filter_map(|&(dx, dy)| c.offset(dx, dy, size))
                            .map(|p| format!("{},{}", p.x, p.y))
                            .collect();
                        if moves.len() == 3 {
                            vec![line(moves.join(" "))]
                        } else {
                            vec![error("SWAP2BOARD: board too small for an opening")]
                        }
                    }
                    3 | 5 => {
                        // Rebuild as a position in move order: even index Black.
                        let me_black_next = placed.len().is_multiple_of(2);
                        let mine_if = |i: usize| i.is_multiple_of(2) == me_black_next;
                        self.stones = stones
                            .iter()
                            .filter(|s| s.1 != Field::Wall)
                            .enumerate()
                            .map(|(i, s)| {
                                (
                                    s.0,
                                    if mine_if(i) {
                                        Field::Own
                                    } else {
                                        Field::Opponent
                                    },
                                )
                            })
                            .chain(stones.iter().filter(|s| s.1 == Field::Wall).copied())
                            .collect();
                        self.think(Purpose::Swap2, 1, now)
                    }
                    n => vec![error(format!(
                        "SWAP2BOARD with {n} stones (expected 0, 3 or 5)"
                    ))],
                }
            }
        }
    }

    fn think(&mut self, purpose: Purpose, multipv: usize, now: Instant) -> Vec<Reply> {
        // The colour first: the board's own stones take it (a BOARD with an odd number
        // of stones makes a brain that was Black the White player).
        let previous = self.me;
        self.set_side_to_move();
        let (Some(config), Some(board)) = (self.config(), self.board()) else {
            self.me = previous;
            return vec![error("no board yet: send START first")];
        };
        let to_move = self.me;
        if legal_moves(&config, &board, to_move).next().is_none() {
            // Renju: every empty point is forbidden for Black. The protocol has no pass,
            // so the brain plays one of them and lets the manager judge it; an error here
            // would leave the manager waiting until the move's time ran out.
            if purpose == Purpose::Move
                && let Some(p) = board.empty_points().next()
            {
                self.stones.push((p, Field::Own));
                return vec![
                    line("MESSAGE every empty point is forbidden for Black: playing one"),
                    line(format!("{},{}", p.x, p.y)),
                ];
            }
            if purpose == Purpose::Move {
                // Undo the opponent's stone we just took in, so nothing changes.
                if let Some(&(_, Field::Opponent)) = self.stones.last() {
                    self.stones.pop();
                }
            }
            self.me = previous;
            return vec![error("no legal move left on the board")];
        }
        let s = &self.settings;
        let request = ThinkRequest {
            config,
            board,
            to_move,
            budget: Budget {
                time: Some(s.move_time()),
                depth: s.max_depth,
                nodes: s.max_node,
            },
            multipv: multipv.max(1),
            issued: now,
        };
        self.thinking = Some(purpose);
        vec![Reply::Think(request)]
    }

    /// Turns a finished search into the answer. A missing or illegal move is replaced by
    /// a legal one (the classic rank scorer's), so the brain never answers illegally.
    pub fn finish(&mut self, thought: &Thought) -> Vec<Reply> {
        let Some(purpose) = self.thinking.take() else {
            return vec![error("internal: a search finished that nobody asked for")];
        };
        let (Some(config), Some(board), Some(size)) = (self.config(), self.board(), self.size)
        else {
            return vec![error("internal: no board")];
        };
        let me = self.my_color();
        let legal = |p: Pos| legal_moves(&config, &board, me).any(|q| q == p);
        let best = match thought.best.filter(|&p| legal(p)) {
            Some(p) => Some(p),
            None => ClassicAi::Rank.choose_move(&config, &board, me),
        };
        let Some(best) = best else {
            return vec![error("no legal move left on the board")];
        };
        let xy = |p: Pos| format!("{},{}", p.x, p.y);
        match purpose {
            Purpose::Move => {
                self.stones.push((best, Field::Own));
                vec![line(xy(best))]
            }
            Purpose::Nbest => {
                let mut out: Vec<Reply> = thought
                    .lines
                    .iter()
                    .enumerate()
                    .map(|(i, (p, e))| {
                        line(format!(
                            "MESSAGE nbest {} {} {} score {e}",
                            i + 1,
                            xy(*p),
                            size.notation(*p)
                        ))
                    })
                    .collect();
                out.push(line(xy(best)));
                out
            }
            Purpose::Swap2 => {
                let white_doing_badly = match thought.eval {
                    Eval::Loss(_) => true,
                    Eval::Win(_) => false,
                    Eval::Value(v) => v < SWAP2_TAKE_BLACK_BELOW,
                };
                if white_doing_badly {
                    vec![line("SWAP")]
                } else {
                    self.stones.push((best, Field::Own));
                    vec![line(xy(best))]
                }
            }
        }
    }

    /// The `FORBID` answer: Black's forbidden points as `xxyy` pairs, then a full stop.
    #[must_use]
    pub fn forbid_line(&self) -> String {
        let mut s = String::from("FORBID ");
        if let (Some(board), Rule::Renju) = (self.board(), self.settings.rule()) {
            for (p, _) in forbidden::forbidden_points(&board) {
                s.push_str(&format!("{:02}{:02}", p.x, p.y));
            }
        }
        s.push('.');
        s
    }

    /// A `MESSAGE` line for a progress report.
    #[must_use]
    pub fn progress_line(&self, p: &Progress) -> String {
        let pv = match self.size {
            Some(size) => {
                p.pv.iter()
                    .map(|&q| size.notation(q).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            }
            None => String::new(),
        };
        let multipv = if p.multipv > 1 {
            format!(" multipv {}", p.multipv)
        } else {
            String::new()
        };
        format!(
            "MESSAGE depth {}-{}{multipv} score {} nodes {} nps {} time {} pv {pv}",
            p.depth,
            p.seldepth,
            p.eval,
            p.nodes,
            p.nps,
            p.time.as_millis()
        )
    }
}

/// The points `color` may play: empty, and for Black under renju not forbidden.
fn legal_moves<'a>(
    config: &'a GameConfig,
    board: &'a Board,
    color: Color,
) -> impl Iterator<Item = Pos> + 'a {
    let renju_black = config.rule == Rule::Renju && color == Color::Black;
    board
        .empty_points()
        .filter(move |&p| !renju_black || forbidden::forbidden_kind(board, p).is_none())
}
