//! Finding a game between people: seeks (`/api/seeks`), quick pairing
//! (`/api/pairing`), challenges (`/api/challenges`) and the lobby's live feed
//! (`/api/lobby/ws`). See [`crate::lobby`].

use std::sync::Arc;

use axum::Router;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};

use super::ws::{
    CLOSE_AWAY, CLOSE_POLICY, CLOSE_TOO_BIG, Incoming, IncomingStream, MAX_MESSAGE, Outgoing,
    OutgoingSink, PING_EVERY, SILENCE,
};
use crate::error::{ApiJson, Error};
use crate::hub::{Hub, now_ms};
use crate::id::{GameId, random_seed};
use crate::identity::{IdentityId, Requester};
use crate::lobby::{Challenge, LobbyMsg, Person, Seek, Terms, presets};
use crate::store::PersonRow;
use crate::view::GameView;

/// The routes.
pub fn router() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/seeks", get(list_seeks).post(add_seek))
        .route("/api/seeks/{id}", axum::routing::delete(cancel_seek))
        .route("/api/seeks/{id}/accept", post(accept_seek))
        .route("/api/pairing", get(list_presets))
        .route("/api/pairing/{preset}", post(pair))
        .route("/api/challenges", get(my_challenges).post(add_challenge))
        .route(
            "/api/challenges/{id}",
            get(show_challenge).delete(drop_challenge),
        )
        .route("/api/challenges/{id}/accept", post(accept_challenge))
        .route("/api/challenges/{id}/decline", post(drop_challenge))
        .route("/api/lobby/ws", get(upgrade))
        .route("/api/live", get(live_games))
}

fn me(who: Option<IdentityId>) -> Result<IdentityId, Error> {
    who.ok_or_else(|| {
        Error::NotYours("this request has no identity: send the session cookie".into())
    })
}

/// `who` as the lobby shows them: their name, and their rating in the terms' pool.
async fn person(hub: &Hub, who: &IdentityId, terms: &Terms) -> Result<Person, Error> {
    let mut found = hub.store().people(vec![who.clone()]).await?;
    Ok(person_of(
        who,
        found.remove(who).unwrap_or_default(),
        pool_key(terms).as_deref(),
    ))
}

/// The key of the rating pool of games on `terms`, if they are rated in one.
fn pool_key(terms: &Terms) -> Option<String> {
    terms
        .setup(None, None, true)
        .ok()
        .and_then(|s| crate::rating::pool_of(&s).ok())
        .map(crate::rating::Pool::key)
}

/// `who` with their stored name and ratings, rated in `pool`: their rating there, or the
/// starting one (provisional) if they have none yet.
fn person_of(who: &IdentityId, found: PersonRow, pool: Option<&str>) -> Person {
    let (rating, provisional) = match pool {
        Some(pool) => match found.ratings.into_iter().find(|r| r.pool == pool) {
            Some(r) => (Some(r.rating), r.provisional),
            None => (Some(crate::rating::Rating::default().rating), true),
        },
        None => (None, true),
    };
    Person {
        id: who.clone(),
        name: found.name,
        rating,
        provisional,
    }
}

/// Starts the game of `terms` between `offerer` and `taker`, and tells both.
async fn start(
    hub: &Arc<Hub>,
    terms: &Terms,
    offerer: &IdentityId,
    taker: &IdentityId,
) -> Result<GameView, Error> {
    let coin = random_seed() & 1 == 1;
    let setup = terms.setup(Some(offerer.clone()), Some(taker.clone()), coin)?;
    let view = hub.create(setup).await?;
    hub.lobby()
        .started(&view.id, &[offerer.clone(), taker.clone()])
        .await;
    tracing::info!(id = %view.id, "game between people started");
    Ok(view)
}

async fn list_seeks(State(hub): State<Arc<Hub>>) -> Result<ApiJson<Vec<Seek>>, Error> {
    Ok(ApiJson(hub.lobby().seeks(now_ms()).await?))
}

async fn add_seek(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    ApiJson(terms): ApiJson<Terms>,
) -> Result<(StatusCode, ApiJson<Seek>), Error> {
    let who = me(who)?;
    terms.validate()?;
    let seek = Seek {
        id: GameId::random().to_string(),
        by: person(&hub, &who, &terms).await?,
        terms,
        preset: None,
        created_at: now_ms(),
    };
    let seek = hub.lobby().add_seek(seek, now_ms()).await?;
    Ok((StatusCode::CREATED, ApiJson(seek)))
}

async fn cancel_seek(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    Path(id): Path<String>,
) -> Result<ApiJson<serde_json::Value>, Error> {
    hub.lobby().cancel_seek(&id, &me(who)?).await?;
    Ok(ApiJson(serde_json::json!({"cancelled": true})))
}

async fn accept_seek(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    Path(id): Path<String>,
) -> Result<(StatusCode, ApiJson<GameView>), Error> {
    let who = me(who)?;
    let seek = hub.lobby().take_seek(&id, &who).await?;
    let view = start(&hub, &seek.terms, &seek.by.id, &who).await?;
    Ok((StatusCode::CREATED, ApiJson(view)))
}

/// A quick-pairing preset.
#[derive(Debug, Serialize)]
struct Preset {
    id: &'static str,
    terms: Terms,
    /// Seeks waiting for it now.
    waiting: usize,
}

async fn list_presets(State(hub): State<Arc<Hub>>) -> Result<ApiJson<Vec<Preset>>, Error> {
    let seeks = hub.lobby().seeks(now_ms()).await?;
    Ok(ApiJson(
        presets()
            .into_iter()
            .map(|(id, terms)| Preset {
                id,
                waiting: seeks
                    .iter()
                    .filter(|s| s.preset.as_deref() == Some(id))
                    .count(),
                terms,
            })
            .collect(),
    ))
}

/// The answer to a quick-pairing request: a game at once, or a seek that waits.
#[derive(Debug, Serialize)]
#[serde(rename_all = "lowercase")]
enum Paired {
    /// Paired with someone waiting: the game.
    Game(Box<GameView>),
    /// Nobody waits: the seek that now waits for someone (the lobby socket says
    /// `game_started` when it is taken).
    Seek(Seek),
}

async fn pair(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    Path(preset): Path<String>,
) -> Result<Response, Error> {
    let who = me(who)?;
    let (name, terms) = presets()
        .into_iter()
        .find(|(id, _)| *id == preset)
        .ok_or_else(|| {
            Error::NotFound(format!(
                "no pairing preset {:?}",
                preset.chars().take(40).collect::<String>()
            ))
        })?;
    let me_person = person(&hub, &who, &terms).await?;
    let rating = me_person.rating.unwrap_or(1500.0);
    if let Some(seek) = hub.lobby().take_pairing(name, &who, rating).await? {
        let view = start(&hub, &seek.terms, &seek.by.id, &who).await?;
        return Ok((StatusCode::CREATED, ApiJson(Paired::Game(Box::new(view)))).into_response());
    }
    let seek = Seek {
        id: GameId::random().to_string(),
        by: me_person,
        terms,
        preset: Some(name.to_string()),
        created_at: now_ms(),
    };
    let seek = hub.lobby().add_seek(seek, now_ms()).await?;
    Ok((StatusCode::ACCEPTED, ApiJson(Paired::Seek(seek))).into_response())
}

/// `POST /api/challenges`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ChallengeRequest {
    /// A username to challenge; none: an open link.
    to: Option<String>,
    terms: Terms,
}

async fn add_challenge(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    ApiJson(req): ApiJson<ChallengeRequest>,
) -> Result<(StatusCode, ApiJson<Challenge>), Error> {
    let who = me(who)?;
    req.terms.validate()?;
    let to = match &req.to {
        None => None,
        Some(name) => {
            let account = hub
                .store()
                .account_by_name(name.clone())
                .await?
                .ok_or_else(|| {
                    Error::NotFound(format!(
                        "to: no player named {:?}",
                        name.chars().take(40).collect::<String>()
                    ))
                })?;
            if account.identity == who {
                return Err(Error::BadRequest(
                    "to: you cannot challenge yourself".into(),
                ));
            }
            Some(person(&hub, &account.identity, &req.terms).await?)
        }
    };
    let challenge = Challenge {
        id: GameId::random().to_string(),
        by: person(&hub, &who, &req.terms).await?,
        to,
        terms: req.terms,
        created_at: now_ms(),
    };
    let c = hub.lobby().add_challenge(challenge, now_ms()).await?;
    Ok((StatusCode::CREATED, ApiJson(c)))
}

async fn my_challenges(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
) -> Result<ApiJson<Vec<Challenge>>, Error> {
    let Some(who) = who else {
        return Ok(ApiJson(Vec::new()));
    };
    Ok(ApiJson(hub.lobby().challenges_for(&who, now_ms()).await?))
}

async fn show_challenge(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<ApiJson<Challenge>, Error> {
    Ok(ApiJson(hub.lobby().challenge(&id, now_ms()).await?))
}

async fn accept_challenge(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    Path(id): Path<String>,
) -> Result<(StatusCode, ApiJson<GameView>), Error> {
    let who = me(who)?;
    let c = hub.lobby().take_challenge(&id, &who).await?;
    let view = start(&hub, &c.terms, &c.by.id, &who).await?;
    hub.lobby().challenge_gone(&c, "accepted").await;
    Ok((StatusCode::CREATED, ApiJson(view)))
}

async fn drop_challenge(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    Path(id): Path<String>,
) -> Result<ApiJson<serde_json::Value>, Error> {
    hub.lobby().drop_challenge(&id, &me(who)?).await?;
    Ok(ApiJson(serde_json::json!({"done": true})))
}

/// A game between people in play, for the watch page.
#[derive(Debug, Serialize)]
struct LiveGame {
    id: String,
    rule: wuzi_rules::Rule,
    size: u8,
    rated: bool,
    ply: usize,
    spectators: usize,
    black: Option<Person>,
    white: Option<Person>,
    /// The higher of the two ratings in a rated game (the order of the list).
    top_rating: Option<f64>,
}

/// Most games the watch list shows.
const LIVE_SHOWN: usize = 100;

/// `GET /api/live`: the games between people in play, highest rated first.
async fn live_games(State(hub): State<Arc<Hub>>) -> Result<ApiJson<Vec<LiveGame>>, Error> {
    let views = hub.live_games().await;
    // Everyone's name and ratings in one query, not one a player.
    let ids = views
        .iter()
        .flat_map(|v| [v.owners.first.clone(), v.owners.second.clone()])
        .flatten()
        .collect();
    let people = hub.store().people(ids).await?;
    let mut out = Vec::new();
    for view in views {
        let terms = Terms {
            rule: view.config.rule,
            size: view.config.size.width(),
            opening: view.config.opening,
            clock: view.config.clock,
            rated: view.rated,
            takebacks: None,
            color: crate::lobby::ColorChoice::Random,
        };
        let pool = pool_key(&terms);
        let seat_person = |who: &Option<IdentityId>| {
            who.as_ref().map(|w| {
                let found = people.get(w).cloned().unwrap_or_default();
                person_of(w, found, pool.as_deref())
            })
        };
        let (first, second) = (
            seat_person(&view.owners.first),
            seat_person(&view.owners.second),
        );
        let first_is_black = view.opening.black != Some(wuzi_rules::opening::Seat::Second);
        let (black, white) = if first_is_black {
            (first, second)
        } else {
            (second, first)
        };
        // Casual games follow the rated ones.
        let top_rating = [&black, &white]
            .into_iter()
            .flatten()
            .filter_map(|p| p.rating)
            .reduce(f64::max)
            .filter(|_| view.rated);
        out.push(LiveGame {
            id: view.id,
            rule: view.config.rule,
            size: view.config.size.width(),
            rated: view.rated,
            ply: view.ply,
            spectators: view.spectators,
            black,
            white,
            top_rating,
        });
    }
    out.sort_by(|a, b| {
        b.top_rating
            .unwrap_or(0.0)
            .total_cmp(&a.top_rating.unwrap_or(0.0))
            .then(b.spectators.cmp(&a.spectators))
    });
    out.truncate(LIVE_SHOWN);
    Ok(ApiJson(out))
}

/// `GET /api/lobby/ws`: the open seeks, then every change, and the requester's own
/// challenges and started games.
async fn upgrade(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, Error> {
    Ok(super::ws::limited(ws)?.on_upgrade(move |socket| {
        let (sink, stream) = super::ws::adapt(socket);
        lobby_session(hub, who, sink, stream)
    }))
}

fn encode(msg: &LobbyMsg) -> String {
    serde_json::to_string(msg).unwrap_or_else(|_| String::from(r#"{"type":"error"}"#))
}

/// Serves one lobby socket until it closes; its owner counts as present meanwhile.
pub async fn lobby_session(
    hub: Arc<Hub>,
    who: Option<IdentityId>,
    mut sink: OutgoingSink,
    mut stream: IncomingStream,
) {
    let (seeks, mut rx) = match hub.lobby().join(who.as_ref(), now_ms()).await {
        Ok(joined) => joined,
        Err(e) => {
            tracing::warn!(error = %e, "cannot open the lobby");
            super::ws::send_close(
                &mut sink,
                CLOSE_AWAY,
                "the lobby is unavailable; try again".into(),
            )
            .await;
            return;
        }
    };
    let mut first = vec![LobbyMsg::Seeks { seeks }];
    if let Some(w) = &who {
        for c in hub
            .lobby()
            .challenges_for(w, now_ms())
            .await
            .unwrap_or_default()
        {
            if c.to.as_ref().is_some_and(|t| &t.id == w) {
                first.push(LobbyMsg::Challenge { challenge: c });
            }
        }
    }
    let mut ok = true;
    for m in &first {
        ok &= sink.send(Outgoing::Text(encode(m))).await.is_ok();
    }
    let closed = hub.closed();
    tokio::pin!(closed);
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.tick().await;
    let mut heard = tokio::time::Instant::now();
    let close = loop {
        if !ok {
            break None;
        }
        tokio::select! {
            () = &mut closed => break Some((CLOSE_AWAY, "the server is restarting".to_string())),
            _ = ping.tick() => {
                if heard.elapsed() >= SILENCE {
                    break Some((CLOSE_POLICY, format!("nothing heard for {} s", SILENCE.as_secs())));
                }
                ok = sink.send(Outgoing::Ping).await.is_ok();
            }
            msg = rx.recv() => match msg {
                Ok(m) if m.is_for(who.as_ref()) => {
                    ok = sink.send(Outgoing::Text(encode(&m.msg))).await.is_ok();
                }
                Ok(_) => {}
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                    // Start again from the whole list.
                    if let Ok(seeks) = hub.lobby().seeks(now_ms()).await {
                        ok = sink.send(Outgoing::Text(encode(&LobbyMsg::Seeks { seeks }))).await.is_ok();
                    }
                }
                Err(tokio::sync::broadcast::error::RecvError::Closed) => break None,
            },
            incoming = stream.next() => {
                heard = tokio::time::Instant::now();
                match incoming {
                    None => break None,
                    Some(Incoming::TooLarge) => break Some((
                        CLOSE_TOO_BIG,
                        format!("a message may have at most {} KiB", MAX_MESSAGE / 1024),
                    )),
                    // The lobby reads nothing from its clients but signs of life.
                    Some(_) => {}
                }
            }
        }
    };
    if let Some((code, reason)) = close {
        super::ws::send_close(&mut sink, code, reason).await;
    }
    hub.lobby()
        .leave(who.as_ref(), now_ms(), hub.is_closing())
        .await;
}
