//! Issue 26, item 4: faults with several nodes, as real processes. Two `wuzi serve` on one
//! PostgreSQL (a throwaway cluster of the test's own, `scripts/pg-throwaway.sh`), 100
//! games spread over both (80 between people, 20 against the computer). One node is
//! killed with SIGKILL while moves go to it; its clients go to the other node: no
//! acknowledged move is lost and every computer game gets its reply. Then PostgreSQL
//! itself restarts under play: the node reconnects and loses nothing acknowledged.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/pg-throwaway.sh");

/// The test's own PostgreSQL cluster, removed on drop.
struct Cluster {
    dir: PathBuf,
    url: String,
}

impl Cluster {
    fn start() -> Cluster {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "wuzi-nodes-pg-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = Command::new("bash")
            .arg(SCRIPT)
            .arg("stop")
            .arg(&dir)
            .status();
        let out = Command::new("bash")
            .arg(SCRIPT)
            .arg("start")
            .arg(&dir)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let admin = text
            .trim()
            .strip_prefix("export WUZI_TEST_POSTGRES=")
            .unwrap_or_else(|| {
                panic!(
                    "this test needs PostgreSQL (apt-get install postgresql): {text}{}",
                    String::from_utf8_lossy(&out.stderr)
                )
            });
        let status = Command::new("psql")
            .args([admin, "-qc", "CREATE DATABASE wuzi"])
            .status()
            .unwrap();
        assert!(status.success());
        let url = admin.replace("/postgres", "/wuzi");
        Cluster { dir, url }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(SCRIPT)
            .arg("stop")
            .arg(&self.dir)
            .status();
    }
}

/// The nodes, killed on drop (a failing test leaves no server behind).
struct Nodes([(Child, String); 2]);

impl Drop for Nodes {
    fn drop(&mut self) {
        for (child, _) in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A node: `wuzi serve` on `addr` (port 0: a free one) over the database `url`, and the
/// address it printed.
fn node(url: &str, addr: &str) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wuzi"))
        .args([
            "serve",
            "--addr",
            addr,
            // The restart makes every request of that moment fail, each logged: quiet.
            "--log-level",
            "off",
            "--workers",
            "1",
            "--db",
            url,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .trim_end_matches('/')
        .to_owned();
    (child, addr)
}

/// One HTTP request as `cookie`; `None` if the node cannot be reached or does not answer.
fn http(addr: &str, cookie: &str, method: &str, path: &str, body: &str) -> Option<(u16, Value)> {
    let mut s = TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(30))).ok()?;
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: x\r\nCookie: {cookie}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).ok()?;
    let mut answer = String::new();
    s.read_to_string(&mut answer).ok()?;
    let (head, json) = answer.split_once("\r\n\r\n")?;
    let status = head.split_whitespace().nth(1)?.parse().ok()?;
    Some((status, serde_json::from_str(json).unwrap_or(Value::Null)))
}

/// The first request of a new browser: its session cookie.
fn guest(addr: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    let body = r#"{"mode":"local"}"#;
    let req = format!(
        "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    answer
        .lines()
        .find_map(|l| {
            l.strip_prefix("set-cookie: ")
                .or_else(|| l.strip_prefix("Set-Cookie: "))
        })
        .and_then(|v| v.split(';').next())
        .expect("a session cookie")
        .to_owned()
}

/// Point `ply` of a game: a walk over the 15×15 board that makes no five.
fn point(ply: usize, taken: &[String]) -> String {
    let mut i = (ply * 193) % 225;
    loop {
        let name = format!("{}{}", (b'a' + (i % 15) as u8) as char, i / 15 + 1);
        if !taken.contains(&name) {
            return name;
        }
        i = (i + 1) % 225;
    }
}

struct Game {
    id: String,
    computer: bool,
    /// The node it is played on.
    on: usize,
    /// Moves acknowledged (200), in order, as stored after them.
    acked: Vec<String>,
    /// Over (the computer made five): nothing more to play.
    over: bool,
    /// The clock as the last acknowledgement showed it, and when that arrived.
    clock: Option<(Value, Instant)>,
}

fn names(g: &Value) -> Vec<String> {
    g["moves"]
        .as_array()
        .map(|m| {
            m.iter()
                .map(|m| m["name"].as_str().unwrap_or("").to_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// Plays the next move of `g` on `addr` (for a computer game, after its reply); whether
/// it was acknowledged.
fn step(g: &mut Game, addr: &str, cookie: &str) -> bool {
    try_step(g, addr, cookie).is_ok()
}

/// [`step`], with what was answered when the move was not acknowledged.
fn try_step(g: &mut Game, addr: &str, cookie: &str) -> Result<(), String> {
    let path = format!("/api/games/{}", g.id);
    if g.over {
        return Ok(());
    }
    if g.computer && g.acked.len() % 2 == 1 {
        // Wait for the computer's answer to our last move.
        let ply = g.acked.len();
        let now = match http(addr, cookie, "GET", &format!("{path}?wait_ply={ply}"), "") {
            Some((200, now)) => now,
            other => return Err(format!("waiting for the computer: {other:?}")),
        };
        if names(&now).len() % 2 == 1 {
            return Err(format!("no reply from the computer yet: {now}"));
        }
        g.acked = names(&now);
        if !now["result"].is_null() {
            g.over = true;
            return Ok(());
        }
    }
    let next = point(g.acked.len(), &g.acked);
    match http(
        addr,
        cookie,
        "POST",
        &format!("{path}/moves"),
        &format!(r#"{{"pos":"{next}"}}"#),
    ) {
        Some((200, after)) => {
            g.acked = names(&after);
            g.clock = Some((after["clock"].clone(), Instant::now()));
            Ok(())
        }
        other => {
            // As the page does after a failure: read what the server holds now (a move
            // whose commit was cut off may be stored though it was not acknowledged).
            if let Some((200, now)) = http(addr, cookie, "GET", &path, "") {
                g.acked = names(&now);
                g.over = !now["result"].is_null();
            }
            Err(format!("{next}: {other:?}"))
        }
    }
}

/// Plays the next move of `g`, trying again (as a person would) while it is refused.
fn play_on(g: &mut Game, addr: &str, cookie: &str) {
    let mut tries = 0;
    while let Err(e) = try_step(g, addr, cookie) {
        tries += 1;
        assert!(
            tries < 50,
            "game {} (computer: {}) does not go on: {e}",
            g.id,
            g.computer
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_node_killed_and_postgresql_restarted_lose_no_acknowledged_move() {
    let pg = Cluster::start();
    let mut nodes = Nodes([node(&pg.url, "127.0.0.1:0"), node(&pg.url, "127.0.0.1:0")]);
    let addrs = [nodes.0[0].1.clone(), nodes.0[1].1.clone()];
    let cookie = guest(&addrs[0]);
    // 100 games, alternately on each node; every fifth against the computer (level 1,
    // White).
    let mut games: Vec<Game> = (0..100)
        .map(|i| {
            let computer = i % 5 == 0;
            // The games between people have clocks (10 minutes a side).
            let body = if computer {
                r#"{"computer":{"player":"level1","color":"white"}}"#
            } else {
                r#"{"mode":"local","clock":{"kind":"side","initial_seconds":600}}"#
            };
            let (s, g) = http(&addrs[i % 2], &cookie, "POST", "/api/games", body).unwrap();
            assert_eq!(s, 201, "{g}");
            Game {
                id: g["id"].as_str().unwrap().to_owned(),
                computer,
                on: i % 2,
                acked: Vec::new(),
                over: false,
                clock: None,
            }
        })
        .collect();
    for _ in 0..3 {
        for g in &mut games {
            assert!(step(g, &addrs[g.on], &cookie), "{}", g.id);
        }
    }

    // Node 0 is killed while its clients send moves.
    let (killed, survivor) = (&addrs[0], &addrs[1]);
    let sent = Arc::new(AtomicUsize::new(0));
    let (mine, rest): (Vec<Game>, Vec<Game>) = games.into_iter().partition(|g| g.on == 0);
    games = rest;
    let player = {
        let (addr, cookie, sent) = (killed.clone(), cookie.clone(), Arc::clone(&sent));
        std::thread::spawn(move || {
            let mut mine = mine;
            for _ in 0..4 {
                for g in &mut mine {
                    step(g, &addr, &cookie);
                    sent.fetch_add(1, Ordering::Relaxed);
                }
            }
            mine
        })
    };
    while sent.load(Ordering::Relaxed) < 75 {
        std::thread::sleep(Duration::from_millis(5));
    }
    nodes.0[0].0.kill().unwrap();
    nodes.0[0].0.wait().unwrap();
    let mut moved = player.join().unwrap();
    games.append(&mut moved);
    let acknowledged: usize = games.iter().map(|g| g.acked.len()).sum();

    // Every client goes to the surviving node: what it was told is there.
    let mut present = 0;
    let mut charged = Vec::new();
    for g in &mut games {
        g.on = 1;
        let (s, now) = http(
            survivor,
            &cookie,
            "GET",
            &format!("/api/games/{}", g.id),
            "",
        )
        .expect("the surviving node answers");
        assert_eq!(s, 200, "{now}");
        let stored = names(&now);
        assert!(
            stored.starts_with(&g.acked),
            "game {}: acknowledged {:?}, stored {:?}",
            g.id,
            g.acked,
            stored
        );
        present += g.acked.len();
        // No clock is charged more than the time that passed since the last
        // acknowledgement (the other node was alive: no outage, the clock ran on), give
        // or take the answer's way back (250 ms).
        if let Some((before, at)) = g.clock.as_ref().filter(|_| stored == g.acked) {
            let passed = i64::try_from(at.elapsed().as_millis()).unwrap();
            for side in ["black", "white"] {
                let key = format!("{side}_ms");
                let (was, is) = (&before[&key], &now["clock"][&key]);
                let (Some(was), Some(is)) = (was.as_i64(), is.as_i64()) else {
                    continue;
                };
                if before["running"] == side {
                    assert!(
                        is >= was - passed - 250 && is <= was,
                        "game {}: {side} had {was} ms, has {is} ms after {passed} ms",
                        g.id
                    );
                    charged.push(was - is);
                } else {
                    assert_eq!(is, was, "game {}: {side}'s clock stood", g.id);
                }
            }
        }
        g.acked = stored;
    }
    charged.sort_unstable();
    assert!(!charged.is_empty(), "clocks were checked");
    // Every computer game gets its reply from the surviving node.
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut replies = 0;
    for g in games.iter_mut().filter(|g| g.computer) {
        while g.acked.len() % 2 == 1 {
            let (_, now) = http(
                survivor,
                &cookie,
                "GET",
                &format!("/api/games/{}?wait_ply={}", g.id, g.acked.len()),
                "",
            )
            .expect("the surviving node answers");
            g.acked = names(&now);
            assert!(
                Instant::now() < deadline,
                "no reply in game {}: {now}",
                g.id
            );
        }
        replies += 1;
    }
    eprintln!(
        "kill -9: {acknowledged} moves acknowledged in all, {present} of them present after the kill, {replies} of 20 computer games answered; {} clocks checked, charged {} to {} ms (no more than the time that passed)",
        charged.len(),
        charged[0],
        charged[charged.len() - 1]
    );
    assert_eq!(present, acknowledged);
    assert_eq!(replies, 20);
    // And every game goes on there. (A write of the killed node may still commit after
    // the kill; a client that read the game before that is refused as stale once.)
    for g in &mut games {
        play_on(g, survivor, &cookie);
    }

    // PostgreSQL restarts while moves go on: requests of that moment may fail (not
    // acknowledged), nothing acknowledged is lost, and the node recovers by itself.
    let before: usize = games.iter().map(|g| g.acked.len()).sum();
    let restarter = {
        let pg_dir = pg.dir.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            let ok = Command::new("bash")
                .arg(SCRIPT)
                .arg("restart")
                .arg(&pg_dir)
                .status()
                .unwrap();
            assert!(ok.success());
        })
    };
    let mut refused = 0;
    for _ in 0..2 {
        for g in &mut games {
            if !step(g, survivor, &cookie) {
                refused += 1;
            }
        }
    }
    restarter.join().unwrap();
    let mut after_restart = 0;
    let deadline = Instant::now() + Duration::from_secs(30);
    for g in &mut games {
        loop {
            match http(
                survivor,
                &cookie,
                "GET",
                &format!("/api/games/{}", g.id),
                "",
            ) {
                Some((200, now)) => {
                    let stored = names(&now);
                    assert!(stored.starts_with(&g.acked), "game {} lost a move", g.id);
                    after_restart += g.acked.len();
                    break;
                }
                other => {
                    assert!(
                        Instant::now() < deadline,
                        "the node did not recover: {other:?}"
                    );
                    std::thread::sleep(Duration::from_millis(200));
                }
            }
        }
    }
    // And it plays on.
    for g in &mut games {
        play_on(g, survivor, &cookie);
    }
    eprintln!(
        "PostgreSQL restart: {before} moves before, {after_restart} acknowledged and present after, {refused} requests refused meanwhile"
    );
    drop(nodes);
}

/// A free port on 127.0.0.1.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// nginx with docs/deploy/nginx.conf (its ports swapped for free ones), killed on drop.
struct Nginx(Child, PathBuf);

impl Drop for Nginx {
    fn drop(&mut self) {
        // SIGTERM: the master stops its workers (SIGKILL would leave them behind).
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(self.0.id().to_string())
            .status();
        let _ = self.0.wait();
        let _ = std::fs::remove_dir_all(&self.1);
    }
}

#[test]
fn the_documented_nginx_configuration_spreads_moves_and_sockets_over_two_nodes() {
    let pg = Cluster::start();
    let (p1, p2, front) = (free_port(), free_port(), free_port());
    let nodes = Nodes([
        node(&pg.url, &format!("127.0.0.1:{p1}")),
        node(&pg.url, &format!("127.0.0.1:{p2}")),
    ]);
    let conf = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/deploy/nginx.conf"
    ))
    .unwrap()
    .replace("127.0.0.1:8081", &format!("127.0.0.1:{p1}"))
    .replace("127.0.0.1:8082", &format!("127.0.0.1:{p2}"))
    .replace("127.0.0.1:8080", &format!("127.0.0.1:{front}"));
    let prefix = std::env::temp_dir().join(format!("wuzi-nginx-{}", std::process::id()));
    std::fs::create_dir_all(&prefix).unwrap();
    std::fs::write(prefix.join("nginx.conf"), conf).unwrap();
    let nginx = Command::new("nginx")
        .arg("-c")
        .arg(prefix.join("nginx.conf"))
        .arg("-p")
        .arg(&prefix)
        .spawn()
        .expect("nginx (apt-get install nginx-light; scripts/install-test-deps.sh does it)");
    let _nginx = Nginx(nginx, prefix);
    let addr = format!("127.0.0.1:{front}");
    let deadline = Instant::now() + Duration::from_secs(10);
    while TcpStream::connect(&addr).is_err() {
        assert!(Instant::now() < deadline, "nginx does not listen");
        std::thread::sleep(Duration::from_millis(50));
    }
    let cookie = guest(&addr);
    let (s, g) = http(&addr, &cookie, "POST", "/api/games", r#"{"mode":"local"}"#).unwrap();
    assert_eq!(s, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_owned();
    // Requests go to both nodes in turn; each move is played once, in order.
    let mut g = Game {
        id: id.clone(),
        computer: false,
        on: 0,
        acked: Vec::new(),
        over: false,
        clock: None,
    };
    for _ in 0..8 {
        play_on(&mut g, &addr, &cookie);
    }
    assert_eq!(g.acked.len(), 8);
    // Either node shows all of them (the one that did not play the last move as soon as
    // the notice reaches it: milliseconds).
    let deadline = Instant::now() + Duration::from_secs(5);
    for _ in 0..4 {
        loop {
            let (_, now) = http(&addr, &cookie, "GET", &format!("/api/games/{id}"), "").unwrap();
            if names(&now) == g.acked {
                break;
            }
            assert!(Instant::now() < deadline, "{now} against {:?}", g.acked);
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    // A game socket through the proxy: upgraded, and the game's state comes first.
    let mut ws = TcpStream::connect(&addr).unwrap();
    ws.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        ws,
        "GET /api/games/{id}/ws HTTP/1.1\r\nHost: x\r\nCookie: {cookie}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    )
    .unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&got).contains("\"type\":\"state\"") {
        let n = ws.read(&mut buf).unwrap();
        assert!(n > 0, "closed: {}", String::from_utf8_lossy(&got));
        got.extend_from_slice(&buf[..n]);
    }
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 101"), "{text}");
    drop(nodes);
}
