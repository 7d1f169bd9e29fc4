//! `wuzi serve` as a real process: it prints its address, answers, stops on SIGTERM, and
//! a port in use gives a clear message and exit status 1 (no panic).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

fn wuzi() -> Command {
    Command::new(env!("CARGO_BIN_EXE_wuzi"))
}

fn temp_db(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("wuzi-cli-{name}-{}.sqlite3", std::process::id()))
}

#[test]
fn serve_prints_the_address_answers_and_stops_on_sigterm() {
    let db = temp_db("serve");
    let (mut child, addr) = serve_at("127.0.0.1:0", &db);
    let mut s = TcpStream::connect(&addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"status\":\"ok\""), "{answer}");
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    // Wait at most 20 s for the graceful stop, so a hang fails instead of blocking.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("wuzi serve did not stop within 20 s of SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}");
    assert!(db.exists());
    for suffix in ["", "-wal", "-shm"] {
        let mut p = db.clone().into_os_string();
        p.push(suffix);
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn a_port_in_use_is_a_clear_error() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let db = temp_db("inuse");
    let out = wuzi()
        .args(["serve", "--addr", &addr, "--db"])
        .arg(&db)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("already in use"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    for suffix in ["", "-wal", "-shm"] {
        let mut p = db.clone().into_os_string();
        p.push(suffix);
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn bad_serve_arguments_are_usage_errors() {
    let out = wuzi()
        .args(["serve", "--addr", "nowhere"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--addr"));
}

/// Starts `wuzi serve --addr ADDR` and returns it with the address it printed.
fn serve_at(addr: &str, db: &std::path::Path) -> (std::process::Child, String) {
    let mut child = wuzi()
        .args(["serve", "--addr", addr, "--log-level", "warn", "--db"])
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .map(|u| {
            u.trim_start_matches("http://")
                .trim_end_matches('/')
                .to_string()
        });
    match url {
        Some(url) => (child, url),
        None => {
            let out = child.wait_with_output().unwrap();
            panic!(
                "--addr {addr}: no address in {line:?}; stderr {}",
                String::from_utf8_lossy(&out.stderr)
            )
        }
    }
}

#[test]
fn addr_takes_a_host_name_or_a_bare_port() {
    let db = temp_db("addr");
    // A bare port listens on 127.0.0.1; a host name is resolved.
    for (addr, expect) in [("0", "127.0.0.1:"), ("localhost:0", "")] {
        let (mut child, url) = serve_at(addr, &db);
        assert!(url.starts_with(expect), "--addr {addr}: {url}");
        let mut s = TcpStream::connect(&url).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .unwrap();
        let mut answer = String::new();
        s.read_to_string(&mut answer).unwrap();
        assert!(
            answer.starts_with("HTTP/1.1 200"),
            "--addr {addr}: {answer}"
        );
        child.kill().unwrap();
        child.wait().unwrap();
    }
    for bad in ["nowhere", "70000", "localhost:http", ":8080x"] {
        let out = wuzi().args(["serve", "--addr", bad]).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--addr {bad}: {err}");
        assert!(err.contains("--addr"), "--addr {bad}: {err}");
    }
    for suffix in ["", "-wal", "-shm"] {
        let mut p = db.clone().into_os_string();
        p.push(suffix);
        let _ = std::fs::remove_file(p);
    }
}

/// The session cookie the server set (this test is one browser; the session is stored, so
/// it outlives the server's process).
static COOKIE: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// Held by each test that uses [`request`]: the cookie jar is one for the process, and the
/// tests run on parallel threads.
static JAR_USER: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The jar for this test alone, emptied.
fn own_jar() -> std::sync::MutexGuard<'static, ()> {
    let guard = JAR_USER
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    *COOKIE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = None;
    guard
}

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
/// Issue 21, item 7: a server outage never decides a game. `wuzi serve` is killed with
/// SIGKILL while a clock runs, stays down longer than the clock has, and comes back: the
/// game goes on, its clock charged only for the time the server was up.
fn a_kill_and_a_long_outage_do_not_lose_a_game_on_time() {
    let _jar = own_jar();
    let db = std::env::temp_dir().join(format!("wuzi-outage-{}.sqlite3", std::process::id()));
    let (mut server, addr) = serve_at("127.0.0.1:0", &db);
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
    let (mut server, addr) = serve_at("127.0.0.1:0", &db);
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

/// Issue 27: puzzles from the games reviewed on a server. A game through a shipped puzzle's
/// position (its stones in turn, then the solution) is played and reviewed on a real
/// server; `wuzi puzzles mine --db` on its database finds the puzzle again.
#[test]
fn puzzles_are_mined_from_reviewed_games() {
    let _jar = own_jar();
    use wuzi_engine::puzzle::record::PuzzleRecord;
    let shipped = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../server/puzzles/puzzles.jsonl"
    ))
    .unwrap();
    let puzzle = shipped
        .lines()
        .map(|l| PuzzleRecord::parse(l).unwrap())
        .find(|r| {
            r.theme == wuzi_engine::puzzle::Theme::Vcf
                && r.rule == wuzi_rules::Rule::Freestyle
                && r.to_move == wuzi_rules::Color::Black
                && r.black.len() == r.white.len()
                && r.black.len() >= 5
        })
        .expect("a freestyle VCF with Black to move");
    let name = |p: wuzi_rules::Pos| puzzle.size.notation(p).to_string();
    let mut moves: Vec<String> = Vec::new();
    for (b, w) in puzzle.black.iter().zip(&puzzle.white) {
        moves.extend([name(*b), name(*w)]);
    }
    moves.extend(puzzle.solution.main_line().into_iter().map(name));

    let db = std::env::temp_dir().join(format!("wuzi-puzzles-db-{}.sqlite3", std::process::id()));
    let _ = std::fs::remove_file(&db);
    let (mut server, addr) = serve_at("127.0.0.1:0", &db);
    let g = request(
        &addr,
        "POST",
        "/api/games",
        r#"{"mode":"local","rule":"freestyle"}"#,
    );
    let id = g["id"].as_str().unwrap().to_string();
    for m in &moves {
        let g = request(
            &addr,
            "POST",
            &format!("/api/games/{id}/moves"),
            &format!(r#"{{"pos":"{m}"}}"#),
        );
        assert!(g["error"].is_null(), "{m}: {g}");
    }
    let g = request(&addr, "GET", &format!("/api/games/{id}"), "");
    assert_eq!(g["result"]["winner"], "black", "{g}");
    let r = request(&addr, "POST", &format!("/api/games/{id}/review"), "{}");
    assert!(r["error"].is_null(), "{r}");
    let start = std::time::Instant::now();
    loop {
        let r = request(&addr, "GET", &format!("/api/games/{id}/review"), "");
        if r["status"] == "done" {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(180),
            "review not done: {r}"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    server.kill().unwrap();
    server.wait().unwrap();

    let out = std::env::temp_dir().join(format!("wuzi-puzzles-db-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&out);
    let o = wuzi()
        .args(["puzzles", "mine", "--quiet", "--db"])
        .arg(&db)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).unwrap_or_default();
    let found: Vec<PuzzleRecord> = text
        .lines()
        .map(|l| PuzzleRecord::parse(l).unwrap())
        .collect();
    assert!(
        found
            .iter()
            .any(|r| r.id == puzzle.id && r.source.contains(&id)),
        "{}: {text}",
        String::from_utf8_lossy(&o.stdout)
    );
    let _ = std::fs::remove_file(&db);
    let _ = std::fs::remove_file(&out);
}
