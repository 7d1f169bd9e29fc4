//! Several wuzi nodes on one database (issue 26): each test runs two hubs, each with its
//! own store connection, over the same database (SQLite here, PostgreSQL when
//! `WUZI_TEST_POSTGRES` is set, as in CI's second pass). They share nothing but the
//! database, as two processes behind a load balancer do.

mod common;

use axum::http::StatusCode;
use common::{TempDb, TestApp};
use serde_json::{Value, json};

/// The same person on a second node: the session lives in the database, so the cookie
/// works on either.
fn same_person(node: &TestApp, on: &TestApp) -> TestApp {
    let me = on.client();
    *me.cookie.lock().unwrap() = node.cookie.lock().unwrap().clone();
    me
}

fn moves(g: &Value) -> Vec<String> {
    g["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn two_nodes_acting_on_one_game_never_lose_an_update_nor_play_twice() {
    let db = TempDb::new();
    let a = TestApp::on(&db);
    let node_b = TestApp::on(&db);
    let g = a.create(json!({"mode": "local"})).await;
    let id = g["id"].as_str().unwrap().to_owned();
    let b = same_person(&a, &node_b);

    a.play(&id, "h8").await;
    // Node B has not seen the game yet: it reads it and plays on.
    let after_b = b.play(&id, "i9").await;
    assert_eq!(moves(&after_b), ["h8", "i9"]);

    // Node A still holds the game with one stone. Its move builds on a revision that
    // is gone: refused, nothing written, and A now shows the game as stored.
    let (s, e) = a
        .post(&format!("/api/games/{id}/moves"), json!({"pos": "j10"}))
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(e["code"], "stale", "{e}");
    assert_eq!(moves(&a.game(&id).await), ["h8", "i9"]);
    assert_eq!(moves(&b.game(&id).await), ["h8", "i9"]);

    // Sent again, it is played once, and both nodes agree.
    let g = a.play(&id, "j10").await;
    assert_eq!(moves(&g), ["h8", "i9", "j10"]);
    assert_eq!(
        a.hub
            .store()
            .load(&id.parse().unwrap())
            .await
            .unwrap()
            .unwrap()
            .state
            .moves
            .len(),
        3
    );
    // B's copy is stale now: its next action is refused in turn and it catches up.
    let (s, _) = b
        .post(&format!("/api/games/{id}/moves"), json!({"pos": "k11"}))
        .await;
    assert_eq!(s, StatusCode::CONFLICT);
    let g = b.play(&id, "k11").await;
    assert_eq!(moves(&g), ["h8", "i9", "j10", "k11"]);
}

#[tokio::test]
async fn the_same_move_sent_to_two_nodes_at_once_is_played_once() {
    let db = TempDb::new();
    let a = TestApp::on(&db);
    let node_b = TestApp::on(&db);
    let g = a.create(json!({"mode": "local"})).await;
    let id = g["id"].as_str().unwrap().to_owned();
    let b = same_person(&a, &node_b);
    // Both nodes hold the game.
    a.game(&id).await;
    b.game(&id).await;
    for (round, (pa, pb)) in [("h8", "a1"), ("i9", "b2"), ("j10", "c3")]
        .into_iter()
        .enumerate()
    {
        let path = format!("/api/games/{id}/moves");
        let (ra, rb) = tokio::join!(
            a.post(&path, json!({"pos": pa})),
            b.post(&path, json!({"pos": pb}))
        );
        let ok = [ra.0, rb.0]
            .iter()
            .filter(|s| **s == StatusCode::OK)
            .count();
        assert!(ok <= 1, "round {round}: both nodes played: {ra:?} {rb:?}");
        // Each loser was refused as stale (or, having caught up, played next: never
        // twice at one ply).
        for (s, e) in [&ra, &rb] {
            assert!(
                *s == StatusCode::OK || e["code"] == "stale",
                "round {round}: {s} {e}"
            );
        }
        let stored = a
            .hub
            .store()
            .load(&id.parse().unwrap())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            stored.state.moves.len(),
            stored.revision as usize,
            "one stone a write"
        );
        // Both nodes see what is stored.
        assert_eq!(moves(&a.game(&id).await).len(), stored.state.moves.len());
        assert_eq!(moves(&b.game(&id).await).len(), stored.state.moves.len());
    }
}
