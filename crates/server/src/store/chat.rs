//! Game chat in the store.

use rusqlite::params;
use serde::Serialize;

use super::{Store, StoreError};
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
        self.with(move |conn| {
            conn.execute(
                "INSERT INTO chat_messages (game, room, author, text, at) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![game.as_str(), room, author.as_str(), text, at],
            )?;
            let id = conn.last_insert_rowid();
            let name = conn
                .query_row(
                    "SELECT display_name FROM accounts WHERE identity = ?1",
                    params![author.as_str()],
                    |r| r.get(0),
                )
                .ok();
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

    /// A room's messages, oldest first (the last `limit`).
    pub async fn chat(
        &self,
        game: GameId,
        room: &'static str,
        limit: usize,
    ) -> Result<Vec<ChatMessage>, StoreError> {
        self.with(move |conn| {
            let mut stmt = conn.prepare(
                "SELECT m.id, m.room, m.author, a.display_name, m.text, m.at
                 FROM chat_messages m LEFT JOIN accounts a ON a.identity = m.author
                 WHERE m.game = ?1 AND m.room = ?2 ORDER BY m.id DESC LIMIT ?3",
            )?;
            let rows = stmt.query_map(
                params![
                    game.as_str(),
                    room,
                    i64::try_from(limit).unwrap_or(i64::MAX)
                ],
                |r| {
                    Ok(ChatMessage {
                        id: r.get(0)?,
                        room: r.get(1)?,
                        author: r.get(2)?,
                        name: r.get(3)?,
                        text: r.get(4)?,
                        at: r.get(5)?,
                    })
                },
            )?;
            let mut out = rows.collect::<Result<Vec<_>, _>>()?;
            out.reverse();
            Ok(out)
        })
        .await
    }
}
