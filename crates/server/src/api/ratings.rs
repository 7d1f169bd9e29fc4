//! Ratings: a player's graph per pool, the leaderboards, and what a game changed.
//! (A player's current ratings are in their profile; the computer's fixed ratings in
//! `GET /api/players`.)

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, Query, State};
use axum::routing::get;
use serde::{Deserialize, Serialize};

use crate::error::{ApiJson, Error};
use crate::hub::Hub;
use crate::rating::Pool;
use crate::store::{LeaderRow, RatingChange, RatingPoint};

/// The routes.
pub fn router() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/profiles/{identity}/ratings/{pool}", get(graph))
        .route("/api/leaderboard", get(leaderboards))
        .route("/api/leaderboard/{pool}", get(leaderboard))
        .route("/api/games/{id}/rating", get(game_rating))
}

fn parse_pool(pool: &str) -> Result<Pool, Error> {
    pool.parse().map_err(Error::NotFound)
}

/// Points kept in a rating graph (the latest).
const GRAPH_POINTS: usize = 1000;

async fn graph(
    State(hub): State<Arc<Hub>>,
    Path((id, pool)): Path<(String, String)>,
) -> Result<ApiJson<Vec<RatingPoint>>, Error> {
    let who = super::profiles::parse_identity(&id)?;
    let pool = parse_pool(&pool)?;
    Ok(ApiJson(
        hub.store().rating_history(who, pool, GRAPH_POINTS).await?,
    ))
}

/// `GET /api/leaderboard/{pool}` query.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardQuery {
    /// How many (1 to 200; 50 by default).
    limit: Option<usize>,
}

async fn leaderboard(
    State(hub): State<Arc<Hub>>,
    Path(pool): Path<String>,
    query: Result<Query<BoardQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<ApiJson<Vec<LeaderRow>>, Error> {
    let Query(q) = query.map_err(|e| Error::BadRequest(format!("query: {}", e.body_text())))?;
    let pool = parse_pool(&pool)?;
    let limit = q.limit.unwrap_or(50).clamp(1, 200);
    Ok(ApiJson(hub.store().leaderboard(pool, limit).await?))
}

/// One pool's leaders.
#[derive(Debug, Serialize)]
struct PoolLeaders {
    pool: String,
    leaders: Vec<LeaderRow>,
}

/// Leaders shown per pool in the overview.
const OVERVIEW: usize = 10;

/// Every pool's first ten (pools nobody is established in are left out).
async fn leaderboards(State(hub): State<Arc<Hub>>) -> Result<ApiJson<Vec<PoolLeaders>>, Error> {
    let mut out = Vec::new();
    for pool in Pool::all() {
        let leaders = hub.store().leaderboard(pool, OVERVIEW).await?;
        if !leaders.is_empty() {
            out.push(PoolLeaders {
                pool: pool.key(),
                leaders,
            });
        }
    }
    Ok(ApiJson(out))
}

async fn game_rating(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<ApiJson<Vec<RatingChange>>, Error> {
    // The game must exist (404 otherwise); its changes are in the store.
    super::games::find(&hub, &id).await?;
    let id = super::games::parse_id(&id)?;
    Ok(ApiJson(hub.store().rating_changes(id).await?))
}
