//! `/api/puzzles`: puzzles to solve (see [`crate::puzzles`]) and the rating of tries.
//!
//! - `GET /api/puzzles`: how many puzzles of each theme, and the requester's rating.
//! - `GET /api/puzzles/next?theme=vcf`: a puzzle the requester has not tried, nearest to
//!   their rating (any theme without `theme`).
//! - `GET /api/puzzles/batch?theme=vcf&count=10`: up to `count` (1 to 20) such puzzles,
//!   nearest first, for the page to keep for when it is offline.
//! - `GET /api/puzzles/{id}`: one puzzle (a shared link).
//! - `POST /api/puzzles/{id}/attempt` `{"solved": true}`: the requester's try; the first
//!   try of a puzzle rates the requester and the puzzle, later ones change nothing.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, Query, State};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use wuzi_engine::puzzle::Theme;

use crate::error::{ApiJson, Error};
use crate::hub::{Hub, now_ms};
use crate::identity::Requester;
use crate::puzzles::{PlayerView, PuzzleView};

/// The routes of puzzles.
pub fn router() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/puzzles", get(overview))
        .route("/api/puzzles/next", get(next))
        .route("/api/puzzles/batch", get(batch))
        .route("/api/puzzles/{id}", get(show))
        .route("/api/puzzles/{id}/attempt", post(attempt))
}

/// `GET /api/puzzles` answer.
#[derive(Debug, Serialize)]
pub struct Overview {
    /// Puzzles by theme.
    pub themes: Vec<ThemeCount>,
    /// The requester's rating.
    pub player: PlayerView,
}

/// Puzzles of one theme.
#[derive(Debug, Serialize)]
pub struct ThemeCount {
    /// The theme.
    pub theme: String,
    /// How many.
    pub count: i64,
}

/// A puzzle with the requester's rating.
#[derive(Debug, Serialize)]
pub struct PuzzleAnswer {
    /// The puzzle.
    pub puzzle: PuzzleView,
    /// The requester's rating.
    pub player: PlayerView,
}

/// `GET /api/puzzles/next` query.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NextQuery {
    /// Only this theme.
    pub theme: Option<String>,
}

/// `GET /api/puzzles/batch` query.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatchQuery {
    /// Only this theme.
    pub theme: Option<String>,
    /// How many, 1 to 20 (default 10).
    pub count: Option<i64>,
}

/// Puzzles with the requester's rating.
#[derive(Debug, Serialize)]
pub struct BatchAnswer {
    /// The puzzles, nearest to the requester's rating first.
    pub puzzles: Vec<PuzzleView>,
    /// The requester's rating.
    pub player: PlayerView,
}

/// `POST /api/puzzles/{id}/attempt` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttemptRequest {
    /// Whether the puzzle was solved without a wrong move.
    pub solved: bool,
}

/// `POST /api/puzzles/{id}/attempt` answer.
#[derive(Debug, Serialize)]
pub struct AttemptAnswer {
    /// Whether this try was rated (the first try of the puzzle).
    pub counted: bool,
    /// The requester's rating change.
    pub change: i64,
    /// The requester afterwards.
    pub player: PlayerView,
    /// The puzzle's rating afterwards.
    pub puzzle_rating: i64,
}

fn check_id(id: &str) -> Result<String, Error> {
    if id.len() == 16 && id.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(id.to_ascii_lowercase())
    } else {
        Err(Error::BadRequest(format!(
            "{id:?} is not a puzzle id (16 hex digits)"
        )))
    }
}

async fn player_of(
    hub: &Hub,
    who: Option<&crate::identity::IdentityId>,
) -> Result<PlayerView, Error> {
    Ok(match who {
        Some(w) => PlayerView::from(&hub.store().puzzle_player(w.clone()).await?),
        None => PlayerView::from(&crate::store::PuzzlePlayer::default()),
    })
}

async fn overview(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
) -> Result<ApiJson<Overview>, Error> {
    let themes = hub
        .store()
        .puzzle_counts()
        .await?
        .into_iter()
        .map(|(theme, count)| ThemeCount { theme, count })
        .collect();
    Ok(ApiJson(Overview {
        themes,
        player: player_of(&hub, who.as_ref()).await?,
    }))
}

/// A theme of a query: `None` for any.
fn theme_of(theme: Option<&str>) -> Result<Option<String>, Error> {
    Ok(match theme {
        None | Some("" | "any") => None,
        Some(t) => Some(
            t.parse::<Theme>()
                .map_err(Error::BadRequest)?
                .name()
                .to_string(),
        ),
    })
}

async fn batch(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    query: Result<Query<BatchQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<ApiJson<BatchAnswer>, Error> {
    let Query(q) = query.map_err(|e| Error::BadRequest(format!("query: {}", e.body_text())))?;
    let theme = theme_of(q.theme.as_deref())?;
    let count = q.count.unwrap_or(10);
    if !(1..=20).contains(&count) {
        return Err(Error::BadRequest(format!(
            "count must be 1 to 20, not {count}"
        )));
    }
    let player = player_of(&hub, who.as_ref()).await?;
    let puzzles = hub
        .store()
        .untried_puzzles(who.clone(), player.rating as f64, theme, count)
        .await?
        .iter()
        .map(PuzzleView::of)
        .collect::<Result<_, _>>()?;
    Ok(ApiJson(BatchAnswer { puzzles, player }))
}

async fn next(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    query: Result<Query<NextQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<ApiJson<PuzzleAnswer>, Error> {
    let Query(q) = query.map_err(|e| Error::BadRequest(format!("query: {}", e.body_text())))?;
    let theme = theme_of(q.theme.as_deref())?;
    let player = player_of(&hub, who.as_ref()).await?;
    let near = hub
        .store()
        .untried_puzzles(who.clone(), player.rating as f64, theme, 8)
        .await?;
    if near.is_empty() {
        return Err(Error::NotFound(
            "no puzzle left that you have not tried (of this theme)".into(),
        ));
    }
    // One of the nearest, not always the same one.
    let pick = &near[(now_ms().unsigned_abs() as usize) % near.len()];
    Ok(ApiJson(PuzzleAnswer {
        puzzle: PuzzleView::of(pick)?,
        player,
    }))
}

async fn show(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    Path(id): Path<String>,
) -> Result<ApiJson<PuzzleAnswer>, Error> {
    let id = check_id(&id)?;
    let row = hub
        .store()
        .puzzle(id.clone())
        .await?
        .ok_or_else(|| Error::NotFound(format!("no puzzle {id}")))?;
    Ok(ApiJson(PuzzleAnswer {
        puzzle: PuzzleView::of(&row)?,
        player: player_of(&hub, who.as_ref()).await?,
    }))
}

async fn attempt(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<AttemptRequest>,
) -> Result<ApiJson<AttemptAnswer>, Error> {
    let who = who.ok_or_else(|| Error::Unauthorized("this request has no identity".into()))?;
    let id = check_id(&id)?;
    let outcome = hub
        .store()
        .try_puzzle(who, id.clone(), req.solved, now_ms())
        .await?
        .ok_or_else(|| Error::NotFound(format!("no puzzle {id}")))?;
    Ok(ApiJson(AttemptAnswer {
        counted: outcome.counted,
        change: (outcome.player.rating.rating - outcome.before).round() as i64,
        player: PlayerView::from(&outcome.player),
        puzzle_rating: outcome.puzzle_rating.round() as i64,
    }))
}
