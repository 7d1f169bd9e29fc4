//! What clients see: the JSON shapes of games, points, scores and analyses.

use serde::{Deserialize, Serialize};
use wuzi_engine::{Score, SearchInfo, SearchResult};
use wuzi_rules::opening::{Choice, OpeningRule, Phase, Seat};
use wuzi_rules::{Cell, Color, EndReason, Pos, Rule, Size, Variant};

use crate::clock::ClockSetup;
use crate::live::{Action, ForbiddenPolicy, LiveGame, Mode, Owners, Who};

/// A point with both coordinate systems.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointView {
    /// Column from the left, 0-based.
    pub x: u8,
    /// Row from the top, 0-based.
    pub y: u8,
    /// Renju notation, e.g. `h8`.
    pub name: String,
}

impl PointView {
    /// A point on a board of `size`.
    #[must_use]
    pub fn new(pos: Pos, size: Size) -> PointView {
        PointView {
            x: pos.x,
            y: pos.y,
            name: size.notation(pos).to_string(),
        }
    }
}

/// One stone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveView {
    /// Column.
    pub x: u8,
    /// Row from the top.
    pub y: u8,
    /// Renju notation.
    pub name: String,
    /// Whose stone.
    pub color: Color,
    /// Thinking time.
    pub time_ms: Option<u64>,
}

/// The settings part of a game view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConfigView {
    /// Rule.
    pub rule: Rule,
    /// Board size.
    pub size: Size,
    /// Stones in a row to win.
    pub k: u8,
    /// Opening rule.
    pub opening: OpeningRule,
    /// `wood`, `rock` or `ocean`.
    pub theme: String,
    /// Layout seed.
    pub seed: Option<u64>,
    /// Forbidden-click policy.
    pub forbidden_policy: ForbiddenPolicy,
    /// Time control.
    pub clock: ClockSetup,
}

/// The computer in a game view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComputerView {
    /// `level5`, `classic-rank`, ...
    pub player: String,
    /// Its seat.
    pub seat: Seat,
    /// Its colour once assigned.
    pub color: Option<Color>,
    /// Its moves are searched in the person's browser and sent from there
    /// (`POST /api/games/{id}/computer-move`); the server searches none.
    #[serde(default)]
    pub in_browser: bool,
}

/// Who holds each colour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayersView {
    /// Black's player.
    pub black: Option<Who>,
    /// White's player.
    pub white: Option<Who>,
}

/// Who must act.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToActView {
    /// The seat.
    pub seat: Seat,
    /// Human or computer.
    pub who: Who,
    /// Move or choose.
    pub action: Action,
}

/// Since when each seat's player has been away from a game between people.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AwayView {
    /// The first seat's player (Unix ms).
    pub first: Option<i64>,
    /// The second seat's.
    pub second: Option<i64>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultView {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// `five`, `bubbles`, `forbidden`, `resignation`, `time`, `board-full`, `agreement`.
    pub reason: String,
    /// The winning row (five).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cells: Option<Vec<PointView>>,
    /// The forbidden point.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub point: Option<PointView>,
    /// The forbidden kind: `33`, `44`, `6`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Bubbles held.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u8>,
}

/// A forbidden point.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForbiddenView {
    /// Column.
    pub x: u8,
    /// Row from the top.
    pub y: u8,
    /// Renju notation.
    pub name: String,
    /// `33`, `44` or `6`.
    pub kind: String,
}

/// The clock as of the answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockView {
    /// `none`, `move` or `side`.
    pub kind: String,
    /// Black's time left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub black_ms: Option<i64>,
    /// White's time left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub white_ms: Option<i64>,
    /// Whose clock runs.
    pub running: Option<Color>,
    /// Starting time per side (side clocks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initial_ms: Option<i64>,
    /// Increment (side clocks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub increment_ms: Option<i64>,
    /// Limit per move (move clocks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub move_ms: Option<i64>,
}

/// The opening's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningView {
    /// Opening rule.
    pub rule: OpeningRule,
    /// `place`, `choose` or `done`.
    pub phase: String,
    /// The seat that must place or choose.
    pub seat: Option<Seat>,
    /// The choices offered now.
    pub options: Vec<Choice>,
    /// Which seat holds Black, once decided.
    pub black: Option<Seat>,
}

/// Bubbles held by each side (ocean).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BubblesHeld {
    /// Black's count.
    pub black: u8,
    /// White's count.
    pub white: u8,
}

/// The stable name of an end reason (`five`, `resignation`, ...).
#[must_use]
pub fn reason_code(reason: &EndReason) -> &'static str {
    match reason {
        EndReason::Five { .. } => "five",
        EndReason::Bubbles { .. } => "bubbles",
        EndReason::Forbidden { .. } => "forbidden",
        EndReason::Resignation => "resignation",
        EndReason::Time => "time",
        EndReason::BoardFull => "board-full",
        EndReason::Agreement => "agreement",
        EndReason::Aborted => "aborted",
        EndReason::Abandoned => "abandoned",
    }
}

/// A game as clients see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameView {
    /// The id.
    pub id: String,
    /// Local or computer.
    pub mode: Mode,
    /// Settings.
    pub config: ConfigView,
    /// The computer, in computer mode.
    pub computer: Option<ComputerView>,
    /// Who holds each colour.
    pub players: PlayersView,
    /// The identities that own the seats (compare with `GET /api/me`); `null` for the
    /// computer's seat and in games from before seats had owners.
    #[serde(default)]
    pub owners: Owners,
    /// Rated (no takebacks, restarts or engine help; `GET /api/games/{id}/rating` gives
    /// the rating changes once over).
    #[serde(default)]
    pub rated: bool,
    /// Between people: takebacks may be asked for.
    #[serde(default)]
    pub takebacks: bool,
    /// Offers waiting for an answer (draw, takeback, rematch: the seat that made each),
    /// and the rematch's game once agreed.
    #[serde(default)]
    pub offers: crate::live::Offers,
    /// Between people: since when (Unix ms) each seat's player has had the game closed
    /// (`null`: there, or never came); the other may claim after
    /// [`crate::hub::HubConfig::claim_after`].
    #[serde(default)]
    pub away: AwayView,
    /// Between people: sockets open by people who do not play.
    #[serde(default)]
    pub spectators: usize,
    /// The stones in order.
    pub moves: Vec<MoveView>,
    /// Number of stones.
    pub ply: usize,
    /// The colour of the next stone.
    pub side_to_move: Color,
    /// Who must act now; `None` once over.
    pub to_act: Option<ToActView>,
    /// The result, once over.
    pub result: Option<ResultView>,
    /// A sentence on the state.
    pub result_text: String,
    /// Points forbidden for Black now.
    pub forbidden: Vec<ForbiddenView>,
    /// The clock.
    pub clock: ClockView,
    /// The opening.
    pub opening: OpeningView,
    /// The computer is searching for its move.
    pub thinking: bool,
    /// While the computer's move waits for an engine worker: the searches that go first
    /// (0 otherwise). Its clock does not run while it waits.
    #[serde(default)]
    pub queued: usize,
    /// Rock walls.
    pub walls: Vec<PointView>,
    /// Ocean bubbles.
    pub bubbles: Vec<PointView>,
    /// Bubbles needed to win.
    pub bubble_target: Option<u8>,
    /// Bubbles held.
    pub bubbles_held: BubblesHeld,
    /// Creation time (Unix ms).
    pub created_at: i64,
    /// Last change (Unix ms).
    pub updated_at: i64,
}

impl GameView {
    /// The view of `live` at `now`.
    #[must_use]
    pub fn new(live: &LiveGame, thinking: bool, now: i64) -> GameView {
        let game = live.game();
        let setup = live.setup();
        let size = game.size();
        let point = |p: Pos| PointView::new(p, size);
        let opening = live.opening();
        let result = game.result().map(|r| {
            let mut v = ResultView {
                winner: r.winner,
                reason: String::new(),
                cells: None,
                point: None,
                kind: None,
                count: None,
            };
            v.reason = match &r.reason {
                EndReason::Five { cells } => {
                    v.cells = Some(cells.iter().map(|&c| point(c)).collect());
                    "five"
                }
                EndReason::Bubbles { count } => {
                    v.count = Some(*count);
                    "bubbles"
                }
                EndReason::Forbidden { pos, kind } => {
                    v.point = Some(point(*pos));
                    v.kind = Some(kind.code().to_string());
                    "forbidden"
                }
                EndReason::Resignation => "resignation",
                EndReason::Time => "time",
                EndReason::BoardFull => "board-full",
                EndReason::Agreement => "agreement",
                EndReason::Aborted => "aborted",
                EndReason::Abandoned => "abandoned",
            }
            .to_string();
            v
        });
        let forbidden = if game.is_over() || game.side_to_move() != Color::Black {
            Vec::new()
        } else {
            game.forbidden_points()
                .into_iter()
                .map(|(p, k)| ForbiddenView {
                    x: p.x,
                    y: p.y,
                    name: size.notation(p).to_string(),
                    kind: k.code().to_string(),
                })
                .collect()
        };
        let clock_state = live.clock();
        let timed = setup.clock.is_timed();
        let clock = ClockView {
            kind: match setup.clock {
                ClockSetup::None => "none",
                ClockSetup::Move { .. } => "move",
                ClockSetup::Side { .. } => "side",
            }
            .to_string(),
            black_ms: timed.then(|| clock_state.remaining(Color::Black, now).max(0)),
            white_ms: timed.then(|| clock_state.remaining(Color::White, now).max(0)),
            running: clock_state.running,
            initial_ms: matches!(setup.clock, ClockSetup::Side { .. })
                .then(|| setup.clock.initial_ms()),
            increment_ms: matches!(setup.clock, ClockSetup::Side { .. })
                .then(|| setup.clock.increment_ms()),
            move_ms: matches!(setup.clock, ClockSetup::Move { .. })
                .then(|| setup.clock.initial_ms()),
        };
        let (seat, options) = match opening.phase() {
            Phase::Place { seat } => (Some(seat), Vec::new()),
            Phase::Choose { seat } => (Some(seat), opening.options()),
            Phase::Done => (None, Vec::new()),
        };
        let variant = &setup.config.variant;
        let held = |c: Color| {
            variant
                .bubbles()
                .iter()
                .filter(|&&b| game.board().get(b) == Cell::stone(c))
                .count() as u8
        };
        GameView {
            id: live.id().to_string(),
            mode: setup.mode,
            config: ConfigView {
                rule: setup.config.rule,
                size,
                k: setup.config.k,
                opening: setup.opening,
                theme: variant.name().to_string(),
                seed: setup.seed,
                forbidden_policy: setup.forbidden_policy,
                clock: setup.clock,
            },
            computer: setup
                .computer
                .filter(|_| setup.mode == Mode::Computer)
                .map(|c| ComputerView {
                    player: c.player.0.to_string(),
                    seat: c.seat,
                    color: opening.color_of(c.seat),
                    in_browser: c.in_browser,
                }),
            owners: setup.owners.clone(),
            rated: setup.rated,
            takebacks: setup.takebacks,
            offers: live.offers().clone(),
            away: AwayView::default(),
            spectators: 0,
            players: PlayersView {
                black: live.who_plays(Color::Black),
                white: live.who_plays(Color::White),
            },
            moves: game
                .moves()
                .iter()
                .map(|m| MoveView {
                    x: m.pos.x,
                    y: m.pos.y,
                    name: size.notation(m.pos).to_string(),
                    color: m.color,
                    time_ms: m.time_ms,
                })
                .collect(),
            ply: game.ply(),
            side_to_move: game.side_to_move(),
            to_act: live.to_act().map(|(seat, action)| ToActView {
                seat,
                who: live.who(seat),
                action,
            }),
            result,
            result_text: live.status_text(),
            forbidden,
            clock,
            opening: OpeningView {
                rule: opening.rule(),
                phase: opening.phase().name().to_string(),
                seat,
                options,
                black: opening.black_seat(),
            },
            thinking,
            queued: 0,
            walls: variant.walls().iter().map(|&p| point(p)).collect(),
            bubbles: variant.bubbles().iter().map(|&p| point(p)).collect(),
            bubble_target: match variant {
                Variant::Ocean { target, .. } => Some(*target),
                _ => None,
            },
            bubbles_held: BubblesHeld {
                black: held(Color::Black),
                white: held(Color::White),
            },
            created_at: live.created_at(),
            updated_at: live.updated_at(),
        }
    }
}

/// An engine score from the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ScoreView {
    /// An evaluation (positive: good for the side to move).
    Eval {
        /// The value.
        value: i32,
    },
    /// A forced win in `plies`.
    Win {
        /// Plies to the win.
        plies: u32,
    },
    /// A forced loss in `plies`.
    Loss {
        /// Plies to the loss.
        plies: u32,
    },
}

impl From<Score> for ScoreView {
    fn from(s: Score) -> ScoreView {
        match s {
            Score::Eval(value) => ScoreView::Eval { value },
            Score::Win(plies) => ScoreView::Win { plies },
            Score::Loss(plies) => ScoreView::Loss { plies },
        }
    }
}

/// A short text for a score: `+0.35`, `win in 4`, `loss in 3`.
#[must_use]
pub fn score_text(s: Score) -> String {
    match s {
        Score::Eval(v) => format!("{:+.2}", f64::from(v) / 100.0),
        other => other.to_string(),
    }
}

/// The engine's judgment of a position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnalysisView {
    /// The best move.
    pub best: Option<PointView>,
    /// Score for the side to move.
    pub score: ScoreView,
    /// The score as text.
    pub score_text: String,
    /// Black's winning chance in `0..1`.
    pub black_win_probability: f32,
    /// Principal variation.
    pub pv: Vec<PointView>,
    /// Depth reached.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub time_ms: u64,
    /// Whose move it is.
    pub side_to_move: Color,
}

/// Black's winning chance from a score for `to_move`.
fn black_probability(score: Score, to_move: Color) -> f32 {
    let p = score.win_probability();
    if to_move == Color::Black { p } else { 1.0 - p }
}

impl AnalysisView {
    /// The view of a search result.
    #[must_use]
    pub fn new(r: &SearchResult, size: Size, to_move: Color) -> AnalysisView {
        AnalysisView {
            best: r.best.map(|p| PointView::new(p, size)),
            score: r.score.into(),
            score_text: score_text(r.score),
            black_win_probability: black_probability(r.score, to_move),
            pv: r.pv.iter().map(|&p| PointView::new(p, size)).collect(),
            depth: r.depth,
            nodes: r.nodes,
            time_ms: r.time.as_millis() as u64,
            side_to_move: to_move,
        }
    }
}

/// Why the engine is searching.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Purpose {
    /// The computer's own move (or opening choice).
    Move,
    /// A hint for the person.
    Hint,
    /// An evaluation.
    Analysis,
}

/// A progress report of a search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThinkingView {
    /// Why.
    pub purpose: Purpose,
    /// Depth completed.
    pub depth: u32,
    /// Score for the side to move.
    pub score: ScoreView,
    /// The score as text.
    pub score_text: String,
    /// Black's winning chance.
    pub black_win_probability: f32,
    /// Current best move.
    pub best: Option<PointView>,
    /// Principal variation.
    pub pv: Vec<PointView>,
    /// Nodes so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time so far.
    pub time_ms: u64,
}

impl ThinkingView {
    /// The view of a progress report.
    #[must_use]
    pub fn new(purpose: Purpose, info: &SearchInfo, size: Size, to_move: Color) -> ThinkingView {
        ThinkingView {
            purpose,
            depth: info.depth,
            score: info.score.into(),
            score_text: score_text(info.score),
            black_win_probability: black_probability(info.score, to_move),
            best: info.pv.first().map(|&p| PointView::new(p, size)),
            pv: info.pv.iter().map(|&p| PointView::new(p, size)).collect(),
            nodes: info.nodes,
            nps: info.nps,
            time_ms: info.time.as_millis() as u64,
        }
    }
}
