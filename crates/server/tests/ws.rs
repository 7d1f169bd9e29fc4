//! The WebSocket flow against a real server on 127.0.0.1:0, with tokio-tungstenite as
//! the client.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{Socket, TempDb, TestApp, next_of};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use wuzi_server::net::NetLimits;

/// The session cookie each test server last set (each test's server is one browser).
static JAR: std::sync::Mutex<Vec<(SocketAddr, String)>> = std::sync::Mutex::new(Vec::new());

fn cookie_for(addr: SocketAddr) -> Option<String> {
    let jar = JAR.lock().unwrap();
    jar.iter().find(|(a, _)| *a == addr).map(|(_, c)| c.clone())
}

async fn http(addr: SocketAddr, path: &str, body: Value) -> Value {
    // A tiny HTTP/1.1 client is enough for one JSON POST.
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let body = body.to_string();
    let cookie = cookie_for(addr)
        .map(|c| format!("Cookie: {c}\r\n"))
        .unwrap_or_default();
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\n{cookie}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).await.unwrap();
    let (head, json) = out.split_once("\r\n\r\n").unwrap();
    if let Some(set) = head.lines().find_map(|l| {
        l.strip_prefix("set-cookie: ")
            .or_else(|| l.strip_prefix("Set-Cookie: "))
    }) {
        let pair = set.split(';').next().unwrap().to_string();
        JAR.lock().unwrap().push((addr, pair));
    }
    serde_json::from_str(json).unwrap()
}

/// A WebSocket to `url` on `addr`, with the session cookie (as the page's browser).
async fn connect(addr: SocketAddr, url: &str) -> Socket {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = url.into_client_request().unwrap();
    if let Some(c) = cookie_for(addr) {
        req.headers_mut().insert("cookie", c.parse().unwrap());
    }
    tokio_tungstenite::connect_async(req).await.unwrap().0
}

async fn send(ws: &mut Socket, msg: Value) {
    ws.send(Message::Text(msg.to_string().into()))
        .await
        .unwrap();
}

#[tokio::test]
async fn websocket_plays_a_game_against_the_computer() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let addr = common::serve(&app, NetLimits::default()).await;
    let g = http(
        addr,
        "/api/games",
        json!({"computer": {"player": "level2", "color": "white"}}),
    )
    .await;
    let id = g["id"].as_str().unwrap();
    let mut ws = connect(addr, &format!("ws://{addr}/api/games/{id}/ws")).await;
    let first = next_of(&mut ws, "state").await;
    assert_eq!(first["game"]["id"], id);
    assert_eq!(first["game"]["ply"], 0);

    // Junk and illegal messages get an error and change nothing.
    send(&mut ws, json!({"type": "fly"})).await;
    let e = next_of(&mut ws, "error").await;
    assert_eq!(e["code"], "bad_request");
    ws.send(Message::Text("not json".into())).await.unwrap();
    assert_eq!(next_of(&mut ws, "error").await["code"], "bad_request");
    send(&mut ws, json!({"type": "move", "pos": "z1"})).await;
    assert_eq!(next_of(&mut ws, "error").await["code"], "illegal_move");
    send(&mut ws, json!({"type": "ping"})).await;
    next_of(&mut ws, "pong").await;

    // A move: the state comes back, then the computer's thinking and reply.
    send(&mut ws, json!({"type": "move", "pos": "h8"})).await;
    let s = next_of(&mut ws, "state").await;
    assert_eq!(s["game"]["ply"], 1);
    assert_eq!(s["game"]["thinking"], true);
    let t = next_of(&mut ws, "thinking").await;
    assert_eq!(t["purpose"], "move");
    assert!(t["depth"].as_u64().is_some());
    let mut s = next_of(&mut ws, "state").await;
    while s["game"]["ply"] != 2 {
        s = next_of(&mut ws, "state").await;
    }
    assert_eq!(s["game"]["moves"][1]["color"], "white");

    // A hint comes back to this client as an analysis message.
    send(&mut ws, json!({"type": "hint", "time_ms": 100})).await;
    let a = next_of(&mut ws, "analysis").await;
    assert_eq!(a["purpose"], "hint");
    assert!(a["result"]["best"]["name"].is_string());

    // A second subscriber sees the same changes.
    let (mut other, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws"))
        .await
        .unwrap();
    assert_eq!(next_of(&mut other, "state").await["game"]["ply"], 2);
    // It has no session cookie: a spectator, whose actions are refused.
    for msg in [
        json!({"type": "move", "pos": "a1"}),
        json!({"type": "undo"}),
        json!({"type": "resign"}),
        json!({"type": "restart"}),
        json!({"type": "hint"}),
        json!({"type": "stop"}),
    ] {
        send(&mut other, msg.clone()).await;
        assert_eq!(
            next_of(&mut other, "error").await["code"],
            "not_yours",
            "{msg}"
        );
    }
    send(&mut ws, json!({"type": "undo"})).await;
    let s = next_of(&mut other, "state").await;
    assert_eq!(s["game"]["ply"], 0);
    send(&mut ws, json!({"type": "resign"})).await;
    let s = next_of(&mut other, "state").await;
    assert_eq!(s["game"]["result"]["reason"], "resignation");
    assert_eq!(s["game"]["result"]["winner"], "white");

    // An unknown game refuses the upgrade.
    let err =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/zzzzzzzzzz/ws")).await;
    assert!(err.is_err());

    // Shutdown closes the sockets.
    app.hub.close();
    let end = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(Ok(_)) = ws.next().await {}
    })
    .await;
    assert!(end.is_ok(), "the socket stayed open after shutdown");
}

#[tokio::test]
async fn clock_ticks_reach_subscribers() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let addr = common::serve(&app, NetLimits::default()).await;
    let g = http(
        addr,
        "/api/games",
        json!({"mode": "local", "clock": {"kind": "side", "initial_seconds": 2.5, "increment_seconds": 1}}),
    )
    .await;
    let id = g["id"].as_str().unwrap();
    let mut ws = connect(addr, &format!("ws://{addr}/api/games/{id}/ws")).await;
    next_of(&mut ws, "state").await;
    send(&mut ws, json!({"type": "move", "pos": "h8"})).await;
    let s = next_of(&mut ws, "state").await;
    assert_eq!(s["game"]["clock"]["running"], "white");
    let c = next_of(&mut ws, "clock").await;
    assert_eq!(c["running"], "white");
    assert!(c["white_ms"].as_i64().unwrap() < 2500);
    let s = next_of(&mut ws, "state").await;
    assert_eq!(s["game"]["result"]["reason"], "time");
    assert_eq!(s["game"]["result"]["winner"], "black");
}

#[tokio::test]
async fn leaving_the_page_cancels_the_computer_and_coming_back_resumes() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let addr = common::serve(&app, NetLimits::default()).await;
    let g = http(
        addr,
        "/api/games",
        json!({"computer": {"player": "level10", "color": "white"}}),
    )
    .await;
    let id = g["id"].as_str().unwrap();
    let url = format!("ws://{addr}/api/games/{id}/ws");
    let mut ws = connect(addr, &url).await;
    next_of(&mut ws, "state").await;
    send(&mut ws, json!({"type": "move", "pos": "h8"})).await;
    let s = next_of(&mut ws, "state").await;
    assert_eq!(s["game"]["thinking"], true);
    ws.close(None).await.unwrap();
    drop(ws);
    // The search is cancelled at once (level 10 would think for seconds) and its answer
    // is dropped: the stored game still waits for the computer. (Reading the game through
    // the API would restart the search, so look at the hub and the store directly.)
    let slot = app.hub.slot(&id.parse().unwrap()).await.unwrap();
    let deadline = std::time::Instant::now() + Duration::from_millis(1500);
    while slot.is_thinking() && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(!slot.is_thinking(), "the search was not cancelled");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let stored = app.stored(id).await;
    assert_eq!(stored.state.moves.len(), 1);
    // Back on the page: the computer thinks again and answers.
    let mut ws = connect(addr, &url).await;
    let s = next_of(&mut ws, "state").await;
    assert_eq!(s["game"]["ply"], 1);
    assert_eq!(s["game"]["thinking"], true);
    send(&mut ws, json!({"type": "stop"})).await;
    let mut s = next_of(&mut ws, "state").await;
    while s["game"]["ply"] != 2 {
        s = next_of(&mut ws, "state").await;
    }
}
