//! Connections and WebSockets under hostile clients, against the real accept loop on
//! 127.0.0.1 with short limits.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{TempDb, TestApp};
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use wuzi_server::net::NetLimits;

const SHORT: NetLimits = NetLimits {
    header: Duration::from_millis(600),
    body: Duration::from_millis(600),
    idle: Duration::from_millis(1500),
    max_connections: 8,
    trusted_proxy: None,
};

/// Reads until the peer closes (or `within` passes: then `None`).
async fn read_to_close(s: &mut TcpStream, within: Duration) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let read = async {
        let mut buf = [0u8; 4096];
        loop {
            match s.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => out.extend_from_slice(&buf[..n]),
            }
        }
    };
    tokio::time::timeout(within, read).await.ok().map(|()| out)
}

async fn get_health(addr: SocketAddr) -> String {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let out = read_to_close(&mut s, Duration::from_secs(10))
        .await
        .expect("an answer");
    String::from_utf8_lossy(&out).into_owned()
}

async fn new_game(addr: SocketAddr) -> String {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let body = json!({"mode": "local"}).to_string();
    let req = format!(
        "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let out = read_to_close(&mut s, Duration::from_secs(10))
        .await
        .unwrap();
    let out = String::from_utf8_lossy(&out).into_owned();
    let (_, json) = out.split_once("\r\n\r\n").unwrap();
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    v["id"].as_str().unwrap().to_string()
}

/// Issue 21, item 5: headers, bodies and idle connections have time limits.
#[tokio::test]
async fn slow_and_idle_connections_are_closed() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let addr = common::serve(&app, SHORT).await;
    // Headers that never end.
    let mut slow = TcpStream::connect(addr).await.unwrap();
    slow.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    assert!(
        read_to_close(&mut slow, Duration::from_secs(5))
            .await
            .is_some(),
        "a request whose headers never end is closed"
    );
    // A body that never comes.
    let mut slow = TcpStream::connect(addr).await.unwrap();
    slow.write_all(
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{}",
    )
    .await
    .unwrap();
    let out = read_to_close(&mut slow, Duration::from_secs(5))
        .await
        .expect("a request whose body never ends is closed");
    assert!(!String::from_utf8_lossy(&out).contains("201 Created"));
    // A body declared too large is refused before it is read.
    let mut big = TcpStream::connect(addr).await.unwrap();
    big.write_all(
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n{}",
    )
    .await
    .unwrap();
    let mut buf = [0u8; 512];
    let n = tokio::time::timeout(Duration::from_secs(5), big.read(&mut buf))
        .await
        .expect("an answer at once")
        .unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 413"));
    // A connection that says nothing.
    let mut idle = TcpStream::connect(addr).await.unwrap();
    assert!(
        read_to_close(&mut idle, Duration::from_secs(6))
            .await
            .is_some(),
        "a silent connection is closed"
    );
    assert!(get_health(addr).await.starts_with("HTTP/1.1 200"));
}

/// Issue 21, item 5: at the connection cap, the oldest connection that has not sent a
/// whole request makes room, so a flood of slow clients does not lock others out.
#[tokio::test]
async fn a_flood_of_slow_connections_does_not_lock_out_new_clients() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let limits = NetLimits {
        header: Duration::from_secs(60),
        idle: Duration::from_secs(60),
        ..SHORT
    };
    let addr = common::serve(&app, limits).await;
    let mut flood = Vec::new();
    for _ in 0..30 {
        let mut s = TcpStream::connect(addr).await.unwrap();
        s.write_all(b"GET /api/health HTTP/1.1\r\n").await.unwrap();
        flood.push(s);
    }
    for _ in 0..3 {
        let answer = tokio::time::timeout(Duration::from_secs(5), get_health(addr))
            .await
            .expect("served during the flood");
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    }
}

/// Issue 21, item 4: a frame announcing more than the limit closes the socket with 1009
/// at once, without its payload being buffered; a whole oversized message too.
#[tokio::test]
async fn oversized_websocket_frames_close_with_1009() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let addr = common::serve(&app, NetLimits::default()).await;
    let id = new_game(addr).await;
    // A raw handshake, then a frame header announcing 16 MiB and a few bytes of it.
    let mut s = TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "GET /api/games/{id}/ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut b = [0u8; 1];
        s.read_exact(&mut b).await.unwrap();
        head.push(b[0]);
    }
    assert!(String::from_utf8_lossy(&head).starts_with("HTTP/1.1 101"));
    let mut frame = vec![0x81, 0x80 | 127];
    frame.extend_from_slice(&(16u64 << 20).to_be_bytes());
    frame.extend_from_slice(&[1, 2, 3, 4]);
    frame.extend_from_slice(&[0u8; 1000]);
    s.write_all(&frame).await.unwrap();
    let out = read_to_close(&mut s, Duration::from_secs(5))
        .await
        .expect("the server closes the socket at once");
    // Skip the game's state (text frames) to the close frame: 0x88, length, code.
    let close = out
        .windows(4)
        .position(|w| w[0] == 0x88 && w[2..4] == 1009u16.to_be_bytes())
        .unwrap_or_else(|| {
            panic!(
                "no close frame with code 1009 in {:?}",
                &out[out.len().saturating_sub(80)..]
            )
        });
    assert!(close > 0);

    // A whole 1 MiB message gets the same close code and a reason.
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws"))
        .await
        .unwrap();
    let big = "x".repeat(1 << 20);
    let _ = ws.send(Message::Text(big.into())).await;
    let frame = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Close(f))) => return f,
                Some(Ok(_)) => {}
                other => panic!("no close frame: {other:?}"),
            }
        }
    })
    .await
    .expect("closed at once")
    .expect("a close frame with a code");
    assert_eq!(u16::from(frame.code), 1009);
    assert!(frame.reason.contains("KiB"), "{}", frame.reason);
}

/// The status of `POST /api/games` without a cookie (a new guest each time), sent with
/// `X-Forwarded-For: forwarded`.
async fn new_guest_via(addr: SocketAddr, forwarded: &str) -> u16 {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let body = json!({"mode": "local"}).to_string();
    let req = format!(
        "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Forwarded-For: {forwarded}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let out = read_to_close(&mut s, Duration::from_secs(10))
        .await
        .unwrap();
    String::from_utf8_lossy(&out)[9..12].parse().unwrap()
}

/// Issue 26: behind a trusted proxy, the per-address limits see the clients it names;
/// from anyone else, `X-Forwarded-For` changes nothing.
#[tokio::test]
async fn the_trusted_proxy_names_the_client_and_nobody_else_does() {
    for trusted in [true, false] {
        let db = TempDb::new();
        let app = TestApp::on(&db);
        let limits = NetLimits {
            trusted_proxy: trusted.then(|| "127.0.0.1".parse().unwrap()),
            ..NetLimits::default()
        };
        let addr = common::serve(&app, limits).await;
        // New guests from one client, until its limit.
        let mut made = 0;
        while new_guest_via(addr, "203.0.113.7").await == 201 {
            made += 1;
            assert!(made <= 1000, "no limit");
        }
        assert_eq!(new_guest_via(addr, "203.0.113.7").await, 429);
        // Another client behind the same proxy: its own limit when the proxy is
        // trusted, the proxy's spent one when not (the header is not believed).
        let other = new_guest_via(addr, "198.51.100.1, 203.0.113.8").await;
        assert_eq!(other, if trusted { 201 } else { 429 }, "trusted: {trusted}");
    }
}
