//! `/api/analysis`: the analysis board's server side. Any position (setup stones, side
//! to move, a line of moves; any rule, sizes 5 to 26) is judged by the rules here and
//! answered with:
//! - `POST /api/analysis/position`: the threat map of both sides, Black's forbidden
//!   points under renju, the engine's candidate moves with their ordering scores, and
//!   the result if the line ended the game;
//! - `POST /api/analysis/stream`: a live analysis with the N best lines (1–5), streamed
//!   as one JSON object a line (`application/x-ndjson`) until the search ends; closing
//!   the response stops the search;
//! - `POST /api/analysis/solve`: "find VCF / VCT" for either side: the winning line, or
//!   none with the nodes searched;
//! - `POST /api/analysis/sgf` and `/api/analysis/tree`: a tree of variations to SGF and
//!   back (the tree travels as a flat list of nodes, each naming its parent, so deep
//!   lines do not nest);
//! - `POST /api/analysis/renlib`: a RenLib library (`.lib`, base64 in JSON) read into
//!   the same flat tree, for the board to browse read-only.
//!
//! Searches go through the engine pool as analyses (fair shares, the queue limit) and
//! count against the client's [`ANALYSES_PER_CLIENT`](crate::hub::ANALYSES_PER_CLIENT).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde::{Deserialize, Serialize};
use wuzi_engine::board::{Board as PatternBoard, idx};
use wuzi_engine::eval::pattern::Pattern;
use wuzi_engine::movegen::order_score;
use wuzi_engine::{Position, SearchInfo, SearchLimits};
use wuzi_rules::record::sgf;
use wuzi_rules::record::tree::{GameTree, NodeId, Setup};
use wuzi_rules::{Color, ForbiddenKind, Game, GameConfig, Move, Pos, Rule, Size};

use crate::api::ClientAddr;
use crate::engine::{Job, JobClass, Searcher, ThreatSearch};
use crate::error::{ApiJson, Error};
use crate::hub::Hub;
use crate::view::{PointView, ScoreView, score_text};

/// The routes under `/api/analysis`.
pub fn router() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/analysis/position", post(position))
        .route("/api/analysis/stream", post(stream))
        .route("/api/analysis/solve", post(solve))
        .route("/api/analysis/sgf", post(to_sgf))
        .route("/api/analysis/tree", post(from_sgf))
        .route(
            "/api/analysis/renlib",
            post(from_renlib).layer(axum::extract::DefaultBodyLimit::max(
                crate::RENLIB_BODY_LIMIT,
            )),
        )
}

/// Default time of a live analysis.
const DEFAULT_STREAM_MS: u64 = 10_000;
/// Longest live analysis.
const MAX_STREAM_MS: u64 = 30_000;
/// Default and longest time of a threat search.
const DEFAULT_SOLVE_MS: u64 = 3_000;
const MAX_SOLVE_MS: u64 = 10_000;
/// Most candidate moves in the heat map.
const MAX_CANDIDATES: usize = 30;
/// Most nodes of a tree sent for SGF.
const MAX_TREE_NODES: usize = 5_000;

/// A position on the analysis board: stones set up, then a line of moves.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// `freestyle`, `standard`, `renju` or `caro`.
    pub rule: String,
    /// Side of the square board, 5..=26.
    pub size: u8,
    /// Black's setup stones (renju notation).
    #[serde(default)]
    pub black: Vec<String>,
    /// White's setup stones.
    #[serde(default)]
    pub white: Vec<String>,
    /// Who moves first after the setup.
    #[serde(default = "black")]
    pub to_move: Color,
    /// Moves played from the setup, colours alternating.
    #[serde(default)]
    pub moves: Vec<String>,
}

const fn black() -> Color {
    Color::Black
}

/// A checked position: the game at the end of the line.
struct Built {
    game: Game,
    size: Size,
}

fn parse_point(size: Size, text: &str, what: &str) -> Result<Pos, Error> {
    size.parse_pos(text).map_err(|e| {
        Error::BadRequest(format!(
            "{what}: cannot read the point {:?}: {e}",
            clip(text)
        ))
    })
}

/// At most 16 characters of a user's text, for an error message.
fn clip(text: &str) -> String {
    text.chars().take(16).collect()
}

/// The tree's configuration and setup from a request (its `moves` are not looked at).
fn setup_of(req: &PositionRequest) -> Result<(GameConfig, Setup), Error> {
    let rule: Rule = req
        .rule
        .parse()
        .map_err(|e: wuzi_rules::rule::ParseRuleError| Error::BadRequest(e.to_string()))?;
    if !(5..=26).contains(&req.size) {
        return Err(Error::BadRequest(format!(
            "the board size must be 5 to 26, not {}",
            req.size
        )));
    }
    let size = Size::square(req.size).map_err(|e| Error::BadRequest(e.to_string()))?;
    let mut config = GameConfig::new(rule, size);
    config.first = req.to_move;
    config
        .validate()
        .map_err(|e| Error::BadRequest(e.to_string()))?;
    let cells = size.cells();
    if req.black.len() + req.white.len() + req.moves.len() > cells {
        return Err(Error::BadRequest(format!(
            "more stones than the {cells} points of the board"
        )));
    }
    let black = req
        .black
        .iter()
        .map(|t| parse_point(size, t, "black setup stone"))
        .collect::<Result<Vec<_>, _>>()?;
    let white = req
        .white
        .iter()
        .map(|t| parse_point(size, t, "white setup stone"))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((config, Setup { black, white }))
}

/// Judges a position by the rules; the error says which stone or move is wrong.
fn build(req: &PositionRequest) -> Result<Built, Error> {
    let (config, setup) = setup_of(req)?;
    let size = config.size;
    let tree = GameTree::with_setup(config, setup);
    let mut game = tree
        .position(tree.root())
        .map_err(|e| Error::BadRequest(format!("setup: {e}")))?;
    for (i, text) in req.moves.iter().enumerate() {
        let pos = parse_point(size, text, &format!("move {}", i + 1))?;
        game.try_play(pos).map_err(|e| {
            Error::BadRequest(format!(
                "move {} ({}) cannot be played: {e}",
                i + 1,
                size.notation(pos)
            ))
        })?;
    }
    Ok(Built { game, size })
}

/// The strongest shape one stone makes at a point, of those the threat map shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ThreatKind {
    /// `_XX*X_`: an open three (one more stone makes a straight four).
    OpenThree,
    /// `OXXX*_`: a four (one completion).
    Four,
    /// `_XXX*_`, or two fours at once: a five cannot be stopped.
    OpenFour,
    /// `XX*XX`: a winning row.
    Five,
}

/// A point of the threat map.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ThreatPoint {
    /// Where.
    pub point: PointView,
    /// What a stone there makes.
    pub kind: ThreatKind,
}

/// Both sides' threat maps.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ThreatMap {
    /// Points where a black stone makes a threat.
    pub black: Vec<ThreatPoint>,
    /// Points where a white stone makes a threat.
    pub white: Vec<ThreatPoint>,
}

/// A forbidden point.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ForbiddenPoint {
    /// Where.
    pub point: PointView,
    /// Why.
    pub kind: ForbiddenKind,
}

/// A candidate move of the engine with its ordering score (the heat map).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Candidate {
    /// Where.
    pub point: PointView,
    /// The move-ordering score (higher is tried first).
    pub score: i32,
}

/// `POST /api/analysis/position` answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PositionView {
    /// Who is to move.
    pub side_to_move: Color,
    /// The result, if the line ended the game (a sentence), else `None`.
    pub result: Option<String>,
    /// The winner, when the game is over and someone won.
    pub winner: Option<Color>,
    /// The threat maps.
    pub threats: ThreatMap,
    /// Black's forbidden points (renju only; empty otherwise).
    pub forbidden: Vec<ForbiddenPoint>,
    /// The engine's candidate moves, best first (none when the game is over).
    pub candidates: Vec<Candidate>,
}

/// The threat a `color` stone makes at `pos`, over its four lines; `None` for nothing
/// on the map. Under renju Black's forbidden points (`forbidden`) make nothing but a
/// five: a stone there loses.
fn threat_at(board: &PatternBoard, pos: Pos, color: Color, forbidden: bool) -> Option<ThreatKind> {
    let i = idx(pos);
    let patterns: Vec<Pattern> = (0..4).map(|d| board.pattern(i, color, d)).collect();
    if patterns.contains(&Pattern::Five) {
        return Some(ThreatKind::Five);
    }
    if forbidden {
        return None;
    }
    let fours = patterns
        .iter()
        .filter(|&&p| p == Pattern::Block4 || p == Pattern::Flex4)
        .count();
    if patterns.contains(&Pattern::Flex4) || patterns.contains(&Pattern::DoubleFour) || fours >= 2 {
        return Some(ThreatKind::OpenFour);
    }
    if fours == 1 {
        return Some(ThreatKind::Four);
    }
    if patterns.contains(&Pattern::Flex3) {
        return Some(ThreatKind::OpenThree);
    }
    None
}

fn describe(built: &Built) -> PositionView {
    let game = &built.game;
    let size = built.size;
    let forbidden: Vec<ForbiddenPoint> = if game.rule() == Rule::Renju && !game.is_over() {
        game.forbidden_points()
            .into_iter()
            .map(|(p, kind)| ForbiddenPoint {
                point: PointView::new(p, size),
                kind,
            })
            .collect()
    } else {
        Vec::new()
    };
    let mut threats = ThreatMap::default();
    let mut candidates = Vec::new();
    if !game.is_over() {
        let position = Position::from_game(game);
        let board = PatternBoard::new(&position);
        for p in size.points() {
            if game.board().get(p) != wuzi_rules::Cell::Empty {
                continue;
            }
            let black_forbidden = forbidden
                .iter()
                .any(|f| f.point.x == p.x && f.point.y == p.y);
            if let Some(kind) = threat_at(&board, p, Color::Black, black_forbidden) {
                threats.black.push(ThreatPoint {
                    point: PointView::new(p, size),
                    kind,
                });
            }
            if let Some(kind) = threat_at(&board, p, Color::White, false) {
                threats.white.push(ThreatPoint {
                    point: PointView::new(p, size),
                    kind,
                });
            }
            let i = idx(p);
            let mover_forbidden = game.side_to_move() == Color::Black && black_forbidden;
            if board.is_candidate(i) && !mover_forbidden {
                candidates.push((order_score(&board, i), p));
            }
        }
        candidates.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        candidates.truncate(MAX_CANDIDATES);
    }
    PositionView {
        side_to_move: game.side_to_move(),
        result: game.result().map(|r| r.describe(size)),
        winner: game.result().and_then(|r| r.winner),
        threats,
        forbidden,
        candidates: candidates
            .into_iter()
            .map(|(score, p)| Candidate {
                point: PointView::new(p, size),
                score,
            })
            .collect(),
    }
}

/// `POST /api/analysis/position` body.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionOnly {
    /// The position.
    pub position: PositionRequest,
}

async fn position(ApiJson(req): ApiJson<PositionOnly>) -> Result<ApiJson<PositionView>, Error> {
    let built = build(&req.position)?;
    Ok(ApiJson(describe(&built)))
}

/// A position the engine may search: the game must go on.
fn searchable(built: &Built) -> Result<Position, Error> {
    if let Some(r) = built.game.result() {
        return Err(Error::GameOver(format!(
            "the game is over ({}); there is nothing to analyse",
            r.describe(built.size)
        )));
    }
    Ok(Position::from_game(&built.game))
}

/// Raises a search's stop flag when dropped (the client went away).
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// `POST /api/analysis/stream` body.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StreamRequest {
    /// The position.
    pub position: PositionRequest,
    /// How many best lines, 1..=5 (default 1).
    #[serde(default)]
    pub multipv: Option<usize>,
    /// Thinking time (default 10 s, at most 30 s).
    #[serde(default)]
    pub time_ms: Option<u64>,
}

/// One line of a live analysis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LineView {
    /// 1 = the best line.
    pub rank: usize,
    /// Depth completed.
    pub depth: u32,
    /// Score for the side to move.
    pub score: ScoreView,
    /// The score as text.
    pub score_text: String,
    /// The moves, first first.
    pub pv: Vec<PointView>,
    /// Nodes so far (the whole search).
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Time so far.
    pub time_ms: u64,
}

/// A message of the live analysis stream, one JSON object a line.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum StreamMsg {
    /// The search is queued: `ahead` jobs start before it.
    Queued {
        /// Jobs ahead.
        ahead: usize,
    },
    /// A line was searched deeper.
    Line(LineView),
    /// The search ended.
    Done {
        /// Depth completed.
        depth: u32,
        /// Nodes searched.
        nodes: u64,
        /// Time spent.
        time_ms: u64,
    },
}

fn line_of(info: &SearchInfo, size: Size) -> LineView {
    LineView {
        rank: info.multipv.max(1),
        depth: info.depth,
        score: info.score.into(),
        score_text: score_text(info.score),
        pv: info.pv.iter().map(|&p| PointView::new(p, size)).collect(),
        nodes: info.nodes,
        nps: info.nps,
        time_ms: info.time.as_millis() as u64,
    }
}

fn ndjson(msg: &StreamMsg) -> String {
    let mut s = serde_json::to_string(msg).unwrap_or_default();
    s.push('\n');
    s
}

async fn stream(
    State(hub): State<Arc<Hub>>,
    ClientAddr(client): ClientAddr,
    ApiJson(req): ApiJson<StreamRequest>,
) -> Result<Response, Error> {
    let multipv = req.multipv.unwrap_or(1);
    if !(1..=5).contains(&multipv) {
        return Err(Error::BadRequest(format!(
            "multipv must be 1 to 5, not {multipv}"
        )));
    }
    let built = build(&req.position)?;
    let position = searchable(&built)?;
    let ms = req
        .time_ms
        .unwrap_or(DEFAULT_STREAM_MS)
        .clamp(50, MAX_STREAM_MS);
    let guard = hub.client_analysis(client)?;
    let size = built.size;
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    let info_tx = tx.clone();
    let stop = Arc::new(AtomicBool::new(false));
    let job = Job {
        position,
        searcher: Searcher::Full,
        limits: SearchLimits {
            time: Some(Duration::from_millis(ms)),
            multipv,
            ..SearchLimits::default()
        },
        stop: Arc::clone(&stop),
        on_info: Box::new(move |info| {
            let _ = info_tx.send(ndjson(&StreamMsg::Line(line_of(info, size))));
        }),
    };
    let ticket = hub
        .engine()
        .submit(job, JobClass::Analysis, Duration::from_millis(ms))?;
    let queued = ndjson(&StreamMsg::Queued {
        ahead: ticket.ahead,
    });
    tokio::spawn(async move {
        if let Ok(r) = ticket.answer.await {
            let _ = tx.send(ndjson(&StreamMsg::Done {
                depth: r.depth,
                nodes: r.nodes,
                time_ms: r.time.as_millis() as u64,
            }));
        }
    });
    // The guards live as long as the response body: dropping it (the client closed the
    // connection) stops the search and frees the client's analysis.
    let keep = (StopOnDrop(stop), guard);
    let lines = futures_util::stream::unfold((rx, keep), |(mut rx, keep)| async move {
        let line = rx.recv().await?;
        Some((line, (rx, keep)))
    });
    let body = futures_util::StreamExt::map(
        futures_util::StreamExt::chain(futures_util::stream::once(async { queued }), lines),
        Ok::<_, std::convert::Infallible>,
    );
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-ndjson"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        Body::from_stream(body),
    )
        .into_response())
}

/// `POST /api/analysis/solve` body.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveRequest {
    /// The position.
    pub position: PositionRequest,
    /// `vcf` or `vct`.
    pub kind: SolveKind,
    /// The attacker (default: the side to move). The other side is taken to pass.
    #[serde(default)]
    pub side: Option<Color>,
    /// Time budget (default 3 s, at most 10 s).
    #[serde(default)]
    pub time_ms: Option<u64>,
}

/// Which threat search, in a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SolveKind {
    /// Continuous fours.
    Vcf,
    /// Continuous threats.
    Vct,
}

/// `POST /api/analysis/solve` answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolveView {
    /// Which search.
    pub kind: SolveKind,
    /// The attacker.
    pub side: Color,
    /// Whether a win was found.
    pub found: bool,
    /// The winning line, attacker first, moves alternating (empty when not found).
    pub line: Vec<PointView>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub time_ms: u64,
    /// When not found: whether the search finished (no win within its depth) or ran out
    /// of time.
    pub complete: bool,
}

async fn solve(
    State(hub): State<Arc<Hub>>,
    ClientAddr(client): ClientAddr,
    ApiJson(req): ApiJson<SolveRequest>,
) -> Result<ApiJson<SolveView>, Error> {
    let built = build(&req.position)?;
    searchable(&built)?;
    let side = req.side.unwrap_or(built.game.side_to_move());
    let position = if side == built.game.side_to_move() {
        Position::from_game(&built.game)
    } else {
        Position::from_board(built.game.config(), built.game.board(), side)
    };
    let ms = req
        .time_ms
        .unwrap_or(DEFAULT_SOLVE_MS)
        .clamp(50, MAX_SOLVE_MS);
    let _guard = hub.client_analysis(client)?;
    let stop = Arc::new(AtomicBool::new(false));
    let _stop = StopOnDrop(Arc::clone(&stop));
    let job = Job {
        position,
        searcher: Searcher::Threats(match req.kind {
            SolveKind::Vcf => ThreatSearch::Vcf,
            SolveKind::Vct => ThreatSearch::Vct,
        }),
        limits: SearchLimits::per_move(Duration::from_millis(ms)),
        stop,
        on_info: Box::new(|_| {}),
    };
    let ticket = hub
        .engine()
        .submit(job, JobClass::Analysis, Duration::from_millis(ms))?;
    let r = ticket
        .answer
        .await
        .map_err(|_| Error::internal("the threat search was dropped"))?;
    let found = !r.pv.is_empty();
    Ok(ApiJson(SolveView {
        kind: req.kind,
        side,
        found,
        line: r
            .pv
            .iter()
            .map(|&p| PointView::new(p, built.size))
            .collect(),
        nodes: r.nodes,
        time_ms: r.time.as_millis() as u64,
        complete: found || r.depth > 0,
    }))
}

/// A node of a tree of variations, in a flat list: each node after its parent.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TreeNode {
    /// Index of the parent in the list; `None` for a child of the root (the setup).
    pub parent: Option<usize>,
    /// The move (renju notation); its colour follows from the line.
    #[serde(rename = "move")]
    pub mv: String,
    /// A comment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

/// A tree of variations: its root position (setup only) and its nodes in pre-order,
/// children in order (the first is the main line).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TreeView {
    /// The root position (`moves` must be empty).
    pub position: PositionRequest,
    /// The nodes.
    pub nodes: Vec<TreeNode>,
    /// A comment on the root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

/// `POST /api/analysis/sgf` answer.
#[derive(Clone, Debug, Serialize)]
pub struct SgfView {
    /// The SGF text.
    pub sgf: String,
}

pub(crate) fn tree_of(view: &TreeView) -> Result<GameTree, Error> {
    if !view.position.moves.is_empty() {
        return Err(Error::BadRequest(
            "the root position of a tree has no moves; put them in nodes".into(),
        ));
    }
    if view.nodes.len() > MAX_TREE_NODES {
        return Err(Error::BadRequest(format!(
            "a tree of at most {MAX_TREE_NODES} nodes"
        )));
    }
    let (config, setup) = setup_of(&view.position)?;
    let size = config.size;
    let mut tree = GameTree::with_setup(config, setup);
    tree.position(tree.root())
        .map_err(|e| Error::BadRequest(format!("setup: {e}")))?;
    let root = tree.root();
    tree.set_comment(root, view.comment.clone())
        .map_err(|e| Error::BadRequest(e.to_string()))?;
    let mut ids: Vec<NodeId> = Vec::with_capacity(view.nodes.len());
    for (i, node) in view.nodes.iter().enumerate() {
        let parent = match node.parent {
            None => root,
            Some(p) if p < i => ids[p],
            Some(p) => {
                return Err(Error::BadRequest(format!(
                    "node {i}: its parent {p} does not come before it"
                )));
            }
        };
        let pos = parse_point(size, &node.mv, &format!("node {i}"))?;
        let id = tree
            .play(parent, pos)
            .map_err(|e| Error::BadRequest(format!("node {i}: {e}")))?;
        tree.set_comment(id, node.comment.clone())
            .map_err(|e| Error::BadRequest(e.to_string()))?;
        ids.push(id);
    }
    Ok(tree)
}

async fn to_sgf(ApiJson(view): ApiJson<TreeView>) -> Result<ApiJson<SgfView>, Error> {
    let tree = tree_of(&view)?;
    let sgf = sgf::write_tree(&tree).map_err(|e| Error::BadRequest(e.to_string()))?;
    Ok(ApiJson(SgfView { sgf }))
}

/// `POST /api/analysis/tree` body.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SgfRequest {
    /// SGF text.
    pub sgf: String,
}

fn view_of(tree: &GameTree) -> Result<TreeView, Error> {
    let config = tree.config();
    let size = config.size;
    if !size.is_square() || !(5..=26).contains(&size.width()) {
        return Err(Error::BadRecord(format!(
            "the analysis board is square, 5 to 26 lines; this record is {}×{}",
            size.width(),
            size.height()
        )));
    }
    if !config.variant.walls().is_empty() {
        return Err(Error::BadRecord(
            "the analysis board has no walls (rock theme)".into(),
        ));
    }
    tree.validate()
        .map_err(|e| Error::BadRecord(e.to_string()))?;
    let name = |p: Pos| size.notation(p).to_string();
    let setup = tree.setup();
    let mut nodes = Vec::new();
    let mut index: std::collections::HashMap<NodeId, usize> = std::collections::HashMap::new();
    for id in tree.nodes() {
        let Some(Move { pos, .. }) = tree.mv(id) else {
            continue;
        };
        let parent = tree.parent(id).and_then(|p| index.get(&p).copied());
        index.insert(id, nodes.len());
        nodes.push(TreeNode {
            parent,
            mv: name(pos),
            comment: tree.comment(id).map(str::to_owned),
        });
    }
    Ok(TreeView {
        position: PositionRequest {
            rule: config.rule.to_string(),
            size: size.width(),
            black: setup.black.iter().map(|&p| name(p)).collect(),
            white: setup.white.iter().map(|&p| name(p)).collect(),
            to_move: config.first,
            moves: Vec::new(),
        },
        nodes,
        comment: tree.comment(tree.root()).map(str::to_owned),
    })
}

async fn from_sgf(ApiJson(req): ApiJson<SgfRequest>) -> Result<ApiJson<TreeView>, Error> {
    let tree = sgf::read_tree(&req.sgf).map_err(|e| Error::BadRecord(e.to_string()))?;
    view_of(&tree).map(ApiJson)
}

/// Most bytes of a RenLib library (its base64 text fits [`crate::RENLIB_BODY_LIMIT`]).
pub const MAX_RENLIB_BYTES: usize = 1 << 20;
/// Most moves of a library sent to the board.
pub const MAX_RENLIB_NODES: usize = 200_000;

/// `POST /api/analysis/renlib` body.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RenLibRequest {
    /// The file's bytes, base64 (standard alphabet, padding optional).
    pub data: String,
}

/// `POST /api/analysis/renlib` answer: the tree (renju, 15×15, Black first) and what
/// the reader left out.
#[derive(Clone, Debug, Serialize)]
pub struct RenLibView {
    /// The tree, as `/api/analysis/tree` answers it; its comments are plain text.
    #[serde(flatten)]
    pub tree: TreeView,
    /// The header's version (`"3.0"`, `"3.4"`), `null` for a file without a header.
    pub version: Option<String>,
    /// Board labels (nodes that are not moves) dropped.
    pub labels: usize,
    /// Moves dropped: passes, moves the rules do not allow (on an occupied point, after
    /// the game ended), and everything under them.
    pub skipped: usize,
}

/// The moves of `tree` that the rules allow, in pre-order (children in order), with
/// their parents' indices; moves that are not (and their subtrees) are counted.
fn legal_nodes(tree: &GameTree) -> Result<(Vec<TreeNode>, usize), Error> {
    let size = tree.config().size;
    let mut game = Game::new(tree.config().clone()).map_err(Error::internal)?;
    let mut nodes: Vec<TreeNode> = Vec::new();
    let mut dropped = 0;
    // (node, parent index, depth of its parent): depth tells how far to undo.
    let mut stack: Vec<(NodeId, Option<usize>, usize)> = tree
        .children(tree.root())
        .iter()
        .rev()
        .map(|&c| (c, None, 0))
        .collect();
    while let Some((id, parent, depth)) = stack.pop() {
        while game.ply() > depth {
            game.undo();
        }
        let Some(Move { pos, .. }) = tree.mv(id) else {
            continue;
        };
        if game.try_play(pos).is_err() {
            dropped += subtree_len(tree, id);
            continue;
        }
        if nodes.len() == MAX_RENLIB_NODES {
            return Err(Error::BadRecord(format!(
                "this library has more than {MAX_RENLIB_NODES} moves: too many for the board"
            )));
        }
        let index = nodes.len();
        nodes.push(TreeNode {
            parent,
            mv: size.notation(pos).to_string(),
            comment: tree
                .comment(id)
                .map(str::to_owned)
                .filter(|c| !c.is_empty()),
        });
        for &c in tree.children(id).iter().rev() {
            stack.push((c, Some(index), depth + 1));
        }
    }
    Ok((nodes, dropped))
}

/// The nodes of the subtree under (and with) `id`.
fn subtree_len(tree: &GameTree, id: NodeId) -> usize {
    let mut n = 0;
    let mut stack = vec![id];
    while let Some(x) = stack.pop() {
        n += 1;
        stack.extend_from_slice(tree.children(x));
    }
    n
}

async fn from_renlib(
    req: Result<ApiJson<RenLibRequest>, Error>,
) -> Result<ApiJson<RenLibView>, Error> {
    use base64::Engine as _;
    let ApiJson(req) = req.map_err(|e| match e {
        Error::TooLarge(_) => Error::TooLarge(format!(
            "a library may have at most {} KiB",
            MAX_RENLIB_BYTES / 1024
        )),
        other => other,
    })?;
    let text: String = req
        .data
        .chars()
        .filter(|c| !c.is_ascii_whitespace())
        .collect();
    let bytes = base64::engine::general_purpose::STANDARD_NO_PAD
        .decode(text.trim_end_matches('='))
        .map_err(|e| Error::BadRequest(format!("data: not base64 ({e})")))?;
    if bytes.is_empty() {
        return Err(Error::BadRecord("the file is empty".into()));
    }
    if bytes.len() > MAX_RENLIB_BYTES {
        return Err(Error::TooLarge(format!(
            "the library is {} KiB; at most {} KiB",
            bytes.len().div_ceil(1024),
            MAX_RENLIB_BYTES / 1024
        )));
    }
    // Reading is quick (a pass over the bytes, and a replay of every move), but a large
    // library should not hold up the runtime's other requests.
    let view = tokio::task::spawn_blocking(move || -> Result<RenLibView, Error> {
        let lib = wuzi_rules::record::renlib::read(&bytes)
            .map_err(|e| Error::BadRecord(e.to_string()))?;
        let (nodes, dropped) = legal_nodes(&lib.tree)?;
        let name = |p: Pos| lib.tree.config().size.notation(p).to_string();
        let setup = lib.tree.setup();
        Ok(RenLibView {
            tree: TreeView {
                position: PositionRequest {
                    rule: lib.tree.config().rule.to_string(),
                    size: lib.tree.config().size.width(),
                    black: setup.black.iter().map(|&p| name(p)).collect(),
                    white: setup.white.iter().map(|&p| name(p)).collect(),
                    to_move: lib.tree.config().first,
                    moves: Vec::new(),
                },
                nodes,
                comment: lib
                    .tree
                    .comment(lib.tree.root())
                    .map(str::to_owned)
                    .filter(|c| !c.is_empty()),
            },
            version: lib.version.map(|(a, b)| format!("{a}.{b}")),
            labels: lib.labels,
            skipped: lib.skipped + dropped,
        })
    })
    .await
    .map_err(Error::internal)??;
    Ok(ApiJson(view))
}
