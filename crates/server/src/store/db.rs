//! The one SQL interface the store's queries are written against, with its two
//! implementations: SQLite (a `rusqlite` connection) and PostgreSQL (a `postgres`
//! connection from a small pool).
//!
//! Queries are written once, with `$1`, `$2`, ... placeholders and SQL that both databases
//! read the same way; SQLite gets them as `?1`, `?2`. Values cross as [`Value`] and rows
//! come back as [`Row`], so no query knows which database answers it. Both drivers are
//! blocking and run only inside `spawn_blocking`.

use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex};

use postgres::fallible_iterator::FallibleIterator;
use postgres::types::{ToSql, Type};

use super::StoreError;

/// A value bound to a query or read from a row.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// SQL NULL.
    Null,
    /// An integer (booleans are 0 and 1).
    Int(i64),
    /// A floating-point number.
    Real(f64),
    /// Text.
    Text(String),
}

impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Int(v)
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Int(i64::from(v))
    }
}

impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Value::Real(v)
    }
}

impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Text(v)
    }
}

impl From<&String> for Value {
    fn from(v: &String) -> Value {
        Value::Text(v.clone())
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Text(v.to_owned())
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

/// Query parameters: `vals![a, b, c]` is an array of [`Value`]s of anything that
/// converts.
macro_rules! vals {
    ($($v:expr),* $(,)?) => {
        [$($crate::store::db::Value::from($v)),*]
    };
}
pub(crate) use vals;

/// One row of a query's answer.
#[derive(Clone, Debug, Default)]
pub struct Row(Vec<Value>);

impl Row {
    /// All its values, in column order.
    #[must_use]
    pub fn values(&self) -> &[Value] {
        &self.0
    }

    /// Column `i`, converted.
    pub fn get<T: FromValue>(&self, i: usize) -> Result<T, StoreError> {
        let v = self.0.get(i).unwrap_or(&Value::Null);
        T::from_value(v).ok_or_else(|| {
            StoreError::Task(format!(
                "column {i} holds {v:?}, not {}",
                std::any::type_name::<T>()
            ))
        })
    }
}

/// A type a [`Value`] converts to.
pub trait FromValue: Sized {
    /// The value as `Self`, if it is one.
    fn from_value(v: &Value) -> Option<Self>;
}

impl FromValue for i64 {
    fn from_value(v: &Value) -> Option<i64> {
        match v {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }
}

impl FromValue for bool {
    fn from_value(v: &Value) -> Option<bool> {
        match v {
            Value::Int(i) => Some(*i != 0),
            _ => None,
        }
    }
}

impl FromValue for f64 {
    fn from_value(v: &Value) -> Option<f64> {
        match v {
            Value::Real(f) => Some(*f),
            Value::Int(i) => Some(*i as f64),
            _ => None,
        }
    }
}

impl FromValue for String {
    fn from_value(v: &Value) -> Option<String> {
        match v {
            Value::Text(s) => Some(s.clone()),
            _ => None,
        }
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(v: &Value) -> Option<Option<T>> {
        match v {
            Value::Null => Some(None),
            v => T::from_value(v).map(Some),
        }
    }
}

/// A connection the store's queries run on.
pub trait Db {
    /// Runs a statement; the number of rows it changed.
    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64, StoreError>;
    /// Runs a query; all its rows.
    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError>;
    /// Runs SQL without parameters or answer (several statements; `BEGIN`, `COMMIT`).
    fn batch(&mut self, sql: &str) -> Result<(), StoreError>;

    /// Starts a transaction that will write.
    fn begin(&mut self) -> Result<(), StoreError> {
        self.batch("BEGIN")
    }

    /// Tells the other nodes on this database `news` (see [`Notice`]) when the current
    /// transaction commits. Nothing on SQLite (one node).
    fn notify(&mut self, _news: &str) -> Result<(), StoreError> {
        Ok(())
    }

    /// The first row of a query's answer, if any.
    fn query_opt(&mut self, sql: &str, params: &[Value]) -> Result<Option<Row>, StoreError> {
        Ok(self.query(sql, params)?.into_iter().next())
    }
}

/// Runs `f` in a transaction: committed if it succeeds, rolled back if not.
pub fn transaction<T>(
    db: &mut dyn Db,
    f: impl FnOnce(&mut dyn Db) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    db.begin()?;
    match f(db) {
        Ok(v) => {
            db.batch("COMMIT")?;
            Ok(v)
        }
        Err(e) => {
            let _ = db.batch("ROLLBACK");
            Err(e)
        }
    }
}

/// The query as SQLite reads it: `$n` placeholders become `?n`.
fn for_sqlite(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('?');
        } else {
            out.push(c);
        }
    }
    out
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match self {
            Value::Null => ValueRef::Null,
            Value::Int(i) => ValueRef::Integer(*i),
            Value::Real(f) => ValueRef::Real(*f),
            Value::Text(s) => ValueRef::Text(s.as_bytes()),
        }))
    }
}

fn sqlite_row(r: &rusqlite::Row<'_>, columns: usize) -> rusqlite::Result<Row> {
    use rusqlite::types::ValueRef;
    let mut out = Vec::with_capacity(columns);
    for i in 0..columns {
        out.push(match r.get_ref(i)? {
            ValueRef::Null => Value::Null,
            ValueRef::Integer(i) => Value::Int(i),
            ValueRef::Real(f) => Value::Real(f),
            ValueRef::Text(t) | ValueRef::Blob(t) => {
                Value::Text(String::from_utf8_lossy(t).into_owned())
            }
        });
    }
    Ok(Row(out))
}

impl Db for rusqlite::Connection {
    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        let mut stmt = self.prepare_cached(&for_sqlite(sql))?;
        Ok(stmt.execute(rusqlite::params_from_iter(params))? as u64)
    }

    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
        let mut stmt = self.prepare_cached(&for_sqlite(sql))?;
        let columns = stmt.column_count();
        let rows = stmt.query_map(rusqlite::params_from_iter(params), |r| {
            sqlite_row(r, columns)
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    fn batch(&mut self, sql: &str) -> Result<(), StoreError> {
        Ok(self.execute_batch(sql)?)
    }

    /// Takes the write lock at once: a deferred transaction that read first and then
    /// found another connection's commit in its way would fail without waiting.
    fn begin(&mut self) -> Result<(), StoreError> {
        self.batch("BEGIN IMMEDIATE")
    }
}

impl ToSql for Value {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut postgres::types::private::BytesMut,
    ) -> Result<postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            Value::Null => Ok(postgres::types::IsNull::Yes),
            Value::Int(i) => match *ty {
                Type::INT2 => i16::try_from(*i)?.to_sql(ty, out),
                Type::INT4 => i32::try_from(*i)?.to_sql(ty, out),
                Type::BOOL => (*i != 0).to_sql(ty, out),
                Type::FLOAT8 => (*i as f64).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR => i.to_string().to_sql(ty, out),
                _ => i.to_sql(ty, out),
            },
            Value::Real(f) => match *ty {
                Type::FLOAT4 => (*f as f32).to_sql(ty, out),
                _ => f.to_sql(ty, out),
            },
            Value::Text(s) => s.to_sql(ty, out),
        }
    }

    fn accepts(ty: &Type) -> bool {
        matches!(
            *ty,
            Type::INT2
                | Type::INT4
                | Type::INT8
                | Type::BOOL
                | Type::FLOAT4
                | Type::FLOAT8
                | Type::TEXT
                | Type::VARCHAR
        )
    }

    postgres::types::to_sql_checked!();
}

fn pg_row(r: &postgres::Row) -> Result<Row, StoreError> {
    let mut out = Vec::with_capacity(r.len());
    for (i, c) in r.columns().iter().enumerate() {
        let v = match *c.type_() {
            Type::INT2 => r
                .try_get::<_, Option<i16>>(i)?
                .map(|v| Value::Int(v.into())),
            Type::INT4 => r
                .try_get::<_, Option<i32>>(i)?
                .map(|v| Value::Int(v.into())),
            Type::INT8 => r.try_get::<_, Option<i64>>(i)?.map(Value::Int),
            Type::BOOL => r.try_get::<_, Option<bool>>(i)?.map(Value::from),
            Type::FLOAT4 => r
                .try_get::<_, Option<f32>>(i)?
                .map(|v| Value::Real(v.into())),
            Type::FLOAT8 => r.try_get::<_, Option<f64>>(i)?.map(Value::Real),
            _ => r.try_get::<_, Option<String>>(i)?.map(Value::Text),
        };
        out.push(v.unwrap_or(Value::Null));
    }
    Ok(Row(out))
}

/// A PostgreSQL connection with its prepared statements.
pub struct PgConn {
    client: postgres::Client,
    statements: HashMap<String, postgres::Statement>,
}

impl std::fmt::Debug for PgConn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgConn")
            .field("statements", &self.statements.len())
            .finish_non_exhaustive()
    }
}

impl PgConn {
    fn statement(&mut self, sql: &str) -> Result<postgres::Statement, StoreError> {
        if let Some(s) = self.statements.get(sql) {
            return Ok(s.clone());
        }
        let s = self.client.prepare(sql)?;
        self.statements.insert(sql.to_owned(), s.clone());
        Ok(s)
    }
}

fn pg_params(params: &[Value]) -> Vec<&(dyn ToSql + Sync)> {
    params.iter().map(|p| p as &(dyn ToSql + Sync)).collect()
}

impl Db for PgConn {
    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        let stmt = self.statement(sql)?;
        Ok(self.client.execute(&stmt, &pg_params(params))?)
    }

    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
        let stmt = self.statement(sql)?;
        self.client
            .query(&stmt, &pg_params(params))?
            .iter()
            .map(pg_row)
            .collect()
    }

    fn batch(&mut self, sql: &str) -> Result<(), StoreError> {
        Ok(self.client.batch_execute(sql)?)
    }

    fn notify(&mut self, news: &str) -> Result<(), StoreError> {
        self.execute(
            "SELECT pg_notify($1, $2)",
            &[Value::from(CHANNEL), Value::from(news)],
        )?;
        Ok(())
    }
}

/// The PostgreSQL channel on which nodes tell each other what they wrote: `game <id>
/// <revision>`, `chat <node> <game> <message id>`, `presence <node> <place>` and
/// `lobby <node> <JSON>`.
pub const CHANNEL: &str = "wuzi";

/// What the other nodes on the database did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// Game `id` was written; it is now at `revision`.
    Game {
        /// The game.
        id: String,
        /// Its revision.
        revision: i64,
    },
    /// Another node kept chat message `id` of game `game`.
    Chat {
        /// The game.
        game: String,
        /// The message.
        id: i64,
    },
    /// Someone's pages at these places (games' ids or `lobby`) opened or closed on
    /// another node.
    Presence {
        /// The places.
        places: Vec<String>,
    },
    /// News of the lobby from another node (a [`crate::lobby::Routed`] as JSON).
    Lobby {
        /// The JSON.
        news: String,
    },
    /// Notices may have been missed (the listening connection was lost and is back):
    /// whatever is held in memory may be stale.
    Resync,
}

impl Notice {
    /// Reads a notification's payload; `node` is this node's name (its own chat news is
    /// not news to it).
    fn parse(payload: &str, node: &str) -> Option<Notice> {
        let mut words = payload.split(' ');
        let notice = match words.next()? {
            "game" => Notice::Game {
                id: words.next()?.to_owned(),
                revision: words.next()?.parse().ok()?,
            },
            "chat" => {
                let from = words.next()?;
                if from == node {
                    return None;
                }
                Notice::Chat {
                    game: words.next()?.to_owned(),
                    id: words.next()?.parse().ok()?,
                }
            }
            "presence" => {
                if words.next()? == node {
                    return None;
                }
                let places: Vec<String> = words.map(str::to_owned).collect();
                if places.is_empty() {
                    return None;
                }
                return Some(Notice::Presence { places });
            }
            "lobby" => {
                if words.next()? == node {
                    return None;
                }
                // The rest is JSON, which may hold spaces.
                let news = payload.splitn(3, ' ').nth(2)?;
                return Some(Notice::Lobby {
                    news: news.to_owned(),
                });
            }
            _ => return None,
        };
        words.next().is_none().then_some(notice)
    }
}

/// Listens to the other nodes' notices on a connection of its own, on a thread of its
/// own, until `tx` is closed; says on `listening` when it first listens; reconnects
/// (after a pause) when the connection is lost. Each time it (re)starts listening it
/// sends [`Notice::Resync`]. `node` is this node's name.
pub fn listen(
    config: postgres::Config,
    node: String,
    tx: tokio::sync::mpsc::UnboundedSender<Notice>,
    listening: std::sync::mpsc::Sender<()>,
) {
    let mut first = true;
    while !tx.is_closed() {
        let mut client = match config.connect(postgres::NoTls) {
            Ok(c) => c,
            Err(e) => {
                tracing::warn!(error = %e, "cannot listen to the other nodes; retrying");
                std::thread::sleep(std::time::Duration::from_secs(1));
                continue;
            }
        };
        if let Err(e) = client.batch_execute(&format!("LISTEN {CHANNEL}")) {
            tracing::warn!(error = %e, "cannot listen to the other nodes; retrying");
            std::thread::sleep(std::time::Duration::from_secs(1));
            continue;
        }
        if first {
            // The node may hold games from now on: it hears every write after this.
            let _ = listening.send(());
        }
        // Whatever the node read before (a late start, a lost connection) may be stale.
        if tx.send(Notice::Resync).is_err() {
            return;
        }
        first = false;
        loop {
            if tx.is_closed() {
                return;
            }
            let next = client
                .notifications()
                .timeout_iter(std::time::Duration::from_millis(500))
                .next();
            match next {
                Ok(Some(n)) => {
                    if let Some(notice) = Notice::parse(n.payload(), &node)
                        && tx.send(notice).is_err()
                    {
                        return;
                    }
                }
                Ok(None) => {
                    // Quiet: make sure the connection is still there.
                    if client.is_closed() {
                        break;
                    }
                }
                Err(e) => {
                    tracing::warn!(error = %e, "lost the connection that listens to the other nodes");
                    break;
                }
            }
        }
    }
}

/// A bounded pool of PostgreSQL connections, made as they are needed. A connection that
/// broke (the server restarted, the network failed) is dropped, not returned, so the next
/// use connects anew.
pub struct PgPool {
    config: postgres::Config,
    max: usize,
    state: Mutex<PoolState>,
    freed: Condvar,
}

#[derive(Default)]
struct PoolState {
    idle: Vec<PgConn>,
    open: usize,
}

impl std::fmt::Debug for PgPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgPool")
            .field("max", &self.max)
            .finish_non_exhaustive()
    }
}

impl PgPool {
    /// A pool for the database at `url` (`postgres://user@host:port/db`), at most `max`
    /// connections; connects once to check that the database is there.
    pub fn connect(url: &str, max: usize) -> Result<Arc<PgPool>, StoreError> {
        let config: postgres::Config = url.parse()?;
        let pool = Arc::new(PgPool {
            config,
            max: max.max(1),
            state: Mutex::new(PoolState::default()),
            freed: Condvar::new(),
        });
        let first = pool.get()?;
        pool.give_back(first);
        Ok(pool)
    }

    fn open(&self) -> Result<PgConn, StoreError> {
        let client = self.config.connect(postgres::NoTls)?;
        Ok(PgConn {
            client,
            statements: HashMap::new(),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, PoolState> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A connection: an idle one, a new one while fewer than `max` are open, or the next
    /// one given back. Blocking.
    pub fn get(&self) -> Result<PgConn, StoreError> {
        let mut state = self.lock();
        loop {
            if let Some(c) = state.idle.pop() {
                if !c.client.is_closed() {
                    return Ok(c);
                }
                state.open -= 1;
                continue;
            }
            if state.open < self.max {
                state.open += 1;
                drop(state);
                return self.open().inspect_err(|_| {
                    self.lock().open -= 1;
                    self.freed.notify_one();
                });
            }
            state = self
                .freed
                .wait(state)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }

    /// Returns a connection after use (a broken one is closed instead).
    pub fn give_back(&self, c: PgConn) {
        let mut state = self.lock();
        if c.client.is_closed() {
            state.open -= 1;
        } else {
            state.idle.push(c);
        }
        drop(state);
        self.freed.notify_one();
    }

    /// Gives up a connection that failed in a way that may have broken it.
    pub fn discard(&self, c: PgConn) {
        drop(c);
        self.lock().open -= 1;
        self.freed.notify_one();
    }
}

impl PgPool {
    /// The connection settings (for a listening connection of its own).
    #[must_use]
    pub fn config(&self) -> postgres::Config {
        self.config.clone()
    }
}

impl Drop for PgPool {
    /// Closes the idle connections on a thread of their own: closing one blocks, which
    /// async code (where the last store handle may go) must not do.
    fn drop(&mut self) {
        let idle = std::mem::take(&mut self.lock().idle);
        if !idle.is_empty() {
            let _ = std::thread::Builder::new()
                .name("wuzi-pg-close".into())
                .spawn(move || drop(idle));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_are_read_and_a_nodes_own_chat_is_not_news() {
        assert_eq!(
            Notice::parse("game abc 7", "n1"),
            Some(Notice::Game {
                id: "abc".into(),
                revision: 7
            })
        );
        assert_eq!(
            Notice::parse("chat n2 abc 12", "n1"),
            Some(Notice::Chat {
                game: "abc".into(),
                id: 12
            })
        );
        assert_eq!(Notice::parse("chat n1 abc 12", "n1"), None);
        assert_eq!(
            Notice::parse("presence n2 lobby", "n1"),
            Some(Notice::Presence {
                places: vec!["lobby".into()]
            })
        );
        assert_eq!(Notice::parse("presence n1 lobby", "n1"), None);
        assert_eq!(
            Notice::parse("presence n2 g1 g2", "n1"),
            Some(Notice::Presence {
                places: vec!["g1".into(), "g2".into()]
            })
        );
        assert_eq!(Notice::parse("presence n2", "n1"), None);
        assert_eq!(
            Notice::parse(r#"lobby n2 {"a": "b c"}"#, "n1"),
            Some(Notice::Lobby {
                news: r#"{"a": "b c"}"#.into()
            })
        );
        assert_eq!(Notice::parse("lobby n1 {}", "n1"), None);
        for junk in [
            "",
            "game",
            "game abc x",
            "chat n2 abc",
            "what 1 2",
            "game a 1 2",
        ] {
            assert_eq!(Notice::parse(junk, "n1"), None, "{junk:?}");
        }
    }

    #[test]
    fn placeholders_become_sqlite_ones_and_nothing_else_changes() {
        assert_eq!(
            for_sqlite("SELECT a FROM t WHERE b = $1 AND c = $12 AND d = '$x'"),
            "SELECT a FROM t WHERE b = ?1 AND c = ?12 AND d = '$x'"
        );
    }

    #[test]
    fn values_cross_sqlite_and_come_back() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        let db: &mut dyn Db = &mut conn;
        db.batch("CREATE TABLE t (i INTEGER, r REAL, s TEXT, n TEXT)")
            .unwrap();
        let n = db
            .execute(
                "INSERT INTO t VALUES ($1, $2, $3, $4)",
                &vals![7_i64, 2.5, "x", None::<String>],
            )
            .unwrap();
        assert_eq!(n, 1);
        let row = db
            .query_opt("SELECT i, r, s, n FROM t WHERE i = $1", &vals![7_i64])
            .unwrap()
            .unwrap();
        assert_eq!(row.get::<i64>(0).unwrap(), 7);
        assert_eq!(row.get::<f64>(1).unwrap(), 2.5);
        assert_eq!(row.get::<String>(2).unwrap(), "x");
        assert_eq!(row.get::<Option<String>>(3).unwrap(), None);
        assert!(row.get::<String>(0).is_err(), "an integer is not text");
        // A failed transaction leaves nothing.
        let r: Result<(), StoreError> = transaction(db, |db| {
            db.execute("INSERT INTO t (i) VALUES ($1)", &vals![8_i64])?;
            Err(StoreError::Missing("x".into()))
        });
        assert!(r.is_err());
        assert!(
            db.query_opt("SELECT i FROM t WHERE i = 8", &[])
                .unwrap()
                .is_none()
        );
    }
}
