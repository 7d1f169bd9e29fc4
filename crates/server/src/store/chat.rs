//! Game chat in the store.

use serde::Serialize;

use super::db::{Row, vals};
use super::{Store, StoreError, limit_of};
use crate::id::GameId;
use crate::identity::IdentityId;

/// A chat message as clients see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChatMessage {
    /// Its number (increasing within a game).
    pub id: i64,
    /// `players` or `spectators`.
    pub room: String,
    /// The author's identity.
    pub author: String,
    /// The author's display name (`null` for a guest or a deleted account).
    pub name: Option<String>,
    /// The text, as typed.
    pub text: String,
    /// When (Unix ms).
    pub at: i64,
}

impl Store {
    /// Keeps a message; returns it as stored.
    pub async fn add_chat(
        &self,
        game: GameId,
        room: &'static str,
        author: IdentityId,
        text: String,
        at: i64,
    ) -> Result<ChatMessage, StoreError> {
        let node = std::sync::Arc::clone(&self.node);
        self.with(move |db| {
            let id: i64 = db
                .query_opt(
                    "INSERT INTO chat_messages (game, room, author, text, at)
                     VALUES ($1, $2, $3, $4, $5) RETURNING id",
                    &vals![game.as_str(), room, author.as_str(), text.as_str(), at],
                )?
                .map(|r| r.get(0))
                .transpose()?
                .unwrap_or_default();
            db.notify(&format!("chat {node} {game} {id}"))?;
            let name = db
                .query_opt(
                    "SELECT display_name FROM accounts WHERE identity = $1",
                    &vals![author.as_str()],
                )?
                .map(|r| r.get(0))
                .transpose()?;
            Ok(ChatMessage {
                id,
                room: room.to_string(),
                author: author.to_string(),
                name,
                text,
                at,
            })
        })
        .await
    }

    /// Message `id` of `game`, if there is one.
    pub async fn chat_message(
        &self,
        game: GameId,
        id: i64,
    ) -> Result<Option<ChatMessage>, StoreError> {
        self.with(move |db| {
            db.query_opt(
                "SELECT m.id, m.room, m.author, a.display_name, m.text, m.at
                 FROM chat_messages m LEFT JOIN accounts a ON a.identity = m.author
                 WHERE m.game = $1 AND m.id = $2",
                &vals![game.as_str(), id],
            )?
            .map(|r| message(&r))
            .transpose()
        })
        .await
    }

    /// A room's messages, oldest first (the last `limit`).
    pub async fn chat(
        &self,
        game: GameId,
        room: &'static str,
        limit: usize,
    ) -> Result<Vec<ChatMessage>, StoreError> {
        self.with(move |db| {
            let rows = db.query(
                "SELECT m.id, m.room, m.author, a.display_name, m.text, m.at
                 FROM chat_messages m LEFT JOIN accounts a ON a.identity = m.author
                 WHERE m.game = $1 AND m.room = $2 ORDER BY m.id DESC LIMIT $3",
                &vals![game.as_str(), room, limit_of(limit)],
            )?;
            let mut out = rows
                .iter()
                .map(message)
                .collect::<Result<Vec<_>, StoreError>>()?;
            out.reverse();
            Ok(out)
        })
        .await
    }
}

/// A `SELECT m.id, m.room, m.author, a.display_name, m.text, m.at` row.
fn message(r: &Row) -> Result<ChatMessage, StoreError> {
    Ok(ChatMessage {
        id: r.get(0)?,
        room: r.get(1)?,
        author: r.get(2)?,
        name: r.get(3)?,
        text: r.get(4)?,
        at: r.get(5)?,
    })
}
