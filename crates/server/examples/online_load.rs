//! Load test of games between people (issue 25, item 13): a real `wuzi serve` process on
//! 127.0.0.1 only, N concurrent games between simulated players over real WebSockets,
//! bounded in count and time. Each player moves 1 to 2 s after the opponent's stone; the
//! tool measures the time from a move sent on the mover's socket to the opponent's socket
//! receiving the new position, and reports p50/p95/p99/max, errors, and the server's
//! memory and CPU.
//!
//! ```sh
//! cargo build --release -p wuzi
//! ulimit -n 65536   # 2 sockets a game on each side
//! cargo run --release -p wuzi-server --example online_load -- target/release/wuzi 100 60
//! ```
//!
//! Arguments: the `wuzi` binary, the number of games (at most 2,000), the seconds to run
//! (at most 600), and optionally the database (a PostgreSQL URL; by default a fresh SQLite
//! file) and the number of nodes on it (1 to 4, several only on PostgreSQL; each game's
//! second player then talks to the next node, so every move crosses nodes). A game that ends (a five, rarely) is replaced by a new one between the
//! same players.
#![allow(clippy::print_stdout)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;

mod support;
use support::{Server, percentile, temp_db};

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// One HTTP request from the loopback address `from` with `cookie`; the status, the
/// JSON body and a new session cookie.
async fn http(
    from: [u8; 4],
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: &Value,
) -> (u16, Value, Option<String>) {
    let Ok(sock) = tokio::net::TcpSocket::new_v4() else {
        return (0, Value::Null, None);
    };
    if sock.bind(SocketAddr::from((from, 0))).is_err() {
        return (0, Value::Null, None);
    }
    let Ok(mut s) = sock.connect(addr).await else {
        return (0, Value::Null, None);
    };
    let body = if body.is_null() {
        String::new()
    } else {
        body.to_string()
    };
    let cookie = cookie
        .map(|c| format!("Cookie: {c}\r\n"))
        .unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{cookie}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    if s.write_all(req.as_bytes()).await.is_err() {
        return (0, Value::Null, None);
    }
    let mut out = Vec::new();
    if s.read_to_end(&mut out).await.is_err() {
        return (0, Value::Null, None);
    }
    let text = String::from_utf8_lossy(&out);
    let (head, json) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let set = head.lines().find_map(|l| {
        l.strip_prefix("set-cookie: ")
            .or_else(|| l.strip_prefix("Set-Cookie: "))
            .and_then(|v| v.split(';').next())
            .map(str::to_owned)
    });
    (
        status,
        serde_json::from_str(json).unwrap_or(Value::Null),
        set,
    )
}

async fn socket(addr: SocketAddr, game: &str, cookie: &str) -> Option<Socket> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}/api/games/{game}/ws")
        .into_client_request()
        .ok()?;
    req.headers_mut().insert("cookie", cookie.parse().ok()?);
    tokio_tungstenite::connect_async(req)
        .await
        .ok()
        .map(|(ws, _)| ws)
}

/// What all games report.
#[derive(Default)]
struct Tally {
    /// Delivery times, ms.
    latencies: Mutex<Vec<f64>>,
    errors: AtomicU64,
    games: AtomicU64,
    moves: AtomicU64,
}

/// A point for move `ply` of a game, or `None` when the board is full: a walk over all
/// 225 points (193 is coprime with 225) that fills the board without a five, so games
/// last as long as the run. (An earlier walk reached only 45 points and, once they were
/// taken, spun for ever: the hang of runs longer than about 45 s.)
fn point(ply: u64, taken: &[(i64, i64)]) -> Option<(i64, i64)> {
    if taken.len() >= 225 {
        return None;
    }
    let mut i = (ply as i64 * 193) % 225;
    loop {
        let p = (i % 15, i / 15);
        if !taken.contains(&p) {
            return Some(p);
        }
        i = (i + 1) % 225;
    }
}

/// A new guest's session cookie: its first changing request (a seek, cancelled at once)
/// makes it. Each player comes from a loopback address of its own, as people do (the
/// server limits new guests per address).
async fn guest(from: [u8; 4], addr: SocketAddr) -> Option<String> {
    let probe = json!({"clock": {"kind": "side", "initial_seconds": 60}});
    let (_, seek, cookie) = http(from, addr, "POST", "/api/seeks", None, &probe).await;
    let cookie = cookie?;
    let path = format!("/api/seeks/{}", seek["id"].as_str()?);
    http(from, addr, "DELETE", &path, Some(&cookie), &Value::Null).await;
    Some(cookie)
}

/// The loopback address of player `i`.
fn address(i: usize) -> [u8; 4] {
    [
        127,
        1 + (i / 62_500) as u8,
        ((i / 250) % 250) as u8,
        (i % 250 + 1) as u8,
    ]
}

/// Starts a game between two players (address, cookie); its id.
async fn start_game(
    addr: SocketAddr,
    a: &([u8; 4], String),
    b: &([u8; 4], String),
) -> Option<String> {
    let terms = json!({
        "clock": {"kind": "side", "initial_seconds": 3600, "increment_seconds": 0},
        "color": "black"
    });
    let (s, seek, _) = http(a.0, addr, "POST", "/api/seeks", Some(&a.1), &terms).await;
    if s != 201 {
        return None;
    }
    let id = seek["id"].as_str()?;
    let path = format!("/api/seeks/{id}/accept");
    let (s, g, _) = http(b.0, addr, "POST", &path, Some(&b.1), &json!({})).await;
    (s == 201).then(|| g["id"].as_str().map(str::to_owned))?
}

/// Plays games between two players until `until`: the first player on node `addr`, the
/// second on `other` (the same node, or another one on the same database).
async fn pair(addr: SocketAddr, other: SocketAddr, i: usize, until: Instant, tally: Arc<Tally>) {
    let (from_a, from_b) = (address(2 * i), address(2 * i + 1));
    let (Some(a), Some(b)) = (guest(from_a, addr).await, guest(from_b, addr).await) else {
        tally.errors.fetch_add(1, Ordering::Relaxed);
        return;
    };
    let (a, b) = ((from_a, a), (from_b, b));
    let mut rng = 0x9e37_79b9_7f4a_7c15 ^ (i as u64 + 1).wrapping_mul(0x2545_f491_4f6c_dd1d);
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    while Instant::now() < until {
        let Some(game) = start_game(addr, &a, &b).await else {
            tally.errors.fetch_add(1, Ordering::Relaxed);
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        };
        tally.games.fetch_add(1, Ordering::Relaxed);
        let (Some(mut black), Some(mut white)) = (
            socket(addr, &game, &a.1).await,
            socket(other, &game, &b.1).await,
        ) else {
            tally.errors.fetch_add(1, Ordering::Relaxed);
            continue;
        };
        let mut taken = Vec::new();
        let mut ply = 0u64;
        'game: while Instant::now() < until {
            // The mover thinks 1 to 2 s.
            tokio::time::sleep(Duration::from_millis(1000 + next() % 1000)).await;
            let (mover, waiter) = if ply.is_multiple_of(2) {
                (&mut black, &mut white)
            } else {
                (&mut white, &mut black)
            };
            let Some((x, y)) = point(ply, &taken) else {
                break;
            };
            let msg = json!({"type": "move", "x": x, "y": y, "ply": ply, "id": format!("m{ply}")});
            let sent = Instant::now();
            if mover
                .send(Message::Text(msg.to_string().into()))
                .await
                .is_err()
            {
                tally.errors.fetch_add(1, Ordering::Relaxed);
                break;
            }
            // The opponent's socket: the position with the new stone.
            let deadline = tokio::time::sleep(Duration::from_secs(10));
            tokio::pin!(deadline);
            loop {
                tokio::select! {
                    () = &mut deadline => {
                        tally.errors.fetch_add(1, Ordering::Relaxed);
                        break 'game;
                    }
                    m = waiter.next() => match m {
                        Some(Ok(Message::Text(t))) => {
                            let v: Value = serde_json::from_str(&t).unwrap_or(Value::Null);
                            if v["type"] == "error" {
                                tally.errors.fetch_add(1, Ordering::Relaxed);
                                break 'game;
                            }
                            if v["type"] == "state" && v["game"]["ply"].as_u64() == Some(ply + 1) {
                                tally
                                    .latencies
                                    .lock()
                                    .await
                                    .push(sent.elapsed().as_secs_f64() * 1000.0);
                                tally.moves.fetch_add(1, Ordering::Relaxed);
                                if !v["game"]["result"].is_null() {
                                    break 'game;
                                }
                                break;
                            }
                        }
                        Some(Ok(_)) => {}
                        _ => {
                            tally.errors.fetch_add(1, Ordering::Relaxed);
                            break 'game;
                        }
                    }
                }
            }
            // Drain what the mover's own socket got (its ack and state).
            while let Ok(Some(Ok(_))) =
                tokio::time::timeout(Duration::from_millis(1), mover.next()).await
            {}
            taken.push((x, y));
            ply += 1;
        }
        let _ = black.close(None).await;
        let _ = white.close(None).await;
    }
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(wuzi), Some(n), secs) = (args.next(), args.next(), args.next()) else {
        eprintln!(
            "usage: online_load <path to wuzi> <games, 1..=2000> [seconds, 1..=600] [database: a PostgreSQL URL] [nodes, 1..=4]"
        );
        std::process::exit(2);
    };
    let n: usize = n
        .parse()
        .ok()
        .filter(|n| (1..=2000).contains(n))
        .unwrap_or_else(|| {
            eprintln!("games: a number from 1 to 2000");
            std::process::exit(2);
        });
    let secs: u64 = secs
        .map_or(Some(60), |s| s.parse().ok())
        .filter(|s| (1..=600).contains(s))
        .unwrap_or_else(|| {
            eprintln!("seconds: a number from 1 to 600");
            std::process::exit(2);
        });
    // The database: a PostgreSQL URL if given, else a fresh SQLite file.
    let db = args
        .next()
        .map_or_else(|| temp_db("online-load", "db").into_os_string(), Into::into);
    // Several nodes on one PostgreSQL database: each game's second player on the next
    // node, so every move crosses from one node to another.
    let nodes: usize = args
        .next()
        .map_or(Some(1), |n| n.parse().ok())
        .filter(|n| (1..=4).contains(n))
        .unwrap_or_else(|| {
            eprintln!("nodes: a number from 1 to 4");
            std::process::exit(2);
        });
    if nodes > 1 && !db.to_string_lossy().starts_with("postgres") {
        eprintln!("several nodes need a PostgreSQL database");
        std::process::exit(2);
    }
    let servers: Vec<Server> = (0..nodes)
        .map(|_| Server::spawn(&PathBuf::from(wuzi.clone()), &db, None))
        .collect();
    let addrs: Vec<SocketAddr> = servers.iter().map(|s| s.addr).collect();
    let tally = Arc::new(Tally::default());
    let warmup = Duration::from_secs(5);
    let until = Instant::now() + Duration::from_secs(secs) + warmup;
    let cpu_of = |servers: &[Server]| servers.iter().map(Server::cpu_seconds).sum::<f64>();
    let cpu0 = cpu_of(&servers);
    let wall0 = Instant::now();
    let mut tasks = Vec::new();
    for i in 0..n {
        let tally = Arc::clone(&tally);
        let (addr, other) = (addrs[i % nodes], addrs[(i + 1) % nodes]);
        tasks.push(tokio::spawn(pair(addr, other, i, until, tally)));
        // Spread the starts over the warm-up.
        tokio::time::sleep(warmup / n as u32).await;
    }
    let mut peak_rss: f64 = 0.0;
    while Instant::now() < until {
        tokio::time::sleep(Duration::from_secs(1)).await;
        peak_rss = peak_rss.max(servers.iter().map(Server::rss_mb).sum());
    }
    for t in tasks {
        let _ = t.await;
    }
    let wall = wall0.elapsed().as_secs_f64();
    let cpu = cpu_of(&servers) - cpu0;
    let mut l = tally.latencies.lock().await.clone();
    l.sort_by(f64::total_cmp);
    println!(
        "online load: {n} games, {secs} s (+{} s warm-up): {} moves delivered in {} games, {} errors",
        warmup.as_secs(),
        tally.moves.load(Ordering::Relaxed),
        tally.games.load(Ordering::Relaxed),
        tally.errors.load(Ordering::Relaxed)
    );
    println!(
        "move sent -> opponent's socket: p50 {:.1} ms, p95 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        percentile(&l, 0.5),
        percentile(&l, 0.95),
        percentile(&l, 0.99),
        l.last().copied().unwrap_or(f64::NAN)
    );
    println!(
        "{nodes} server node(s): peak {peak_rss:.0} MB resident in all, CPU {:.0}% of one core over the run (all nodes)",
        100.0 * cpu / wall
    );
}
