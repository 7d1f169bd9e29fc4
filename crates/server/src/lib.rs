//! # wuzi-server
//!
//! The web app of wuzi: the page (embedded from `web/`), a JSON API and a WebSocket per
//! game, games stored in SQLite, and the engine on worker threads.
//!
//! [`app`] builds the router from a [`Hub`]; tests call it directly with
//! `tower::ServiceExt::oneshot`. [`serve`] binds, serves, and shuts down gracefully on
//! ctrl-c or SIGTERM. The API is described in `docs/api.md` and served as OpenAPI at
//! `/api/openapi.json`.
#![forbid(unsafe_code)]

pub mod api;
pub mod clock;
pub mod engine;
pub mod error;
pub mod hub;
pub mod id;
pub mod identity;
pub mod lag;
pub mod live;
pub mod lobby;
pub mod net;
pub mod puzzles;
pub mod rating;
pub mod record;
pub mod review;
pub mod store;
pub mod view;
pub mod web;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;

pub use engine::{EngineConfig, EngineHandle};
pub use error::Error;
pub use hub::{Hub, HubConfig};
pub use store::{DbLocation, Store};

/// Largest request body (record imports included).
pub const BODY_LIMIT: usize = 64 * 1024;

/// Largest body of `POST /api/analysis/renlib`: a RenLib library of up to 1 MiB, as
/// base64 in JSON.
pub const RENLIB_BODY_LIMIT: usize = 1536 * 1024;

/// The largest body a request to `path` may have.
#[must_use]
pub fn body_limit(path: &str) -> usize {
    if path == "/api/analysis/renlib" {
        RENLIB_BODY_LIMIT
    } else {
        BODY_LIMIT
    }
}

/// The application state shared by all handlers.
pub type AppState = Arc<Hub>;

/// The whole application: API routes, WebSocket, and the page for every other path.
pub fn app(state: AppState) -> Router {
    Router::new()
        .merge(api::games::router())
        .merge(api::analysis::router())
        .merge(api::accounts::router())
        .merge(api::profiles::router())
        .merge(api::ratings::router())
        .merge(api::lobby::router())
        .merge(api::chat::router())
        .merge(api::meta::router())
        .merge(api::review::router())
        .merge(api::puzzles::router())
        .merge(api::studies::router())
        .fallback(web::serve)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&state),
            identity::identify,
        ))
        .layer(axum::middleware::from_fn(api::guard::check))
        .layer(axum::middleware::from_fn(log_request))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(state)
}

async fn method_not_allowed(method: axum::http::Method, uri: axum::http::Uri) -> Error {
    Error::MethodNotAllowed(format!("{method} is not allowed on {}", uri.path()))
}

/// Logs each request: debug normally, a warning for server faults.
async fn log_request(
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let (method, path) = (req.method().clone(), req.uri().path().to_owned());
    let started = std::time::Instant::now();
    let res = next.run(req).await;
    let status = res.status().as_u16();
    let ms = started.elapsed().as_millis() as u64;
    if res.status().is_server_error() {
        tracing::warn!(%method, %path, status, ms, "request failed");
    } else {
        tracing::debug!(%method, %path, status, ms, "request");
    }
    res
}

/// Silence of every node for longer than this (ms) is an outage that clocks skip; a
/// shorter one is charged to the clocks (at most this much).
pub const OUTAGE_AFTER_MS: i64 = 3 * hub::HEARTBEAT.as_millis() as i64;

/// Builds the state: opens the store (running migrations), starts the engine workers.
/// Must be called inside a Tokio runtime (the hub spawns its sweeper).
pub fn state(store: Store, engine: EngineConfig, hub: HubConfig) -> Result<AppState, ServeError> {
    let engine = EngineHandle::start(engine).map_err(ServeError::Engine)?;
    let started = hub::now_ms();
    // The time since the last sign of life of any node is an outage: clocks skip it. A
    // sign of life from the last few heartbeats means another node is running (or this
    // one restarted at once): no outage, and games running elsewhere are not touched.
    let outage = store
        .alive_before_open()
        .filter(|&alive| started - alive > OUTAGE_AFTER_MS)
        .map(|alive| (alive, started));
    if let Some((down, up)) = outage {
        tracing::info!(
            down_ms = up - down,
            "clocks skip the time the server was down"
        );
    }
    let hub = Hub::new(store, engine, hub, outage);
    hub.spawn_sweeper();
    hub.spawn_heartbeat();
    hub.spawn_watch_stored();
    hub.spawn_follow_store();
    Ok(hub)
}

/// How to run the server.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Address to listen on.
    pub addr: SocketAddr,
    /// The database: a SQLite file or a PostgreSQL URL.
    pub db: DbLocation,
    /// Engine pool.
    pub engine: EngineConfig,
    /// Connection limits.
    pub net: net::NetLimits,
}

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address is taken.
    #[error(
        "cannot listen on {addr}: the address is already in use (is another wuzi running? try --addr 127.0.0.1:0 or another port)"
    )]
    AddrInUse {
        /// The address.
        addr: SocketAddr,
    },
    /// Another bind failure.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The database cannot be opened or migrated.
    #[error("cannot open the database {location}: {source}")]
    Store {
        /// The file or URL (without a password).
        location: String,
        /// Why.
        source: store::StoreError,
    },
    /// The engine threads cannot start.
    #[error("cannot start the engine workers: {0}")]
    Engine(std::io::Error),
    /// Serving failed.
    #[error("server error: {0}")]
    Io(#[from] std::io::Error),
}

/// Binds `config.addr`, then serves until ctrl-c or SIGTERM. `on_ready` gets the bound
/// address (useful with port 0) once the server accepts connections.
pub async fn serve(
    config: ServeConfig,
    on_ready: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    let listener =
        tokio::net::TcpListener::bind(config.addr)
            .await
            .map_err(|source| match source.kind() {
                std::io::ErrorKind::AddrInUse => ServeError::AddrInUse { addr: config.addr },
                _ => ServeError::Bind {
                    addr: config.addr,
                    source,
                },
            })?;
    let addr = listener.local_addr()?;
    let location = config.db.clone();
    let store = tokio::task::spawn_blocking(move || Store::connect(&location))
        .await
        .map_err(|e| store::StoreError::Task(e.to_string()))
        .and_then(|r| r)
        .map_err(|source| ServeError::Store {
            location: config.db.to_string(),
            source,
        })?;
    match puzzles::seed(&store).await {
        Ok(n) => tracing::info!(new = n, "puzzles loaded"),
        Err(e) => tracing::warn!(error = %e, "the shipped puzzles could not be stored"),
    }
    let hub = state(store, config.engine, HubConfig::default())?;
    tracing::info!(%addr, db = %config.db, "serving");
    let router = app(Arc::clone(&hub));
    let closing = Arc::clone(&hub);
    let signal = shutdown_signal();
    on_ready(addr);
    net::serve_connections(
        listener,
        router,
        config.net,
        async move {
            signal.await;
            // Ends WebSocket sessions and long polls so the connections can close.
            closing.close();
        },
        std::time::Duration::from_secs(5),
    )
    .await;
    tracing::info!("stopped");
    Ok(())
}

/// Resolves on ctrl-c or (on Unix) SIGTERM. The handlers are installed when this is
/// called, not when the future is first polled, so a signal that comes right after start-up
/// is not missed.
pub fn shutdown_signal() -> impl Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    let signals = {
        use tokio::signal::unix::{SignalKind, signal};
        (
            signal(SignalKind::interrupt()).ok(),
            signal(SignalKind::terminate()).ok(),
        )
    };
    async move {
        #[cfg(unix)]
        {
            let (mut int, mut term) = signals;
            let int = async {
                match int.as_mut() {
                    Some(s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            let term = async {
                match term.as_mut() {
                    Some(s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                () = int => {},
                () = term => {},
            }
        }
        #[cfg(not(unix))]
        {
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        }
        tracing::info!("shutting down");
    }
}
