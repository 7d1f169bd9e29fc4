//! Analysis-board studies kept on the server: the owner's only, checked like an SGF
//! export, an older copy never replaces a newer one.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{TempDb, TestApp, code};
use serde_json::{Value, json};

async fn put(app: &TestApp, key: &str, body: &Value) -> (StatusCode, Value) {
    let req = Request::put(format!("/api/studies/{key}"))
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let (s, v, _) = app.send(req).await;
    (s, v)
}

fn study(moves: &[&str], saved_at: i64) -> Value {
    let nodes: Vec<Value> = moves
        .iter()
        .enumerate()
        .map(|(i, m)| json!({"parent": if i == 0 { Value::Null } else { json!(i - 1) }, "move": m}))
        .collect();
    json!({
        "tree": {"position": {"rule": "renju", "size": 15, "black": ["a1"], "white": [],
                              "to_move": "black", "moves": []}, "nodes": nodes},
        "current": moves.len(),
        "saved_at": saved_at,
    })
}

#[tokio::test]
async fn a_study_is_its_owners_checked_and_the_newer_copy_wins() {
    let db = TempDb::new();
    let alice = TestApp::on(&db);
    let bob = alice.client();
    // Alice gets her identity with her first request.
    let (s, v) = alice.get("/api/studies/board").await;
    assert_eq!(s, StatusCode::OK);
    assert!(v["study"].is_null());

    let (s, v) = put(&alice, "board", &study(&["h8", "i9", "j10"], 1000)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["stored"], true);
    let (_, v) = alice.get("/api/studies/board").await;
    assert_eq!(v["study"]["tree"]["nodes"][2]["move"], "j10", "{v}");
    assert_eq!(v["study"]["current"], 3);

    // Bob sees none of it, and his own study does not touch hers.
    let (_, v) = bob.get("/api/studies/board").await;
    assert!(v["study"].is_null(), "{v}");
    let (s, _) = put(&bob, "board", &study(&["h8"], 5000)).await;
    assert_eq!(s, StatusCode::OK);
    let (_, v) = alice.get("/api/studies/board").await;
    assert_eq!(v["study"]["tree"]["nodes"].as_array().unwrap().len(), 3);

    // An older copy (another device that was offline) does not replace the newer one.
    let (_, v) = put(&alice, "board", &study(&["h8"], 500)).await;
    assert_eq!(v["stored"], false);
    // Illegal trees and bad keys change nothing.
    for (key, body) in [
        ("board", study(&["h8", "h8"], 2000)),
        ("board", study(&["a1"], 2000)),
        (
            "board",
            json!({"tree": {"position": {"rule": "chess", "size": 15}, "nodes": []}, "saved_at": 2000}),
        ),
        ("board", json!({"tree": {}, "saved_at": 2000})),
        ("nope!", study(&["h8"], 2000)),
    ] {
        let (s, e) = put(&alice, key, &body).await;
        assert!(s.is_client_error(), "{key} {body}: {s} {e}");
        assert!(!code(&e).is_empty(), "{e}");
    }
    let (_, v) = alice.get("/api/studies/board").await;
    assert_eq!(v["study"]["saved_at"], 1000);

    // A game's study, and forgetting it.
    let g = alice
        .create(json!({"mode": "local", "rule": "renju"}))
        .await;
    let id = g["id"].as_str().unwrap();
    let (s, _) = put(&alice, id, &study(&["h8", "h9"], 3000)).await;
    assert_eq!(s, StatusCode::OK);
    let (_, v) = alice.get(&format!("/api/studies/{id}")).await;
    assert_eq!(v["study"]["saved_at"], 3000);
    let req = Request::delete(format!("/api/studies/{id}"))
        .body(Body::empty())
        .unwrap();
    let (s, _, _) = alice.send(req).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (_, v) = alice.get(&format!("/api/studies/{id}")).await;
    assert!(v["study"].is_null());
    let (_, v) = alice.get("/api/studies/board").await;
    assert!(!v["study"].is_null(), "only that one went");
}
