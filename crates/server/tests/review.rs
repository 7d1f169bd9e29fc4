//! Post-game reviews: a known blunder is marked, one job serves every request, anyone who
//! may see the game reads the review, and an interrupted review continues where it
//! stopped.

mod common;

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use common::{TempDb, TestApp, code};
use serde_json::{Value, json};

/// Black makes an open three (h8 i8 j8); White ignores it with a1 (the blunder: Black's
/// k8 makes an open four, a VCF), and Black wins with l8.
const BLUNDER_GAME: [&str; 9] = ["h8", "h9", "i8", "i9", "j8", "a1", "k8", "a2", "l8"];

async fn finished_game(app: &TestApp) -> String {
    let g = app
        .create(json!({"mode": "local", "rule": "freestyle"}))
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    for m in BLUNDER_GAME {
        app.play(&id, m).await;
    }
    assert!(app.game(&id).await["result"].is_object(), "black has won");
    id
}

/// Polls the review until `ok` holds (two minutes at most).
async fn review_where(app: &TestApp, id: &str, ok: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let (s, r) = app.get(&format!("/api/games/{id}/review")).await;
        assert_eq!(s, StatusCode::OK, "{r}");
        if ok(&r) {
            return r;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the review did not get there: {r}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_marks_the_blunder_once_for_everyone_who_asks() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let id = finished_game(&app).await;
    let spectator = app.client();

    // Nothing yet; a game still being played cannot be reviewed; bad ids are 404.
    let (s, e) = spectator.get(&format!("/api/games/{id}/review")).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{e}");
    let open = app.create(json!({"mode": "local"})).await;
    let (s, e) = app
        .post(
            &format!("/api/games/{}/review", open["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(code(&e), "wrong_phase");
    let (s, _) = app.post("/api/games/nonsense!/review", json!({})).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, e) = app
        .post(&format!("/api/games/{id}/review"), json!({"depth": 3}))
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");

    // A spectator starts it, the player joins it: one job.
    let (s, first) = spectator
        .post_from([10, 0, 0, 1], &format!("/api/games/{id}/review"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{first}");
    assert_eq!(first["positions"], 10);
    let (s, second) = app
        .post_from([10, 0, 0, 2], &format!("/api/games/{id}/review"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{second}");
    assert_eq!(app.hub.reviews().running_count(), 1, "one job for both");

    let done = review_where(&spectator, &id, |r| r["status"] == "done").await;
    assert_eq!(done["analysed"], 10);
    assert_eq!(done["graph"].as_array().unwrap().len(), 10);
    assert!(
        done["graph"]
            .as_array()
            .unwrap()
            .iter()
            .all(Value::is_number)
    );
    let moves = done["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 9);
    let blunder = &moves[5];
    assert_eq!(blunder["ply"], 6);
    assert_eq!(blunder["point"]["name"], "a1");
    assert_eq!(blunder["mark"], "blunder", "{blunder}");
    let better = blunder["better"]["point"]["name"].as_str().unwrap();
    assert!(
        ["f8", "g8", "k8", "l8"].contains(&better),
        "the better move blocks the three: {blunder}"
    );
    assert!(!blunder["better"]["line"].as_array().unwrap().is_empty());
    assert_eq!(blunder["forced"]["moment"], "allowed", "{blunder}");
    assert_eq!(blunder["forced"]["winner"], "black");
    // Black's winning moves are not blunders, and the players get accuracies.
    assert_ne!(moves[8]["mark"], "blunder");
    let black = done["accuracy"]["black"].as_f64().unwrap();
    let white = done["accuracy"]["white"].as_f64().unwrap();
    assert!(black > white, "{}", done["accuracy"]);
    // Asked again once done: the stored review, no new job.
    let (s, again) = app
        .post(&format!("/api/games/{id}/review"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(again["moves"], done["moves"]);
    assert_eq!(app.hub.reviews().running_count(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_interrupted_review_keeps_its_positions_and_finishes_after_a_restart() {
    let db = TempDb::new();
    let before = TestApp::on(&db);
    let id = finished_game(&before).await;
    let (s, r) = before
        .post(&format!("/api/games/{id}/review"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{r}");
    review_where(&before, &id, |r| r["analysed"].as_u64().unwrap() >= 3).await;
    // The server stops: its review stops after the position it is on.
    before.hub.close();
    let start = Instant::now();
    while before.hub.reviews().running_count() > 0 {
        assert!(start.elapsed() < Duration::from_secs(30));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (s, stopped) = before.get(&format!("/api/games/{id}/review")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(stopped["status"], "running");
    let kept = stopped["analysed"].as_u64().unwrap();
    assert!((3..10).contains(&kept), "{kept} positions stored");
    drop(before);

    // Restarted: the review is taken over once its lease runs out, and finishes.
    let after = TestApp::on(&db);
    let done = review_where(&after, &id, |r| r["status"] == "done").await;
    assert_eq!(done["analysed"], 10);
    let old = stopped["analysis"].as_array().unwrap();
    let new = done["analysis"].as_array().unwrap();
    for (ply, (o, n)) in old.iter().zip(new).enumerate() {
        if !o.is_null() {
            assert_eq!(o, n, "position {ply} was kept, not analysed again");
        }
    }
    assert_eq!(done["moves"][5]["mark"], "blunder");
}

/// A real 59-move freestyle game (wuzi against Rapfi, `shared/data/peer_games`), Black winning
/// with a five: its 60 positions take under a minute on one engine worker. Ignored by default
/// (it takes most of that minute); run it with `cargo test -p wuzi-server --test review --
/// --ignored --nocapture` to measure.
const LONG_GAME: &str = "h8 h9 f9 g8 i10 g10 g11 f10 j9 e10 d10 e12 f11 e11 e9 e13 e14 d12 c13 \
     c11 b10 d11 g7 c12 b12 g12 f12 f14 g15 c10 b9 b11 a11 f13 g14 d9 e8 h13 g13 f6 j10 i9 k10 \
     h10 h7 c8 c9 h12 h11 a6 b7 a14 b13 g6 e7 d8 f7 d7 i7";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "measures: most of a minute"]
async fn a_sixty_move_game_is_reviewed_within_a_minute_on_one_worker() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let g = app
        .create(json!({"mode": "local", "rule": "freestyle"}))
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    for m in LONG_GAME.split_whitespace() {
        app.play(&id, m).await;
    }
    assert!(app.game(&id).await["result"].is_object());
    let start = Instant::now();
    let (s, r) = app
        .post(&format!("/api/games/{id}/review"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{r}");
    let done = review_where(&app, &id, |r| r["status"] == "done").await;
    let took = start.elapsed();
    let marks: Vec<String> = done["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            format!(
                "{}{}",
                m["point"]["name"].as_str().unwrap(),
                match m["mark"].as_str().unwrap() {
                    "inaccuracy" => "?!",
                    "mistake" => "?",
                    "blunder" => "??",
                    _ => "",
                }
            )
        })
        .collect();
    println!(
        "review of {} moves ({} positions): {:.1} s; accuracy {}; {}",
        LONG_GAME.split_whitespace().count(),
        done["positions"],
        took.as_secs_f64(),
        done["accuracy"],
        marks.join(" ")
    );
    assert!(took < Duration::from_secs(60), "took {took:?}");
}
