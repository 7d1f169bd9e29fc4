//! `/api/games`: create, read, play, undo, resign, restart, opening choices, hints,
//! analysis, records and imports.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use wuzi_rules::opening::{Choice, OpeningRule, Seat};
use wuzi_rules::{Color, GameConfig, Pos, Rule, Size, Variant};

use crate::api::ClientAddr;
use crate::clock::ClockSetup;
use crate::error::{ApiJson, Error, OptionalJson};
use crate::hub::{Hub, ServerMsg, Slot, parse_player, seat_for};
use crate::id::{GameId, random_seed};
use crate::identity::{IdentityId, Requester};
use crate::live::{
    ComputerSetup, ForbiddenPolicy, Mode, OfferAction, OfferKind, Offered, Owners, Player, Setup,
    Who,
};
use crate::record;
use crate::view::{AnalysisView, GameView, Purpose};

/// The routes under `/api/games`.
pub fn router() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/games", post(create))
        .route("/api/games/import", post(import))
        .route("/api/games/{id}", get(show))
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/computer-move", post(computer_move))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/restart", post(restart))
        .route("/api/games/{id}/opening", post(choose))
        .route("/api/games/{id}/hint", post(hint))
        .route("/api/games/{id}/analysis", post(analysis))
        .route("/api/games/{id}/stop", post(stop))
        .route("/api/games/{id}/offer", post(offer))
        .route("/api/games/{id}/abort", post(abort))
        .route("/api/games/{id}/claim", post(claim))
        .route("/api/games/{id}/record", get(download))
        .route("/api/games/{id}/ws", get(super::ws::upgrade))
}

/// A theme name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    /// Plain board.
    #[default]
    Wood,
    /// Walls.
    Rock,
    /// Bubbles.
    Ocean,
}

/// The computer in a new-game request.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComputerRequest {
    /// `level1`..`level10`, `classic-*`.
    pub player: Option<String>,
    /// The computer's colour (its seat in swap openings: black = first).
    pub color: Option<Color>,
    /// The computer's seat, if given directly.
    pub seat: Option<Seat>,
    /// The person's page searches the computer's moves (the engine in the browser) and
    /// sends them to `POST /api/games/{id}/computer-move`; only in unrated games with a
    /// free opening and no clock.
    pub in_browser: Option<bool>,
}

/// The players and clock part shared by new games and imports.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct PlayersRequest {
    /// Local or computer.
    pub mode: Option<Mode>,
    /// The computer.
    pub computer: Option<ComputerRequest>,
    /// Clock.
    pub clock: Option<ClockSetup>,
    /// Forbidden policy.
    pub forbidden_policy: Option<ForbiddenPolicy>,
}

/// `POST /api/games`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    mode: Option<Mode>,
    rule: Option<Rule>,
    size: Option<serde_json::Value>,
    k: Option<serde_json::Value>,
    opening: Option<OpeningRule>,
    theme: Option<Theme>,
    seed: Option<u64>,
    rocks: Option<usize>,
    computer: Option<ComputerRequest>,
    clock: Option<ClockSetup>,
    forbidden_policy: Option<ForbiddenPolicy>,
    rated: Option<bool>,
}

/// The largest layout seed: 2^53, so that every seed is exact in JavaScript.
pub const MAX_SEED: u64 = 1 << 53;

/// Reads `size`: a number, `"WxH"` or `{"width": w, "height": h}`.
pub fn parse_size(v: Option<&serde_json::Value>) -> Result<Size, Error> {
    use wuzi_rules::pos::{MAX_SIDE, MIN_SIDE};
    let side = |field: &str, v: &serde_json::Value| -> Result<u32, Error> {
        v.as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| (u32::from(MIN_SIDE)..=u32::from(MAX_SIDE)).contains(n))
            .ok_or_else(|| {
                Error::BadRequest(format!(
                    "{field}: must be a whole number from {MIN_SIDE} to {MAX_SIDE}, not {}",
                    shown(v)
                ))
            })
    };
    let size =
        |w: u32, h: u32| Size::from_u32(w, h).map_err(|e| Error::BadRequest(format!("size: {e}")));
    match v {
        None | Some(serde_json::Value::Null) => Ok(Size::STANDARD),
        Some(n @ serde_json::Value::Number(_)) => {
            let s = side("size", n)?;
            size(s, s)
        }
        Some(serde_json::Value::Object(obj)) => {
            if let Some(k) = obj.keys().find(|k| *k != "width" && *k != "height") {
                return Err(Error::BadRequest(format!(
                    "size: unknown field {:?} (width and height)",
                    truncate(k)
                )));
            }
            let get = |k: &str| {
                obj.get(k).ok_or_else(|| {
                    Error::BadRequest(format!("size.{k}: missing (size needs width and height)"))
                })
            };
            size(
                side("size.width", get("width")?)?,
                side("size.height", get("height")?)?,
            )
        }
        Some(serde_json::Value::String(s)) => s
            .parse::<Size>()
            .map_err(|e| Error::BadRequest(format!("size: {e}"))),
        Some(other) => Err(Error::BadRequest(format!(
            "size: must be a number, \"WxH\" or {{\"width\", \"height\"}}, not {}",
            shown(other)
        ))),
    }
}

/// Reads `k` (stones in a row to win); the rule's own range is checked with the rest of
/// the configuration.
pub fn parse_k(v: Option<&serde_json::Value>) -> Result<u8, Error> {
    match v {
        None | Some(serde_json::Value::Null) => Ok(5),
        Some(v) => v
            .as_u64()
            .and_then(|k| u8::try_from(k).ok())
            .ok_or_else(|| {
                Error::BadRequest(format!(
                    "k: must be a whole number of stones in a row (5; 4 to 7 outside renju), not {}",
                    shown(v)
                ))
            }),
    }
}

/// A JSON value as a request gave it, for an error message (numbers too large for
/// 64 bits are read as floating point and shown as such).
fn shown(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Number(n) if n.is_f64() => {
            let f = n.as_f64().unwrap_or(0.0);
            if f.fract() == 0.0 && f.abs() >= 1e15 {
                "a number too large".to_string()
            } else {
                n.to_string()
            }
        }
        other => truncate(&other.to_string()),
    }
}

/// Builds the players part of a setup.
pub fn players(
    mode: Option<Mode>,
    computer: Option<ComputerRequest>,
    default_mode: Mode,
) -> Result<(Mode, Option<ComputerSetup>), Error> {
    let mode = mode.unwrap_or(default_mode);
    if mode == Mode::Online {
        return Err(Error::BadRequest(
            "mode: a game between two people starts from a seek or a challenge (/api/seeks, /api/challenges)".into(),
        ));
    }
    let c = computer.unwrap_or_default();
    let player = parse_player(c.player.as_deref().unwrap_or("level5"))?;
    let seat = match (c.seat, c.color) {
        (Some(_), Some(_)) => {
            return Err(Error::BadRequest(
                "computer: give its color or its seat, not both".into(),
            ));
        }
        (Some(s), None) => s,
        (None, Some(color)) => seat_for(color),
        (None, None) => Seat::Second,
    };
    let computer = (mode == Mode::Computer).then_some(ComputerSetup {
        player: Player(player),
        seat,
        in_browser: c.in_browser.unwrap_or(false),
    });
    Ok((mode, computer))
}

impl NewGame {
    /// The setup this request asks for.
    pub fn into_setup(self) -> Result<Setup, Error> {
        let size = parse_size(self.size.as_ref())?;
        let rule = self.rule.unwrap_or_default();
        let theme = self.theme.unwrap_or_default();
        if let Some(seed) = self.seed
            && seed > MAX_SEED
        {
            return Err(Error::BadRequest(format!(
                "seed: {seed} is too large (0 to 2^53 = {MAX_SEED})"
            )));
        }
        let seed = match theme {
            Theme::Wood => None,
            _ => Some(self.seed.unwrap_or_else(|| random_seed() >> 11)),
        };
        let variant = match theme {
            Theme::Wood => Variant::Wood,
            Theme::Rock => {
                let count = self
                    .rocks
                    .unwrap_or_else(|| Variant::default_rock_count(size));
                if count > size.cells() / 3 {
                    return Err(Error::BadRequest(format!(
                        "rocks: at most {} walls fit a {size} board",
                        size.cells() / 3
                    )));
                }
                Variant::rock(size, seed.unwrap_or(0), count)
            }
            Theme::Ocean => Variant::ocean(size, seed.unwrap_or(0)),
        };
        let mut config = GameConfig::new(rule, size);
        config.k = parse_k(self.k.as_ref())?;
        config.variant = variant;
        config
            .validate()
            .map_err(|e| Error::BadRequest(e.to_string()))?;
        let (mode, computer) = players(self.mode, self.computer, Mode::Computer)?;
        let clock = self.clock.unwrap_or_default();
        clock.validate().map_err(Error::BadRequest)?;
        let setup = Setup {
            mode,
            config,
            opening: self.opening.unwrap_or_default(),
            computer,
            clock,
            forbidden_policy: self.forbidden_policy.unwrap_or_default(),
            seed,
            owners: Owners::default(),
            rated: self.rated.unwrap_or(false),
            takebacks: false,
        };
        if setup.rated {
            crate::rating::pool_of(&setup)
                .map_err(|why| Error::BadRequest(format!("rated: {why}")))?;
        }
        setup
            .check_in_browser()
            .map_err(|why| Error::BadRequest(format!("computer.in_browser: {why}")))?;
        Ok(setup)
    }
}

async fn create(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    OptionalJson(req): OptionalJson<NewGame>,
) -> Result<(StatusCode, ApiJson<GameView>), Error> {
    let mut setup = req.into_setup()?;
    let who = who.ok_or_else(no_identity)?;
    // Someone who starts a game is no longer seeking one.
    hub.lobby().busy(&who).await;
    setup.claim(who);
    let view = hub.create(setup).await?;
    tracing::info!(id = %view.id, mode = ?view.mode, rule = %view.config.rule, "game created");
    Ok((StatusCode::CREATED, ApiJson(view)))
}

/// The error for a changing request without an identity (the identity middleware makes
/// one for every such request, so this is only a request the router got directly).
fn no_identity() -> Error {
    Error::NotYours("this request has no identity: send the session cookie".into())
}

pub(crate) fn parse_id(id: &str) -> Result<GameId, Error> {
    id.parse()
        .map_err(|_| Error::NotFound(format!("no game with id {:?}", truncate(id))))
}

/// "1 stone", "2 stones".
#[must_use]
pub fn stones(n: usize) -> String {
    if n == 1 {
        "1 stone".to_string()
    } else {
        format!("{n} stones")
    }
}

fn truncate(s: &str) -> String {
    s.chars().take(40).collect()
}

/// Finds a game by the id in the path.
pub async fn find(hub: &Arc<Hub>, id: &str) -> Result<Arc<Slot>, Error> {
    hub.slot(&parse_id(id)?).await
}

/// A query string that does not read, as our error: "field: what is wrong".
fn query_error(e: axum::extract::rejection::QueryRejection) -> Error {
    let text = e.body_text();
    let detail = text
        .strip_prefix("Failed to deserialize query string: ")
        .unwrap_or(&text);
    let detail = detail
        .replace("invalid digit found in string", "must be a whole number")
        .replace("unknown field", "unknown parameter");
    Error::BadRequest(format!("query: {detail}"))
}

/// `GET /api/games/{id}` query.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ShowQuery {
    /// Long poll: answer once the game has more stones than this, or has ended.
    wait_ply: Option<usize>,
}

/// Longest long poll.
const LONG_POLL: Duration = Duration::from_secs(30);

async fn show(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    query: Result<Query<ShowQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<ApiJson<GameView>, Error> {
    let Query(query) = query.map_err(query_error)?;
    let slot = find(&hub, &id).await?;
    let Some(wait_ply) = query.wait_ply else {
        return Ok(ApiJson(hub.view(&slot).await?));
    };
    let mut rx = slot.subscribe();
    let view = hub.view(&slot).await?;
    let ready = |v: &GameView| v.ply > wait_ply || v.result.is_some();
    if ready(&view) {
        return Ok(ApiJson(view));
    }
    let wait = async {
        loop {
            match rx.recv().await {
                Ok(ServerMsg::State { game }) if ready(&game) => return Some(*game),
                Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
            }
        }
    };
    let waited = tokio::select! {
        r = tokio::time::timeout(LONG_POLL, wait) => r.ok().flatten(),
        () = hub.closed() => None,
    };
    match waited {
        Some(v) => Ok(ApiJson(v)),
        None => Ok(ApiJson(hub.view(&slot).await?)),
    }
}

/// A point given as renju notation or as coordinates.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// Renju notation.
    pub pos: Option<String>,
    /// Column.
    pub x: Option<i64>,
    /// Row from the top.
    pub y: Option<i64>,
    /// The number of stones the client sees.
    pub ply: Option<usize>,
}

impl MoveRequest {
    /// The point on a board of `size`.
    pub fn point(&self, size: Size) -> Result<Pos, Error> {
        match (&self.pos, self.x, self.y) {
            (Some(p), None, None) => size
                .parse_pos(p)
                .map_err(|e| Error::IllegalMove(e.to_string())),
            (None, Some(x), Some(y)) => {
                let (x, y) = (
                    i32::try_from(x).unwrap_or(i32::MAX),
                    i32::try_from(y).unwrap_or(i32::MAX),
                );
                size.pos(x, y)
                    .map_err(|e| Error::IllegalMove(e.to_string()))
            }
            _ => Err(Error::BadRequest(
                "give the point as {\"pos\": \"h8\"} or as {\"x\": 7, \"y\": 7}".into(),
            )),
        }
    }
}

/// `POST /api/games/{id}/offer`.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OfferRequest {
    /// Draw, takeback or rematch.
    pub kind: OfferKind,
    /// Offer, accept, decline or withdraw.
    pub action: OfferAction,
}

async fn offer(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<OfferRequest>,
) -> Result<ApiJson<GameView>, Error> {
    let slot = find(&hub, &id).await?;
    Ok(ApiJson(answer_offer(&hub, &slot, who.as_ref(), req).await?))
}

/// Does `req` for `who` in a game between people; an agreed rematch starts its game
/// (colours swapped) and both players' lobby pages are told.
pub async fn answer_offer(
    hub: &Arc<Hub>,
    slot: &Arc<Slot>,
    who: Option<&IdentityId>,
    req: OfferRequest,
) -> Result<GameView, Error> {
    let mut outcome = Offered::Done;
    let mut rematch = None;
    let view = hub
        .act(slot, |g, now| {
            let seat = g.seat_of_player(who)?;
            outcome = g.offer(seat, req.kind, req.action, now)?;
            rematch = (outcome == Offered::Rematch).then(|| g.rematch_setup());
            Ok(())
        })
        .await?;
    let Some(setup) = rematch else {
        return Ok(view);
    };
    let players: Vec<IdentityId> = [&setup.owners.first, &setup.owners.second]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    let next = hub.create(setup).await?;
    let view = hub
        .act(slot, |g, _| {
            g.set_rematch(next.id.clone());
            Ok(())
        })
        .await?;
    hub.lobby().started(&next.id, &players).await;
    Ok(view)
}

/// `POST /api/games/{id}/claim`.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimRequest {
    /// `win` or `draw`.
    result: ClaimResult,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum ClaimResult {
    Win,
    Draw,
}

/// The game whose opponent left: claims the win or a draw, once they have been gone
/// for [`crate::hub::HubConfig::claim_after`].
async fn claim(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<ClaimRequest>,
) -> Result<ApiJson<GameView>, Error> {
    let slot = find(&hub, &id).await?;
    let wait = hub.config().claim_after.as_millis() as i64;
    // Whoever is away on whichever node, as of now.
    hub.reload_presence(&slot).await;
    let view = hub
        .act(&slot, |g, now| {
            let seat = g.seat_of_player(who.as_ref())?;
            match slot.away_since(&g.setup().owners, seat.other()) {
                None => Err(Error::WrongPhase(
                    "your opponent is here: there is nothing to claim".into(),
                )),
                Some(since) if now - since < wait => Err(Error::WrongPhase(format!(
                    "your opponent left {} s ago; you may claim after {} s",
                    (now - since) / 1000,
                    wait / 1000
                ))),
                Some(_) => g.claim_left_game(seat, req.result == ClaimResult::Win, now),
            }
        })
        .await?;
    Ok(ApiJson(view))
}

async fn abort(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    Path(id): Path<String>,
) -> Result<ApiJson<GameView>, Error> {
    let slot = find(&hub, &id).await?;
    Ok(ApiJson(
        perform(&hub, &slot, who.as_ref(), PlayerAction::Abort).await?,
    ))
}

/// An action by a player, from HTTP or the WebSocket.
#[derive(Clone, Debug)]
pub enum PlayerAction {
    /// Play a stone.
    Move(MoveRequest),
    /// Take back (to this many stones).
    Undo(Option<usize>),
    /// Resign (this colour).
    Resign(Option<Color>),
    /// Back to the empty board.
    Restart,
    /// An opening colour choice.
    Choose(Choice),
    /// Call off a game between people before it is under way.
    Abort,
}

/// Performs `action` for `who`, who must own the seat it acts for (see
/// [`crate::live::LiveGame::authorize`]); anyone else gets `403 not_yours` and nothing
/// changes.
pub async fn perform(
    hub: &Arc<Hub>,
    slot: &Arc<Slot>,
    who: Option<&IdentityId>,
    action: PlayerAction,
) -> Result<GameView, Error> {
    let lag = slot.lag_of(who);
    hub.act(slot, |g, now| {
        // The seat that must act (a move, a choice) must be the requester's.
        let acting = || match g.to_act() {
            Some((seat, _)) if g.who(seat) == Who::Human => g.authorize(who, seat),
            _ => Ok(()),
        };
        match action {
            PlayerAction::Move(req) => {
                let pos = req.point(g.game().size())?;
                // A retry of a move already played (the same stone, sent for the same
                // position, by its player) is answered as if played now, and plays nothing.
                if let Some(ply) = req.ply
                    && ply + 1 == g.game().ply()
                    && let Some(last) = g.game().moves().last()
                    && last.pos == pos
                    && g.opening()
                        .seat_of(last.color)
                        .is_some_and(|s| g.who(s) == Who::Human && g.authorize(who, s).is_ok())
                {
                    return Ok(());
                }
                acting()?;
                let lag = if g.setup().mode == Mode::Online {
                    lag
                } else {
                    crate::lag::Lag::default()
                };
                if let Some(ply) = req.ply
                    && ply != g.game().ply()
                {
                    return Err(Error::Stale(format!(
                        "ply: the game has {}, not {ply}; reload it",
                        stones(g.game().ply())
                    )));
                }
                g.play_with_lag(Who::Human, pos, now, &lag)
            }
            PlayerAction::Undo(to_ply) => {
                // A player of a game that allows no takebacks hears why; others, that
                // it is not theirs.
                g.authorize_any(who)?;
                g.refuse_if_rated("taken back")?;
                g.authorize_all(who)?;
                g.undo(to_ply, now)
            }
            PlayerAction::Resign(color) => {
                let color = g.resigning_color(who, color)?;
                g.resign(color, now)
            }
            PlayerAction::Restart => {
                g.authorize_any(who)?;
                g.refuse_if_rated("restarted")?;
                g.authorize_all(who)?;
                g.restart(now)
            }
            PlayerAction::Choose(choice) => {
                acting()?;
                g.choose(Who::Human, choice, now)
            }
            PlayerAction::Abort => {
                g.seat_of_player(who)?;
                g.abort(now)
            }
        }
    })
    .await
}

async fn play(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Requester(who): Requester,
    ApiJson(req): ApiJson<MoveRequest>,
) -> Result<ApiJson<GameView>, Error> {
    let slot = find(&hub, &id).await?;
    perform(&hub, &slot, who.as_ref(), PlayerAction::Move(req))
        .await
        .map(ApiJson)
}

/// `POST /api/games/{id}/computer-move` body: the computer's move searched in the
/// person's browser, for the position of `ply` stones.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComputerMoveRequest {
    /// Renju notation.
    pub pos: Option<String>,
    /// Column.
    pub x: Option<i64>,
    /// Row from the top.
    pub y: Option<i64>,
    /// The number of stones the move answers (required: a move sent twice, or for a
    /// position that changed meanwhile, is refused as stale).
    pub ply: usize,
}

/// The computer's move in a game whose computer plays in the browser (see
/// [`crate::live::LiveGame::play_from_browser`] for who may send it and when).
async fn computer_move(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Requester(who): Requester,
    ApiJson(req): ApiJson<ComputerMoveRequest>,
) -> Result<ApiJson<GameView>, Error> {
    let slot = find(&hub, &id).await?;
    let point = MoveRequest {
        pos: req.pos,
        x: req.x,
        y: req.y,
        ply: None,
    };
    hub.act(&slot, |g, now| {
        let pos = point.point(g.game().size())?;
        g.play_from_browser(who.as_ref(), pos, req.ply, now)
    })
    .await
    .map(ApiJson)
}

/// `POST /undo` body.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UndoRequest {
    /// Go back to this many stones.
    pub to_ply: Option<usize>,
}

async fn undo(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Requester(who): Requester,
    OptionalJson(req): OptionalJson<UndoRequest>,
) -> Result<ApiJson<GameView>, Error> {
    let slot = find(&hub, &id).await?;
    perform(&hub, &slot, who.as_ref(), PlayerAction::Undo(req.to_ply))
        .await
        .map(ApiJson)
}

/// `POST /resign` body.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResignRequest {
    /// Who resigns.
    pub color: Option<Color>,
}

async fn resign(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Requester(who): Requester,
    OptionalJson(req): OptionalJson<ResignRequest>,
) -> Result<ApiJson<GameView>, Error> {
    let slot = find(&hub, &id).await?;
    perform(&hub, &slot, who.as_ref(), PlayerAction::Resign(req.color))
        .await
        .map(ApiJson)
}

/// Any JSON object or nothing (for actions without parameters).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Empty {}

async fn restart(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Requester(who): Requester,
    OptionalJson(Empty {}): OptionalJson<Empty>,
) -> Result<ApiJson<GameView>, Error> {
    let slot = find(&hub, &id).await?;
    perform(&hub, &slot, who.as_ref(), PlayerAction::Restart)
        .await
        .map(ApiJson)
}

/// `POST /opening` body.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChooseRequest {
    /// The choice.
    pub choice: Choice,
}

async fn choose(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Requester(who): Requester,
    ApiJson(req): ApiJson<ChooseRequest>,
) -> Result<ApiJson<GameView>, Error> {
    let slot = find(&hub, &id).await?;
    perform(&hub, &slot, who.as_ref(), PlayerAction::Choose(req.choice))
        .await
        .map(ApiJson)
}

/// `POST /hint` and `/analysis` body.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    /// Thinking time.
    pub time_ms: Option<u64>,
}

async fn hint(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    ClientAddr(client): ClientAddr,
    Requester(who): Requester,
    OptionalJson(req): OptionalJson<AnalysisRequest>,
) -> Result<ApiJson<AnalysisView>, Error> {
    let slot = find(&hub, &id).await?;
    hub.analyze(&slot, Purpose::Hint, req.time_ms, client, who.as_ref())
        .await
        .map(ApiJson)
}

async fn analysis(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    ClientAddr(client): ClientAddr,
    Requester(who): Requester,
    OptionalJson(req): OptionalJson<AnalysisRequest>,
) -> Result<ApiJson<AnalysisView>, Error> {
    let slot = find(&hub, &id).await?;
    hub.analyze(&slot, Purpose::Analysis, req.time_ms, client, who.as_ref())
        .await
        .map(ApiJson)
}

async fn stop(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Requester(who): Requester,
    OptionalJson(Empty {}): OptionalJson<Empty>,
) -> Result<ApiJson<GameView>, Error> {
    let slot = find(&hub, &id).await?;
    slot.game_lock().await.authorize_all(who.as_ref())?;
    hub.stop(&slot);
    hub.view(&slot).await.map(ApiJson)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordQuery {
    format: Option<String>,
}

async fn download(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    query: Result<Query<RecordQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, Error> {
    let Query(query) = query.map_err(query_error)?;
    let format = record::parse_format(query.format.as_deref().unwrap_or("json"))?;
    let slot = find(&hub, &id).await?;
    let file = {
        hub.view(&slot).await?;
        let game = slot.game_lock().await;
        record::export(&game, format)?
    };
    let disposition = format!("attachment; filename=\"wuzi-{id}.{}\"", format.extension());
    Ok((
        [
            (
                header::CONTENT_TYPE,
                record::content_type(format).to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        file,
    )
        .into_response())
}

/// `POST /api/games/import`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    /// The record or position string.
    pub text: String,
    /// Its format; guessed when missing.
    pub format: Option<String>,
    /// Row order of a position string.
    pub row_order: Option<String>,
    /// Continue from this many stones.
    pub ply: Option<usize>,
    /// Rule for formats that do not carry one.
    pub rule: Option<Rule>,
    /// Size for formats that do not carry one.
    pub size: Option<serde_json::Value>,
    /// k for formats that do not carry one.
    pub k: Option<u8>,
    /// Local or computer.
    pub mode: Option<Mode>,
    /// The computer.
    pub computer: Option<ComputerRequest>,
    /// Clock.
    pub clock: Option<ClockSetup>,
    /// Forbidden policy.
    pub forbidden_policy: Option<ForbiddenPolicy>,
}

async fn import(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    ApiJson(req): ApiJson<ImportRequest>,
) -> Result<(StatusCode, ApiJson<GameView>), Error> {
    let mut live = record::import(req)?;
    live.claim(who.ok_or_else(no_identity)?);
    let view = hub.adopt(live).await?;
    tracing::info!(id = %view.id, ply = view.ply, "game imported");
    Ok((StatusCode::CREATED, ApiJson(view)))
}
