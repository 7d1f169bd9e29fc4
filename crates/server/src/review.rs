//! Post-game reviews: every position of a finished game analysed in the background, and
//! each move judged by the winning chance it lost.
//!
//! A review is one job per game, shared by everyone who asks ([`start`]); it runs on the
//! node that holds its lease in the store, as a lower class of engine job
//! ([`JobClass::Review`]: a review search never keeps a computer move, a hint or an
//! analysis from a worker). Each analysed position is stored as it comes, so a review
//! that stops (a restart, a node that dies) continues where it stopped: the node that
//! next claims it ([`take_over`]) analyses only the positions still missing.
//!
//! Per position (`k` stones on the board, the side to move to play) the review stores
//! ([`PositionEval`]): the engine's score, best move and line ([`SEARCH_MS`]), and a
//! forced win for the side to move proven by the threat solver: a VCF ([`VCF_MS`]), else
//! a VCT ([`VCT_MS`]). A 60-move game takes at most 61 × (0.7 + 0.1 + 0.15) s ≈ 58 s of
//! one worker, whatever the machine's load (the limits are times); measured, a 59-move game
//! took 27 s (`tests/review.rs`, the ignored `a_sixty_move_game_…`), as searches and
//! solvers often finish early.
//!
//! The judgement of a move is a pure function of the analyses before and after it
//! ([`build`]): the mover's winning chance before (from the score of the position it
//! played in) minus after (one minus the opponent's, in the position it left), called
//! the loss:
//!
//! | mark | loss of winning chance |
//! |---|---|
//! | best | the engine's own choice, or under 2 points |
//! | good | under 5 points |
//! | inaccuracy | 5 to 10 points |
//! | mistake | 10 to 20 points |
//! | blunder | 20 points or more |
//!
//! A move that gives the opponent a proven win it did not have (from a position the mover
//! had not lost) is a blunder whatever the scores read: it lost the game. A proven win
//! the mover had and let go is at least a mistake.
//!
//! (points = percentage points; the winning chance comes from the score as
//! [`Score::win_probability`] computes it, a proven win 100%.) A move's accuracy is
//! `103.1668 · e^(−0.04354 · loss in points) − 3.1669`, clamped to 0..100 (the curve
//! lichess uses); a player's accuracy is the mean over their moves.

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use wuzi_engine::{Position, Score, SearchLimits, SearchResult};
use wuzi_rules::{Color, EndReason, Game};

use crate::engine::{Job, JobClass, Searcher};
use crate::error::Error;
use crate::hub::{Hub, ServerMsg, now_ms};
use crate::id::GameId;
use crate::view::{PointView, ScoreView};

/// The engine's search of each position.
pub const SEARCH_MS: u64 = 700;
/// The threat solver's search for a VCF.
pub const VCF_MS: u64 = 100;
/// The threat solver's search for a VCT (when no VCF is found).
pub const VCT_MS: u64 = 150;
/// The time within which a review search is due: long, so that the pool's earliest-deadline
/// order puts moves, hints and analyses first.
const REVIEW_BUDGET: Duration = Duration::from_secs(60);
/// Reviews one client address may have started and still running.
pub const REVIEWS_PER_CLIENT: usize = 2;

/// Loss (in winning chance, 0..1) under which a move is still "best".
pub const BEST_LOSS: f32 = 0.02;
/// Loss under which a move is "good".
pub const GOOD_LOSS: f32 = 0.05;
/// Loss under which a move is an inaccuracy.
pub const INACCURACY_LOSS: f32 = 0.10;
/// Loss under which a move is a mistake (a blunder from here on).
pub const MISTAKE_LOSS: f32 = 0.20;

/// A forced win found by the threat solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ThreatKind {
    /// Victory by continuous fours.
    Vcf,
    /// Victory by continuous threats (fours and open threes).
    Vct,
}

/// A proven forced win for the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForcedWin {
    /// VCF or VCT.
    pub kind: ThreatKind,
    /// The winning line (attacker and defender alternate; the attacker's last move wins).
    pub line: Vec<PointView>,
}

/// The analysis of one position of the game, as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionEval {
    /// Stones on the board.
    pub ply: usize,
    /// The side to move.
    pub to_move: Color,
    /// The score for the side to move (for the last position of a game won or drawn on
    /// the board: the result).
    pub score: ScoreView,
    /// Black's winning chance in `0..1`.
    pub black_win_probability: f32,
    /// The engine's best move (none in a final position).
    pub best: Option<PointView>,
    /// The engine's line from here.
    pub pv: Vec<PointView>,
    /// Depth reached.
    pub depth: u32,
    /// A forced win for the side to move, proven by the threat solver.
    pub forced: Option<ForcedWin>,
}

/// How good a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// The engine's choice, or as good.
    Best,
    /// Lost little.
    Good,
    /// Lost some.
    Inaccuracy,
    /// Lost much.
    Mistake,
    /// Lost the game, or most of it.
    Blunder,
}

impl Mark {
    /// The mark of a move that lost `loss` winning chance (`engine_choice`: the engine's
    /// own best move).
    #[must_use]
    pub fn of(loss: f32, engine_choice: bool) -> Mark {
        if engine_choice || loss < BEST_LOSS {
            Mark::Best
        } else if loss < GOOD_LOSS {
            Mark::Good
        } else if loss < INACCURACY_LOSS {
            Mark::Inaccuracy
        } else if loss < MISTAKE_LOSS {
            Mark::Mistake
        } else {
            Mark::Blunder
        }
    }
}

/// What happened to a forced win at a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Moment {
    /// The mover had a forced win and played a move that lets it go.
    Missed,
    /// The move gives the opponent a forced win it did not have.
    Allowed,
}

/// A forced win missed or allowed at a move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForcedMoment {
    /// Missed or allowed.
    pub moment: Moment,
    /// Who wins by force (the mover when missed, the opponent when allowed).
    pub winner: Color,
    /// VCF or VCT.
    pub kind: ThreatKind,
    /// The winning line.
    pub line: Vec<PointView>,
}

/// A better move than the one played, with its line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Better {
    /// The move.
    pub point: PointView,
    /// The line it starts.
    pub line: Vec<PointView>,
}

/// The judgement of one move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveReview {
    /// The move's number (1 = the first stone).
    pub ply: usize,
    /// Whose stone.
    pub color: Color,
    /// Where.
    pub point: PointView,
    /// The mover's winning chance before the move.
    pub before: f32,
    /// The mover's winning chance after it.
    pub after: f32,
    /// The winning chance it lost (0 when it gained).
    pub loss: f32,
    /// The mark.
    pub mark: Mark,
    /// The engine's better move, unless this was the best.
    pub better: Option<Better>,
    /// A forced win missed or allowed by this move.
    pub forced: Option<ForcedMoment>,
}

/// Each player's accuracy, 0..100.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Accuracy {
    /// Black's.
    pub black: Option<f32>,
    /// White's.
    pub white: Option<f32>,
}

/// A review as clients see it (`GET /api/games/{id}/review`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewView {
    /// `running` or `done`.
    pub status: String,
    /// Positions analysed.
    pub analysed: usize,
    /// Positions to analyse (moves + 1).
    pub positions: usize,
    /// Black's winning chance in each position (index = stones on the board), `null`
    /// while not analysed.
    pub graph: Vec<Option<f32>>,
    /// The moves whose positions before and after are analysed, in order.
    pub moves: Vec<MoveReview>,
    /// Each player's accuracy over the moves judged so far.
    pub accuracy: Accuracy,
    /// The stored analysis of each position (`null` while not analysed).
    pub analysis: Vec<Option<PositionEval>>,
}

/// A review's progress, pushed on the game's WebSocket as a `review` message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ReviewProgress {
    /// Positions analysed.
    pub analysed: usize,
    /// Positions to analyse.
    pub positions: usize,
    /// Whether the review is complete.
    pub done: bool,
}

/// This node's running reviews, and the reviews each client started that still run.
#[derive(Debug, Default)]
pub struct Reviews {
    running: Mutex<HashSet<GameId>>,
    per_client: Mutex<HashMap<IpAddr, usize>>,
}

impl Reviews {
    fn running(&self) -> std::sync::MutexGuard<'_, HashSet<GameId>> {
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn clients(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, usize>> {
        self.per_client
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Reviews this node is running now.
    #[must_use]
    pub fn running_count(&self) -> usize {
        self.running().len()
    }
}

/// Frees a running review's places (the game's, its client's) when its task ends.
struct RunGuard {
    hub: Arc<Hub>,
    game: GameId,
    client: Option<IpAddr>,
}

impl Drop for RunGuard {
    fn drop(&mut self) {
        self.hub.reviews().running().remove(&self.game);
        if let Some(ip) = self.client {
            let mut map = self.hub.reviews().clients();
            if let Some(n) = map.get_mut(&ip) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    map.remove(&ip);
                }
            }
        }
    }
}

/// The finished game of `id` (an unfinished one, or one without moves, cannot be
/// reviewed).
async fn finished_game(hub: &Arc<Hub>, id: &GameId) -> Result<Game, Error> {
    let slot = hub.slot(id).await?;
    let game = slot.game_lock().await.game().clone();
    if !game.is_over() {
        return Err(Error::WrongPhase(
            "the game is not finished: a review starts once it has ended".into(),
        ));
    }
    if game.moves().is_empty() {
        return Err(Error::WrongPhase("the game has no moves to review".into()));
    }
    Ok(game)
}

/// Starts the review of the finished game `id`, or joins the one that runs (here or on
/// another node), or returns the finished one. `client` (the request's address) may
/// have [`REVIEWS_PER_CLIENT`] reviews started and still running.
pub async fn start(
    hub: &Arc<Hub>,
    id: &GameId,
    client: Option<IpAddr>,
) -> Result<ReviewView, Error> {
    let game = finished_game(hub, id).await?;
    let positions = game.moves().len() + 1;
    let row = hub
        .store()
        .open_review(id.clone(), positions as i64, now_ms())
        .await?;
    if !row.done && hub.reviews().running().insert(id.clone()) {
        let mut guard = RunGuard {
            hub: Arc::clone(hub),
            game: id.clone(),
            client: None,
        };
        if let Some(ip) = client {
            let mut map = hub.reviews().clients();
            let n = map.entry(ip).or_insert(0);
            if *n >= REVIEWS_PER_CLIENT {
                drop(map);
                drop(guard);
                return Err(Error::TooManyRequests(format!(
                    "you already have {REVIEWS_PER_CLIENT} reviews running; wait for one to finish"
                )));
            }
            *n += 1;
            guard.client = Some(ip);
        }
        if hub.store().claim_review(id.clone(), now_ms()).await? {
            tokio::spawn(run(Arc::clone(hub), id.clone(), game.clone(), guard));
        }
        // Else another node runs it: its positions show up in the store.
    }
    view(hub, id).await
}

/// The review of `id` as stored (`NotFound` when nobody asked for one).
pub async fn view(hub: &Arc<Hub>, id: &GameId) -> Result<ReviewView, Error> {
    let game = {
        let slot = hub.slot(id).await?;
        slot.game_lock().await.game().clone()
    };
    let row = hub.store().review(id.clone()).await?.ok_or_else(|| {
        Error::NotFound("this game has no review yet: POST to this address to start one".into())
    })?;
    let mut analysis: Vec<Option<PositionEval>> = vec![None; row.positions.max(0) as usize];
    for (ply, body) in &row.analysed {
        let Some(cell) = usize::try_from(*ply).ok().and_then(|p| analysis.get_mut(p)) else {
            continue;
        };
        match serde_json::from_str(body) {
            Ok(eval) => *cell = Some(eval),
            Err(e) => {
                tracing::warn!(error = %e, %id, ply, "a stored review position does not read")
            }
        }
    }
    Ok(build(&game, analysis, row.done))
}

/// Takes over the running reviews whose leases ran out (their node died or stopped,
/// this one included before a restart). Called by the node's heartbeat
/// ([`Hub::spawn_heartbeat`]), which also takes over the computer's moves.
pub async fn take_over(hub: &Arc<Hub>) {
    let orphans = match hub.store().orphan_reviews(now_ms()).await {
        Ok(o) => o,
        Err(e) => {
            tracing::warn!(error = %e, "cannot look for reviews to take over");
            return;
        }
    };
    for game in orphans {
        let Ok(id) = game.parse::<GameId>() else {
            continue;
        };
        if !hub.reviews().running().insert(id.clone()) {
            continue;
        }
        let guard = RunGuard {
            hub: Arc::clone(hub),
            game: id.clone(),
            client: None,
        };
        match hub.store().claim_review(id.clone(), now_ms()).await {
            Ok(true) => {}
            Ok(false) => continue,
            Err(e) => {
                tracing::warn!(error = %e, %id, "cannot claim a review");
                continue;
            }
        }
        match finished_game(hub, &id).await {
            Ok(game) => {
                tracing::info!(%id, "review taken over");
                tokio::spawn(run(Arc::clone(hub), id, game, guard));
            }
            // The game was deleted (or is no longer over): its review has nothing to
            // analyse, and would otherwise be looked at again at every heartbeat.
            Err(e @ (Error::NotFound(_) | Error::WrongPhase(_))) => {
                tracing::info!(reason = %e, %id, "review dropped");
                if let Err(e) = hub.store().drop_review(id.clone()).await {
                    tracing::warn!(error = %e, %id, "cannot drop a review");
                }
            }
            Err(e) => tracing::warn!(error = %e, %id, "a review's game cannot be read"),
        }
    }
}

/// Analyses the positions of `game` not stored yet, storing each as it comes, while this
/// node holds the review's lease; then marks the review done.
async fn run(hub: Arc<Hub>, id: GameId, game: Game, guard: RunGuard) {
    let _guard = guard;
    let positions = game.moves().len() + 1;
    let mut have: HashSet<usize> = match hub.store().review(id.clone()).await {
        Ok(Some(row)) => row
            .analysed
            .iter()
            .filter_map(|(p, _)| usize::try_from(*p).ok())
            .collect(),
        Ok(None) => return,
        Err(e) => {
            tracing::warn!(error = %e, %id, "cannot read a review");
            return;
        }
    };
    let started = std::time::Instant::now();
    for ply in 0..positions {
        if have.contains(&ply) {
            continue;
        }
        if hub.is_closing() {
            return;
        }
        let eval = match analyse(&hub, &game, ply).await {
            Ok(e) => e,
            Err(e) => {
                tracing::warn!(error = %e, %id, ply, "review search failed; the review stops");
                return;
            }
        };
        let body = match serde_json::to_string(&eval) {
            Ok(b) => b,
            Err(e) => {
                tracing::error!(error = %e, "a review position does not serialize");
                return;
            }
        };
        match hub
            .store()
            .store_review_position(id.clone(), ply as i64, body, now_ms())
            .await
        {
            Ok(true) => {}
            Ok(false) => {
                tracing::info!(%id, "another node holds this review now");
                return;
            }
            Err(e) => {
                tracing::warn!(error = %e, %id, "cannot store a review position; the review stops");
                return;
            }
        }
        have.insert(ply);
        push(&hub, &id, have.len(), positions, false).await;
    }
    if let Err(e) = hub.store().finish_review(id.clone(), now_ms()).await {
        tracing::warn!(error = %e, %id, "cannot mark a review done");
        return;
    }
    tracing::info!(%id, positions, secs = started.elapsed().as_secs_f32(), "review done");
    push(&hub, &id, positions, positions, true).await;
}

/// Tells the game's subscribers on this node how far the review is.
async fn push(hub: &Arc<Hub>, id: &GameId, analysed: usize, positions: usize, done: bool) {
    if let Ok(slot) = hub.slot(id).await {
        hub.broadcast(
            &slot,
            ServerMsg::Review(ReviewProgress {
                analysed,
                positions,
                done,
            }),
        );
    }
}

/// One search of the pool, as a review job.
async fn search(
    hub: &Hub,
    position: Position,
    searcher: Searcher,
    ms: u64,
) -> Result<SearchResult, Error> {
    let job = Job {
        position,
        searcher,
        limits: SearchLimits::per_move(Duration::from_millis(ms)),
        stop: Arc::default(),
        on_info: Box::new(|_| {}),
    };
    let ticket = hub.engine().submit(job, JobClass::Review, REVIEW_BUDGET)?;
    ticket
        .answer
        .await
        .map_err(|_| Error::internal("the engine dropped a review search"))
}

/// Whether the game ended on the board in its last position (a five, the bubbles, a
/// forbidden point, a full board), so that position has a result and no search.
fn ended_on_board(game: &Game) -> bool {
    game.result().is_some_and(|r| {
        matches!(
            r.reason,
            EndReason::Five { .. }
                | EndReason::Bubbles { .. }
                | EndReason::Forbidden { .. }
                | EndReason::BoardFull
        )
    })
}

/// Analyses the position of `game` with `ply` stones.
async fn analyse(hub: &Hub, game: &Game, ply: usize) -> Result<PositionEval, Error> {
    let size = game.size();
    let points = |line: &[wuzi_rules::Pos]| -> Vec<PointView> {
        line.iter().map(|&p| PointView::new(p, size)).collect()
    };
    let to_move = match ply.checked_sub(1) {
        Some(i) => game.moves()[i].color.opponent(),
        None => game.start_color(),
    };
    let last = ply == game.moves().len();
    if last && ended_on_board(game) {
        let winner = game.result().and_then(|r| r.winner);
        let score = match winner {
            Some(c) if c == to_move => Score::Win(0),
            Some(_) => Score::Loss(0),
            None => Score::Eval(0),
        };
        return Ok(PositionEval {
            ply,
            to_move,
            score: score.into(),
            black_win_probability: black_chance(score, to_move),
            best: None,
            pv: Vec::new(),
            depth: 0,
            forced: None,
        });
    }
    let mut at = game.clone();
    at.go_to(ply)
        .map_err(|e| Error::internal(format!("review: {e}")))?;
    // A game ended by resignation or time is not over on the board.
    let position = Position::from_game(&at);
    let result = search(hub, position.clone(), Searcher::Full, SEARCH_MS).await?;
    let vcf = search(
        hub,
        position.clone(),
        Searcher::Threats(crate::engine::ThreatSearch::Vcf),
        VCF_MS,
    )
    .await?;
    let forced = if vcf.pv.is_empty() {
        let vct = search(
            hub,
            position,
            Searcher::Threats(crate::engine::ThreatSearch::Vct),
            VCT_MS,
        )
        .await?;
        (!vct.pv.is_empty()).then(|| ForcedWin {
            kind: ThreatKind::Vct,
            line: points(&vct.pv),
        })
    } else {
        Some(ForcedWin {
            kind: ThreatKind::Vcf,
            line: points(&vcf.pv),
        })
    };
    // A proven win the search did not see is still a win.
    let score = match (result.score, &forced) {
        (Score::Win(_), _) | (_, None) => result.score,
        (_, Some(f)) => Score::Win(f.line.len() as u32),
    };
    Ok(PositionEval {
        ply,
        to_move,
        score: score.into(),
        black_win_probability: black_chance(score, to_move),
        best: result.best.map(|p| PointView::new(p, size)),
        pv: points(&result.pv),
        depth: result.depth,
        forced,
    })
}

fn to_score(s: &ScoreView) -> Score {
    match *s {
        ScoreView::Eval { value } => Score::Eval(value),
        ScoreView::Win { plies } => Score::Win(plies),
        ScoreView::Loss { plies } => Score::Loss(plies),
    }
}

fn black_chance(score: Score, to_move: Color) -> f32 {
    let p = score.win_probability();
    if to_move == Color::Black { p } else { 1.0 - p }
}

/// The winning chance of `color` in an analysed position.
fn chance_of(eval: &PositionEval, color: Color) -> f32 {
    if color == Color::Black {
        eval.black_win_probability
    } else {
        1.0 - eval.black_win_probability
    }
}

/// A move's accuracy (0..100) from the winning chance it lost (0..1).
#[must_use]
pub fn move_accuracy(loss: f32) -> f32 {
    (103.166_8 * (-0.043_54 * loss * 100.0).exp() - 3.166_9).clamp(0.0, 100.0)
}

/// The review of `game` from the analyses of its positions so far (index = stones on the
/// board): the graph, each move whose positions before and after are known, judged,
/// and the players' accuracy.
#[must_use]
pub fn build(game: &Game, analysis: Vec<Option<PositionEval>>, done: bool) -> ReviewView {
    let moves = game.moves();
    let at = |k: usize| analysis.get(k).and_then(Option::as_ref);
    let mut reviews = Vec::new();
    // Whether the forced win of the side to move at each position was kept by its move
    // (so the opponent's answer that follows does not "allow" a win it already had).
    let mut missed_at: HashSet<usize> = HashSet::new();
    for (i, mv) in moves.iter().enumerate() {
        let (Some(before), Some(after)) = (at(i), at(i + 1)) else {
            continue;
        };
        let mover = mv.color;
        let size = game.size();
        let point = PointView::new(mv.pos, size);
        let p_before = chance_of(before, mover);
        let p_after = chance_of(after, mover);
        let engine_choice = before.best.as_ref() == Some(&point);
        let loss = if engine_choice {
            0.0
        } else {
            (p_before - p_after).max(0.0)
        };
        let won_here = i + 1 == moves.len()
            && game.result().is_some_and(|r| r.winner == Some(mover))
            && ended_on_board(game);
        // Missed: the mover had a proven win, played another move, and neither the
        // position it left (the opponent proven lost) nor the one it gets back (a proven
        // win again) keeps it.
        let missed = before.forced.as_ref().filter(|f| {
            let first = f.line.first() != Some(&point);
            let lost_for_opponent = matches!(to_score(&after.score), Score::Loss(_));
            let again = at(i + 2).is_some_and(|e| e.forced.is_some());
            let unknown = i + 2 < analysis.len() && at(i + 2).is_none();
            first && !won_here && !lost_for_opponent && !again && !unknown
        });
        if missed.is_some() {
            missed_at.insert(i);
        }
        // Allowed: after the move the opponent has a proven win, which it did not have
        // already (a win it had at its last move and kept), and the mover was not lost.
        let opponent_had = i >= 1
            && at(i - 1).is_some_and(|e| e.forced.is_some())
            && !missed_at.contains(&(i - 1));
        let allowed = after
            .forced
            .as_ref()
            .filter(|_| !opponent_had && !matches!(to_score(&before.score), Score::Loss(_)));
        let forced = match (missed, allowed) {
            (Some(f), _) => Some(ForcedMoment {
                moment: Moment::Missed,
                winner: mover,
                kind: f.kind,
                line: f.line.clone(),
            }),
            (None, Some(f)) => Some(ForcedMoment {
                moment: Moment::Allowed,
                winner: mover.opponent(),
                kind: f.kind,
                line: f.line.clone(),
            }),
            (None, None) => None,
        };
        // A forced win allowed lost the game; one missed is never less than a mistake,
        // however the scores read.
        let floor = match &forced {
            Some(f) if f.moment == Moment::Allowed => Mark::Blunder,
            Some(_) => Mark::Mistake,
            None => Mark::Best,
        };
        let mark = Mark::of(loss, engine_choice).max(floor);
        let better = if mark == Mark::Best {
            None
        } else if let Some(f) = missed {
            f.line.first().map(|p| Better {
                point: p.clone(),
                line: f.line.clone(),
            })
        } else {
            before.best.clone().map(|p| Better {
                point: p,
                line: before.pv.clone(),
            })
        };
        reviews.push(MoveReview {
            ply: i + 1,
            color: mover,
            point,
            before: p_before,
            after: p_after,
            loss,
            mark,
            better,
            forced,
        });
    }
    let mean = |c: Color| {
        let xs: Vec<f32> = reviews
            .iter()
            .filter(|m| m.color == c)
            .map(|m| move_accuracy(m.loss))
            .collect();
        (!xs.is_empty()).then(|| xs.iter().sum::<f32>() / xs.len() as f32)
    };
    ReviewView {
        status: if done { "done" } else { "running" }.into(),
        analysed: analysis.iter().filter(|a| a.is_some()).count(),
        positions: analysis.len(),
        graph: analysis
            .iter()
            .map(|a| a.as_ref().map(|e| e.black_win_probability))
            .collect(),
        accuracy: Accuracy {
            black: mean(Color::Black),
            white: mean(Color::White),
        },
        moves: reviews,
        analysis,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_the_documented_thresholds() {
        assert_eq!(Mark::of(0.5, true), Mark::Best);
        assert_eq!(Mark::of(0.019, false), Mark::Best);
        assert_eq!(Mark::of(0.03, false), Mark::Good);
        assert_eq!(Mark::of(0.07, false), Mark::Inaccuracy);
        assert_eq!(Mark::of(0.15, false), Mark::Mistake);
        assert_eq!(Mark::of(0.2, false), Mark::Blunder);
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!(move_accuracy(0.3) < 30.0);
        assert_eq!(move_accuracy(1.0), 0.0);
    }
}
