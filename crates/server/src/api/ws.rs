//! `GET /api/games/{id}/ws`: a game's WebSocket.
//!
//! The session logic is generic over a `Sink` of outgoing texts and a `Stream` of
//! incoming texts, so tests can drive it with channels; [`upgrade`] adapts a real socket.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use futures_util::{Sink, SinkExt, Stream, StreamExt, future};
use serde::Deserialize;
use tokio::sync::{broadcast, mpsc};
use wuzi_rules::Color;
use wuzi_rules::opening::Choice;

use crate::api::ClientAddr;
use crate::api::games::{MoveRequest, PlayerAction, find, perform};
use crate::error::Error;
use crate::hub::{Hub, ServerMsg, Slot};
use crate::identity::{IdentityId, Requester};
use crate::live::Owners;
use crate::view::Purpose;

/// Largest message (and frame) a client may send; larger ones close the socket with
/// code 1009 before they are buffered.
pub const MAX_MESSAGE: usize = 16 * 1024;
/// How often the server pings a socket (browsers answer by themselves).
pub const PING_EVERY: Duration = Duration::from_secs(25);
/// How often a player of a game between people is pinged (lag measurement).
pub const LAG_PING_EVERY: Duration = Duration::from_secs(5);
/// How long a socket closed for a too-large message stays open for its close frame to
/// reach the client.
pub const CLOSE_GRACE: Duration = Duration::from_millis(1000);
/// A socket from which nothing has come for this long is closed.
pub const SILENCE: Duration = Duration::from_secs(60);

/// What the session reads from a socket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Incoming {
    /// A text message.
    Text(String),
    /// A binary message (not read).
    Binary,
    /// A ping or other control frame: the client is there.
    Control,
    /// A pong: the answer to the server's ping (its round trip measures the lag).
    Pong,
    /// A frame or message over [`MAX_MESSAGE`]: the socket closes with 1009.
    TooLarge,
}

/// What the session writes to a socket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outgoing {
    /// A JSON message.
    Text(String),
    /// A ping.
    Ping,
    /// A close frame with its code and reason, then the end.
    Close(u16, String),
}

/// Close code: the message is too big.
pub const CLOSE_TOO_BIG: u16 = 1009;
/// Close code: the client broke the rules (silence, unreadable frames).
pub const CLOSE_POLICY: u16 = 1008;
/// Close code: the server is going away.
pub const CLOSE_AWAY: u16 = 1001;

/// Messages from a client.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum ClientMsg {
    /// Play a stone.
    Move {
        /// Renju notation.
        pos: Option<String>,
        /// Column.
        x: Option<i64>,
        /// Row from the top.
        y: Option<i64>,
        /// Stones the client sees.
        ply: Option<usize>,
        /// The client's id for the move: answered with an `ack` once it is played (a
        /// retry with the same `ply` after a lost connection is played once).
        id: Option<String>,
    },
    /// Offer, accept, decline or withdraw a draw, takeback or rematch.
    Offer {
        /// Draw, takeback, rematch.
        kind: crate::live::OfferKind,
        /// What to do.
        action: crate::live::OfferAction,
    },
    /// Call the game off (before it is under way).
    Abort,
    /// Take back.
    Undo {
        /// Go back to this many stones.
        to_ply: Option<usize>,
    },
    /// Resign.
    Resign {
        /// Who resigns.
        color: Option<Color>,
    },
    /// Start again.
    Restart,
    /// Opening colour choice.
    Choose {
        /// The choice.
        choice: Choice,
    },
    /// A hint.
    Hint {
        /// Thinking time.
        time_ms: Option<u64>,
    },
    /// An evaluation.
    Analysis {
        /// Thinking time.
        time_ms: Option<u64>,
    },
    /// Stop the engine.
    Stop,
    /// Keep-alive.
    Ping,
}

/// Upgrades to a WebSocket for the game (404 for an unknown id).
pub async fn upgrade(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    ClientAddr(client): ClientAddr,
    Requester(who): Requester,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, Error> {
    let slot = find(&hub, &id).await?;
    Ok(limited(ws)?.on_upgrade(move |socket| run_socket(hub, slot, Peer { client, who }, socket)))
}

/// An upgrade with wuzi's socket limits, or the error for a request that is not one.
/// Frames are checked against [`MAX_MESSAGE`] from their header, before their payload is
/// read; small buffers keep an idle socket's memory small.
pub fn limited(
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<WebSocketUpgrade, Error> {
    let ws = ws.map_err(|e| {
        Error::BadRequest(format!("this is a WebSocket endpoint: {}", e.body_text()))
    })?;
    Ok(ws
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0))
}

/// Who is at the other end of a socket: its address, and its identity (from the session
/// cookie sent with the upgrade; none for a spectator without one).
#[derive(Clone, Debug, Default)]
pub struct Peer {
    /// The client's address.
    pub client: Option<IpAddr>,
    /// Its identity.
    pub who: Option<IdentityId>,
}

async fn run_socket(hub: Arc<Hub>, slot: Arc<Slot>, peer: Peer, socket: WebSocket) {
    let (sink, stream) = adapt(socket);
    session(hub, slot, peer, sink, stream).await;
}

/// The sending half of an adapted socket.
pub type OutgoingSink = std::pin::Pin<Box<dyn Sink<Outgoing, Error = axum::Error> + Send>>;
/// The receiving half of an adapted socket.
pub type IncomingStream = std::pin::Pin<Box<dyn Stream<Item = Incoming> + Send>>;

/// A real socket as the sessions see it: [`Outgoing`] in, [`Incoming`] out, ending at
/// the client's close frame or the first read error (an oversized frame reads as
/// [`Incoming::TooLarge`]).
pub fn adapt(socket: WebSocket) -> (OutgoingSink, IncomingStream) {
    let (sink, stream) = socket.split();
    let sink = sink.with(|out: Outgoing| {
        future::ready(Ok::<_, axum::Error>(match out {
            Outgoing::Text(text) => Message::Text(text.into()),
            Outgoing::Ping => Message::Ping(Default::default()),
            Outgoing::Close(code, reason) => Message::Close(Some(CloseFrame {
                code,
                reason: reason.into(),
            })),
        }))
    });
    let stream = stream
        .take_while(|m| future::ready(!matches!(m, Ok(Message::Close(_)))))
        .scan(false, |failed, m| {
            // After a read error the socket is done: report it once and end.
            if *failed {
                return future::ready(None);
            }
            future::ready(Some(match m {
                Ok(Message::Text(t)) => Some(Incoming::Text(t.to_string())),
                Ok(Message::Binary(_)) => Some(Incoming::Binary),
                Ok(Message::Pong(_)) => Some(Incoming::Pong),
                Ok(_) => Some(Incoming::Control),
                Err(e) => {
                    *failed = true;
                    is_too_large(e).then_some(Incoming::TooLarge)
                }
            }))
        })
        .take_while(|m| future::ready(m.is_some()))
        .filter_map(future::ready);
    (Box::pin(sink), Box::pin(stream))
}

/// Sends a close frame (waiting at most 2 s). After a too-large message it then waits
/// [`CLOSE_GRACE`]: the rest of that message is still unread, closing the connection now
/// would reset it, and a reset can overtake the close frame in the client's buffers (the
/// browser then sees 1006).
pub async fn send_close<S: Sink<Outgoing> + Unpin>(sink: &mut S, code: u16, reason: String) {
    let _ = tokio::time::timeout(
        Duration::from_secs(2),
        sink.send(Outgoing::Close(code, reason)),
    )
    .await;
    if code == CLOSE_TOO_BIG {
        tokio::time::sleep(CLOSE_GRACE).await;
    }
}

/// Whether a read error is a frame or message over the limit.
fn is_too_large(e: axum::Error) -> bool {
    matches!(
        e.into_inner().downcast::<tungstenite::Error>().map(|b| *b),
        Ok(tungstenite::Error::Capacity(_))
    )
}

fn encode(msg: &ServerMsg) -> String {
    serde_json::to_string(msg).unwrap_or_else(|e| {
        tracing::error!(error = %e, "cannot encode a server message");
        String::from(r#"{"type":"error","code":"internal","message":"internal server error"}"#)
    })
}

fn error_msg(e: &Error) -> ServerMsg {
    let body = e.body();
    ServerMsg::Error {
        code: body.code,
        message: body.error,
    }
}

/// Serves one subscriber: the game's state first, then every broadcast, while reading
/// and applying the client's messages. Pings the client every [`PING_EVERY`] and closes
/// the socket after [`SILENCE`] without a word from it, or at once (code 1009) for a
/// message over [`MAX_MESSAGE`].
pub async fn session<S, R>(hub: Arc<Hub>, slot: Arc<Slot>, peer: Peer, mut sink: S, mut stream: R)
where
    S: Sink<Outgoing> + Unpin,
    R: Stream<Item = Incoming> + Unpin,
{
    let mut rx = slot.subscribe();
    let (owners, online) = {
        let g = slot.game_lock().await;
        (
            g.setup().owners.clone(),
            g.setup().mode == crate::live::Mode::Online,
        )
    };
    // Between people, a player's coming and going is news for the other.
    let announced = online && owners.has(peer.who.as_ref());
    hub.enter(&slot, peer.who.as_ref(), online).await;
    // And a spectator's is news for everyone (the count).
    let watching = online && !announced;
    if announced {
        // A player came (back): the other sees it.
        hub.announce(&slot).await;
    } else if watching {
        hub.announce_crowd(&slot, &owners);
    }
    // Replies meant for this client only (errors, analyses), from spawned tasks too.
    let (direct, mut direct_rx) = mpsc::channel::<ServerMsg>(16);
    let first = match hub.view(&slot).await {
        Ok(game) => ServerMsg::State {
            game: Box::new(game),
        },
        Err(e) => error_msg(&e),
    };
    if sink.send(Outgoing::Text(encode(&first))).await.is_err() {
        // Gone before its first message: it still came, so it leaves.
        depart(&hub, &slot, &peer, &owners, online, rx).await;
        return;
    }
    let closed = hub.closed();
    tokio::pin!(closed);
    // A player of a game between people is pinged more often: the round trips measure
    // the lag their moves are credited with.
    let mut ping = tokio::time::interval(if announced {
        LAG_PING_EVERY
    } else {
        PING_EVERY
    });
    let mut pinged: Option<tokio::time::Instant> = None;
    ping.tick().await;
    let mut heard = tokio::time::Instant::now();
    let close = loop {
        let out = tokio::select! {
            () = &mut closed => break Some((CLOSE_AWAY, "the server is restarting".to_string())),
            _ = ping.tick() => {
                if heard.elapsed() >= SILENCE {
                    break Some((CLOSE_POLICY, format!("nothing heard for {} s", SILENCE.as_secs())));
                }
                pinged = Some(tokio::time::Instant::now());
                if sink.send(Outgoing::Ping).await.is_err() {
                    break None;
                }
                continue;
            }
            msg = rx.recv() => match msg {
                // Chat goes to its room: the players', or the spectators'.
                Ok(ServerMsg::Chat { message }) => {
                    let players = if owners.has(peer.who.as_ref()) { "players" } else { "spectators" };
                    if message.room != players {
                        continue;
                    }
                    ServerMsg::Chat { message }
                }
                Ok(m) => m,
                Err(broadcast::error::RecvError::Lagged(_)) => match hub.view(&slot).await {
                    Ok(game) => ServerMsg::State { game: Box::new(game) },
                    Err(e) => error_msg(&e),
                },
                Err(broadcast::error::RecvError::Closed) => break None,
            },
            Some(m) = direct_rx.recv() => m,
            incoming = stream.next() => {
                heard = tokio::time::Instant::now();
                match incoming {
                    None => break None,
                    Some(Incoming::TooLarge) => break Some((
                        CLOSE_TOO_BIG,
                        format!("a message may have at most {} KiB", MAX_MESSAGE / 1024),
                    )),
                    Some(Incoming::Control) => continue,
                    Some(Incoming::Pong) => {
                        if let (Some(at), Some(who)) = (pinged.take(), peer.who.as_ref()) {
                            slot.note_round_trip(who, at.elapsed().as_millis() as i64);
                        }
                        continue;
                    }
                    Some(Incoming::Binary) => error_msg(&Error::BadRequest(
                        "binary messages are not read; send JSON text".into(),
                    )),
                    Some(Incoming::Text(text)) => match handle(&hub, &slot, &peer, &text, &direct).await {
                        Some(reply) => reply,
                        None => continue,
                    },
                }
            }
        };
        if sink.send(Outgoing::Text(encode(&out))).await.is_err() {
            break None;
        }
    };
    if let Some((code, reason)) = close {
        send_close(&mut sink, code, reason).await;
    }
    depart(&hub, &slot, &peer, &owners, online, rx).await;
}

/// A session's socket closed: `peer` leaves the game, which the others hear of (a
/// player's going, or the spectators' count), and `rx` stops listening.
async fn depart(
    hub: &Arc<Hub>,
    slot: &Arc<Slot>,
    peer: &Peer,
    owners: &Owners,
    online: bool,
    rx: broadcast::Receiver<ServerMsg>,
) {
    hub.leave(slot, peer.who.as_ref(), online).await;
    if online && owners.has(peer.who.as_ref()) {
        hub.announce(slot).await;
    } else if online {
        hub.announce_crowd(slot, owners);
    }
    // The last page watching this game left (closed, or moved on to a new game): stop
    // thinking for it. Opening it again resumes the computer's search.
    drop(rx);
    if slot.subscribers() == 0 {
        hub.abandon(slot).await;
    }
}

/// Applies one client message. Returns a direct reply, if any (a successful action is
/// answered by the state broadcast).
async fn handle(
    hub: &Arc<Hub>,
    slot: &Arc<Slot>,
    peer: &Peer,
    text: &str,
    direct: &mpsc::Sender<ServerMsg>,
) -> Option<ServerMsg> {
    let msg: ClientMsg = match serde_json::from_str(text) {
        Ok(m) => m,
        Err(e) => {
            return Some(error_msg(&Error::BadRequest(format!(
                "cannot read the message: {e}"
            ))));
        }
    };
    let who = peer.who.as_ref();
    let act = |action| perform(hub, slot, who, action);
    let result = match msg {
        ClientMsg::Move { pos, x, y, ply, id } => {
            if id.as_ref().is_some_and(|id| id.len() > 64) {
                return Some(error_msg(&Error::BadRequest(
                    "id: at most 64 characters".into(),
                )));
            }
            match act(PlayerAction::Move(MoveRequest { pos, x, y, ply })).await {
                Ok(view) => match id {
                    Some(id) => return Some(ServerMsg::Ack { id, ply: view.ply }),
                    None => Ok(()),
                },
                Err(e) => Err(e),
            }
        }
        ClientMsg::Offer { kind, action } => crate::api::games::answer_offer(
            hub,
            slot,
            who,
            crate::api::games::OfferRequest { kind, action },
        )
        .await
        .map(drop),
        ClientMsg::Abort => act(PlayerAction::Abort).await.map(drop),
        ClientMsg::Undo { to_ply } => act(PlayerAction::Undo(to_ply)).await.map(drop),
        ClientMsg::Resign { color } => act(PlayerAction::Resign(color)).await.map(drop),
        ClientMsg::Restart => act(PlayerAction::Restart).await.map(drop),
        ClientMsg::Choose { choice } => act(PlayerAction::Choose(choice)).await.map(drop),
        ClientMsg::Hint { time_ms } | ClientMsg::Analysis { time_ms } => {
            let purpose = if matches!(msg, ClientMsg::Hint { .. }) {
                Purpose::Hint
            } else {
                Purpose::Analysis
            };
            let (hub, slot, direct) = (Arc::clone(hub), Arc::clone(slot), direct.clone());
            let peer = peer.clone();
            tokio::spawn(async move {
                let reply = match hub
                    .analyze(&slot, purpose, time_ms, peer.client, peer.who.as_ref())
                    .await
                {
                    Ok(result) => ServerMsg::Analysis { purpose, result },
                    Err(e) => error_msg(&e),
                };
                let _ = direct.send(reply).await;
            });
            Ok(())
        }
        ClientMsg::Stop => match slot.game_lock().await.authorize_all(who) {
            Ok(()) => {
                hub.stop(slot);
                Ok(())
            }
            Err(e) => Err(e),
        },
        ClientMsg::Ping => return Some(ServerMsg::Pong),
    };
    result.err().map(|e| error_msg(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_messages_parse_and_refuse_junk() {
        let m: ClientMsg = serde_json::from_str(r#"{"type":"move","pos":"h8"}"#).unwrap();
        assert_eq!(
            m,
            ClientMsg::Move {
                pos: Some("h8".into()),
                x: None,
                y: None,
                ply: None,
                id: None
            }
        );
        let m: ClientMsg = serde_json::from_str(r#"{"type":"choose","choice":"place2"}"#).unwrap();
        assert_eq!(
            m,
            ClientMsg::Choose {
                choice: Choice::Place2
            }
        );
        assert_eq!(
            serde_json::from_str::<ClientMsg>(r#"{"type":"undo"}"#).unwrap(),
            ClientMsg::Undo { to_ply: None }
        );
        for junk in [
            r#"{"type":"fly"}"#,
            r#"{"pos":"h8"}"#,
            r#"{"type":"move","pos":"h8","extra":1}"#,
            r#"{"type":"choose","choice":"red"}"#,
            "not json",
        ] {
            assert!(serde_json::from_str::<ClientMsg>(junk).is_err(), "{junk}");
        }
    }
}
