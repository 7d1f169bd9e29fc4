//! Issue 21, item 7: a server outage never decides a game. `wuzi serve` is killed with
//! SIGKILL while a clock runs, stays down longer than the clock has, and comes back: the
//! game goes on, its clock charged only for the time the server was up.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

fn start(db: &Path) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wuzi"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--log-level",
            "warn",
            "--db",
        ])
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    let addr = url.trim_start_matches("http://").trim_end_matches('/');
    (child, addr.to_string())
}

/// The session cookie the server set (this test is one browser; the session is stored, so
/// it outlives the server's process).
static COOKIE: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

fn request(addr: &str, method: &str, path: &str, body: &str) -> Value {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let cookie = COOKIE
        .lock()
        .unwrap()
        .as_ref()
        .map(|c| format!("Cookie: {c}\r\n"))
        .unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: x\r\n{cookie}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    let (head, json) = answer.split_once("\r\n\r\n").unwrap();
    if let Some(set) = head.lines().find_map(|l| {
        l.strip_prefix("set-cookie: ")
            .or_else(|| l.strip_prefix("Set-Cookie: "))
    }) {
        *COOKIE.lock().unwrap() = set.split(';').next().map(str::to_owned);
    }
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {answer}"))
}

#[test]
fn a_kill_and_a_long_outage_do_not_lose_a_game_on_time() {
    let db = std::env::temp_dir().join(format!("wuzi-outage-{}.sqlite3", std::process::id()));
    let (mut server, addr) = start(&db);
    let side = request(
        &addr,
        "POST",
        "/api/games",
        r#"{"mode":"local","clock":{"kind":"side","initial_seconds":3,"increment_seconds":0}}"#,
    );
    let per_move = request(
        &addr,
        "POST",
        "/api/games",
        r#"{"mode":"local","clock":{"kind":"move","seconds":3}}"#,
    );
    let ids: Vec<String> = [side, per_move]
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect();
    for id in &ids {
        let g = request(
            &addr,
            "POST",
            &format!("/api/games/{id}/moves"),
            r#"{"pos":"h8"}"#,
        );
        assert_eq!(g["clock"]["running"], "white", "{g}");
    }
    // Let a heartbeat note the server alive, then kill it: no clean stop.
    std::thread::sleep(Duration::from_millis(1200));
    server.kill().unwrap();
    server.wait().unwrap();
    std::thread::sleep(Duration::from_millis(4000));
    let (mut server, addr) = start(&db);
    for id in &ids {
        let g = request(&addr, "GET", &format!("/api/games/{id}"), "");
        assert!(g["result"].is_null(), "the outage decided the game: {g}");
        let white = g["clock"]["white_ms"].as_i64().unwrap();
        assert!(white > 0 && white <= 3000, "{g}");
        // The game goes on.
        let g = request(
            &addr,
            "POST",
            &format!("/api/games/{id}/moves"),
            r#"{"pos":"a1"}"#,
        );
        assert_eq!(g["ply"], 2, "{g}");
    }
    server.kill().unwrap();
    server.wait().unwrap();
    for suffix in ["", "-wal", "-shm"] {
        let mut p = db.clone().into_os_string();
        p.push(suffix);
        let _ = std::fs::remove_file(p);
    }
}
