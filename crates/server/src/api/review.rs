//! `/api/games/{id}/review`: the post-game review of a finished game (see
//! [`crate::review`]). Anyone who may see the game may start it (one job per game, shared
//! by everyone who asks) and read it.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;

use crate::api::ClientAddr;
use crate::api::games::parse_id;
use crate::error::{ApiJson, Error, OptionalJson};
use crate::hub::Hub;
use crate::review::{self, ReviewView};

/// The routes of reviews.
pub fn router() -> Router<Arc<Hub>> {
    Router::new().route("/api/games/{id}/review", get(show).post(start))
}

/// `POST /api/games/{id}/review` body: nothing (an empty object, or no body).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartRequest {}

async fn start(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    ClientAddr(client): ClientAddr,
    OptionalJson(StartRequest {}): OptionalJson<StartRequest>,
) -> Result<ApiJson<ReviewView>, Error> {
    let id = parse_id(&id)?;
    review::start(&hub, &id, client).await.map(ApiJson)
}

async fn show(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<ApiJson<ReviewView>, Error> {
    let id = parse_id(&id)?;
    review::view(&hub, &id).await.map(ApiJson)
}
