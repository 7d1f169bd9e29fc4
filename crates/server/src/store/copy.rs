//! Copying a whole installation from one database to another (`wuzi db copy`): SQLite to
//! PostgreSQL when one machine is not enough any more, or back.

use super::db::{Db, Row, Value, transaction};
use super::{Store, StoreError};

/// Every table with its columns and its key (for a stable order), parents before the
/// tables that refer to them.
const TABLES: &[(&str, &str, &str)] = &[
    ("server_facts", "key, value", "key"),
    ("identities", "id, kind, created_at", "id"),
    (
        "sessions",
        "token_hash, identity, created_at, expires_at",
        "token_hash",
    ),
    (
        "accounts",
        "identity, username, username_key, display_name, email, password_hash, created_at",
        "identity",
    ),
    (
        "api_tokens",
        "id, identity, token_hash, name, created_at, last_used_at",
        "id",
    ),
    (
        "games",
        "id, created_at, updated_at, mode, rule, status, setup, state, black_owner, white_owner, \
         opponent, winner, end_reason, ply, rated, revision",
        "id",
    ),
    (
        "ratings",
        "identity, pool, rating, deviation, volatility, games, updated_at",
        "identity, pool",
    ),
    (
        "rating_changes",
        "game, identity, pool, at, before, after, deviation",
        "game, identity",
    ),
    ("chat_messages", "id, game, room, author, text, at", "id"),
    // Open seeks and challenges, who left which game, and the computer moves owed (the
    // new installation's node takes them over). Not the nodes and their pages: they
    // belong to running processes.
    ("seeks", "id, owner, preset, rating, created_at, body", "id"),
    ("challenges", "id, owner, addressee, created_at, body", "id"),
    ("away", "place, identity, since", "place, identity"),
    (
        "computer_jobs",
        "game, node, revision, leased_until",
        "game",
    ),
    // Reviews and their analysed positions (a running one is taken over by the new
    // installation when its lease runs out).
    (
        "reviews",
        "game, positions, status, node, leased_until, created_at, updated_at",
        "game",
    ),
    ("review_positions", "game, ply, body", "game, ply"),
    // Puzzles with the ratings players gave them, each person's puzzle rating, and
    // their rated tries.
    (
        "puzzles",
        "id, rule, theme, body, rating, deviation, volatility, plays, solved",
        "id",
    ),
    (
        "puzzle_players",
        "identity, rating, deviation, volatility, streak, best_streak, plays, solved, updated_at",
        "identity",
    ),
    ("studies", "identity, key, body, saved_at", "identity, key"),
    (
        "puzzle_attempts",
        "identity, puzzle, solved, rating_before, rating_after, at",
        "identity, puzzle",
    ),
];

/// Rows read and written at a time.
const PAGE: i64 = 500;

/// What a copy did, table by table: (table, rows in the source, rows in the destination
/// after the copy).
pub type CopyReport = Vec<(&'static str, i64, i64)>;

fn count(db: &mut dyn Db, table: &str) -> Result<i64, StoreError> {
    db.query_opt(&format!("SELECT count(*) FROM {table}"), &[])?
        .map_or(Ok(0), |r| r.get(0))
}

impl Store {
    /// Copies everything in this store into `to`, which must be empty (freshly
    /// migrated), in one transaction on `to`, and checks the counts of every table.
    /// Blocking: call it off the async threads. The source should not change meanwhile
    /// (stop the server first).
    /// A destination with data is [`StoreError::NotEmpty`]; counts that differ after the
    /// copy are [`StoreError::CountMismatch`]; either way nothing is copied.
    pub fn copy_into(&self, to: &Store) -> Result<CopyReport, StoreError> {
        self.backend.run(|src| {
            to.backend.run(|dst| {
                for (table, ..) in TABLES {
                    // The server's own facts (its last sign of life) come along; any
                    // other row means the destination is in use.
                    if *table != "server_facts" && count(dst, table)? > 0 {
                        return Err(StoreError::NotEmpty(table));
                    }
                }
                let postgres = to.is_postgres();
                transaction(dst, |dst| {
                    dst.execute("DELETE FROM server_facts", &[])?;
                    let mut report = Vec::new();
                    for &(table, columns, key) in TABLES {
                        copy_table(src, dst, table, columns, key, postgres)?;
                        let (source, destination) = (count(src, table)?, count(dst, table)?);
                        if source != destination {
                            return Err(StoreError::CountMismatch {
                                table,
                                in_source: source,
                                destination,
                            });
                        }
                        report.push((table, source, destination));
                    }
                    if postgres {
                        // New chat messages number on from the copied ones.
                        dst.query(
                            "SELECT setval(pg_get_serial_sequence('chat_messages', 'id'),
                                    coalesce((SELECT max(id) FROM chat_messages), 0) + 1, false)",
                            &[],
                        )?;
                    }
                    Ok(report)
                })
            })
        })
    }
}

fn copy_table(
    src: &mut dyn Db,
    dst: &mut dyn Db,
    table: &str,
    columns: &str,
    key: &str,
    postgres: bool,
) -> Result<(), StoreError> {
    let n = columns.split(',').count();
    let placeholders = (1..=n).map(|i| format!("${i}")).collect::<Vec<_>>();
    // Chat messages keep their numbers (PostgreSQL numbers them itself unless told).
    let overriding = if postgres && table == "chat_messages" {
        " OVERRIDING SYSTEM VALUE"
    } else {
        ""
    };
    let insert = format!(
        "INSERT INTO {table} ({columns}){overriding} VALUES ({})",
        placeholders.join(", ")
    );
    let select = format!("SELECT {columns} FROM {table} ORDER BY {key} LIMIT $1 OFFSET $2");
    let mut offset = 0;
    loop {
        let rows: Vec<Row> = src.query(&select, &[Value::Int(PAGE), Value::Int(offset)])?;
        for row in &rows {
            dst.execute(&insert, row.values())?;
        }
        if (rows.len() as i64) < PAGE {
            return Ok(());
        }
        offset += PAGE;
    }
}
