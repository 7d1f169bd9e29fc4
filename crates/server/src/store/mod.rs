//! Storage: games, identities, ratings and chat, in SQLite (the default, one file) or
//! PostgreSQL (for several nodes), behind one async interface.
//!
//! Every query is written once against [`db::Db`] and runs on either database. The
//! drivers are blocking and used only inside `spawn_blocking`, never on the async
//! runtime's threads. Migrations are numbered SQL files, one set per database with the
//! same tables and numbers, run at start-up; SQLite tracks the version in `user_version`,
//! PostgreSQL in `schema_version`. This module is the only one that knows SQL.
//!
//! Game writes, the most frequent ones, are committed before they are acknowledged. On
//! SQLite they go to one writer thread that commits the writes waiting at one moment in
//! one transaction (group commit: one disk sync for many moves). On PostgreSQL each runs
//! on a pooled connection of its own, and the server groups concurrent commits itself.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rusqlite::Connection;

use crate::error::Error;
use crate::id::GameId;
use crate::identity::IdentityId;
use crate::live::StoredGame;

mod chat;
mod copy;
pub mod db;
mod jobs;
mod lobby;
mod presence;
mod puzzles;
mod ratings;
mod reviews;
mod studies;
pub use chat::ChatMessage;
pub use copy::CopyReport;
use db::{Db, PgConn, PgPool, Row, transaction, vals};
pub use jobs::JOB_LEASE_MS;
pub use lobby::{ChallengeRow, SeekRow, Taken};
pub use presence::{Change, Left, Presence, Step};
pub use puzzles::{NEW_PUZZLE_DEVIATION, PuzzlePlayer, PuzzleRow, TryOutcome};
pub use ratings::{
    LeaderRow, PersonRow, RatedOpponent, RatedResult, RatedSeat, RatingChange, RatingPoint,
    RatingRow,
};
pub use reviews::{REVIEW_LEASE_MS, ReviewRow};

/// The SQLite migrations, in order; migration `n` (1-based) brings the schema to version
/// `n`.
const MIGRATIONS: &[&str] = &[
    include_str!("../../migrations/0001_games.sql"),
    include_str!("../../migrations/0002_server_life.sql"),
    include_str!("../../migrations/0003_identities.sql"),
    include_str!("../../migrations/0004_accounts.sql"),
    include_str!("../../migrations/0005_api_tokens.sql"),
    include_str!("../../migrations/0006_game_players.sql"),
    include_str!("../../migrations/0007_ratings.sql"),
    include_str!("../../migrations/0008_chat.sql"),
    include_str!("../../migrations/0009_revision.sql"),
    include_str!("../../migrations/0010_nodes.sql"),
    include_str!("../../migrations/0011_reviews.sql"),
    include_str!("../../migrations/0012_puzzles.sql"),
    include_str!("../../migrations/0013_studies.sql"),
];

/// The PostgreSQL migrations: the same tables, numbers and order as [`MIGRATIONS`], in
/// PostgreSQL's types.
const PG_MIGRATIONS: &[&str] = &[
    include_str!("../../migrations/postgres/0001_games.sql"),
    include_str!("../../migrations/postgres/0002_server_life.sql"),
    include_str!("../../migrations/postgres/0003_identities.sql"),
    include_str!("../../migrations/postgres/0004_accounts.sql"),
    include_str!("../../migrations/postgres/0005_api_tokens.sql"),
    include_str!("../../migrations/postgres/0006_game_players.sql"),
    include_str!("../../migrations/postgres/0007_ratings.sql"),
    include_str!("../../migrations/postgres/0008_chat.sql"),
    include_str!("../../migrations/postgres/0009_revision.sql"),
    include_str!("../../migrations/postgres/0010_nodes.sql"),
    include_str!("../../migrations/postgres/0011_reviews.sql"),
    include_str!("../../migrations/postgres/0012_puzzles.sql"),
    include_str!("../../migrations/postgres/0013_studies.sql"),
];

/// How long a PostgreSQL store waits at start-up for its listening connection.
const LISTEN_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// Connections a PostgreSQL store opens at most.
const PG_POOL: usize = 16;

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite said no.
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL said no (or cannot be reached).
    #[error("database: {0}")]
    Postgres(#[from] postgres::Error),
    /// A row that does not decode.
    #[error("stored game {id} is damaged: {why}")]
    Damaged {
        /// The game.
        id: String,
        /// What is wrong.
        why: String,
    },
    /// The database is newer than this program.
    #[error("the database has schema version {found}, newer than this wuzi ({known})")]
    TooNew {
        /// Version in the file.
        found: i64,
        /// Newest version this program knows.
        known: i64,
    },
    /// A new game's id is taken already.
    #[error("a game with id {0} exists already")]
    Taken(String),
    /// An update for a game that is not stored.
    #[error("no stored game {0} to update")]
    Missing(String),
    /// An update built on a revision of the game that is not the stored one any more:
    /// someone else (another node) wrote it meanwhile. Nothing was changed.
    #[error("game {0} was changed meanwhile")]
    Conflict(String),
    /// A copy's destination holds data already (the table named); nothing was copied.
    #[error("the destination is not empty ({0} holds rows); copy into a new database")]
    NotEmpty(&'static str),
    /// A copy's counts differ (it was rolled back).
    #[error("{table}: {in_source} rows in the source, {destination} in the destination")]
    CountMismatch {
        /// The table.
        table: &'static str,
        /// Rows in the source.
        in_source: i64,
        /// Rows in the destination.
        destination: i64,
    },
    /// The blocking task failed.
    #[error("storage task failed: {0}")]
    Task(String),
}

impl From<StoreError> for Error {
    fn from(e: StoreError) -> Error {
        Error::Internal(e.to_string())
    }
}

/// Where the data lives: a SQLite file, or a PostgreSQL database.
#[derive(Clone, PartialEq, Eq)]
pub enum DbLocation {
    /// A SQLite file (created if missing).
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL (`postgres://user:password@host:port/database`).
    Postgres(String),
}

impl std::str::FromStr for DbLocation {
    type Err = String;

    /// `postgres://...` or `postgresql://...` is PostgreSQL; `sqlite://path`,
    /// `sqlite:path` or a plain path is a SQLite file.
    fn from_str(s: &str) -> Result<DbLocation, String> {
        if s.starts_with("postgres://") || s.starts_with("postgresql://") {
            s.parse::<postgres::Config>()
                .map_err(|e| format!("not a PostgreSQL URL: {e}"))?;
            return Ok(DbLocation::Postgres(s.to_owned()));
        }
        let path = s
            .strip_prefix("sqlite://")
            .or_else(|| s.strip_prefix("sqlite:"))
            .unwrap_or(s);
        if path.is_empty() {
            return Err("no database file given".into());
        }
        Ok(DbLocation::Sqlite(PathBuf::from(path)))
    }
}

impl std::fmt::Display for DbLocation {
    /// The location, without a password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DbLocation::Sqlite(p) => write!(f, "{}", p.display()),
            DbLocation::Postgres(url) => match url.split_once('@') {
                Some((user, rest)) if user.matches(':').count() > 1 => {
                    let user = user.rsplit_once(':').map_or(user, |(u, _)| u);
                    write!(f, "{user}:***@{rest}")
                }
                _ => write!(f, "{url}"),
            },
        }
    }
}

impl std::fmt::Debug for DbLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DbLocation({self})")
    }
}

/// The database behind a store.
#[derive(Clone, Debug)]
enum Backend {
    Sqlite {
        conn: Arc<Mutex<Connection>>,
        /// Game writes go to the writer thread ([`run_writer`]).
        writer: std::sync::mpsc::Sender<WriteJob>,
    },
    Postgres(Arc<PgPool>),
}

impl Backend {
    /// Runs `f` on a connection, blocking the calling thread.
    fn run<T>(
        &self,
        f: impl FnOnce(&mut dyn Db) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        match self {
            Backend::Sqlite { conn, .. } => {
                let mut guard = conn
                    .lock()
                    .map_err(|_| StoreError::Task("database lock poisoned".into()))?;
                f(&mut *guard)
            }
            Backend::Postgres(pool) => with_pg(pool, f),
        }
    }
}

/// The store.
#[derive(Clone, Debug)]
pub struct Store {
    backend: Backend,
    /// This node's name among the nodes that share the database (random).
    node: Arc<str>,
    /// The last sign of life noted before this store was opened.
    alive_before_open: Option<i64>,
}

impl Store {
    /// Opens the database at `location` and brings its schema up to date.
    pub fn connect(location: &DbLocation) -> Result<Store, StoreError> {
        match location {
            DbLocation::Sqlite(path) => Store::open(path),
            DbLocation::Postgres(url) => Store::open_postgres(url),
        }
    }

    /// Opens (or creates) the SQLite file and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let conn = Connection::open(path)?;
        Self::init(conn)
    }

    /// A SQLite database in memory (for tools and tests that need no file).
    pub fn open_in_memory() -> Result<Store, StoreError> {
        Self::init(Connection::open_in_memory()?)
    }

    /// Connects to PostgreSQL at `url` and brings its schema up to date (several nodes
    /// starting at once migrate one after the other).
    /// Blocking; may be called from async code too (it runs on a thread of its own).
    pub fn open_postgres(url: &str) -> Result<Store, StoreError> {
        let url = url.to_owned();
        std::thread::spawn(move || {
            let pool = PgPool::connect(&url, PG_POOL)?;
            let mut conn = pool.get()?;
            let migrated = migrate_postgres(&mut conn).and_then(|()| alive_at(&mut conn));
            pool.give_back(conn);
            Ok(Store {
                backend: Backend::Postgres(pool),
                node: node_name(),
                alive_before_open: migrated?,
            })
        })
        .join()
        .map_err(|_| StoreError::Task("connecting to PostgreSQL panicked".into()))?
    }

    fn init(mut conn: Connection) -> Result<Store, StoreError> {
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        // WAL keeps readers and the writer apart; FULL makes each commit durable.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        migrate_sqlite(&mut conn)?;
        let alive_before_open = alive_at(&mut conn)?;
        let conn = Arc::new(Mutex::new(conn));
        let (writer, jobs) = std::sync::mpsc::channel();
        let shared = Arc::clone(&conn);
        std::thread::Builder::new()
            .name("wuzi-db-writer".into())
            .spawn(move || run_writer(&shared, &jobs))
            .map_err(|e| StoreError::Task(format!("cannot start the database writer: {e}")))?;
        Ok(Store {
            backend: Backend::Sqlite { conn, writer },
            node: node_name(),
            alive_before_open,
        })
    }

    /// The other nodes' notices (game writes, chat), if other nodes can share this
    /// database (PostgreSQL): a thread listens and sends them until the receiver is
    /// dropped. Returns once it listens (or after [`LISTEN_WAIT`] if the database cannot
    /// be reached). Blocking.
    #[must_use]
    pub fn listen(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<db::Notice>> {
        let Backend::Postgres(pool) = &self.backend else {
            return None;
        };
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let (config, node) = (pool.config(), self.node.to_string());
        let (listening, ready) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("wuzi-pg-listen".into())
            .spawn(move || db::listen(config, node, tx, listening))
            .ok()?;
        // Wait (a moment, at start-up) until it listens: a game this node reads before
        // then could miss another node's write. If the database cannot be reached now,
        // go on; the listener keeps trying and re-reads everything once it is there.
        if ready.recv_timeout(LISTEN_WAIT).is_err() {
            tracing::warn!("not yet listening to the other nodes; going on");
        }
        Some(rx)
    }

    /// Whether this store is on PostgreSQL.
    #[must_use]
    pub fn is_postgres(&self) -> bool {
        matches!(self.backend, Backend::Postgres(_))
    }

    /// Runs `f` on a connection, off the async threads.
    async fn with<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&mut dyn Db) -> Result<T, StoreError> + Send + 'static,
    {
        let backend = self.backend.clone();
        tokio::task::spawn_blocking(move || backend.run(f))
            .await
            .map_err(|e| StoreError::Task(e.to_string()))?
    }

    /// Stores a new game; returns once committed. An id that is taken already is
    /// [`StoreError::Taken`] and changes nothing (a new game never overwrites another).
    /// `over` marks finished games (for listings and clean-up).
    pub async fn insert(&self, game: StoredGame, summary: GameSummary) -> Result<(), StoreError> {
        self.write(game, summary, true).await
    }

    /// Writes the new state of a stored game in one transaction; returns once committed,
    /// with the game's new revision. `game.revision` is the revision the change builds
    /// on: if the stored game has moved on since, nothing is written and the answer is
    /// [`StoreError::Conflict`].
    pub async fn save(&self, game: StoredGame, summary: GameSummary) -> Result<i64, StoreError> {
        let next = game.revision + 1;
        self.write(game, summary, false).await.map(|()| next)
    }

    async fn write(
        &self,
        game: StoredGame,
        summary: GameSummary,
        new: bool,
    ) -> Result<(), StoreError> {
        let setup = serde_json::to_string(&game.setup).map_err(|e| damaged(&game.id, e))?;
        let state = serde_json::to_string(&game.state).map_err(|e| damaged(&game.id, e))?;
        let (reply, answer) = tokio::sync::oneshot::channel();
        let job = WriteJob {
            game,
            setup,
            state,
            summary,
            new,
            node: Arc::clone(&self.node),
            reply,
        };
        match &self.backend {
            Backend::Sqlite { writer, .. } => {
                writer
                    .send(job)
                    .map_err(|_| StoreError::Task("the database writer has stopped".into()))?;
                answer
                    .await
                    .map_err(|_| StoreError::Task("the database writer has stopped".into()))?
            }
            Backend::Postgres(_) => {
                self.with(move |db| transaction(db, |db| write_one(db, &job)))
                    .await
            }
        }
    }

    /// Deletes the games nobody ever played in (no stone, not over) that were last
    /// touched before `before` (Unix ms), except those `keep` says to keep; how many.
    pub async fn delete_untouched(
        &self,
        before: i64,
        keep: impl Fn(&str) -> bool + Send + 'static,
    ) -> Result<usize, StoreError> {
        self.with(move |db| {
            transaction(db, |db| {
                let ids = db.query(
                    "SELECT id FROM games WHERE ply = 0 AND status = 'playing' AND updated_at < $1",
                    &vals![before],
                )?;
                let mut n = 0;
                for r in &ids {
                    let id: String = r.get(0)?;
                    if !keep(&id) {
                        n += db.execute("DELETE FROM games WHERE id = $1", &vals![id])?;
                    }
                }
                Ok(n as usize)
            })
        })
        .await
    }

    /// The games `who` played, newest first, that match `filter`, at most `limit`.
    pub async fn history(
        &self,
        who: IdentityId,
        filter: HistoryFilter,
        limit: usize,
    ) -> Result<Vec<HistoryRow>, StoreError> {
        self.with(move |db| {
            db.query(
                "SELECT id, rule, opponent, black_owner, white_owner, winner, end_reason, ply,
                        created_at, updated_at, rated,
                        (SELECT after - before FROM rating_changes
                          WHERE game = games.id AND identity = $1)
                 FROM games
                 WHERE (black_owner = $1 OR white_owner = $1)
                   AND (CAST($2 AS TEXT) IS NULL OR rule = $2)
                   AND (CAST($3 AS TEXT) IS NULL OR opponent = $3)
                   AND (CAST($4 AS BIGINT) IS NULL OR updated_at < $4)
                 ORDER BY updated_at DESC, id
                 LIMIT $5",
                &vals![
                    who.as_str(),
                    filter.rule,
                    filter.opponent,
                    filter.before,
                    limit_of(limit)
                ],
            )?
            .iter()
            .map(|r| {
                Ok(HistoryRow {
                    id: r.get(0)?,
                    rule: r.get(1)?,
                    opponent: r.get(2)?,
                    black_owner: r.get(3)?,
                    white_owner: r.get(4)?,
                    winner: r.get(5)?,
                    reason: r.get(6)?,
                    ply: r.get(7)?,
                    created_at: r.get(8)?,
                    updated_at: r.get(9)?,
                    rated: r.get(10)?,
                    rating_change: r.get(11)?,
                })
            })
            .collect()
        })
        .await
    }

    /// The games in play whose clocks the server watches whether or not anyone looks
    /// (between people, or rated): loaded at start-up, so their flags fall on time.
    pub async fn watched_games(&self) -> Result<Vec<GameId>, StoreError> {
        self.with(|db| {
            let rows = db.query(
                "SELECT id FROM games WHERE status = 'playing' AND (mode = 'online' OR rated = 1)",
                &[],
            )?;
            let mut out = Vec::new();
            for r in &rows {
                if let Ok(id) = r.get::<String>(0)?.parse() {
                    out.push(id);
                }
            }
            Ok(out)
        })
        .await
    }

    /// Notes that the server is alive at `now` (Unix ms).
    pub async fn note_alive(&self, now: i64) -> Result<(), StoreError> {
        self.with(move |db| {
            db.execute(
                "INSERT INTO server_facts (key, value) VALUES ('alive_at', $1)
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                &vals![now],
            )?;
            Ok(())
        })
        .await
    }

    /// Makes a guest identity with its first session (the token's hash) in one
    /// transaction.
    pub async fn create_guest(
        &self,
        id: IdentityId,
        token_hash: String,
        now: i64,
        expires_at: i64,
    ) -> Result<(), StoreError> {
        self.with(move |db| {
            transaction(db, |db| {
                db.execute(
                    "INSERT INTO identities (id, kind, created_at) VALUES ($1, 'guest', $2)",
                    &vals![id.as_str(), now],
                )?;
                db.execute(
                    "INSERT INTO sessions (token_hash, identity, created_at, expires_at)
                     VALUES ($1, $2, $3, $4)",
                    &vals![token_hash, id.as_str(), now, expires_at],
                )?;
                Ok(())
            })
        })
        .await
    }

    /// The identity of the session with this token hash, if it has not expired at `now`;
    /// a session used in the second half of its life is renewed for `lifetime` more.
    pub async fn session(
        &self,
        token_hash: String,
        now: i64,
        lifetime: i64,
    ) -> Result<Option<IdentityId>, StoreError> {
        self.with(move |db| {
            let Some(row) = db.query_opt(
                "SELECT identity, expires_at FROM sessions WHERE token_hash = $1",
                &vals![token_hash.as_str()],
            )?
            else {
                return Ok(None);
            };
            let (identity, expires_at): (String, i64) = (row.get(0)?, row.get(1)?);
            if expires_at <= now {
                db.execute(
                    "DELETE FROM sessions WHERE token_hash = $1",
                    &vals![token_hash],
                )?;
                return Ok(None);
            }
            if expires_at - now < lifetime / 2 {
                db.execute(
                    "UPDATE sessions SET expires_at = $2 WHERE token_hash = $1",
                    &vals![token_hash, now + lifetime],
                )?;
            }
            Ok(identity.parse().ok())
        })
        .await
    }

    /// Turns the guest `id` into an account and gives it a new session in place of the
    /// old one, in one transaction. [`StoreError::Taken`] if the username (without regard
    /// to case) is taken, or the identity is not a guest.
    pub async fn register(
        &self,
        reg: Registration,
        old_session: String,
        new_session: String,
        now: i64,
        expires_at: i64,
    ) -> Result<(), StoreError> {
        self.with(move |db| {
            transaction(db, |db| {
                let changed = db.execute(
                    "UPDATE identities SET kind = 'account' WHERE id = $1 AND kind = 'guest'",
                    &vals![reg.identity.as_str()],
                )?;
                if changed != 1 {
                    return Err(StoreError::Taken(reg.identity.to_string()));
                }
                let inserted = db.execute(
                    "INSERT INTO accounts (identity, username, username_key, display_name, email, password_hash, created_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING",
                    &vals![
                        reg.identity.as_str(),
                        reg.username.as_str(),
                        reg.username.to_lowercase(),
                        reg.display_name.as_str(),
                        reg.email.as_deref(),
                        reg.password_hash.as_str(),
                        now
                    ],
                )?;
                if inserted != 1 {
                    return Err(StoreError::Taken(reg.username.clone()));
                }
                db.execute(
                    "DELETE FROM sessions WHERE token_hash = $1",
                    &vals![old_session.as_str()],
                )?;
                db.execute(
                    "INSERT INTO sessions (token_hash, identity, created_at, expires_at) VALUES ($1, $2, $3, $4)",
                    &vals![new_session.as_str(), reg.identity.as_str(), now, expires_at],
                )?;
                Ok(())
            })
        })
        .await
    }

    /// The account with this username (without regard to case).
    pub async fn account_by_name(&self, username: String) -> Result<Option<Account>, StoreError> {
        self.account_where("username_key", username.to_lowercase())
            .await
    }

    /// The account of an identity, if it has one.
    pub async fn account(&self, id: IdentityId) -> Result<Option<Account>, StoreError> {
        self.account_where("identity", id.to_string()).await
    }

    async fn account_where(
        &self,
        column: &'static str,
        value: String,
    ) -> Result<Option<Account>, StoreError> {
        self.with(move |db| {
            db.query_opt(
                &format!(
                    "SELECT identity, username, display_name, email, password_hash
                     FROM accounts WHERE {column} = $1"
                ),
                &vals![value],
            )?
            .as_ref()
            .map(Account::from_row)
            .transpose()
        })
        .await
    }

    /// An identity's kind (`guest`, `account`, `deleted`), if it exists.
    pub async fn identity_kind(&self, id: IdentityId) -> Result<Option<String>, StoreError> {
        self.with(move |db| {
            db.query_opt(
                "SELECT kind FROM identities WHERE id = $1",
                &vals![id.as_str()],
            )?
            .map(|r| r.get(0))
            .transpose()
        })
        .await
    }

    /// A new session for an identity (sign-in).
    pub async fn add_session(
        &self,
        id: IdentityId,
        token_hash: String,
        now: i64,
        expires_at: i64,
    ) -> Result<(), StoreError> {
        self.with(move |db| {
            db.execute(
                "INSERT INTO sessions (token_hash, identity, created_at, expires_at) VALUES ($1, $2, $3, $4)",
                &vals![token_hash, id.as_str(), now, expires_at],
            )?;
            Ok(())
        })
        .await
    }

    /// Ends one session (sign-out), or every session of its identity but `keep`.
    pub async fn end_sessions(
        &self,
        id: IdentityId,
        only: Option<String>,
        keep: Option<String>,
    ) -> Result<(), StoreError> {
        self.with(move |db| {
            match only {
                Some(hash) => db.execute(
                    "DELETE FROM sessions WHERE token_hash = $1 AND identity = $2",
                    &vals![hash, id.as_str()],
                )?,
                None => db.execute(
                    "DELETE FROM sessions WHERE identity = $1
                       AND token_hash IS DISTINCT FROM CAST($2 AS TEXT)",
                    &vals![id.as_str(), keep],
                )?,
            };
            Ok(())
        })
        .await
    }

    /// Stores a new API token (its hash) for an identity.
    pub async fn add_api_token(
        &self,
        token: ApiToken,
        token_hash: String,
    ) -> Result<(), StoreError> {
        self.with(move |db| {
            db.execute(
                "INSERT INTO api_tokens (id, identity, token_hash, name, created_at) VALUES ($1, $2, $3, $4, $5)",
                &vals![token.id, token.identity.as_str(), token_hash, token.name, token.created_at],
            )?;
            Ok(())
        })
        .await
    }

    /// An identity's API tokens, newest first.
    pub async fn api_tokens(&self, id: IdentityId) -> Result<Vec<ApiToken>, StoreError> {
        self.with(move |db| {
            db.query(
                "SELECT id, identity, name, created_at, last_used_at FROM api_tokens
                 WHERE identity = $1 ORDER BY created_at DESC, id",
                &vals![id.as_str()],
            )?
            .iter()
            .map(ApiToken::from_row)
            .collect()
        })
        .await
    }

    /// Revokes (deletes) one of an identity's API tokens; whether it existed.
    pub async fn revoke_api_token(
        &self,
        id: IdentityId,
        token_id: String,
    ) -> Result<bool, StoreError> {
        self.with(move |db| {
            Ok(db.execute(
                "DELETE FROM api_tokens WHERE id = $1 AND identity = $2",
                &vals![token_id, id.as_str()],
            )? == 1)
        })
        .await
    }

    /// The identity of an API token (by its hash), noting its use at `now`.
    pub async fn api_token_identity(
        &self,
        token_hash: String,
        now: i64,
    ) -> Result<Option<IdentityId>, StoreError> {
        self.with(move |db| {
            let id: Option<String> = db
                .query_opt(
                    "UPDATE api_tokens SET last_used_at = $2 WHERE token_hash = $1 RETURNING identity",
                    &vals![token_hash, now],
                )?
                .map(|r| r.get(0))
                .transpose()?;
            Ok(id.and_then(|id| id.parse().ok()))
        })
        .await
    }

    /// Sets an account's password hash.
    pub async fn set_password(
        &self,
        id: IdentityId,
        password_hash: String,
    ) -> Result<(), StoreError> {
        self.with(move |db| {
            db.execute(
                "UPDATE accounts SET password_hash = $2 WHERE identity = $1",
                &vals![id.as_str(), password_hash],
            )?;
            Ok(())
        })
        .await
    }

    /// Deletes an account's personal data (name, email, password hash, sessions); the
    /// identity stays, as `deleted`, so its games keep their owner.
    pub async fn delete_account(&self, id: IdentityId) -> Result<(), StoreError> {
        self.with(move |db| {
            transaction(db, |db| {
                for sql in [
                    "DELETE FROM accounts WHERE identity = $1",
                    "DELETE FROM sessions WHERE identity = $1",
                    "DELETE FROM api_tokens WHERE identity = $1",
                    "UPDATE identities SET kind = 'deleted' WHERE id = $1",
                ] {
                    db.execute(sql, &vals![id.as_str()])?;
                }
                Ok(())
            })
        })
        .await
    }

    /// The last time a server noted that it was alive ([`Store::note_alive`]) before
    /// this store was opened, if ever.
    #[must_use]
    pub fn alive_before_open(&self) -> Option<i64> {
        self.alive_before_open
    }

    /// Reads a game, or `None` if there is no such id.
    pub async fn load(&self, id: &GameId) -> Result<Option<StoredGame>, StoreError> {
        let id = id.clone();
        self.with(move |db| {
            let Some(r) = db.query_opt(
                "SELECT created_at, updated_at, setup, state, revision FROM games WHERE id = $1",
                &vals![id.as_str()],
            )?
            else {
                return Ok(None);
            };
            let (setup, state): (String, String) = (r.get(2)?, r.get(3)?);
            Ok(Some(StoredGame {
                setup: serde_json::from_str(&setup).map_err(|e| damaged(&id, e))?,
                state: serde_json::from_str(&state).map_err(|e| damaged(&id, e))?,
                created_at: r.get(0)?,
                updated_at: r.get(1)?,
                revision: r.get(4)?,
                id,
            }))
        })
        .await
    }

    /// Number of games stored.
    pub async fn count(&self) -> Result<i64, StoreError> {
        self.with(|db| {
            db.query_opt("SELECT count(*) FROM games", &[])?
                .map_or(Ok(0), |r| r.get(0))
        })
        .await
    }
}

/// Runs `f` on a pooled PostgreSQL connection. A connection an error may have broken is
/// given up (the pool connects anew), so a restarted server costs the requests of that
/// moment, not the node.
fn with_pg<T>(
    pool: &PgPool,
    f: impl FnOnce(&mut dyn Db) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    let mut conn: PgConn = pool.get()?;
    let out = f(&mut conn);
    if matches!(out, Err(StoreError::Postgres(_))) {
        pool.discard(conn);
    } else {
        pool.give_back(conn);
    }
    out
}

/// A new node's name.
fn node_name() -> Arc<str> {
    format!("{:016x}", crate::id::random_seed()).into()
}

/// A row limit as SQL takes it.
pub(crate) fn limit_of(limit: usize) -> i64 {
    i64::try_from(limit).unwrap_or(i64::MAX)
}

/// The `alive_at` fact, if noted.
fn alive_at(db: &mut dyn Db) -> Result<Option<i64>, StoreError> {
    db.query_opt("SELECT value FROM server_facts WHERE key = 'alive_at'", &[])?
        .map(|r| r.get(0))
        .transpose()
}

/// What the games table keeps beside a game's JSON, for histories and statistics.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameSummary {
    /// Who holds Black (`None`: the computer, or not decided yet).
    pub black_owner: Option<IdentityId>,
    /// Who holds White.
    pub white_owner: Option<IdentityId>,
    /// `local`, or `computer:<player>`.
    pub opponent: String,
    /// `black`, `white` or `draw` once over.
    pub winner: Option<&'static str>,
    /// Why it ended (`five`, `resignation`, ...).
    pub reason: Option<&'static str>,
    /// Stones played.
    pub ply: i64,
    /// A rated game (its setup says so).
    pub rated: bool,
    /// A rated game that is over: what the rating update needs (applied once, with the
    /// write that stores the end).
    pub rating: Option<RatedResult>,
    /// The computer is to act: the write makes the computer's move a job of the
    /// writing node (see `jobs`), in the same transaction.
    pub computer_owes: bool,
}

/// Which of a player's games to list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HistoryFilter {
    /// Only this rule (`freestyle`, `renju`, ...).
    pub rule: Option<String>,
    /// Only this opponent (`local`, `computer:level5`, ...).
    pub opponent: Option<String>,
    /// Only games last changed before this time (Unix ms): the next page.
    pub before: Option<i64>,
}

/// One of a player's games as the history lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryRow {
    /// The game.
    pub id: String,
    /// Its rule.
    pub rule: String,
    /// Its opponent kind.
    pub opponent: String,
    /// Black's owner.
    pub black_owner: Option<String>,
    /// White's owner.
    pub white_owner: Option<String>,
    /// `black`, `white`, `draw`, or `None` while playing.
    pub winner: Option<String>,
    /// Why it ended.
    pub reason: Option<String>,
    /// Stones played.
    pub ply: i64,
    /// Created (Unix ms).
    pub created_at: i64,
    /// Last change (Unix ms).
    pub updated_at: i64,
    /// Rated.
    pub rated: bool,
    /// The player's rating change, once a rated game is over.
    pub rating_change: Option<f64>,
}

/// What a registration stores.
#[derive(Clone, Debug)]
pub struct Registration {
    /// The guest that becomes an account.
    pub identity: IdentityId,
    /// The username as typed.
    pub username: String,
    /// The name shown.
    pub display_name: String,
    /// An email address, if given.
    pub email: Option<String>,
    /// The argon2id PHC string.
    pub password_hash: String,
}

/// A personal API token as listed (the token itself is shown once, at creation).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ApiToken {
    /// Its public id (for revoking).
    pub id: String,
    /// Whose it is.
    #[serde(skip)]
    pub identity: IdentityId,
    /// A name its owner gave it.
    pub name: String,
    /// When it was made (Unix ms).
    pub created_at: i64,
    /// When it was last used (Unix ms).
    pub last_used_at: Option<i64>,
}

impl ApiToken {
    fn from_row(r: &Row) -> Result<ApiToken, StoreError> {
        Ok(ApiToken {
            id: r.get(0)?,
            identity: identity(r, 1)?,
            name: r.get(2)?,
            created_at: r.get(3)?,
            last_used_at: r.get(4)?,
        })
    }
}

/// An account as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// Its identity.
    pub identity: IdentityId,
    /// The username as typed at registration.
    pub username: String,
    /// The name shown.
    pub display_name: String,
    /// Email, if given.
    pub email: Option<String>,
    /// The argon2id PHC string.
    pub password_hash: String,
}

impl Account {
    fn from_row(r: &Row) -> Result<Account, StoreError> {
        Ok(Account {
            identity: identity(r, 0)?,
            username: r.get(1)?,
            display_name: r.get(2)?,
            email: r.get(3)?,
            password_hash: r.get(4)?,
        })
    }
}

/// Column `i` of `r` as an identity.
fn identity(r: &Row, i: usize) -> Result<IdentityId, StoreError> {
    r.get::<String>(i)?
        .parse()
        .map_err(|e: String| StoreError::Task(format!("a stored identity does not parse: {e}")))
}

/// One game write waiting for the writer.
pub(super) struct WriteJob {
    game: StoredGame,
    setup: String,
    state: String,
    summary: GameSummary,
    new: bool,
    /// The writing node.
    node: Arc<str>,
    reply: tokio::sync::oneshot::Sender<Result<(), StoreError>>,
}

impl std::fmt::Debug for WriteJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WriteJob")
            .field("game", &self.game.id)
            .field("new", &self.new)
            .finish_non_exhaustive()
    }
}

/// Most writes committed together.
const MAX_BATCH: usize = 512;

/// The SQLite writer thread: takes the waiting game writes, applies each in a savepoint
/// of one transaction, commits them with one sync to disk (group commit), and only then
/// answers each. A write that fails is rolled back alone; a commit that fails fails them
/// all. Under load many games' moves share one sync instead of queueing for one each.
fn run_writer(conn: &Mutex<Connection>, jobs: &std::sync::mpsc::Receiver<WriteJob>) {
    while let Ok(first) = jobs.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(j) => batch.push(j),
                Err(_) => break,
            }
        }
        let Ok(mut guard) = conn.lock() else {
            for j in batch {
                let _ = j
                    .reply
                    .send(Err(StoreError::Task("database lock poisoned".into())));
            }
            continue;
        };
        let mut results = Vec::with_capacity(batch.len());
        let committed = transaction(&mut *guard, |db| {
            for j in &batch {
                db.batch("SAVEPOINT game_write")?;
                let r = write_one(db, j);
                if r.is_err() {
                    db.batch("ROLLBACK TO game_write")?;
                }
                db.batch("RELEASE game_write")?;
                results.push(r);
            }
            Ok(())
        });
        drop(guard);
        for (i, j) in batch.into_iter().enumerate() {
            let r = match &committed {
                Ok(()) => results
                    .get_mut(i)
                    .map_or(Ok(()), |r| std::mem::replace(r, Ok(()))),
                Err(e) => Err(StoreError::Task(format!("commit failed: {e}"))),
            };
            let _ = j.reply.send(r);
        }
    }
}

/// One game write, inside a transaction.
fn write_one(db: &mut dyn Db, j: &WriteJob) -> Result<(), StoreError> {
    let (game, s) = (&j.game, &j.summary);
    let status = if s.winner.is_some() {
        "over"
    } else {
        "playing"
    };
    if !j.new {
        let n = db.execute(
            "UPDATE games SET updated_at = $2, status = $3, state = $4,
               black_owner = $5, white_owner = $6, winner = $7, end_reason = $8, ply = $9,
               revision = revision + 1
             WHERE id = $1 AND revision = $10",
            &vals![
                game.id.as_str(),
                game.updated_at,
                status,
                j.state.as_str(),
                s.black_owner.as_ref().map(IdentityId::as_str),
                s.white_owner.as_ref().map(IdentityId::as_str),
                s.winner,
                s.reason,
                s.ply,
                game.revision
            ],
        )?;
        if n != 1 {
            let exists = db
                .query_opt(
                    "SELECT 1 FROM games WHERE id = $1",
                    &vals![game.id.as_str()],
                )?
                .is_some();
            return Err(if exists {
                StoreError::Conflict(game.id.to_string())
            } else {
                StoreError::Missing(game.id.to_string())
            });
        }
        if let Some(rated) = &s.rating {
            ratings::apply(db, &game.id, rated, game.updated_at)?;
        }
        jobs::note_owed(db, j, game.revision + 1)?;
        db.notify(&format!("game {} {}", game.id, game.revision + 1))?;
        return Ok(());
    }
    let inserted = db.execute(
        "INSERT INTO games (id, created_at, updated_at, mode, rule, status, setup, state,
           black_owner, white_owner, opponent, winner, end_reason, ply, rated)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
         ON CONFLICT (id) DO NOTHING",
        &vals![
            game.id.as_str(),
            game.created_at,
            game.updated_at,
            match game.setup.mode {
                crate::live::Mode::Local => "local",
                crate::live::Mode::Computer => "computer",
                crate::live::Mode::Online => "online",
            },
            game.setup.config.rule.name(),
            status,
            j.setup.as_str(),
            j.state.as_str(),
            s.black_owner.as_ref().map(IdentityId::as_str),
            s.white_owner.as_ref().map(IdentityId::as_str),
            s.opponent.as_str(),
            s.winner,
            s.reason,
            s.ply,
            s.rated
        ],
    )?;
    if inserted != 1 {
        return Err(StoreError::Taken(game.id.to_string()));
    }
    jobs::note_owed(db, j, 0)
}

fn damaged(id: &GameId, e: impl std::fmt::Display) -> StoreError {
    StoreError::Damaged {
        id: id.to_string(),
        why: e.to_string(),
    }
}

/// Runs the SQLite migrations the database has not seen yet, each in its own
/// transaction.
fn migrate_sqlite(conn: &mut Connection) -> Result<(), StoreError> {
    let known = MIGRATIONS.len() as i64;
    let current: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if current > known {
        return Err(StoreError::TooNew {
            found: current,
            known,
        });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(current as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", (i + 1) as i64)?;
        tx.commit()?;
        tracing::info!(version = i + 1, "database migrated");
    }
    Ok(())
}

/// Runs the PostgreSQL migrations the database has not seen yet, each in its own
/// transaction, under an advisory lock so that nodes starting together take turns.
fn migrate_postgres(db: &mut dyn Db) -> Result<(), StoreError> {
    /// The advisory lock's key: "wuzi" in ASCII.
    const LOCK: i64 = 0x7775_7a69;
    let known = PG_MIGRATIONS.len() as i64;
    db.batch("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")?;
    loop {
        let done = transaction(db, |db| {
            db.execute("SELECT pg_advisory_xact_lock($1)", &vals![LOCK])?;
            let current: i64 = db
                .query_opt("SELECT max(version) FROM schema_version", &[])?
                .map_or(Ok(None), |r| r.get::<Option<i64>>(0))?
                .unwrap_or(0);
            if current > known {
                return Err(StoreError::TooNew {
                    found: current,
                    known,
                });
            }
            let Some(sql) = PG_MIGRATIONS.get(current as usize) else {
                return Ok(true);
            };
            db.batch(sql)?;
            db.execute("DELETE FROM schema_version", &[])?;
            db.execute(
                "INSERT INTO schema_version (version) VALUES ($1)",
                &vals![current + 1],
            )?;
            tracing::info!(version = current + 1, "database migrated");
            Ok(false)
        })?;
        if done {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_are_idempotent_and_versioned() {
        let mut conn = Connection::open_in_memory().unwrap();
        migrate_sqlite(&mut conn).unwrap();
        migrate_sqlite(&mut conn).unwrap();
        let v: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(v, MIGRATIONS.len() as i64);
        conn.pragma_update(None, "user_version", 99).unwrap();
        assert!(matches!(
            migrate_sqlite(&mut conn),
            Err(StoreError::TooNew { .. })
        ));
    }

    #[test]
    fn both_databases_have_the_same_numbered_migrations() {
        assert_eq!(MIGRATIONS.len(), PG_MIGRATIONS.len());
        let names = |dir: &str| -> Vec<String> {
            let mut v: Vec<String> = std::fs::read_dir(dir)
                .unwrap()
                .filter_map(|e| {
                    let name = e.unwrap().file_name().into_string().unwrap();
                    name.ends_with(".sql").then_some(name)
                })
                .collect();
            v.sort();
            v
        };
        let root = env!("CARGO_MANIFEST_DIR");
        assert_eq!(
            names(&format!("{root}/migrations")),
            names(&format!("{root}/migrations/postgres"))
        );
    }

    #[test]
    fn a_database_location_is_a_file_or_a_postgres_url() {
        let at = |s: &str| s.parse::<DbLocation>();
        assert_eq!(
            at("wuzi.sqlite3"),
            Ok(DbLocation::Sqlite("wuzi.sqlite3".into()))
        );
        assert_eq!(
            at("sqlite:///tmp/w.db"),
            Ok(DbLocation::Sqlite("/tmp/w.db".into()))
        );
        assert_eq!(at("sqlite:w.db"), Ok(DbLocation::Sqlite("w.db".into())));
        let pg = at("postgres://wuzi:secret@127.0.0.1:5433/wuzi").unwrap();
        assert!(matches!(pg, DbLocation::Postgres(_)));
        assert_eq!(pg.to_string(), "postgres://wuzi:***@127.0.0.1:5433/wuzi");
        assert!(at("sqlite://").is_err());
        assert!(at("postgres://[bad").is_err());
    }
}
