//! Copying a whole installation from one database to another (`wuzi db copy`): SQLite to
//! PostgreSQL when one machine is not enough any more, or back.

use super::db::{Db, Row, Value, transaction};
use super::{Backend, Store, StoreError, with_pg};

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
];

/// Rows read and written at a time.
const PAGE: i64 = 500;

/// What a copy did, table by table: (table, rows in the source, rows in the destination
/// after the copy).
pub type CopyReport = Vec<(&'static str, i64, i64)>;

/// Why a copy did not happen or did not complete.
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    /// The destination holds data already; nothing was copied.
    #[error("the destination is not empty ({0} holds rows); copy into a new database")]
    NotEmpty(&'static str),
    /// A database failed; the destination's transaction was rolled back.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The counts differ after the copy (then it was rolled back).
    #[error("{table}: {in_source} rows in the source, {destination} in the destination")]
    Counts {
        /// The table.
        table: &'static str,
        /// Rows in the source.
        in_source: i64,
        /// Rows in the destination.
        destination: i64,
    },
}

fn count(db: &mut dyn Db, table: &str) -> Result<i64, StoreError> {
    db.query_opt(&format!("SELECT count(*) FROM {table}"), &[])?
        .map_or(Ok(0), |r| r.get(0))
}

impl Store {
    /// Copies everything in this store into `to`, which must be empty (freshly
    /// migrated), in one transaction on `to`, and checks the counts of every table.
    /// Blocking: call it off the async threads. The source should not change meanwhile
    /// (stop the server first).
    pub fn copy_into(&self, to: &Store) -> Result<CopyReport, CopyError> {
        self.with_blocking(|src| {
            to.with_blocking(|dst| {
                for (table, ..) in TABLES {
                    // The server's own facts (its last sign of life) come along; any
                    // other row means the destination is in use.
                    if *table != "server_facts" && count(dst, table)? > 0 {
                        return Err(CopyError::NotEmpty(table));
                    }
                }
                let postgres = to.is_postgres();
                transaction_copy(dst, |dst| {
                    dst.execute("DELETE FROM server_facts", &[])?;
                    let mut report = Vec::new();
                    for &(table, columns, key) in TABLES {
                        copy_table(src, dst, table, columns, key, postgres)?;
                        let (source, destination) = (count(src, table)?, count(dst, table)?);
                        if source != destination {
                            return Err(CopyError::Counts {
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

    /// Runs `f` on a connection of this store, blocking the calling thread.
    fn with_blocking<T, E: From<StoreError>>(
        &self,
        f: impl FnOnce(&mut dyn Db) -> Result<T, E>,
    ) -> Result<T, E> {
        match &self.backend {
            Backend::Sqlite { conn, .. } => {
                let mut guard = conn
                    .lock()
                    .map_err(|_| StoreError::Task("database lock poisoned".into()))?;
                f(&mut *guard)
            }
            Backend::Postgres(pool) => {
                let mut out = None;
                with_pg(pool, |db| {
                    out = Some(f(db));
                    Ok(())
                })?;
                out.unwrap_or_else(|| Err(StoreError::Task("no connection".into()).into()))
            }
        }
    }
}

/// [`transaction`] for a copy's errors.
fn transaction_copy<T>(
    db: &mut dyn Db,
    f: impl FnOnce(&mut dyn Db) -> Result<T, CopyError>,
) -> Result<T, CopyError> {
    let mut failure = None;
    let out = transaction(db, |db| {
        f(db).map_err(|e| {
            failure = Some(e);
            StoreError::Task("copy failed".into())
        })
    });
    match (out, failure) {
        (_, Some(e)) => Err(e),
        (Ok(v), None) => Ok(v),
        (Err(e), None) => Err(e.into()),
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
