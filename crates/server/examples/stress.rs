//! Load and fault checks of a real `wuzi serve` process (issue 21), on 127.0.0.1 only,
//! bounded in count and time. It starts the server itself (with a fresh database in a
//! temporary directory) and prints one line of figures per scenario.
//!
//! ```sh
//! cargo build --release -p wuzi
//! cargo run --release -p wuzi-server --example stress -- target/release/wuzi [scenario...]
//! ```
//!
//! Scenarios (all by default):
//! - `queue`: the engine's queue full of 10 s hints, then a level-1 computer game: does
//!   its reply come, and when (item 1).
//! - `level10`: 20 and 50 concurrent level-10 games on the default 2 workers, three
//!   computer replies each: reply times against the 5 s budget, games without a reply;
//!   then 20 games with a 20 s per-move clock: computers lost on time (item 2).
//! - `frames`: 40 WebSockets each announcing a 16 MiB frame: server memory, sockets
//!   closed with 1009 (item 4).
//! - `slowloris`: the server under a 1,024 open-file limit, 1,500 connections that never
//!   finish their headers, then 10 ordinary requests: how many are served, how fast
//!   (item 5).
//! - `outage`: 10 games with an 8 s per-move clock and 10 s per-side clock, Black to
//!   move; kill -9, 12 s down, restart: games lost on time (item 7).
//! - `memory`: three waves of 1,000 WebSockets opened and closed: server memory after
//!   each wave (item 9).
//! - `durability`: 70 local games moving as fast as the server answers; kill -9 five
//!   times: every acknowledged move must be there after each restart.
#![allow(clippy::print_stdout)]

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

mod support;
use support::{Server, percentile};

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// A `wuzi serve` process for a scenario, with the session cookie of the scenario's one
/// browser.
fn start(wuzi: &Path, db: &Path, nofile: Option<u32>) -> Server {
    let server = Server::spawn(wuzi, db, nofile);
    let addr = server.addr;
    // One browser plays every game of a scenario: take its session cookie first (a
    // restarted server on the same database knows the cookie and sets none).
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    let body = r#"{"mode":"local"}"#;
    let req = format!(
        "POST /api/games HTTP/1.1\r\nHost: {addr}\r\n{}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        cookie_header(),
        body.len()
    );
    std::io::Write::write_all(&mut s, req.as_bytes()).unwrap();
    let mut out = String::new();
    std::io::Read::read_to_string(&mut s, &mut out).unwrap();
    keep_cookie(&out);
    server
}

/// The session cookie of the scenario's browser.
static JAR: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

fn keep_cookie(answer: &str) {
    let head = answer.split("\r\n\r\n").next().unwrap_or("");
    if let Some(set) = head.lines().find_map(|l| {
        l.strip_prefix("set-cookie: ")
            .or_else(|| l.strip_prefix("Set-Cookie: "))
    }) {
        *JAR.lock().unwrap() = set.split(';').next().map(str::to_owned);
    }
}

fn cookie_header() -> String {
    JAR.lock()
        .unwrap()
        .as_ref()
        .map(|c| format!("Cookie: {c}\r\n"))
        .unwrap_or_default()
}

/// One HTTP/1.1 request; the status and the JSON body.
async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    http_from([127, 0, 0, 1], addr, method, path, body).await
}

/// One HTTP/1.1 request from the loopback address `from`.
async fn http_from(
    from: [u8; 4],
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let Ok(socket) = tokio::net::TcpSocket::new_v4() else {
        return (0, Value::Null);
    };
    if socket.bind(SocketAddr::from((from, 0))).is_err() {
        return (0, Value::Null);
    }
    let Ok(mut s) = socket.connect(addr).await else {
        return (0, Value::Null);
    };
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        cookie_header(),
        body.len()
    );
    if s.write_all(req.as_bytes()).await.is_err() {
        return (0, Value::Null);
    }
    let mut out = Vec::new();
    if s.read_to_end(&mut out).await.is_err() {
        return (0, Value::Null);
    }
    let text = String::from_utf8_lossy(&out);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let json = text
        .split_once("\r\n\r\n")
        .and_then(|(_, b)| serde_json::from_str(b).ok())
        .unwrap_or(Value::Null);
    (status, json)
}

fn temp_db(name: &str) -> PathBuf {
    support::temp_db("stress", name)
}

/// The first free point of a fixed spiral around the centre (a legal move for
/// freestyle on 15×15).
fn free_point(game: &Value) -> String {
    let taken: Vec<(i64, i64)> = game["moves"]
        .as_array()
        .map(|m| {
            m.iter()
                .map(|m| (m["x"].as_i64().unwrap(), m["y"].as_i64().unwrap()))
                .collect()
        })
        .unwrap_or_default();
    for r in 0..8i64 {
        for dy in -r..=r {
            for dx in -r..=r {
                if dx.abs().max(dy.abs()) != r {
                    continue;
                }
                let (x, y) = (7 + dx * 2, 7 + dy);
                if (0..15).contains(&x) && (0..15).contains(&y) && !taken.contains(&(x, y)) {
                    return json!({"x": x, "y": y}).to_string();
                }
            }
        }
    }
    json!({"x": 0, "y": 0}).to_string()
}

async fn ws_connect(addr: SocketAddr, id: &str) -> Option<Socket> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}/api/games/{id}/ws")
        .into_client_request()
        .ok()?;
    if let Some(c) = JAR.lock().unwrap().clone() {
        req.headers_mut().insert("cookie", c.parse().ok()?);
    }
    tokio_tungstenite::connect_async(req)
        .await
        .ok()
        .map(|(ws, _)| ws)
}

/// Item 1.
async fn queue(wuzi: &Path) {
    let server = start(wuzi, &temp_db("queue"), None);
    let addr = server.addr;
    // 36 hints of 10 s, as in the issue: two from each of 18 loopback addresses, each on
    // a game of its own (one address cannot have more than two in progress, one game
    // more than one).
    let mut hints = Vec::new();
    for i in 0..36u8 {
        let (_, g) = http(addr, "POST", "/api/games", Some(json!({"mode": "local"}))).await;
        let game = g["id"].as_str().unwrap().to_string();
        let path = format!("/api/games/{game}/moves");
        http(addr, "POST", &path, Some(json!({"pos": "h8"}))).await;
        let path = format!("/api/games/{game}/hint");
        let from = [127, 0, 1, 1 + i / 2];
        hints.push(tokio::spawn(async move {
            http_from(from, addr, "POST", &path, Some(json!({"time_ms": 10000})))
                .await
                .0
        }));
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (_, g) = http(
        addr,
        "POST",
        "/api/games",
        Some(json!({"computer": {"player": "level1", "color": "white"}})),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut ws = ws_connect(addr, &id).await.expect("socket");
    let sent = Instant::now();
    let msg = json!({"type": "move", "pos": "h8"}).to_string();
    ws.send(Message::Text(msg.into())).await.unwrap();
    let mut queued = None;
    let reply = tokio::time::timeout(Duration::from_secs(40), async {
        while let Some(m) = ws.next().await {
            match m {
                Ok(Message::Text(t)) => {
                    let v: Value = serde_json::from_str(&t).unwrap_or(Value::Null);
                    if v["type"] == "queued" {
                        queued = v["ahead"].as_u64();
                    }
                    if v["type"] == "state" && v["game"]["ply"] == 2 {
                        return Ok(());
                    }
                }
                Ok(_) => {}
                Err(e) => return Err(format!("socket error: {e}")),
            }
        }
        Err("socket closed".to_string())
    })
    .await
    .unwrap_or_else(|_| Err("NEVER arrived (40 s)".to_string()));
    let replied_in = sent.elapsed().as_secs_f64();
    let mut status = std::collections::BTreeMap::<u16, usize>::new();
    for h in hints {
        *status.entry(h.await.unwrap_or(0)).or_default() += 1;
    }
    println!(
        "queue: 36 hints of 10 s (answers by HTTP status: {status:?}); computer reply {} (queued message: {}), {replied_in:.1} s after the move",
        match &reply {
            Ok(()) => "arrived".to_string(),
            Err(why) => why.clone(),
        },
        queued.map_or("none".into(), |n| format!("{n} ahead")),
    );
}

/// One level-10 game over its WebSocket: `replies` computer replies; their latencies
/// (ms) and whether the computer lost on time.
async fn play_level10(addr: SocketAddr, clock: Value, replies: usize) -> (Vec<f64>, bool, bool) {
    let (_, g) = http(
        addr,
        "POST",
        "/api/games",
        Some(json!({"computer": {"player": "level10", "color": "white"}, "clock": clock})),
    )
    .await;
    let Some(id) = g["id"].as_str() else {
        return (Vec::new(), false, false);
    };
    let Some(mut ws) = ws_connect(addr, id).await else {
        return (Vec::new(), false, false);
    };
    let mut game = g.clone();
    let mut times = Vec::new();
    for _ in 0..replies {
        let ply = game["ply"].as_u64().unwrap_or(0);
        let mv = free_point(&game);
        let mut msg: Value = serde_json::from_str(&mv).unwrap();
        msg["type"] = json!("move");
        let sent = Instant::now();
        if ws
            .send(Message::Text(msg.to_string().into()))
            .await
            .is_err()
        {
            return (times, false, false);
        }
        let got = tokio::time::timeout(Duration::from_secs(90), async {
            while let Some(Ok(m)) = ws.next().await {
                if let Message::Text(t) = m {
                    let v: Value = serde_json::from_str(&t).unwrap_or(Value::Null);
                    if v["type"] == "state"
                        && (v["game"]["ply"].as_u64() == Some(ply + 2)
                            || !v["game"]["result"].is_null())
                    {
                        return Some(v["game"].clone());
                    }
                }
            }
            None
        })
        .await;
        match got {
            Ok(Some(g)) => {
                times.push(sent.elapsed().as_secs_f64() * 1000.0);
                if !g["result"].is_null() {
                    let lost = g["result"]["reason"] == "time" && g["result"]["winner"] == "black";
                    return (times, true, lost);
                }
                game = g;
            }
            _ => return (times, false, false),
        }
    }
    (times, true, false)
}

/// Item 2.
async fn level10(wuzi: &Path) {
    for (n, clock, replies) in [
        (20, json!({"kind": "none"}), 3),
        (50, json!({"kind": "none"}), 3),
        (20, json!({"kind": "move", "seconds": 20}), 1),
    ] {
        let server = start(wuzi, &temp_db(&format!("level10-{n}")), None);
        let addr = server.addr;
        let started = Instant::now();
        let games: Vec<_> = (0..n)
            .map(|_| {
                let clock = clock.clone();
                tokio::spawn(async move { play_level10(addr, clock, replies).await })
            })
            .collect();
        let mut times = Vec::new();
        let (mut silent, mut lost) = (0, 0);
        for g in games {
            let (t, done, lost_on_time) = g.await.unwrap();
            if !done && t.len() < replies {
                silent += 1;
            }
            if lost_on_time {
                lost += 1;
            }
            times.extend(t);
        }
        times.sort_by(f64::total_cmp);
        let within = times.iter().filter(|&&t| t <= 6000.0).count();
        println!(
            "level10: {n} games, clock {}: {} replies, p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms, within 5 s + 1 s: {within}/{}, games missing a reply: {silent}, computers lost on time: {lost} ({:.0} s)",
            clock["kind"].as_str().unwrap_or("?"),
            times.len(),
            percentile(&times, 0.5),
            percentile(&times, 0.99),
            times.last().copied().unwrap_or(f64::NAN),
            times.len(),
            started.elapsed().as_secs_f64(),
        );
    }
}

/// Item 4.
async fn frames(wuzi: &Path) {
    let server = start(wuzi, &temp_db("frames"), None);
    let addr = server.addr;
    let (_, g) = http(addr, "POST", "/api/games", Some(json!({"mode": "local"}))).await;
    let id = g["id"].as_str().unwrap().to_string();
    let before = server.rss_mb();
    let mut conns = Vec::new();
    for i in 0..40u64 {
        let Ok(mut s) = TcpStream::connect(addr).await else {
            continue;
        };
        let req = format!(
            "GET /api/games/{id}/ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        );
        s.write_all(req.as_bytes()).await.unwrap();
        let mut r = BufReader::new(s);
        let mut line = String::new();
        loop {
            line.clear();
            if r.read_line(&mut line).await.unwrap_or(0) == 0 || line == "\r\n" {
                break;
            }
        }
        let mut s = r.into_inner();
        // Announce 16 MiB (15 MiB every other one), send 15 MiB of it, never finish.
        let len: u64 = if i % 2 == 0 { 16 << 20 } else { 15 << 20 };
        let mut frame = vec![0x81u8, 0x80 | 127];
        frame.extend_from_slice(&len.to_be_bytes());
        frame.extend_from_slice(&[1, 2, 3, 4]);
        let _ = s.write_all(&frame).await;
        let chunk = vec![0u8; 1 << 20];
        for _ in 0..15 {
            if tokio::time::timeout(Duration::from_millis(200), s.write_all(&chunk))
                .await
                .map_or(true, |r| r.is_err())
            {
                break;
            }
        }
        conns.push(s);
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let during = server.rss_mb();
    let mut closed_1009 = 0;
    for mut s in conns {
        let mut out = Vec::new();
        let _ = tokio::time::timeout(Duration::from_millis(500), s.read_to_end(&mut out)).await;
        if out
            .windows(4)
            .any(|w| w[0] == 0x88 && w[2..4] == 1009u16.to_be_bytes())
        {
            closed_1009 += 1;
        }
    }
    println!(
        "frames: 40 sockets announcing 15-16 MiB frames: server memory {before:.0} MB -> {during:.0} MB, closed with 1009: {closed_1009}/40"
    );
}

/// Item 5.
async fn slowloris(wuzi: &Path) {
    let server = start(wuzi, &temp_db("slowloris"), Some(1024));
    let addr = server.addr;
    let mut slow = Vec::new();
    for _ in 0..1500 {
        if let Ok(Ok(mut s)) =
            tokio::time::timeout(Duration::from_millis(200), TcpStream::connect(addr)).await
        {
            let _ = s
                .write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
                .await;
            slow.push(s);
        }
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut served = 0;
    let mut times = Vec::new();
    let opened = slow.len();
    for _ in 0..10 {
        let t = Instant::now();
        let r = tokio::time::timeout(
            Duration::from_secs(15),
            http(addr, "GET", "/api/health", None),
        )
        .await;
        if matches!(r, Ok((200, _))) {
            served += 1;
            times.push(t.elapsed().as_secs_f64() * 1000.0);
        }
    }
    times.sort_by(f64::total_cmp);
    // Is the held body request released?
    // The slow connections are closed first: then a request that declares a 1 GB body
    // and sends 2 bytes must not be held for ever.
    slow.clear();
    let t = Instant::now();
    let mut out = Vec::new();
    let answered = match tokio::time::timeout(Duration::from_secs(5), TcpStream::connect(addr))
        .await
    {
        Ok(Ok(mut held)) => {
            let _ = held
                .write_all(
                    b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n{}",
                )
                .await;
            tokio::time::timeout(Duration::from_secs(30), held.read_to_end(&mut out))
                .await
                .is_ok()
        }
        _ => false,
    };
    println!(
        "slowloris: open-file limit 1024, {opened} slow connections opened: {served}/10 new requests served (max {:.0} ms); a 1 GB Content-Length request {} after {:.1} s",
        times.last().copied().unwrap_or(f64::NAN),
        if answered {
            format!(
                "answered {}",
                String::from_utf8_lossy(&out).lines().next().unwrap_or("")
            )
        } else {
            "still held".into()
        },
        t.elapsed().as_secs_f64(),
    );
}

/// Item 7.
async fn outage(wuzi: &Path) {
    let db = temp_db("outage");
    let mut server = start(wuzi, &db, None);
    let addr = server.addr;
    let mut ids = Vec::new();
    for i in 0..10 {
        let clock = if i % 2 == 0 {
            json!({"kind": "move", "seconds": 8})
        } else {
            json!({"kind": "side", "initial_seconds": 10, "increment_seconds": 0})
        };
        let (_, g) = http(
            addr,
            "POST",
            "/api/games",
            Some(json!({"mode": "local", "clock": clock})),
        )
        .await;
        let id = g["id"].as_str().unwrap().to_string();
        // Black then White: Black's clock runs.
        for m in ["h8", "i9"] {
            http(
                addr,
                "POST",
                &format!("/api/games/{id}/moves"),
                Some(json!({"pos": m})),
            )
            .await;
        }
        ids.push(id);
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    server.kill9();
    tokio::time::sleep(Duration::from_secs(12)).await;
    let server = start(wuzi, &db, None);
    let mut lost = 0;
    for id in &ids {
        let (_, g) = http(server.addr, "GET", &format!("/api/games/{id}"), None).await;
        if g["result"]["reason"] == "time" {
            lost += 1;
        }
    }
    println!(
        "outage: 10 games with Black's clock running, kill -9, 12 s down, restart: {lost}/10 lost on time"
    );
}

/// Item 9.
async fn memory(wuzi: &Path) {
    let server = start(wuzi, &temp_db("memory"), None);
    let addr = server.addr;
    let (_, g) = http(addr, "POST", "/api/games", Some(json!({"mode": "local"}))).await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut figures = vec![format!("idle {:.0} MB", server.rss_mb())];
    for wave in 1..=3 {
        let mut sockets = Vec::new();
        for _ in 0..1000 {
            if let Some(ws) = ws_connect(addr, &id).await {
                sockets.push(ws);
            }
        }
        let open = server.rss_mb();
        for mut ws in sockets {
            let _ = ws.close(None).await;
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
        figures.push(format!(
            "wave {wave}: {open:.0} MB with 1,000 open, {:.0} MB after",
            server.rss_mb()
        ));
    }
    println!("memory: {}", figures.join("; "));
}

/// Every acknowledged move survives kill -9.
async fn durability(wuzi: &Path) {
    let db = temp_db("durability");
    let mut server = start(wuzi, &db, None);
    let mut ids = Vec::new();
    for _ in 0..70 {
        let (_, g) = http(
            server.addr,
            "POST",
            "/api/games",
            Some(json!({"mode": "local", "size": 19})),
        )
        .await;
        ids.push(g["id"].as_str().unwrap().to_string());
    }
    let (mut acknowledged, mut lost) = (0usize, 0usize);
    for round in 0..5u64 {
        let addr = server.addr;
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let players: Vec<_> = ids
            .iter()
            .cloned()
            .map(|id| {
                let stop = std::sync::Arc::clone(&stop);
                tokio::spawn(async move {
                    let mut acked = 0u64;
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        let (_, g) = http(addr, "GET", &format!("/api/games/{id}"), None).await;
                        let Some(ply) = g["ply"].as_u64() else { break };
                        if ply >= 300 || !g["result"].is_null() {
                            break;
                        }
                        // A column-by-column walk with gaps: no five for a long time.
                        let (x, y) = (ply / 19 % 19, (ply % 19 * 7) % 19);
                        let (status, g) = http(
                            addr,
                            "POST",
                            &format!("/api/games/{id}/moves"),
                            Some(json!({"x": x, "y": y})),
                        )
                        .await;
                        match status {
                            200 => acked = g["ply"].as_u64().unwrap_or(acked),
                            422 | 409 => {}
                            _ => break,
                        }
                    }
                    (id, acked)
                })
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(1500 + 500 * round)).await;
        server.kill9();
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let mut acked = Vec::new();
        for p in players {
            acked.push(p.await.unwrap());
        }
        server = start(wuzi, &db, None);
        for (id, ply) in acked {
            let (_, g) = http(server.addr, "GET", &format!("/api/games/{id}"), None).await;
            let stored = g["ply"].as_u64().unwrap_or(0);
            acknowledged += ply as usize;
            lost += ply.saturating_sub(stored) as usize;
        }
    }
    println!(
        "durability: 70 games, 5 kill -9 during play: {lost} acknowledged moves lost (acknowledged plies at the kills, summed over games and rounds: {acknowledged})"
    );
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let Some(wuzi) = args.next() else {
        eprintln!(
            "usage: stress <path to wuzi> [queue|level10|frames|slowloris|outage|memory ...]"
        );
        std::process::exit(2);
    };
    let wuzi = PathBuf::from(wuzi);
    let mut chosen: Vec<String> = args.collect();
    if chosen.is_empty() {
        chosen = [
            "queue",
            "level10",
            "frames",
            "slowloris",
            "outage",
            "memory",
            "durability",
        ]
        .map(String::from)
        .to_vec();
    }
    for s in chosen {
        match s.as_str() {
            "queue" => queue(&wuzi).await,
            "level10" => level10(&wuzi).await,
            "frames" => frames(&wuzi).await,
            "slowloris" => slowloris(&wuzi).await,
            "outage" => outage(&wuzi).await,
            "memory" => memory(&wuzi).await,
            "durability" => durability(&wuzi).await,
            other => eprintln!("unknown scenario {other}"),
        }
    }
}
