//! Helpers for the API tests: an app on a fresh database (SQLite, or PostgreSQL), and JSON calls through the
//! router with `oneshot`.
#![allow(dead_code)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;
use wuzi_server::live::StoredGame;
use wuzi_server::{DbLocation, EngineConfig, Hub, HubConfig, Store};

/// A database of its own for each test, removed when dropped: a SQLite file, or, when
/// `WUZI_TEST_POSTGRES` names a PostgreSQL server (`postgres://USER@HOST:PORT/DB`, a user
/// that may create databases; `scripts/pg-throwaway.sh` starts one), a fresh database
/// there. CI runs the server's tests both ways.
#[derive(Debug)]
pub struct TempDb {
    pub location: DbLocation,
    /// On PostgreSQL: the server's URL (to drop the database with) and the database.
    postgres: Option<(String, String)>,
}

impl TempDb {
    pub fn new() -> TempDb {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        if let Ok(admin) = std::env::var("WUZI_TEST_POSTGRES") {
            return TempDb::on_postgres(&admin);
        }
        let path =
            std::env::temp_dir().join(format!("wuzi-test-{}-{n}.sqlite3", std::process::id(),));
        let db = TempDb {
            location: DbLocation::Sqlite(path),
            postgres: None,
        };
        db.remove();
        db
    }

    /// A SQLite file of the test's choosing, removed when dropped.
    pub fn at(location: DbLocation) -> TempDb {
        let db = TempDb {
            location,
            postgres: None,
        };
        db.remove();
        db
    }

    /// A fresh database on the PostgreSQL server `admin` (a superuser's URL).
    pub fn on_postgres(admin: &str) -> TempDb {
        static N: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "wuzi_test_{}_pg{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        );
        pg_admin(admin, format!("CREATE DATABASE {name}"));
        let server = admin
            .rsplit_once('/')
            .filter(|(head, _)| head.contains("//") && !head.ends_with('/'))
            .map_or(admin, |(head, _)| head);
        TempDb {
            location: DbLocation::Postgres(format!("{server}/{name}")),
            postgres: Some((admin.to_owned(), name)),
        }
    }

    /// Runs `sql` on the database behind the server's back (on a thread of its own: the
    /// blocking clients must not run on an async thread); returns the rows it changed.
    /// For tests that put the store in a state the server reaches only in a race.
    pub fn execute(&self, sql: &str) -> u64 {
        let (location, sql) = (self.location.clone(), sql.to_owned());
        std::thread::spawn(move || match location {
            DbLocation::Sqlite(path) => rusqlite::Connection::open(path)
                .and_then(|c| c.execute(&sql, []))
                .map(|n| n as u64)
                .unwrap_or_else(|e| panic!("{sql}: {e}")),
            DbLocation::Postgres(url) => postgres::Client::connect(&url, postgres::NoTls)
                .and_then(|mut c| c.execute(sql.as_str(), &[]))
                .unwrap_or_else(|e| panic!("{sql}: {e}")),
        })
        .join()
        .expect("the test's database thread")
    }

    fn remove(&self) {
        if let Some((admin, name)) = &self.postgres {
            pg_admin(
                admin,
                format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
            );
        }
        if let DbLocation::Sqlite(path) = &self.location {
            for suffix in ["", "-wal", "-shm"] {
                let mut p = path.clone().into_os_string();
                p.push(suffix);
                let _ = std::fs::remove_file(p);
            }
        }
    }
}

/// A PostgreSQL server for the tests that need one whatever the store under test (several
/// nodes): the one `WUZI_TEST_POSTGRES` names, or else a throwaway cluster of the test's
/// own (`scripts/pg-throwaway.sh`, Debian's PostgreSQL), stopped and removed on drop.
pub struct PgServer {
    /// A superuser's URL.
    pub url: String,
    own: Option<std::path::PathBuf>,
}

impl PgServer {
    pub fn get() -> PgServer {
        if let Ok(url) = std::env::var("WUZI_TEST_POSTGRES") {
            return PgServer { url, own: None };
        }
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "wuzi-test-pg-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let out = std::process::Command::new("bash")
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../scripts/pg-throwaway.sh"
            ))
            .arg("start")
            .arg(&dir)
            .output()
            .expect("run scripts/pg-throwaway.sh");
        let text = String::from_utf8_lossy(&out.stdout);
        let url = text
            .trim()
            .strip_prefix("export WUZI_TEST_POSTGRES=")
            .unwrap_or_else(|| {
                panic!(
                    "this test needs PostgreSQL (apt-get install postgresql, or set WUZI_TEST_POSTGRES): {}{}",
                    text,
                    String::from_utf8_lossy(&out.stderr)
                )
            })
            .to_owned();
        PgServer {
            url,
            own: Some(dir),
        }
    }
}

impl Drop for PgServer {
    fn drop(&mut self) {
        if let Some(dir) = &self.own {
            let _ = std::process::Command::new("bash")
                .arg(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/../../scripts/pg-throwaway.sh"
                ))
                .arg("stop")
                .arg(dir)
                .status();
        }
    }
}

/// Runs `sql` as the PostgreSQL test server's superuser (on a thread of its own: the
/// blocking client must not run on an async thread).
fn pg_admin(admin: &str, sql: String) {
    let admin = admin.to_owned();
    std::thread::spawn(move || {
        let mut c = postgres::Client::connect(&admin, postgres::NoTls)
            .unwrap_or_else(|e| panic!("WUZI_TEST_POSTGRES={admin}: {e}"));
        c.batch_execute(&sql)
            .expect("create or drop a test database");
    })
    .join()
    .expect("the PostgreSQL admin thread");
}

impl Drop for TempDb {
    fn drop(&mut self) {
        self.remove();
    }
}

/// The app under test, with a cookie jar: its requests carry the session cookie the
/// server last set, as a browser's would.
pub struct TestApp {
    pub router: Router,
    pub hub: Arc<Hub>,
    pub cookie: std::sync::Mutex<Option<String>>,
}

impl TestApp {
    /// An app over the database file `db` (a second app on the same file is the server
    /// after a restart).
    pub fn on(db: &TempDb) -> TestApp {
        TestApp::with(db, HubConfig::default())
    }

    /// An app with its own hub settings.
    pub fn with(db: &TempDb, hub: HubConfig) -> TestApp {
        TestApp::with_engine(
            db,
            hub,
            EngineConfig {
                workers: 1,
                hash_mb: 4,
                queue: 8,
            },
        )
    }

    /// An app with its own hub and engine settings.
    pub fn with_engine(db: &TempDb, hub: HubConfig, engine: EngineConfig) -> TestApp {
        let store = Store::connect(&db.location).expect("open the test database");
        let hub = wuzi_server::state(store, engine, hub).expect("start the engine");
        TestApp {
            router: wuzi_server::app(Arc::clone(&hub)),
            hub,
            cookie: std::sync::Mutex::new(None),
        }
    }

    /// Another browser on the same server: the same app, its own cookie jar.
    pub fn client(&self) -> TestApp {
        TestApp {
            router: self.router.clone(),
            hub: Arc::clone(&self.hub),
            cookie: std::sync::Mutex::new(None),
        }
    }

    /// Sends a request; returns the status and the body as JSON (or as a JSON string if
    /// it is not JSON).
    pub async fn send(&self, mut req: Request<Body>) -> (StatusCode, Value, axum::http::HeaderMap) {
        let jar = self.cookie.lock().unwrap().clone();
        if let Some(c) = jar
            && !req.headers().contains_key(header::COOKIE)
        {
            req.headers_mut().insert(header::COOKIE, c.parse().unwrap());
        }
        self.send_bare(req).await
    }

    /// Sends a request as it is (no cookie from the jar), keeping a session cookie the
    /// server sets.
    pub async fn send_bare(
        &self,
        req: Request<Body>,
    ) -> (StatusCode, Value, axum::http::HeaderMap) {
        let res = self.router.clone().oneshot(req).await.expect("infallible");
        if let Some(set) = res.headers().get(header::SET_COOKIE) {
            let pair = set.to_str().unwrap().split(';').next().unwrap().to_string();
            *self.cookie.lock().unwrap() = Some(pair);
        }
        let status = res.status();
        let headers = res.headers().clone();
        let bytes = res.into_body().collect().await.expect("body").to_bytes();
        let body = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
        (status, body, headers)
    }

    pub async fn get(&self, uri: &str) -> (StatusCode, Value) {
        let (s, b, _) = self
            .send(Request::get(uri).body(Body::empty()).unwrap())
            .await;
        (s, b)
    }

    pub async fn post(&self, uri: &str, body: Value) -> (StatusCode, Value) {
        self.post_raw(uri, body.to_string()).await
    }

    /// A POST from the client address `ip` (as the real server tells the router).
    pub async fn post_from(&self, ip: [u8; 4], uri: &str, body: Value) -> (StatusCode, Value) {
        let mut req = Request::post(uri)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .unwrap();
        req.extensions_mut()
            .insert(axum::extract::ConnectInfo(std::net::SocketAddr::from((
                ip, 40000,
            ))));
        let (s, b, _) = self.send(req).await;
        (s, b)
    }

    pub async fn post_raw(&self, uri: &str, body: String) -> (StatusCode, Value) {
        let (s, b, _) = self
            .send(
                Request::post(uri)
                    .header(header::CONTENT_TYPE, "application/json")
                    .body(Body::from(body))
                    .unwrap(),
            )
            .await;
        (s, b)
    }

    /// Creates a game; panics unless 201.
    pub async fn create(&self, body: Value) -> Value {
        let (s, g) = self.post("/api/games", body).await;
        assert_eq!(s, StatusCode::CREATED, "{g}");
        g
    }

    /// Plays a move; panics unless 200.
    pub async fn play(&self, id: &str, pos: &str) -> Value {
        let (s, g) = self
            .post(
                &format!("/api/games/{id}/moves"),
                serde_json::json!({ "pos": pos }),
            )
            .await;
        assert_eq!(s, StatusCode::OK, "{pos}: {g}");
        g
    }

    /// The game once it has more than `ply` stones or has ended (long poll).
    pub async fn wait_ply(&self, id: &str, ply: usize) -> Value {
        let (s, g) = self.get(&format!("/api/games/{id}?wait_ply={ply}")).await;
        assert_eq!(s, StatusCode::OK, "{g}");
        g
    }

    /// The game as the store holds it (what a restarted server would load).
    pub async fn stored(&self, id: &str) -> StoredGame {
        self.hub
            .store()
            .load(&id.parse().expect("a game id"))
            .await
            .expect("the store answers")
            .expect("the game is stored")
    }

    pub async fn game(&self, id: &str) -> Value {
        let (s, g) = self.get(&format!("/api/games/{id}")).await;
        assert_eq!(s, StatusCode::OK, "{g}");
        g
    }
}

/// Serves the app on 127.0.0.1 (a free port) with the real accept loop and `limits`,
/// until the hub closes.
pub async fn serve(app: &TestApp, limits: wuzi_server::net::NetLimits) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = app.router.clone();
    let hub = Arc::clone(&app.hub);
    tokio::spawn(async move {
        wuzi_server::net::serve_connections(
            listener,
            router,
            limits,
            async move { hub.closed().await },
            std::time::Duration::from_secs(1),
        )
        .await;
    });
    addr
}

/// The move names of a game view.
pub fn moves(g: &Value) -> Vec<String> {
    g["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["name"].as_str().expect("name").to_string())
        .collect()
}

/// The error code of an error body.
pub fn code(body: &Value) -> &str {
    body["code"].as_str().unwrap_or("<no code>")
}

/// A client WebSocket.
pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The next JSON message of `kind` on `ws`, skipping others (thinking, clock ...); panics
/// after 30 s or if the socket ends.
pub async fn next_of(ws: &mut Socket, kind: &str) -> Value {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    let wait = async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(&t).unwrap();
                    if v["type"] == kind {
                        return v;
                    }
                }
                Some(Ok(_)) => {}
                other => panic!("socket ended: {other:?}"),
            }
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(30), wait)
        .await
        .unwrap_or_else(|_| panic!("no {kind} message"))
}

/// A game's WebSocket on the server at `addr`, with `app`'s session cookie.
pub async fn game_socket(addr: std::net::SocketAddr, app: &TestApp, gid: &str) -> Socket {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}/api/games/{gid}/ws")
        .into_client_request()
        .unwrap();
    if let Some(c) = app.cookie.lock().unwrap().clone() {
        req.headers_mut().insert("cookie", c.parse().unwrap());
    }
    tokio_tungstenite::connect_async(req).await.unwrap().0
}

/// The game of the next `state` message that satisfies `ok`.
pub async fn state_where(ws: &mut Socket, ok: impl Fn(&Value) -> bool) -> Value {
    loop {
        let s = next_of(ws, "state").await;
        if ok(&s["game"]) {
            return s["game"].clone();
        }
    }
}

/// Registers `app`'s guest as the account `name`.
pub async fn register(app: &TestApp, name: &str) {
    let (s, e) = app
        .post(
            "/api/account/register",
            serde_json::json!({"username": name, "password": "long enough"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{e}");
}

/// A lobby socket of `app`'s person on the server at `addr`.
pub async fn lobby_socket(addr: std::net::SocketAddr, app: &TestApp) -> Socket {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}/api/lobby/ws")
        .into_client_request()
        .unwrap();
    if let Some(c) = app.cookie.lock().unwrap().clone() {
        req.headers_mut().insert("cookie", c.parse().unwrap());
    }
    tokio_tungstenite::connect_async(req).await.unwrap().0
}
