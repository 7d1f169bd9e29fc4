//! Puzzles over HTTP: the shipped set is loaded once, a puzzle near the player's rating
//! comes with its solution tree, the first try rates the player and the puzzle (later
//! ones change nothing), and bad requests change nothing.

mod common;

use axum::http::StatusCode;
use common::{TempDb, TestApp, code};
use serde_json::json;

#[tokio::test]
async fn puzzles_are_served_rated_once_and_checked() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let store = app.hub.store().clone();
    let shipped = wuzi_server::puzzles::builtin().len() as u64;
    assert!(shipped >= 100);
    assert_eq!(wuzi_server::puzzles::seed(&store).await.unwrap(), shipped);
    assert_eq!(
        wuzi_server::puzzles::seed(&store).await.unwrap(),
        0,
        "a restart adds nothing twice"
    );

    let (s, o) = app.get("/api/puzzles").await;
    assert_eq!(s, StatusCode::OK, "{o}");
    let total: i64 = o["themes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["count"].as_i64().unwrap())
        .sum();
    assert_eq!(total as u64, shipped);
    assert_eq!(o["player"]["rating"], 1500);
    assert_eq!(o["player"]["provisional"], true);

    // A puzzle of the theme asked for, with its tree.
    let (s, a) = app.get("/api/puzzles/next?theme=vcf").await;
    assert_eq!(s, StatusCode::OK, "{a}");
    let p = &a["puzzle"];
    assert_eq!(p["record"]["theme"], "vcf");
    assert!(p["record"]["solution"]["moves"][0].is_string());
    assert_eq!(a["player"]["plays"], 0);
    let id = p["id"].as_str().unwrap().to_string();
    let (s, one) = app.get(&format!("/api/puzzles/{id}")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(one["puzzle"]["record"], p["record"]);
    let before = p["rating"].as_i64().unwrap();

    // Bad requests: nothing changes.
    for (uri, body, status) in [
        (
            format!("/api/puzzles/{id}/attempt"),
            json!({"solved": "yes"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            format!("/api/puzzles/{id}/attempt"),
            json!({"solved": true, "x": 1}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            "/api/puzzles/nothex/attempt".to_string(),
            json!({"solved": true}),
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/puzzles/0000000000000000/attempt".to_string(),
            json!({"solved": true}),
            StatusCode::NOT_FOUND,
        ),
    ] {
        let (s, e) = app.post(&uri, body).await;
        assert!(
            s == status
                || (status == StatusCode::UNPROCESSABLE_ENTITY && s == StatusCode::BAD_REQUEST),
            "{uri}: {s} {e}"
        );
        assert!(!code(&e).is_empty(), "{e}");
    }
    let (s, e) = app.get("/api/puzzles/next?theme=chess").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    let (s, _) = app.get("/api/puzzles/next?colour=red").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (_, o) = app.get("/api/puzzles").await;
    assert_eq!(o["player"]["plays"], 0, "nothing was rated");

    // Solved: the player goes up, the puzzle down, the streak starts.
    let (s, r) = app
        .post(
            &format!("/api/puzzles/{id}/attempt"),
            json!({"solved": true}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!(r["counted"], true);
    assert!(r["change"].as_i64().unwrap() > 0, "{r}");
    assert_eq!(r["player"]["streak"], 1);
    assert!(r["puzzle_rating"].as_i64().unwrap() < before);
    // A second try of the same puzzle is not rated again.
    let (_, again) = app
        .post(
            &format!("/api/puzzles/{id}/attempt"),
            json!({"solved": false}),
        )
        .await;
    assert_eq!(again["counted"], false);
    assert_eq!(again["player"], r["player"]);
    // ...and the puzzle is not offered again.
    for _ in 0..5 {
        let (_, n) = app.get("/api/puzzles/next?theme=vcf").await;
        assert_ne!(n["puzzle"]["id"], id);
    }

    // Failed: the streak ends; the best streak stays.
    let (_, n) = app.get("/api/puzzles/next").await;
    let other = n["puzzle"]["id"].as_str().unwrap().to_string();
    let (_, f) = app
        .post(
            &format!("/api/puzzles/{other}/attempt"),
            json!({"solved": false}),
        )
        .await;
    assert_eq!(f["counted"], true);
    assert!(f["change"].as_i64().unwrap() < 0);
    assert_eq!(
        (
            f["player"]["streak"].as_i64(),
            f["player"]["best_streak"].as_i64()
        ),
        (Some(0), Some(1))
    );

    // A batch for the page to keep: untried ones only, of the theme, within the count.
    let (s, b) = app.get("/api/puzzles/batch?theme=vcf&count=5").await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let list = b["puzzles"].as_array().unwrap();
    assert_eq!(list.len(), 5);
    assert!(
        list.iter()
            .all(|p| p["record"]["theme"] == "vcf" && p["id"] != id.as_str())
    );
    for bad in ["count=0", "count=21", "count=x", "theme=chess"] {
        let (s, _) = app.get(&format!("/api/puzzles/batch?{bad}")).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad}");
    }

    // Another person has a rating of their own, untouched.
    let bob = app.client();
    let (_, o) = bob.get("/api/puzzles").await;
    assert_eq!(o["player"]["plays"], 0);
    let (_, seen) = bob.get(&format!("/api/puzzles/{id}")).await;
    assert_eq!(
        seen["puzzle"]["plays"], 1,
        "the puzzle's record counts every person"
    );
}
