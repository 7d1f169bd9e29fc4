//! The HTTP API through the router (`oneshot`), on real SQLite files and the real engine.

mod common;

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::{TempDb, TestApp, code, moves};
use serde_json::{Value, json};

#[tokio::test]
async fn local_game_moves_and_illegal_moves_change_nothing() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let g = app.create(json!({"mode": "local"})).await;
    let id = g["id"].as_str().unwrap();
    assert_eq!(g["ply"], 0);
    assert_eq!(g["to_act"]["who"], "human");
    let g = app.play(id, "h8").await;
    assert_eq!(g["ply"], 1);
    assert_eq!(g["side_to_move"], "white");
    assert_eq!(
        g["moves"][0],
        json!({"x": 7, "y": 7, "name": "h8", "color": "black", "time_ms": g["moves"][0]["time_ms"]})
    );
    let (s, g2) = app
        .post(&format!("/api/games/{id}/moves"), json!({"x": 8, "y": 6}))
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(moves(&g2), ["h8", "i9"]);

    let before = app.game(id).await;
    for (body, status, want) in [
        (
            json!({"pos": "h8"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_move",
        ),
        (
            json!({"pos": "z99"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_move",
        ),
        (
            json!({"x": 15, "y": 0}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_move",
        ),
        (
            json!({"x": -1, "y": 0}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_move",
        ),
        (
            json!({"pos": "j10", "ply": 1}),
            StatusCode::CONFLICT,
            "stale",
        ),
        (json!({}), StatusCode::BAD_REQUEST, "bad_request"),
        (json!({"pos": 7}), StatusCode::BAD_REQUEST, "bad_request"),
        (
            json!({"pos": "j10", "colour": "black"}),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            json!({"pos": "j10", "x": 1, "y": 1}),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
    ] {
        let (s, e) = app
            .post(&format!("/api/games/{id}/moves"), body.clone())
            .await;
        assert_eq!(s, status, "{body}: {e}");
        assert_eq!(code(&e), want, "{body}: {e}");
        assert!(e["error"].as_str().is_some_and(|m| !m.is_empty()));
    }
    let after = app.game(id).await;
    assert_eq!(moves(&after), moves(&before));
    assert_eq!(after["updated_at"], before["updated_at"]);
}

#[tokio::test]
async fn bad_requests_get_4xx_json_and_change_nothing() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let count = || async { app.hub.store().count().await.unwrap() };
    for (body, want) in [
        ("{", StatusCode::BAD_REQUEST),
        ("[]", StatusCode::BAD_REQUEST),
        (r#"{"rule": "chess"}"#, StatusCode::BAD_REQUEST),
        (r#"{"size": 27}"#, StatusCode::BAD_REQUEST),
        (r#"{"size": 4}"#, StatusCode::BAD_REQUEST),
        (
            r#"{"size": {"width": 30, "height": 15}}"#,
            StatusCode::BAD_REQUEST,
        ),
        (r#"{"rule": "renju", "k": 6}"#, StatusCode::BAD_REQUEST),
        (r#"{"k": 9}"#, StatusCode::BAD_REQUEST),
        (r#"{"opening": "swap3"}"#, StatusCode::BAD_REQUEST),
        (
            r#"{"computer": {"player": "level11"}}"#,
            StatusCode::BAD_REQUEST,
        ),
        (
            r#"{"clock": {"kind": "side", "initial_seconds": -5}}"#,
            StatusCode::BAD_REQUEST,
        ),
        (
            r#"{"clock": {"kind": "move", "seconds": 0}}"#,
            StatusCode::BAD_REQUEST,
        ),
        (
            r#"{"theme": "rock", "rocks": 1000}"#,
            StatusCode::BAD_REQUEST,
        ),
        (r#"{"unknown": 1}"#, StatusCode::BAD_REQUEST),
    ] {
        let (s, e) = app.post_raw("/api/games", body.to_string()).await;
        assert_eq!(s, want, "{body}: {e}");
        assert!(e["error"].is_string(), "{body}: {e}");
    }
    // No content type.
    let (s, e, _) = app
        .send(
            Request::post("/api/games/import")
                .body(Body::from(r#"{"text": "h8"}"#))
                .unwrap(),
        )
        .await;
    assert_eq!(s, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{e}");
    // Too large.
    let big = json!({"text": "h8 ".repeat(40_000)}).to_string();
    let (s, e) = app.post_raw("/api/games/import", big).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{e}");
    assert_eq!(code(&e), "too_large");
    assert_eq!(count().await, 0);

    // Unknown ids and paths.
    for uri in [
        "/api/games/zzzzzzzzzz",
        "/api/games/not-an-id!",
        "/api/nothing",
    ] {
        let (s, e) = app.get(uri).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{uri}: {e}");
        assert_eq!(code(&e), "not_found");
    }
    let (s, _) = app
        .post("/api/games/zzzzzzzzzz/moves", json!({"pos": "h8"}))
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, e) = app.get("/api/games").await;
    assert_eq!(s, StatusCode::METHOD_NOT_ALLOWED, "{e}");
    assert!(e["error"].is_string(), "{e}");
    let (s, _) = app.get("/api/games/zzzzzzzzzz/record?format=psq").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert_eq!(count().await, 0);

    let g = app.create(json!({"mode": "local"})).await;
    let id = g["id"].as_str().unwrap();
    let (s, e) = app.get(&format!("/api/games/{id}/record?format=doc")).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    let (s, e) = app.get(&format!("/api/games/{id}?wait_ply=x")).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    // A plain GET on the WebSocket endpoint.
    let (s, e) = app.get(&format!("/api/games/{id}/ws")).await;
    assert!(s.is_client_error(), "{s} {e}");
    assert!(e["error"].is_string(), "{e}");
    let (s, e) = app
        .post(
            &format!("/api/games/{id}/opening"),
            json!({"choice": "black"}),
        )
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(code(&e), "wrong_phase");
    let (s, e) = app.post(&format!("/api/games/{id}/undo"), json!({})).await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(code(&e), "nothing_to_undo");
    assert_eq!(count().await, 1);
}

/// Black h8 i8 (row) and j10 j11 (column), White far away: j8 is a double-three.
const DOUBLE_THREE: [&str; 8] = ["h8", "a1", "i8", "a3", "j10", "a5", "j11", "a7"];

#[tokio::test]
async fn renju_forbidden_points_are_refused_or_lose_per_policy() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    for policy in ["refuse", "lose"] {
        let g = app
            .create(json!({"mode": "local", "rule": "renju", "forbidden_policy": policy}))
            .await;
        let id = g["id"].as_str().unwrap();
        let mut g = Value::Null;
        for m in DOUBLE_THREE {
            g = app.play(id, m).await;
        }
        assert!(
            g["forbidden"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["name"] == "j8" && f["kind"] == "33"),
            "{}",
            g["forbidden"]
        );
        let (s, after) = app
            .post(&format!("/api/games/{id}/moves"), json!({"pos": "j8"}))
            .await;
        if policy == "refuse" {
            assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{after}");
            assert_eq!(code(&after), "forbidden");
            assert_eq!(app.game(id).await["ply"], 8);
        } else {
            assert_eq!(s, StatusCode::OK, "{after}");
            assert_eq!(after["result"]["winner"], "white");
            assert_eq!(after["result"]["reason"], "forbidden");
            assert_eq!(after["result"]["kind"], "33");
            assert_eq!(after["result"]["point"]["name"], "j8");
            assert!(after["to_act"].is_null());
        }
    }
}

#[tokio::test]
async fn computer_replies_and_undo_takes_back_to_the_human_move() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    // Level 10 thinks for seconds (level 1 may answer before the next request), and `stop`
    // makes it move at once.
    let g = app
        .create(json!({"computer": {"player": "level10", "color": "white"}}))
        .await;
    let id = g["id"].as_str().unwrap();
    assert_eq!(g["players"], json!({"black": "human", "white": "computer"}));
    let g = app.play(id, "h8").await;
    assert_eq!(g["thinking"], true);
    assert_eq!(g["to_act"]["who"], "computer");
    // The human cannot move for the computer.
    let (s, e) = app
        .post(&format!("/api/games/{id}/moves"), json!({"pos": "a1"}))
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(code(&e), "not_your_turn");
    let (s, e) = app.post(&format!("/api/games/{id}/stop"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{e}");
    let g = app.wait_ply(id, 1).await;
    assert_eq!(g["ply"], 2, "{g}");
    assert_eq!(g["moves"][1]["color"], "white");
    assert_eq!(g["thinking"], false);

    // Undo after the reply: back to before the human's move.
    let (s, g) = app.post(&format!("/api/games/{id}/undo"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["ply"], 0);
    assert_eq!(g["to_act"]["who"], "human");

    // Undo while the computer thinks: its search is cancelled and never lands.
    app.play(id, "h8").await;
    let (s, g) = app
        .post(&format!("/api/games/{id}/undo"), Value::Null)
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["ply"], 0);
    assert_eq!(g["thinking"], false);
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(app.game(id).await["ply"], 0);
}

#[tokio::test]
async fn computer_as_black_moves_first_and_plays_every_level_kind() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    for player in ["level1", "classic-rank", "classic-tuple", "classic-greedy"] {
        let g = app
            .create(json!({"computer": {"player": player, "color": "black"}, "size": 13}))
            .await;
        let id = g["id"].as_str().unwrap();
        let g = app.wait_ply(id, 0).await;
        assert_eq!(g["ply"], 1, "{player}: {g}");
        assert_eq!(g["moves"][0]["color"], "black");
        assert_eq!(g["computer"]["color"], "black");
        assert_eq!(g["to_act"]["who"], "human");
    }
}

#[tokio::test]
async fn resign_ends_the_game_and_cannot_be_undone() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let g = app.create(json!({"mode": "local"})).await;
    let id = g["id"].as_str().unwrap();
    app.play(id, "h8").await;
    let (s, g) = app
        .post(
            &format!("/api/games/{id}/resign"),
            json!({"color": "white"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["result"]["winner"], "black");
    assert_eq!(g["result"]["reason"], "resignation");
    assert_eq!(g["result_text"], "black wins: white resigned");
    for (path, body) in [
        ("moves", json!({"pos": "a1"})),
        ("undo", json!({})),
        ("resign", json!({})),
        ("hint", json!({})),
    ] {
        let (s, e) = app.post(&format!("/api/games/{id}/{path}"), body).await;
        assert_eq!(s, StatusCode::CONFLICT, "{path}: {e}");
        assert_eq!(code(&e), "game_over", "{path}");
    }
    let (s, g) = app
        .post(&format!("/api/games/{id}/restart"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["ply"], 0);
    assert!(g["result"].is_null());
}

#[tokio::test]
async fn the_flag_falls_without_any_request() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let g = app
        .create(json!({
            "mode": "local",
            "clock": {"kind": "side", "initial_seconds": 0.4, "increment_seconds": 0}
        }))
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(g["clock"]["running"], Value::Null);
    let g = app.play(&id, "h8").await;
    assert_eq!(g["clock"]["running"], "white");
    assert_eq!(g["clock"]["black_ms"], 400);
    // Nobody asks anything; the server's clock watcher ends the game and stores it.
    tokio::time::sleep(Duration::from_millis(900)).await;
    let stored = app.stored(&id).await;
    let verdict = stored.state.verdict.expect("lost on time");
    assert_eq!(verdict.winner, Some(wuzi_rules::Color::Black));
    let g = app.game(&id).await;
    assert_eq!(g["result"]["reason"], "time");
    assert_eq!(g["clock"]["white_ms"], 0);
    assert_eq!(g["clock"]["running"], Value::Null);
    let (s, e) = app
        .post(&format!("/api/games/{id}/moves"), json!({"pos": "a1"}))
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
}

#[tokio::test]
async fn a_move_clock_loses_the_computer_nothing_but_a_slow_human_loses() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let g = app
        .create(json!({
            "computer": {"player": "level1", "color": "white"},
            "clock": {"kind": "move", "seconds": 1}
        }))
        .await;
    let id = g["id"].as_str().unwrap();
    app.play(id, "h8").await;
    let g = app.wait_ply(id, 1).await;
    assert_eq!(
        g["ply"], 2,
        "the computer moves within its per-move limit: {g}"
    );
    assert!(g["result"].is_null(), "{g}");
    assert_eq!(g["clock"]["running"], "black");
    let g = app.wait_ply(id, 2).await;
    assert_eq!(g["result"]["reason"], "time", "{g}");
    assert_eq!(g["result"]["winner"], "white");
}

#[tokio::test]
async fn records_download_and_import_roundtrip() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let g = app
        .create(json!({"mode": "local", "rule": "standard"}))
        .await;
    let id = g["id"].as_str().unwrap();
    let line = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"];
    let mut g = Value::Null;
    for m in line {
        g = app.play(id, m).await;
    }
    assert_eq!(g["result"]["reason"], "five");
    assert_eq!(g["result"]["cells"].as_array().unwrap().len(), 5);
    for format in ["psq", "sgf", "txt", "json", "pos"] {
        let (s, file, headers) = app
            .send(
                Request::get(format!("/api/games/{id}/record?format={format}"))
                    .body(Body::empty())
                    .unwrap(),
            )
            .await;
        assert_eq!(s, StatusCode::OK, "{format}: {file}");
        let disposition = headers[header::CONTENT_DISPOSITION].to_str().unwrap();
        assert!(
            disposition.starts_with("attachment; filename=\"wuzi-"),
            "{disposition}"
        );
        let text = match file {
            Value::String(t) => t,
            other => other.to_string(),
        };
        let mut req = json!({"text": text, "format": format});
        if matches!(format, "psq" | "pos") {
            req["rule"] = json!("standard");
        }
        let (s, back) = app.post("/api/games/import", req).await;
        assert_eq!(s, StatusCode::CREATED, "{format}: {back}");
        assert_eq!(moves(&back), line, "{format}");
        assert_eq!(back["config"]["rule"], "standard", "{format}");
        assert_eq!(back["result"]["reason"], "five", "{format}");
        assert_ne!(back["id"], g["id"]);
    }
}

#[tokio::test]
async fn import_continues_from_any_move_and_refuses_bad_records() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let (s, g) = app
        .post(
            "/api/games/import",
            json!({"text": "h8i9j10k11", "ply": 2, "rule": "renju"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    assert_eq!(moves(&g), ["h8", "i9"]);
    assert_eq!(g["mode"], "local");
    let id = g["id"].as_str().unwrap();
    let g = app.play(id, "a1").await;
    assert_eq!(moves(&g), ["h8", "i9", "a1"]);

    // Top-down rows: "h8" on 15x15 is the same either way; "a1" is a15.
    let (s, g) = app
        .post(
            "/api/games/import",
            json!({"text": "a1", "format": "pos", "row_order": "top-down"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    assert_eq!(moves(&g), ["a15"]);

    // Against the computer: it moves at once when it is to move.
    let (s, g) = app
        .post(
            "/api/games/import",
            json!({"text": "h8", "mode": "computer", "computer": {"player": "level1", "color": "white"}}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    let g = app.wait_ply(g["id"].as_str().unwrap(), 1).await;
    assert_eq!(g["ply"], 2);

    let count = app.hub.store().count().await.unwrap();
    for bad in [
        json!({"text": "h8 h8"}),
        json!({"text": "h8 z9"}),
        json!({"text": "(;FF[4]GM[4]SZ[15];B[hh];W[hh])", "format": "sgf"}),
        json!({"text": "{\"config\": 5}", "format": "json"}),
        json!({"text": "Piskvorky 15x15, 11:11, 0\n99,99,0\n", "format": "psq"}),
        json!({"text": "h8 i9", "ply": 5}),
        json!({"text": "h8", "format": "docx"}),
        json!({"text": "h8", "row_order": "sideways"}),
    ] {
        let (s, e) = app.post("/api/games/import", bad.clone()).await;
        assert!(s.is_client_error(), "{bad}: {s} {e}");
        assert!(e["error"].is_string(), "{bad}: {e}");
    }
    assert_eq!(app.hub.store().count().await.unwrap(), count);
}

#[tokio::test]
async fn games_survive_a_restart_and_continue() {
    let db = TempDb::new();
    let id;
    let cookie;
    {
        let app = TestApp::on(&db);
        let g = app
            .create(json!({"mode": "local", "rule": "renju", "theme": "rock", "seed": 42}))
            .await;
        id = g["id"].as_str().unwrap().to_string();
        assert!(!g["walls"].as_array().unwrap().is_empty());
        app.play(&id, "h8").await;
        app.play(&id, "i9").await;
        app.hub.close();
        cookie = app.cookie.lock().unwrap().clone();
    }
    // The same browser (its session cookie) after the restart.
    let app = TestApp::on(&db);
    *app.cookie.lock().unwrap() = cookie;
    let g = app.game(&id).await;
    assert_eq!(moves(&g), ["h8", "i9"]);
    assert_eq!(g["config"]["theme"], "rock");
    assert_eq!(g["config"]["seed"], 42);
    let g = app.play(&id, "j10").await;
    assert_eq!(g["ply"], 3);

    // The same seed gives the same layout in a new game.
    let again = app
        .create(json!({"mode": "local", "rule": "renju", "theme": "rock", "seed": 42}))
        .await;
    assert_eq!(again["walls"], g["walls"]);
}

#[tokio::test]
async fn an_unfinished_computer_game_resumes_after_a_restart() {
    let db = TempDb::new();
    let id;
    {
        let app = TestApp::on(&db);
        let g = app
            .create(json!({"computer": {"player": "level1", "color": "white"}}))
            .await;
        id = g["id"].as_str().unwrap().to_string();
        app.play(&id, "h8").await;
        // Stop before the computer answers: the search is cancelled with the hub.
        app.hub.close();
    }
    let app = TestApp::on(&db);
    let g = app.wait_ply(&id, 1).await;
    assert_eq!(g["ply"], 2, "{g}");
}

#[tokio::test]
async fn swap2_against_the_computer() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    // The computer is the first seat: it places three stones, then the human chooses.
    let g = app
        .create(json!({"opening": "swap2", "computer": {"player": "level1", "color": "black"}}))
        .await;
    let id = g["id"].as_str().unwrap();
    assert_eq!(g["opening"]["phase"], "place");
    assert!(g["players"]["black"].is_null());
    let g = app.wait_ply(id, 2).await;
    assert_eq!(g["ply"], 3, "{g}");
    assert_eq!(g["opening"]["phase"], "choose");
    assert_eq!(g["opening"]["options"], json!(["black", "white", "place2"]));
    assert_eq!(
        g["to_act"],
        json!({"seat": "second", "who": "human", "action": "choose"})
    );
    let (s, e) = app
        .post(&format!("/api/games/{id}/moves"), json!({"pos": "a1"}))
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(code(&e), "wrong_phase");
    let (s, g) = app
        .post(
            &format!("/api/games/{id}/opening"),
            json!({"choice": "black"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["players"], json!({"black": "human", "white": "computer"}));
    assert_eq!(g["opening"]["phase"], "done");
    // The computer, now White, plays move 4.
    let g = app.wait_ply(id, 3).await;
    assert_eq!(g["ply"], 4, "{g}");
    assert_eq!(g["moves"][3]["color"], "white");

    // The human is the first seat: the computer chooses after three stones.
    let g = app
        .create(json!({"opening": "swap", "computer": {"player": "level1", "color": "white"}}))
        .await;
    let id = g["id"].as_str().unwrap();
    for m in ["h8", "h9", "j8"] {
        app.play(id, m).await;
    }
    let g = app.wait_ply(id, 2).await;
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let mut g = g;
    while g["opening"]["phase"] != "done" && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
        g = app.game(id).await;
    }
    assert_eq!(g["opening"]["phase"], "done", "{g}");
    assert!(g["computer"]["color"].is_string());
}

#[tokio::test]
async fn hint_and_analysis_give_a_move() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let g = app.create(json!({"mode": "local"})).await;
    let id = g["id"].as_str().unwrap();
    // Black has an open four: the hint must complete the five.
    for m in ["h8", "a1", "i8", "a3", "j8", "a5", "k8", "a7"] {
        app.play(id, m).await;
    }
    let (s, a) = app
        .post(&format!("/api/games/{id}/hint"), json!({"time_ms": 200}))
        .await;
    assert_eq!(s, StatusCode::OK, "{a}");
    let best = a["best"]["name"].as_str().unwrap();
    assert!(best == "g8" || best == "l8", "{a}");
    assert_eq!(a["score"]["kind"], "win", "{a}");
    assert!(a["black_win_probability"].as_f64().unwrap() > 0.9);
    let (s, a) = app
        .post(
            &format!("/api/games/{id}/analysis"),
            json!({"time_ms": 100}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{a}");
    assert!(a["pv"].as_array().is_some_and(|pv| !pv.is_empty()));
    let (s, _) = app
        .post(&format!("/api/games/{id}/hint"), json!({"time_ms": "soon"}))
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    // Hints change nothing.
    assert_eq!(app.game(id).await["ply"], 8);
}

#[tokio::test]
async fn meta_routes_and_the_page() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let (s, h) = app.get("/api/health").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(h["status"], "ok");
    let (s, p) = app.get("/api/players").await;
    assert_eq!(s, StatusCode::OK);
    let ids: Vec<&str> = p
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"level1") && ids.contains(&"level10") && ids.contains(&"classic-rank"));
    let (s, doc) = app.get("/api/openapi.json").await;
    assert_eq!(s, StatusCode::OK);
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    // Every route of the router is documented.
    let paths = doc["paths"].as_object().unwrap();
    for p in [
        "/api/games",
        "/api/games/import",
        "/api/games/{id}",
        "/api/games/{id}/moves",
        "/api/games/{id}/undo",
        "/api/games/{id}/resign",
        "/api/games/{id}/restart",
        "/api/games/{id}/opening",
        "/api/games/{id}/hint",
        "/api/games/{id}/analysis",
        "/api/games/{id}/stop",
        "/api/games/{id}/record",
        "/api/games/{id}/ws",
        "/api/health",
        "/api/players",
        "/api/openapi.json",
        "/api/me",
        "/api/account/register",
        "/api/account/login",
        "/api/account/logout",
        "/api/account/logout-all",
        "/api/account/password",
        "/api/account",
        "/api/account/tokens",
        "/api/account/tokens/{id}",
        "/api/profiles/{identity}",
        "/api/profiles/{identity}/games",
        "/api/profiles/{identity}/archive",
        "/api/profiles/{identity}/ratings/{pool}",
        "/api/leaderboard",
        "/api/leaderboard/{pool}",
        "/api/games/{id}/rating",
        "/api/seeks",
        "/api/seeks/{id}",
        "/api/seeks/{id}/accept",
        "/api/pairing",
        "/api/pairing/{preset}",
        "/api/challenges",
        "/api/challenges/{id}",
        "/api/challenges/{id}/accept",
        "/api/challenges/{id}/decline",
        "/api/lobby/ws",
        "/api/games/{id}/offer",
        "/api/games/{id}/abort",
        "/api/games/{id}/claim",
        "/api/games/{id}/chat",
        "/api/live",
        "/api/analysis/position",
        "/api/analysis/stream",
        "/api/analysis/solve",
        "/api/analysis/sgf",
        "/api/analysis/tree",
        "/api/games/{id}/review",
        "/api/puzzles",
        "/api/puzzles/next",
        "/api/puzzles/batch",
        "/api/puzzles/{id}",
        "/api/puzzles/{id}/attempt",
        "/api/studies/{key}",
        "/api/games/{id}/computer-move",
        "/api/analysis/renlib",
    ] {
        assert!(paths.contains_key(p), "{p} is not in openapi.json");
    }
    let (s, page, headers) = app
        .send(Request::get("/").body(Body::empty()).unwrap())
        .await;
    assert_eq!(s, StatusCode::OK);
    assert!(
        headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    assert!(page.as_str().unwrap().contains("<html"));
}

#[tokio::test]
async fn local_undo_to_any_ply() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let g = app.create(json!({"mode": "local"})).await;
    let id = g["id"].as_str().unwrap();
    for m in ["h8", "i9", "j10", "k11", "l12"] {
        app.play(id, m).await;
    }
    let (s, g) = app.post(&format!("/api/games/{id}/undo"), json!({})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["ply"], 4);
    let (s, g) = app
        .post(&format!("/api/games/{id}/undo"), json!({"to_ply": 1}))
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(moves(&g), ["h8"]);
    let (s, e) = app
        .post(&format!("/api/games/{id}/undo"), json!({"to_ply": 3}))
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
}

#[tokio::test]
async fn stop_makes_a_thinking_computer_move_now() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let g = app
        .create(json!({"computer": {"player": "level10", "color": "white"}}))
        .await;
    let id = g["id"].as_str().unwrap();
    app.play(id, "h8").await;
    let started = std::time::Instant::now();
    let (s, g) = app.post(&format!("/api/games/{id}/stop"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    let g = app.wait_ply(id, 1).await;
    assert_eq!(g["ply"], 2, "{g}");
    // Level 10 takes 5 s per move unless stopped.
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "the computer did not stop: {:?}",
        started.elapsed()
    );
    let (s, _) = app.post("/api/games/zzzzzzzzzz/stop", json!({})).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn an_abandoned_game_stops_thinking_and_resumes_when_opened() {
    let db = TempDb::new();
    let app = TestApp::with(
        &db,
        wuzi_server::HubConfig {
            idle: Duration::ZERO,
            sweep_every: Duration::from_secs(3600),
            untouched: Duration::from_secs(24 * 3600),
            ..Default::default()
        },
    );
    let g = app
        .create(json!({"computer": {"player": "level10", "color": "white"}}))
        .await;
    let id = g["id"].as_str().unwrap();
    let g = app.play(id, "h8").await;
    assert_eq!(g["thinking"], true);
    assert_eq!(app.hub.loaded(), 1);
    tokio::time::sleep(Duration::from_millis(20)).await;
    app.hub.sweep();
    assert_eq!(app.hub.loaded(), 0, "the idle game stays in memory");
    // The cancelled search never lands in the stored game.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let stored = app.stored(id).await;
    assert_eq!(stored.state.moves.len(), 1);
    // Opening it again resumes the computer's search.
    let g = app.game(id).await;
    assert_eq!(g["ply"], 1);
    assert_eq!(g["thinking"], true);
    app.post(&format!("/api/games/{id}/stop"), json!({})).await;
    assert_eq!(app.wait_ply(id, 1).await["ply"], 2);
}

#[tokio::test]
async fn themes_change_the_board() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let g = app
        .create(json!({"mode": "local", "theme": "ocean", "seed": 7}))
        .await;
    assert_eq!(g["config"]["theme"], "ocean");
    assert_eq!(g["bubbles"].as_array().unwrap().len(), 10);
    assert_eq!(g["bubble_target"], 7);
    assert_eq!(g["bubbles_held"], json!({"black": 0, "white": 0}));
    let id = g["id"].as_str().unwrap();
    let bubble = g["bubbles"][0]["name"].as_str().unwrap().to_string();
    let g = app.play(id, &bubble).await;
    assert!(g["bubbles_held"]["black"].as_u64().unwrap() >= 1, "{g}");

    let g = app
        .create(json!({"mode": "local", "theme": "rock", "seed": 3, "rocks": 12, "size": 13}))
        .await;
    let walls = g["walls"].as_array().unwrap();
    assert_eq!(walls.len(), 12);
    let id = g["id"].as_str().unwrap();
    let wall = walls[0]["name"].as_str().unwrap();
    let (s, e) = app
        .post(&format!("/api/games/{id}/moves"), json!({"pos": wall}))
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(e["error"].as_str().unwrap().contains("wall"), "{e}");
}

#[tokio::test]
async fn the_computer_plays_every_rule_size_and_theme() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    for setup in [
        json!({"rule": "standard", "size": 13}),
        json!({"rule": "renju", "size": 15}),
        json!({"rule": "caro", "size": 20, "k": 5}),
        json!({"rule": "freestyle", "size": {"width": 26, "height": 7}, "k": 4}),
        json!({"rule": "freestyle", "size": 5, "k": 4}),
        json!({"rule": "standard", "size": 19, "k": 6, "theme": "rock", "seed": 5}),
        json!({"rule": "renju", "theme": "ocean", "seed": 9}),
    ] {
        let mut req = setup.clone();
        req["computer"] = json!({"player": "level3", "color": "black"});
        let g = app.create(req).await;
        let id = g["id"].as_str().unwrap();
        let mut g = app.wait_ply(id, 0).await;
        assert_eq!(g["ply"], 1, "{setup}: {g}");
        for _ in 0..3 {
            if !g["result"].is_null() {
                break;
            }
            // The human plays the first free point in reading order that is allowed.
            let width = g["config"]["size"]["width"].as_u64().unwrap();
            let height = g["config"]["size"]["height"].as_u64().unwrap();
            let taken: Vec<(u64, u64)> = g["moves"]
                .as_array()
                .unwrap()
                .iter()
                .chain(g["walls"].as_array().unwrap())
                .map(|m| (m["x"].as_u64().unwrap(), m["y"].as_u64().unwrap()))
                .collect();
            let (x, y) = (0..height)
                .flat_map(|y| (0..width).map(move |x| (x, y)))
                .find(|p| !taken.contains(p))
                .unwrap();
            let (s, after) = app
                .post(&format!("/api/games/{id}/moves"), json!({"x": x, "y": y}))
                .await;
            assert_eq!(s, StatusCode::OK, "{setup}: {after}");
            let ply = after["ply"].as_u64().unwrap() as usize;
            g = if after["result"].is_null() {
                app.wait_ply(id, ply).await
            } else {
                after
            };
            assert!(
                g["ply"].as_u64().unwrap() as usize > ply || !g["result"].is_null(),
                "{setup}: the computer did not answer: {g}"
            );
        }
    }
}

/// Issue 22, item 23: every error names the field and what is allowed, in one style;
/// no framework wording, no "1 stones".
#[tokio::test]
async fn error_texts_name_the_field_and_what_is_allowed() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    for (body, want) in [
        (
            r#"{"size": -5}"#,
            "size: must be a whole number from 5 to 26, not -5",
        ),
        (
            r#"{"size": 99999999999999999999}"#,
            "size: must be a whole number from 5 to 26, not a number too large",
        ),
        (
            r#"{"size": {"width": -1, "height": 15}}"#,
            "size.width: must be a whole number from 5 to 26, not -1",
        ),
        (r#"{"size": {"width": 15}}"#, "size.height: missing"),
        (
            r#"{"k": -1}"#,
            "k: must be a whole number of stones in a row",
        ),
        (r#"{"k": 9}"#, "freestyle does not support 9 in a row"),
        (
            r#"{"computer": {"player": 5}}"#,
            "cannot read the JSON body: computer.player",
        ),
        ("{", "cannot read the JSON body: EOF"),
    ] {
        let (s, e) = app.post_raw("/api/games", body.to_string()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}: {e}");
        let text = e["error"].as_str().unwrap();
        assert!(text.starts_with(want), "{body}: {text}");
        assert!(!text.contains("Failed to"), "{body}: {text}");
    }
    let g = app.create(json!({"mode": "local"})).await;
    let id = g["id"].as_str().unwrap();
    app.play(id, "h8").await;
    let (_, e) = app.get(&format!("/api/games/{id}?wait_ply=x")).await;
    let text = e["error"].as_str().unwrap();
    assert!(
        text.starts_with("query: wait_ply: must be a whole number"),
        "{text}"
    );
    let (_, e) = app
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"pos": "a1", "ply": 3}),
        )
        .await;
    assert_eq!(e["error"], "ply: the game has 1 stone, not 3; reload it");
    let (s, e) = app
        .post(&format!("/api/games/{id}/undo"), json!({"to_ply": 99999}))
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(
        e["error"],
        "to_ply: the game has 1 stone; give a number below it"
    );
    // One wording for an unknown game, however the id is wrong.
    let (_, a) = app.get("/api/games/zzzzzzzzzz").await;
    let (_, b) = app.get("/api/games/x").await;
    assert_eq!(a["error"], r#"no game with id "zzzzzzzzzz""#);
    assert_eq!(b["error"], r#"no game with id "x""#);
}

/// Issue 22, item 13: games made and never played in do not pile up: after a day
/// untouched they are deleted; games with a stone stay.
#[tokio::test]
async fn untouched_empty_games_are_deleted_after_a_while() {
    let db = TempDb::new();
    let app = TestApp::with(
        &db,
        wuzi_server::HubConfig {
            untouched: Duration::ZERO,
            idle: Duration::ZERO,
            ..wuzi_server::HubConfig::default()
        },
    );
    let empty = app.create(json!({"mode": "local"})).await;
    let empty_id = empty["id"].as_str().unwrap();
    let played = app.create(json!({"mode": "local"})).await;
    let played_id = played["id"].as_str().unwrap();
    app.play(played_id, "h8").await;
    tokio::time::sleep(Duration::from_millis(5)).await;
    // A game in memory (someone has it open) stays.
    app.hub.delete_untouched().await;
    assert_eq!(app.hub.store().count().await.unwrap(), 2);
    // Out of memory, the empty one goes; the played one stays.
    app.hub.sweep();
    assert_eq!(app.hub.loaded(), 0);
    app.hub.delete_untouched().await;
    assert_eq!(app.hub.store().count().await.unwrap(), 1);
    assert_eq!(app.stored(played_id).await.state.moves.len(), 1);
    let (s, _) = app.get(&format!("/api/games/{empty_id}")).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}
