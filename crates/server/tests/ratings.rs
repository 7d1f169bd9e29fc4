//! Ratings (issue 23, items 13–15): which games are rated, what a rated game refuses, the
//! update at its end, the graph, the published computer ratings and the leaderboard.

mod common;

use axum::http::StatusCode;
use common::{TempDb, TestApp, code};
use serde_json::{Value, json};

/// A rated game against `player` at 1+0 (a bullet game), the requester as Black.
fn rated(player: &str) -> Value {
    json!({
        "computer": {"player": player, "color": "white"},
        "clock": {"kind": "side", "initial_seconds": 60, "increment_seconds": 0},
        "rated": true
    })
}

async fn me(app: &TestApp) -> String {
    let (_, me) = app.get("/api/me").await;
    me["identity"].as_str().expect("an identity").to_string()
}

#[tokio::test]
async fn only_games_that_measure_something_can_be_rated() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let clock = json!({"kind": "side", "initial_seconds": 300, "increment_seconds": 3});
    for (body, why) in [
        (
            json!({"mode": "local", "clock": clock, "rated": true}),
            "computer",
        ),
        (json!({"rated": true}), "clock"),
        (
            json!({"clock": clock, "rated": true, "theme": "rock"}),
            "plain board",
        ),
        (
            json!({"clock": clock, "rated": true, "size": 13}),
            "15 to 20",
        ),
        (
            json!({"clock": clock, "rated": true, "k": 6}),
            "five in a row",
        ),
    ] {
        let (s, e) = app.post("/api/games", body.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}: {e}");
        assert!(e["error"].as_str().unwrap().contains(why), "{body}: {e}");
    }
    let g = app
        .create(json!({"clock": clock, "rated": true, "rule": "renju", "size": 15}))
        .await;
    assert_eq!(g["rated"], true);
    assert_eq!(app.create(json!({})).await["rated"], false);
}

#[tokio::test]
async fn a_rated_game_refuses_takebacks_restarts_and_the_engines_help() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let g = app.create(rated("level1")).await;
    let id = g["id"].as_str().unwrap().to_string();
    app.play(&id, "h8").await;
    let g = app.wait_ply(&id, 1).await;
    assert_eq!(g["ply"], 2, "{g}");
    for action in ["undo", "restart", "hint", "analysis"] {
        let (s, e) = app
            .post(&format!("/api/games/{id}/{action}"), json!({}))
            .await;
        assert_eq!(s, StatusCode::CONFLICT, "{action}: {e}");
        assert_eq!(code(&e), "rated_game", "{action}: {e}");
    }
    assert_eq!(app.game(&id).await["ply"], 2, "nothing changed");
    // An unrated game allows all of it.
    let g = app
        .create(json!({"computer": {"player": "level1", "color": "white"}}))
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    app.play(&id, "h8").await;
    app.wait_ply(&id, 1).await;
    let (s, e) = app.post(&format!("/api/games/{id}/undo"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{e}");
}

#[tokio::test]
async fn a_rated_result_moves_the_rating_once_and_draws_the_graph() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let g = app.create(rated("level6")).await;
    let id = g["id"].as_str().unwrap().to_string();
    app.play(&id, "h8").await;
    app.wait_ply(&id, 1).await;
    let (s, e) = app
        .post(&format!("/api/games/{id}/resign"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{e}");
    let who = me(&app).await;
    let (s, p) = app.get(&format!("/api/profiles/{who}")).await;
    assert_eq!(s, StatusCode::OK);
    let ratings = p["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 1, "{p}");
    let r = &ratings[0];
    assert_eq!(r["pool"], "gomoku.bullet");
    assert_eq!(r["games"], 1);
    assert_eq!(r["provisional"], true);
    let after = r["rating"].as_f64().unwrap();
    assert!(after < 1500.0, "a loss lowers the rating: {r}");
    assert!(r["deviation"].as_f64().unwrap() < 350.0, "{r}");
    // The game's change, the history line and the graph agree.
    let (_, changes) = app.get(&format!("/api/games/{id}/rating")).await;
    assert_eq!(changes.as_array().unwrap().len(), 1, "{changes}");
    assert_eq!(changes[0]["identity"], who.as_str());
    assert_eq!(changes[0]["before"], 1500.0);
    assert_eq!(changes[0]["after"].as_f64(), Some(after));
    let (_, list) = app.get(&format!("/api/profiles/{who}/games")).await;
    assert_eq!(list[0]["rated"], true);
    let change = list[0]["rating_change"].as_f64().unwrap();
    assert!((change - (after - 1500.0)).abs() < 1e-9, "{list}");
    let (s, graph) = app
        .get(&format!("/api/profiles/{who}/ratings/gomoku.bullet"))
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(graph.as_array().unwrap().len(), 1);
    assert_eq!(graph[0]["game"], id.as_str());
    let (s, _) = app
        .get(&format!("/api/profiles/{who}/ratings/gomoku.hourly"))
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    // An unrated game changes nothing; a second rated loss moves the same pool.
    let g = app
        .create(json!({"computer": {"player": "level6", "color": "white"}}))
        .await;
    let (s, _) = app
        .post(
            &format!("/api/games/{}/resign", g["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    let (_, p) = app.get(&format!("/api/profiles/{who}")).await;
    assert_eq!(p["ratings"][0]["games"], 1, "{p}");
    let g = app.create(rated("level6")).await;
    app.post(
        &format!("/api/games/{}/resign", g["id"].as_str().unwrap()),
        json!({}),
    )
    .await;
    let (_, p) = app.get(&format!("/api/profiles/{who}")).await;
    assert_eq!(p["ratings"][0]["games"], 2, "{p}");
    assert!(p["ratings"][0]["rating"].as_f64().unwrap() < after);
    // The computer's ratings are published with the players.
    let (_, players) = app.get("/api/players").await;
    let rating = |id: &str| {
        players
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == id)
            .unwrap()["rating"]
            .as_i64()
            .unwrap()
    };
    assert!(rating("level1") < rating("level6") && rating("level6") < rating("level10"));
}

#[tokio::test]
async fn the_leaderboard_lists_established_accounts_only() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let (s, e) = app
        .post(
            "/api/account/register",
            json!({"username": "steady", "password": "long enough", "display_name": "稳 <i>"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{e}");
    let guest = TestApp::on(&db);
    let board = || async {
        let (s, b) = app.get("/api/leaderboard/gomoku.bullet").await;
        assert_eq!(s, StatusCode::OK);
        b.as_array().unwrap().clone()
    };
    // Rated losses until the rating is established (not provisional).
    let mut games = 0;
    loop {
        for player in [&app, &guest] {
            let g = player.create(rated("level3")).await;
            let (s, e) = player
                .post(
                    &format!("/api/games/{}/resign", g["id"].as_str().unwrap()),
                    json!({}),
                )
                .await;
            assert_eq!(s, StatusCode::OK, "{e}");
        }
        games += 1;
        let who = me(&app).await;
        let (_, p) = app.get(&format!("/api/profiles/{who}")).await;
        if p["ratings"][0]["provisional"] == false {
            break;
        }
        assert!(board().await.is_empty(), "provisional: not listed yet");
        assert!(games < 60, "still provisional after {games} games: {p}");
    }
    let leaders = board().await;
    assert_eq!(leaders.len(), 1, "the guest is never listed: {leaders:?}");
    assert_eq!(leaders[0]["username"], "steady");
    assert_eq!(leaders[0]["display_name"], "稳 <i>");
    assert_eq!(leaders[0]["games"], games);
    let (_, all) = app.get("/api/leaderboard").await;
    assert_eq!(all.as_array().unwrap().len(), 1, "{all}");
    assert_eq!(all[0]["pool"], "gomoku.bullet");
    let (s, _) = app.get("/api/leaderboard/chess.blitz").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    // A deleted account leaves the board.
    let (s, e, _) = app
        .send(
            axum::http::Request::delete("/api/account")
                .header("content-type", "application/json")
                .body(axum::body::Body::from(r#"{"password": "long enough"}"#))
                .unwrap(),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{e}");
    assert!(board().await.is_empty());
}
