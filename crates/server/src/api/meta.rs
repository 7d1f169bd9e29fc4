//! `/api/health`, `/api/players`, `/api/openapi.json`.

use std::sync::Arc;

use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use serde::Serialize;
use wuzi_engine::{ClassicAi, PlayerKind};

use crate::error::ApiJson;
use crate::hub::Hub;
use crate::identity::Requester;

/// The OpenAPI document, written by hand next to docs/api.md.
pub const OPENAPI: &str = include_str!("../../openapi.json");

/// The routes.
pub fn router() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/health", get(health))
        .route("/api/players", get(players))
        .route("/api/openapi.json", get(openapi))
        .route("/api/me", get(me))
}

#[derive(Debug, Serialize)]
struct Health {
    status: &'static str,
    version: &'static str,
    /// The computer's moves and colour choices this node has searched (or started to)
    /// since it started; the moves of a computer in the browser are not among them.
    computer_searches: u64,
}

async fn health(axum::extract::State(hub): axum::extract::State<Arc<Hub>>) -> ApiJson<Health> {
    ApiJson(Health {
        status: "ok",
        version: env!("CARGO_PKG_VERSION"),
        computer_searches: hub.computer_searches(),
    })
}

/// A computer player on offer.
#[derive(Debug, Serialize)]
pub struct PlayerInfo {
    /// The name used in requests.
    pub id: String,
    /// A label.
    pub name: String,
    /// Its fixed rating in rated games (see `crate::rating::COMPUTER_RATINGS`).
    pub rating: i32,
}

async fn players() -> ApiJson<Vec<PlayerInfo>> {
    let levels = (1..=10u8).map(|n| PlayerInfo {
        id: PlayerKind::Level(n).to_string(),
        name: format!("Level {n}"),
        rating: crate::rating::computer_rating(PlayerKind::Level(n)),
    });
    let classic = ClassicAi::ALL.into_iter().map(|ai| PlayerInfo {
        id: PlayerKind::Classic(ai).to_string(),
        name: classic_name(ai).to_string(),
        rating: crate::rating::computer_rating(PlayerKind::Classic(ai)),
    });
    ApiJson(levels.chain(classic).collect())
}

/// The one name of each classic AI, as the page (`new.classic.*` in web/js/i18n.js), the
/// docs and this API show it.
#[must_use]
pub fn classic_name(ai: ClassicAi) -> &'static str {
    match ai {
        ClassicAi::Rank => "Classic: pattern rank",
        ClassicAi::Tuple => "Classic: five-cell windows",
        ClassicAi::Greedy => "Classic: longest line",
    }
}

/// `GET /api/me`: who the session cookie says the requester is.
#[derive(Debug, Serialize)]
struct Me {
    /// The identity id, or `null` before the first change made from this browser.
    identity: Option<String>,
    /// `"guest"` or `"account"`, or `null`.
    kind: Option<&'static str>,
    /// An account's username.
    username: Option<String>,
    /// An account's display name.
    display_name: Option<String>,
}

async fn me(
    axum::extract::State(hub): axum::extract::State<Arc<Hub>>,
    Requester(who): Requester,
) -> Result<ApiJson<Me>, crate::Error> {
    let account = match &who {
        Some(id) => hub.store().account(id.clone()).await?,
        None => None,
    };
    Ok(ApiJson(Me {
        kind: who.as_ref().map(|_| {
            if account.is_some() {
                "account"
            } else {
                "guest"
            }
        }),
        identity: who.map(String::from),
        username: account.as_ref().map(|a| a.username.clone()),
        display_name: account.map(|a| a.display_name),
    }))
}

async fn openapi() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], OPENAPI)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 22, item 24: the API's names are the page's English names.
    #[test]
    fn classic_ai_names_match_the_page() {
        let i18n = include_str!("../../../../web/js/i18n.js");
        for ai in ClassicAi::ALL {
            let key = format!(
                "'new.classic.{}': '{}'",
                ai.name().trim_start_matches("classic-"),
                classic_name(ai)
            );
            assert!(i18n.contains(&key), "web/js/i18n.js lacks {key}");
        }
    }
}
