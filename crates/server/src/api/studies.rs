//! `/api/studies/{key}`: a person's analysis-board study (tree of variations) kept on the
//! server, for a game (`key` its id) or the free board (`key` `board`). A study is its
//! owner's only: nobody else reads or changes it.
//!
//! - `GET` → `{"study": {"tree": …, "current": 3, "saved_at": …}}` (`null` when none).
//! - `PUT` `{"tree": Tree, "current": 3, "saved_at": 1764140000000}` → `{"stored": true}`
//!   (`false` when a copy saved later is there already). The tree is checked as for
//!   `POST /api/analysis/sgf` (every move legal).
//! - `DELETE` → `204`.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::get;
use serde::{Deserialize, Serialize};

use crate::api::analysis::{TreeView, tree_of};
use crate::api::games::parse_id;
use crate::error::{ApiJson, Error};
use crate::hub::Hub;
use crate::identity::{IdentityId, Requester};

/// The routes of studies.
pub fn router() -> Router<Arc<Hub>> {
    Router::new().route("/api/studies/{key}", get(show).put(save).delete(forget))
}

/// A study as saved.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Study {
    /// The tree of variations.
    pub tree: TreeView,
    /// The node on screen (its index in the tree's order), if any.
    #[serde(default)]
    pub current: Option<i64>,
    /// When the page saved it (its clock, ms): the newer copy wins.
    pub saved_at: i64,
}

/// `GET` answer.
#[derive(Debug, Serialize)]
pub struct StudyAnswer {
    /// The study, if one is kept.
    pub study: Option<serde_json::Value>,
}

/// `PUT` answer.
#[derive(Debug, Serialize)]
pub struct Stored {
    /// Whether it was kept (false: a copy saved later is there).
    pub stored: bool,
}

fn check_key(key: &str) -> Result<String, Error> {
    if key == "board" {
        return Ok(key.into());
    }
    parse_id(key).map(|id| id.as_str().to_string())
}

fn owner(who: Option<IdentityId>) -> Result<IdentityId, Error> {
    who.ok_or_else(|| {
        Error::Unauthorized("a study is kept for a person: this request has no identity".into())
    })
}

async fn show(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    Path(key): Path<String>,
) -> Result<ApiJson<StudyAnswer>, Error> {
    let key = check_key(&key)?;
    let Some(who) = who else {
        return Ok(ApiJson(StudyAnswer { study: None }));
    };
    let study = match hub.store().study(who, key).await? {
        Some((body, _)) => Some(
            serde_json::from_str(&body)
                .map_err(|e| Error::Internal(format!("a stored study: {e}")))?,
        ),
        None => None,
    };
    Ok(ApiJson(StudyAnswer { study }))
}

async fn save(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    Path(key): Path<String>,
    ApiJson(study): ApiJson<Study>,
) -> Result<ApiJson<Stored>, Error> {
    let who = owner(who)?;
    let key = check_key(&key)?;
    tree_of(&study.tree)?;
    let body = serde_json::to_string(&study).map_err(|e| Error::Internal(e.to_string()))?;
    let stored = hub
        .store()
        .save_study(who, key, body, study.saved_at)
        .await?;
    Ok(ApiJson(Stored { stored }))
}

async fn forget(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    Path(key): Path<String>,
) -> Result<StatusCode, Error> {
    let who = owner(who)?;
    let key = check_key(&key)?;
    hub.store().drop_study(who, key).await?;
    Ok(StatusCode::NO_CONTENT)
}
