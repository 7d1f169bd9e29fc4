//! `/api/games/{id}/chat`: chat in games between people. Players talk in one room,
//! spectators in another (players do not see it during the game). Messages are kept
//! with the game, up to [`MAX_CHARS`] characters, one a second per person (five at once).

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::get;
use serde::Deserialize;

use crate::error::{ApiJson, Error};
use crate::hub::{Hub, ServerMsg, now_ms};
use crate::identity::Requester;
use crate::live::Mode;
use crate::store::ChatMessage;

/// Longest message, in characters.
pub const MAX_CHARS: usize = 200;
/// Messages a room shows.
const SHOWN: usize = 200;

/// The routes.
pub fn router() -> Router<Arc<Hub>> {
    Router::new().route("/api/games/{id}/chat", get(read).post(say))
}

/// `POST /api/games/{id}/chat`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Say {
    text: String,
}

/// The room of `who` in the game, and the game's id (chat is for games between people).
async fn room(
    hub: &Arc<Hub>,
    id: &str,
    who: Option<&crate::identity::IdentityId>,
) -> Result<(Arc<crate::hub::Slot>, crate::id::GameId, &'static str), Error> {
    let slot = super::games::find(hub, id).await?;
    let g = slot.game_lock().await;
    if g.setup().mode != Mode::Online {
        return Err(Error::WrongPhase("chat is for games between people".into()));
    }
    let room = if g.setup().owners.has(who) {
        "players"
    } else {
        "spectators"
    };
    let game = g.id().clone();
    drop(g);
    Ok((slot, game, room))
}

async fn read(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    Path(id): Path<String>,
) -> Result<ApiJson<Vec<ChatMessage>>, Error> {
    let (_, game, room) = room(&hub, &id, who.as_ref()).await?;
    Ok(ApiJson(hub.store().chat(game, room, SHOWN).await?))
}

/// The text as kept: trimmed, control characters (but not line breaks) dropped.
fn clean(text: &str) -> Result<String, Error> {
    let t: String = text
        .trim()
        .chars()
        .filter(|c| !c.is_control() || *c == '\n')
        .collect();
    let n = t.chars().count();
    if n == 0 {
        return Err(Error::BadRequest("text: say something".into()));
    }
    if n > MAX_CHARS {
        return Err(Error::BadRequest(format!(
            "text: at most {MAX_CHARS} characters ({n} given)"
        )));
    }
    Ok(t)
}

async fn say(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    Path(id): Path<String>,
    ApiJson(req): ApiJson<Say>,
) -> Result<(StatusCode, ApiJson<ChatMessage>), Error> {
    let who = who.ok_or_else(|| Error::NotYours("this request has no identity".into()))?;
    let text = clean(&req.text)?;
    let (slot, game, room) = room(&hub, &id, Some(&who)).await?;
    if !hub.may_chat(&who) {
        return Err(Error::TooManyRequests(
            "you are sending messages too fast; wait a moment".into(),
        ));
    }
    let message = hub
        .store()
        .add_chat(game, room, who, text, now_ms())
        .await?;
    hub.broadcast(
        &slot,
        ServerMsg::Chat {
            message: message.clone(),
        },
    );
    Ok((StatusCode::CREATED, ApiJson(message)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_trimmed_bounded_and_kept_verbatim() {
        assert_eq!(clean("  你好 <b>hi</b>  ").unwrap(), "你好 <b>hi</b>");
        assert_eq!(clean("a\u{7}b\nc").unwrap(), "ab\nc");
        assert!(clean("   ").is_err());
        assert!(clean(&"字".repeat(MAX_CHARS)).is_ok());
        assert!(clean(&"字".repeat(MAX_CHARS + 1)).is_err());
    }
}
