//! `wuzi serve`: the web app (also what plain `wuzi` runs).

use std::net::{SocketAddr, ToSocketAddrs};
use std::time::Instant;

use clap::Parser;
use tracing_subscriber::filter::LevelFilter;
use wuzi_server::{EngineConfig, ServeConfig, ServeError};

use super::CliError;

/// Serve the web page and the game API (open the printed address in a browser).
#[derive(Debug, clap::Args)]
#[command(after_help = "The API is documented in docs/api.md and served at /api/openapi.json.")]
pub struct Args {
    /// Address to listen on: IP:PORT, HOST:PORT (the name is resolved) or a port alone
    /// (127.0.0.1:PORT); port 0 picks a free port.
    #[arg(long, env = "WUZI_ADDR", default_value = "127.0.0.1:8080", value_parser = parse_addr)]
    pub addr: SocketAddr,
    /// The database: a SQLite file (created if missing; also `sqlite://PATH`), or a
    /// PostgreSQL URL (`postgres://USER:PASSWORD@HOST:PORT/DATABASE`) for several nodes.
    #[arg(long, env = "WUZI_DB", default_value = "wuzi.sqlite3")]
    pub db: wuzi_server::DbLocation,
    /// Log level: off, error, warn, info, debug or trace.
    #[arg(long, env = "WUZI_LOG", default_value = "info")]
    pub log_level: LevelFilter,
    /// Engine worker threads (each searches one game at a time).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub workers: u16,
    /// Hash table per engine worker, in MiB.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub hash_mb: u16,
    /// The address of a reverse proxy whose X-Forwarded-For header names the client
    /// (e.g. 127.0.0.1 for nginx on the same machine); from anywhere else it is ignored.
    #[arg(long, env = "WUZI_TRUSTED_PROXY")]
    pub trusted_proxy: Option<std::net::IpAddr>,
}

#[derive(Debug, Parser)]
struct Defaults {
    #[command(flatten)]
    args: Args,
}

impl Args {
    /// The settings when `wuzi` runs without a command: defaults and environment.
    pub fn from_env() -> Result<Args, CliError> {
        Defaults::try_parse_from(["wuzi"])
            .map(|d| d.args)
            .map_err(|e| CliError::input(e.to_string()))
    }
}

/// Reads `--addr`: `127.0.0.1:8080`, `[::1]:8080`, `localhost:8080` (resolved; an IPv4
/// address first if the name has one) or a bare port `8080` (on 127.0.0.1).
fn parse_addr(s: &str) -> Result<SocketAddr, String> {
    let s = s.trim();
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        let port: u16 = s
            .parse()
            .map_err(|_| format!("port {s} is out of range (0..=65535)"))?;
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    if let Ok(addr) = s.parse::<SocketAddr>() {
        return Ok(addr);
    }
    let Some((host, port)) = s.rsplit_once(':').filter(|(h, _)| !h.is_empty()) else {
        return Err(
            "expected HOST:PORT or a port, e.g. 127.0.0.1:8080, localhost:8080 or 8080".to_string(),
        );
    };
    let port: u16 = port
        .parse()
        .map_err(|_| format!("{port:?} is not a port number (0..=65535)"))?;
    let addrs: Vec<SocketAddr> = (host, port)
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve {host:?}: {e}"))?
        .collect();
    addrs
        .iter()
        .find(|a| a.is_ipv4())
        .or(addrs.first())
        .copied()
        .ok_or_else(|| format!("{host:?} has no address"))
}

/// Runs the server until ctrl-c or SIGTERM.
pub fn run(args: Args) -> Result<(), CliError> {
    let started = Instant::now();
    // A second initialisation (tests) is harmless: keep the first.
    let _ = tracing_subscriber::fmt()
        .with_max_level(args.log_level)
        .with_target(false)
        .with_writer(std::io::stderr)
        .try_init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::failure(format!("cannot start the async runtime: {e}")))?;
    let config = ServeConfig {
        addr: args.addr,
        db: args.db,
        engine: EngineConfig {
            workers: usize::from(args.workers),
            hash_mb: usize::from(args.hash_mb),
            ..EngineConfig::default()
        },
        net: wuzi_server::net::NetLimits {
            trusted_proxy: args.trusted_proxy,
            ..wuzi_server::net::NetLimits::default()
        },
    };
    runtime
        .block_on(wuzi_server::serve(config, |addr| {
            println!(
                "wuzi is serving on http://{addr}/ (ready in {} ms; ctrl-c to stop)",
                started.elapsed().as_millis()
            );
        }))
        .map_err(|e| match e {
            ServeError::AddrInUse { .. } | ServeError::Bind { .. } => {
                CliError::failure(e.to_string())
            }
            other => CliError::failure(other.to_string()),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses() {
        let local = |port| SocketAddr::from(([127, 0, 0, 1], port));
        assert_eq!(parse_addr("8090"), Ok(local(8090)));
        assert_eq!(parse_addr("0"), Ok(local(0)));
        assert_eq!(parse_addr("127.0.0.1:8080"), Ok(local(8080)));
        assert_eq!(
            parse_addr("[::1]:80"),
            "[::1]:80".parse::<SocketAddr>().map_err(|e| e.to_string())
        );
        assert!(parse_addr("localhost:8090").unwrap().ip().is_loopback());
        for bad in [
            "",
            "nowhere",
            "70000",
            "localhost:http",
            ":8080",
            "localhost:70000",
        ] {
            assert!(parse_addr(bad).is_err(), "{bad}");
        }
    }
}
