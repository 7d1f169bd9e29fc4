//! The server under load and hostile input: computer moves that wait for the engine,
//! fair engine use, request checks, ids, and clocks across an outage.

mod common;

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::{TempDb, TestApp, code};
use serde_json::{Value, json};
use wuzi_server::{EngineConfig, HubConfig};

fn one_worker() -> EngineConfig {
    EngineConfig {
        workers: 1,
        hash_mb: 4,
        queue: 2,
    }
}

/// A local game with a few stones, for hints.
async fn local_game(app: &TestApp) -> String {
    let g = app.create(json!({"mode": "local"})).await;
    let id = g["id"].as_str().unwrap().to_string();
    for m in ["h8", "i9", "j8", "h9"] {
        app.play(&id, m).await;
    }
    id
}

/// Issue 21, item 1: with the engine's queue full of hints, a computer move used to be
/// refused and dropped, and the game hung. It now waits its turn, the players are told
/// it is queued, its clock stands while it waits (a 1 s per-move clock survives a wait
/// of more than a second), and its recorded time is its search, not the wait.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computer_move_waits_for_a_busy_engine_and_is_never_lost() {
    let db = TempDb::new();
    let app = std::sync::Arc::new(TestApp::with_engine(
        &db,
        HubConfig::default(),
        one_worker(),
    ));
    let mut hints = Vec::new();
    for _ in 0..3 {
        let id = local_game(&app).await;
        let app = std::sync::Arc::clone(&app);
        hints.push(tokio::spawn(async move {
            app.post(&format!("/api/games/{id}/hint"), json!({"time_ms": 4000}))
                .await
        }));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // One hint searches and two wait: a fourth is refused. (Long hints: the one searching
    // is cut to half its time when the computer's move arrives, and the move must still be
    // waiting when the test looks, however slow the machine.)
    let busy = local_game(&app).await;
    let (s, e) = app
        .post(&format!("/api/games/{busy}/hint"), json!({"time_ms": 4000}))
        .await;
    assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{e}");
    let g = app
        .create(json!({
            "computer": {"player": "level1", "color": "white"},
            "clock": {"kind": "move", "seconds": 1}
        }))
        .await;
    let id = g["id"].as_str().unwrap();
    let g = app.play(id, "h8").await;
    assert_eq!(g["thinking"], true, "{g}");
    tokio::time::sleep(Duration::from_millis(100)).await;
    let g = app.game(id).await;
    assert!(
        g["queued"].as_u64().unwrap() > 0,
        "the move is shown as queued: {g}"
    );
    assert_eq!(g["clock"]["running"], Value::Null, "its clock stands: {g}");
    let g = app.wait_ply(id, 1).await;
    assert_eq!(g["ply"], 2, "the computer answered: {g}");
    assert!(
        g["result"].is_null(),
        "the wait did not cost it the game: {g}"
    );
    let thought = g["moves"][1]["time_ms"].as_u64().unwrap();
    assert!(
        thought < 1000,
        "its time is its search, not the wait: {thought} ms"
    );
    for h in hints {
        let (s, a) = h.await.unwrap();
        assert_eq!(s, StatusCode::OK, "{a}");
    }
}

/// Issue 21, item 3: one hint or analysis per game at a time (a new one replaces the
/// one in progress), and at most two in progress per client address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_work_is_limited_per_game_and_per_client() {
    let db = TempDb::new();
    let app = std::sync::Arc::new(TestApp::with_engine(
        &db,
        HubConfig::default(),
        EngineConfig {
            workers: 2,
            hash_mb: 4,
            queue: 8,
        },
    ));
    let a = local_game(&app).await;
    let b = local_game(&app).await;
    let c = local_game(&app).await;
    let ask = |id: String, ip: [u8; 4], ms: u64| {
        let app = std::sync::Arc::clone(&app);
        tokio::spawn(async move {
            app.post_from(
                ip,
                &format!("/api/games/{id}/analysis"),
                json!({"time_ms": ms}),
            )
            .await
        })
    };
    let first = ask(a.clone(), [10, 0, 0, 1], 3000);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let second = ask(b.clone(), [10, 0, 0, 1], 3000);
    tokio::time::sleep(Duration::from_millis(100)).await;
    // A third from the same address is refused; another address is served.
    let (s, e) = app
        .post_from(
            [10, 0, 0, 1],
            &format!("/api/games/{c}/analysis"),
            json!({"time_ms": 100}),
        )
        .await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{e}");
    assert_eq!(code(&e), "too_many_requests");
    // A new request for game a (from another address) replaces the one in progress.
    let (s, r) = app
        .post_from(
            [10, 0, 0, 2],
            &format!("/api/games/{a}/analysis"),
            json!({"time_ms": 100}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{r}");
    let (s, e) = first.await.unwrap();
    assert_eq!(s, StatusCode::CONFLICT, "the replaced request says so: {e}");
    let (s, r) = second.await.unwrap();
    assert_eq!(s, StatusCode::OK, "{r}");
    // Both of the first address's requests are done: it may ask again.
    let (s, r) = app
        .post_from(
            [10, 0, 0, 1],
            &format!("/api/games/{c}/analysis"),
            json!({"time_ms": 50}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{r}");
}

/// Issue 21, item 8: bodies must be JSON, and requests from other sites are refused;
/// neither changes anything.
#[tokio::test]
async fn cross_site_and_non_json_requests_are_refused() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let g = app.create(json!({"mode": "local"})).await;
    let id = g["id"].as_str().unwrap();
    app.play(id, "h8").await;
    let before = app.stored(id).await;
    let send = |path: String, ctype: Option<&str>, origin: Option<&str>, body: &str| {
        let mut r = Request::post(path).header(header::HOST, "127.0.0.1:8080");
        if let Some(t) = ctype {
            r = r.header(header::CONTENT_TYPE, t);
        }
        if let Some(o) = origin {
            r = r.header(header::ORIGIN, o);
        }
        r.body(Body::from(body.to_string())).unwrap()
    };
    for path in [
        "moves", "undo", "resign", "restart", "hint", "analysis", "stop",
    ] {
        let uri = format!("/api/games/{id}/{path}");
        let body = if path == "moves" {
            r#"{"pos":"a1"}"#
        } else {
            "{}"
        };
        let (s, e, _) = app
            .send(send(uri.clone(), Some("text/plain"), None, body))
            .await;
        assert_eq!(s, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{path}: {e}");
        let (s, e, _) = app.send(send(uri.clone(), None, None, body)).await;
        assert_eq!(s, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{path}: {e}");
        let (s, e, _) = app
            .send(send(
                uri.clone(),
                Some("application/json"),
                Some("http://evil.example"),
                body,
            ))
            .await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{path}: {e}");
        assert_eq!(code(&e), "cross_site");
        let (s, e, _) = app
            .send(send(uri, None, Some("http://evil.example"), ""))
            .await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{path}: {e}");
    }
    let (s, e, _) = app
        .send(send(
            "/api/games".into(),
            Some("text/plain"),
            None,
            r#"{"mode":"local"}"#,
        ))
        .await;
    assert_eq!(s, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{e}");
    assert_eq!(app.stored(id).await, before);
    // The page's own requests pass.
    let (s, g, _) = app
        .send(send(
            format!("/api/games/{id}/moves"),
            Some("application/json"),
            Some("http://127.0.0.1:8080"),
            r#"{"pos":"a1"}"#,
        ))
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
}

/// Issue 21, item 10: fields that do not belong are refused, not ignored.
#[tokio::test]
async fn setups_with_stray_or_conflicting_fields_are_refused() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    for (body, field) in [
        (json!({"clock": {"kind": "none", "x": 1}}), "clock"),
        (
            json!({"clock": {"kind": "move", "seconds": 5, "initial_seconds": 5}}),
            "clock",
        ),
        (
            json!({"theme": "rock", "seed": 9_007_199_254_740_993u64}),
            "seed",
        ),
        (
            json!({"computer": {"player": "level1", "color": "white", "seat": "first"}}),
            "computer",
        ),
    ] {
        let (s, e) = app.post("/api/games", body.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}: {e}");
        assert!(e["error"].as_str().unwrap().contains(field), "{body}: {e}");
    }
    assert_eq!(app.hub.store().count().await.unwrap(), 0);
    let (s, g) = app
        .post(
            "/api/games",
            json!({"theme": "rock", "seed": 9_007_199_254_740_992u64}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "2^53 itself is a seed: {g}");
}

/// Issue 21, item 6: a new game never overwrites a stored one, even under the same id.
#[tokio::test]
async fn a_taken_id_is_never_overwritten() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let g = app.create(json!({"mode": "local"})).await;
    let id = g["id"].as_str().unwrap();
    app.play(id, "h8").await;
    let stored = app.stored(id).await;
    let mut other = stored.clone();
    other.state.moves.clear();
    let e = app
        .hub
        .store()
        .insert(other, Default::default())
        .await
        .unwrap_err();
    assert!(matches!(e, wuzi_server::store::StoreError::Taken(_)), "{e}");
    assert_eq!(app.stored(id).await, stored);
}

/// Issue 23 (seats): a game's seats belong to the identity that made it. Another
/// identity (or none) gets 403 on every action, over HTTP and the WebSocket, nothing
/// changes, and it can still watch.
#[tokio::test]
async fn only_a_seats_owner_acts_for_it() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let g = app
        .create(json!({"computer": {"player": "level1", "color": "white"}}))
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    assert!(g["owners"]["first"].is_string(), "{g}");
    assert_eq!(
        g["owners"]["second"],
        Value::Null,
        "the computer's seat: {g}"
    );
    app.play(&id, "h8").await;
    let g = app.wait_ply(&id, 1).await;
    assert_eq!(g["ply"], 2);
    let before = app.stored(&id).await;
    let owner = app.cookie.lock().unwrap().clone().unwrap();
    // A stranger: another browser (a guest of its own) and a request without a cookie.
    let stranger = TestApp::on(&db);
    stranger.create(json!({"mode": "local"})).await;
    let other = stranger.cookie.lock().unwrap().clone().unwrap();
    assert_ne!(other, owner);
    let actions = [
        ("moves", json!({"pos": "a1"})),
        ("undo", json!({})),
        ("resign", json!({})),
        ("resign", json!({"color": "white"})),
        ("resign", json!({"color": "black"})),
        ("restart", json!({})),
        ("hint", json!({})),
        ("analysis", json!({})),
        ("stop", json!({})),
        ("opening", json!({"choice": "black"})),
    ];
    for cookie in [Some(other.as_str()), Some("wuzi_session=forged"), None] {
        for (path, body) in &actions {
            let mut req = Request::post(format!("/api/games/{id}/{path}"))
                .header(header::CONTENT_TYPE, "application/json");
            if let Some(c) = cookie {
                req = req.header(header::COOKIE, c);
            }
            let (s, e, _) = app
                .send_bare(req.body(Body::from(body.to_string())).unwrap())
                .await;
            assert_eq!(s, StatusCode::FORBIDDEN, "{path} {body} as {cookie:?}: {e}");
            assert_eq!(code(&e), "not_yours", "{path}: {e}");
        }
    }
    *app.cookie.lock().unwrap() = Some(owner.clone());
    assert_eq!(app.stored(&id).await, before, "nothing changed");
    // The owner cannot resign for the computer either.
    let (s, e) = app
        .post(
            &format!("/api/games/{id}/resign"),
            json!({"color": "white"}),
        )
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{e}");
    // Watching needs no seat.
    let (s, g) = stranger.get(&format!("/api/games/{id}")).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["ply"], 2);
    // The owner plays on.
    let g = app.play(&id, "a1").await;
    assert_eq!(g["ply"], 3);
}
