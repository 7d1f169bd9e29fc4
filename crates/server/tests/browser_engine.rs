//! Issue 27, item 11: the computer in the browser. An unrated game against the computer
//! may have the person's page search the computer's moves and send them
//! (`POST /api/games/{id}/computer-move`); the server checks and records them and
//! searches none itself. Only the person who owns the game's human seat may send them,
//! only in such a game, on the computer's turn, for the position on the board, and only
//! legal points: everything else is a 4xx and changes nothing.

mod common;

use axum::http::StatusCode;
use common::{TempDb, TestApp, code, moves};
use serde_json::{Value, json};

fn in_browser(color: &str) -> Value {
    json!({
        "rule": "renju",
        "computer": {"player": "level10", "color": color, "in_browser": true}
    })
}

async fn computer_move(app: &TestApp, id: &str, body: Value) -> (StatusCode, Value) {
    app.post(&format!("/api/games/{id}/computer-move"), body)
        .await
}

/// Sends a refused computer move and checks that the game did not change.
async fn refused(
    app: &TestApp,
    owner: &TestApp,
    id: &str,
    body: Value,
    status: StatusCode,
    want: &str,
) {
    let before = owner.stored(id).await;
    let (s, e) = computer_move(app, id, body.clone()).await;
    assert_eq!(s, status, "{body}: {e}");
    assert_eq!(code(&e), want, "{body}: {e}");
    assert!(e["error"].as_str().is_some_and(|m| !m.is_empty()), "{e}");
    let after = owner.stored(id).await;
    assert_eq!(after.state, before.state, "{body}: nothing changed");
    assert_eq!(after.revision, before.revision, "{body}: nothing written");
}

#[tokio::test]
async fn the_owner_sends_the_computers_moves_and_the_server_searches_none() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    // The computer is Black: it owes the first move at once.
    let g = app.create(in_browser("black")).await;
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(g["computer"]["in_browser"], true, "{g}");
    assert_eq!(g["to_act"]["who"], "computer");
    assert_eq!(g["thinking"], false, "the server does not think: {g}");

    // Another person (another cookie) may not send it, nor may anyone without a session.
    let other = app.client();
    let (s, _) = other.get("/api/me").await;
    assert_eq!(s, StatusCode::OK);
    refused(
        &other,
        &app,
        &id,
        json!({"pos": "h8", "ply": 0}),
        StatusCode::FORBIDDEN,
        "not_yours",
    )
    .await;
    let bare = app.client();
    refused(
        &bare,
        &app,
        &id,
        json!({"pos": "h8", "ply": 0}),
        StatusCode::FORBIDDEN,
        "not_yours",
    )
    .await;

    // The owner, with bad requests: all refused, nothing changes.
    for (body, status, want) in [
        (
            json!({"pos": "h8", "ply": 3}),
            StatusCode::CONFLICT,
            "stale",
        ),
        (
            json!({"pos": "z99", "ply": 0}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_move",
        ),
        (
            json!({"x": 15, "y": 0, "ply": 0}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_move",
        ),
        (json!({"pos": "h8"}), StatusCode::BAD_REQUEST, "bad_request"),
        (json!({"ply": 0}), StatusCode::BAD_REQUEST, "bad_request"),
        (
            json!({"pos": "h8", "ply": 0, "color": "black"}),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            json!({"pos": "h8", "ply": -1}),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
    ] {
        refused(&app, &app, &id, body, status, want).await;
    }

    // The owner sends it: it is the computer's move.
    let (s, g) = computer_move(&app, &id, json!({"pos": "h8", "ply": 0})).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(moves(&g), ["h8"]);
    assert_eq!(g["moves"][0]["color"], "black");
    assert_eq!(g["to_act"]["who"], "human");
    // The same again (a retry, or a second tab) is stale; a computer move on the person's
    // turn is refused.
    refused(
        &app,
        &app,
        &id,
        json!({"pos": "h8", "ply": 0}),
        StatusCode::CONFLICT,
        "stale",
    )
    .await;
    refused(
        &app,
        &app,
        &id,
        json!({"pos": "j10", "ply": 1}),
        StatusCode::CONFLICT,
        "not_your_turn",
    )
    .await;
    // Nor may the person play the computer's stones through the ordinary move.
    app.play(&id, "a1").await;
    let (s, e) = app
        .post(&format!("/api/games/{id}/moves"), json!({"pos": "g8"}))
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(code(&e), "not_your_turn");

    // Black (the computer) builds a double three at i8 under renju: g8 h8 + i9 i10.
    for (black, white) in [("g8", "a3"), ("i9", "a5"), ("i10", "a7")] {
        let ply = app.game(&id).await["ply"].as_u64().unwrap();
        let (s, g) = computer_move(&app, &id, json!({"pos": black, "ply": ply})).await;
        assert_eq!(s, StatusCode::OK, "{black}: {g}");
        app.play(&id, white).await;
    }
    let g = app.game(&id).await;
    assert!(
        g["forbidden"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["name"] == "i8"),
        "i8 is forbidden for Black: {g}"
    );
    // Occupied and forbidden points are refused for the computer too.
    refused(
        &app,
        &app,
        &id,
        json!({"pos": "h8", "ply": 8}),
        StatusCode::UNPROCESSABLE_ENTITY,
        "illegal_move",
    )
    .await;
    refused(
        &app,
        &app,
        &id,
        json!({"pos": "i8", "ply": 8}),
        StatusCode::UNPROCESSABLE_ENTITY,
        "forbidden",
    )
    .await;
    let (s, g) = computer_move(&app, &id, json!({"x": 2, "y": 2, "ply": 8})).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(moves(&g).last().unwrap(), "c13");

    // Undo and restart work as in any unrated game; after a restart the computer (Black)
    // is to move again, and still the server does not search.
    let (s, g) = app
        .post(&format!("/api/games/{id}/restart"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["to_act"]["who"], "computer");
    assert_eq!(g["thinking"], false);

    // Not one search for this game on the server, and the store owes no computer job.
    assert_eq!(app.hub.computer_searches(), 0);
    let (_, health) = app.get("/api/health").await;
    assert_eq!(health["computer_searches"], 0, "{health}");
    let stored = app.stored(&id).await;
    assert!(stored.setup.computer.unwrap().in_browser);
}

#[tokio::test]
async fn only_an_unrated_free_clockless_game_may_have_its_computer_in_the_browser() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let clock = json!({"kind": "side", "initial_seconds": 60, "increment_seconds": 0});
    for (body, why) in [
        (
            json!({"computer": {"player": "level1", "color": "white", "in_browser": true}, "clock": clock, "rated": true}),
            "rated",
        ),
        (
            json!({"computer": {"player": "level1", "color": "white", "in_browser": true}, "clock": clock}),
            "clock",
        ),
        (
            json!({"computer": {"player": "level1", "color": "white", "in_browser": true}, "opening": "swap2"}),
            "opening",
        ),
        (
            json!({"computer": {"player": "level1", "in_browser": "yes"}}),
            "in_browser",
        ),
    ] {
        let (s, e) = app.post("/api/games", body.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}: {e}");
        assert!(e["error"].as_str().unwrap().contains(why), "{body}: {e}");
    }
    let (_, health) = app.get("/api/health").await;
    assert_eq!(health["computer_searches"], 0, "no game was made: {health}");
}

#[tokio::test]
async fn a_game_whose_computer_plays_on_the_server_takes_no_move_from_a_page() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    // Unrated, computer Black on the server: it searches its first move itself.
    let g = app
        .create(json!({"computer": {"player": "level1", "color": "black"}}))
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(g["computer"]["in_browser"], false);
    let g = app.wait_ply(&id, 0).await;
    assert_eq!(g["ply"], 1, "{g}");
    assert!(app.hub.computer_searches() >= 1);
    app.play(&id, "a1").await;
    // Whether or not its search has answered yet, a move from the page is refused.
    let (s, e) = computer_move(&app, &id, json!({"pos": "j10", "ply": 2})).await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{e}");
    assert_eq!(code(&e), "not_yours");

    // A rated game (the computer on the server, always): refused.
    let g = app
        .create(json!({
            "computer": {"player": "level1", "color": "white"},
            "clock": {"kind": "side", "initial_seconds": 60, "increment_seconds": 0},
            "rated": true
        }))
        .await;
    let rid = g["id"].as_str().unwrap().to_string();
    app.play(&rid, "h8").await;
    // Its answer first, so that the game stands still while the refusal is checked.
    let g = app.wait_ply(&rid, 1).await;
    assert_eq!(g["ply"], 2, "{g}");
    refused(
        &app,
        &app,
        &rid,
        json!({"pos": "j10", "ply": 1}),
        StatusCode::FORBIDDEN,
        "not_yours",
    )
    .await;

    // A game between two people at one screen has no computer: refused.
    let g = app.create(json!({"mode": "local"})).await;
    let lid = g["id"].as_str().unwrap().to_string();
    refused(
        &app,
        &app,
        &lid,
        json!({"pos": "h8", "ply": 0}),
        StatusCode::FORBIDDEN,
        "not_yours",
    )
    .await;

    // An unknown game: 404.
    let (s, e) = computer_move(&app, "nosuchgame00", json!({"pos": "h8", "ply": 0})).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{e}");
}

#[tokio::test]
async fn a_game_played_offline_comes_back_with_its_computer_in_the_browser() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    // What the page sends when the connection returns: the moves played in the page.
    let (s, g) = app
        .post(
            "/api/games/import",
            json!({
                "text": "h8 i9 j10",
                "format": "txt",
                "rule": "renju",
                "mode": "computer",
                "computer": {"player": "level3", "color": "white", "in_browser": true}
            }),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(moves(&g), ["h8", "i9", "j10"]);
    assert_eq!(g["computer"]["in_browser"], true);
    assert_eq!(g["to_act"]["who"], "computer");
    assert_eq!(g["thinking"], false);
    let (s, g) = computer_move(&app, &id, json!({"pos": "g7", "ply": 3})).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["to_act"]["who"], "human");
    assert_eq!(app.hub.computer_searches(), 0);
    // With a clock it cannot be imported so.
    let (s, e) = app
        .post(
            "/api/games/import",
            json!({
                "text": "h8 i9",
                "format": "txt",
                "mode": "computer",
                "computer": {"player": "level3", "color": "white", "in_browser": true},
                "clock": {"kind": "move", "seconds": 30}
            }),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
}
