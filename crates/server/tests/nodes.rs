//! Several wuzi nodes on one database (issue 26): each test runs two hubs, each with its
//! own store connection, over the same database. They share nothing but the database, as
//! two processes behind a load balancer do. The first tests run on the store under test
//! (SQLite, or PostgreSQL when `WUZI_TEST_POSTGRES` is set, as in CI's second pass); the
//! ones about news between nodes need PostgreSQL (LISTEN/NOTIFY) and always run on it
//! (a throwaway cluster of their own when no server is named).

mod common;

use std::time::Duration;

use axum::http::StatusCode;
use common::{
    PgServer, TempDb, TestApp, game_socket, lobby_socket, next_of, register, state_where,
};
use serde_json::{Value, json};
use wuzi_server::net::NetLimits;

/// The same person on a second node: the session lives in the database, so the cookie
/// works on either.
fn same_person(node: &TestApp, on: &TestApp) -> TestApp {
    let me = on.client();
    *me.cookie.lock().unwrap() = node.cookie.lock().unwrap().clone();
    me
}

/// Two nodes on `db` and a game made on the first with `body`: the person on the first
/// node, the same person on the second, and the game's id.
async fn two_nodes(db: &TempDb, body: Value) -> (TestApp, TestApp, String) {
    let a = TestApp::on(db);
    let node_b = TestApp::on(db);
    let g = a.create(body).await;
    let b = same_person(&a, &node_b);
    (a, b, g["id"].as_str().unwrap().to_owned())
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
    let (a, b, id) = two_nodes(&db, json!({"mode": "local"})).await;

    a.play(&id, "h8").await;
    // Node B has not seen the game yet: it reads it and plays on.
    let after_b = b.play(&id, "i9").await;
    assert_eq!(moves(&after_b), ["h8", "i9"]);

    // Node A held the game with one stone. Its move builds on a revision that is gone
    // (unless A heard of B's move first: PostgreSQL tells it), so it is refused, nothing
    // written, and A shows the game as stored; sent again, it is played once.
    let g = play_on_stale(&a, &id, "j10", &["h8", "i9"]).await;
    assert_eq!(moves(&g), ["h8", "i9", "j10"]);
    let stored = a
        .hub
        .store()
        .load(&id.parse().unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.state.moves.len(), 3);
    // B's copy is the stale one now, in turn (on SQLite, which has no news between
    // nodes; PostgreSQL's may have brought it up to date already).
    let g = play_on_stale(&b, &id, "k11", &["h8", "i9", "j10"]).await;
    assert_eq!(moves(&g), ["h8", "i9", "j10", "k11"]);
}

/// Plays `pos` on a node whose copy of the game may be stale: a refusal must be `stale`,
/// leave the game as stored (`stored`) and show it so; the move sent again is played.
async fn play_on_stale(node: &TestApp, id: &str, pos: &str, stored: &[&str]) -> Value {
    let (s, e) = node
        .post(&format!("/api/games/{id}/moves"), json!({ "pos": pos }))
        .await;
    if s == StatusCode::OK {
        return e;
    }
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(e["code"], "stale", "{e}");
    assert_eq!(moves(&node.game(id).await), stored);
    node.play(id, pos).await
}

#[tokio::test]
async fn the_same_move_sent_to_two_nodes_at_once_is_played_once() {
    let db = TempDb::new();
    let (a, b, id) = two_nodes(&db, json!({"mode": "local"})).await;
    // Both nodes hold the game.
    a.game(&id).await;
    b.game(&id).await;
    let mut played_before = 0;
    for (round, (pa, pb)) in [("h8", "a1"), ("i9", "b2"), ("j10", "c3")]
        .into_iter()
        .enumerate()
    {
        let path = format!("/api/games/{id}/moves");
        let (ra, rb) = tokio::join!(
            a.post(&path, json!({"pos": pa})),
            b.post(&path, json!({"pos": pb}))
        );
        // Each was played, or refused as stale (nothing written). Both may be played
        // when one node heard of the other's move before acting (PostgreSQL tells it):
        // then one after the other, never two at one ply.
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
        // Every acknowledged move is stored, where its answer said it was.
        let points: Vec<(u64, u64)> = stored
            .state
            .moves
            .iter()
            .map(|m| (u64::from(m.x), u64::from(m.y)))
            .collect();
        for (s, g) in [&ra, &rb] {
            if *s == StatusCode::OK {
                let answered: Vec<(u64, u64)> = g["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| (m["x"].as_u64().unwrap(), m["y"].as_u64().unwrap()))
                    .collect();
                assert!(
                    points.starts_with(&answered),
                    "round {round}: {g} against {points:?}"
                );
            }
        }
        let played = [&ra, &rb].iter().filter(|r| r.0 == StatusCode::OK).count();
        assert_eq!(points.len(), played_before + played, "round {round}");
        played_before = points.len();
        // Both nodes see what is stored.
        assert_eq!(moves(&a.game(&id).await).len(), stored.state.moves.len());
        assert_eq!(moves(&b.game(&id).await).len(), stored.state.moves.len());
    }
}

#[tokio::test]
async fn a_move_made_on_one_node_reaches_the_sockets_on_the_other() {
    let pg = PgServer::get();
    let db = TempDb::on_postgres(&pg.url);
    let (a, b, id) = two_nodes(&db, json!({"mode": "local"})).await;
    let addr_b = common::serve(&b, NetLimits::default()).await;
    let mut ws = game_socket(addr_b, &b, &id).await;
    assert_eq!(next_of(&mut ws, "state").await["game"]["ply"], 0);
    // Played on A, seen on B's socket; and again, so it is not a one-off read.
    a.play(&id, "h8").await;
    let g = state_where(&mut ws, |g| g["ply"] == 1).await;
    assert_eq!(moves(&g), ["h8"]);
    a.play(&id, "i9").await;
    let g = state_where(&mut ws, |g| g["ply"] == 2).await;
    assert_eq!(moves(&g), ["h8", "i9"]);
    // And B acts on the fresh game at once (no stale refusal).
    let g = b.play(&id, "j10").await;
    assert_eq!(moves(&g), ["h8", "i9", "j10"]);
}

#[tokio::test]
async fn a_flag_falls_once_whichever_nodes_watch_the_clock() {
    let pg = PgServer::get();
    let db = TempDb::on_postgres(&pg.url);
    let (a, b, id) = two_nodes(
        &db,
        json!({"mode": "local", "clock": {"kind": "side", "initial_seconds": 1}}),
    )
    .await;
    a.play(&id, "h8").await;
    // Both nodes hold the game with White's clock running, and both watch it.
    assert_eq!(b.game(&id).await["clock"]["running"], "white");
    let addr_b = common::serve(&b, NetLimits::default()).await;
    let mut ws = game_socket(addr_b, &b, &id).await;
    let over = state_where(&mut ws, |g| !g["result"].is_null()).await;
    assert_eq!(over["result"]["winner"], "black", "{over}");
    assert_eq!(over["result"]["reason"], "time", "{over}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    // One write for the move and one for the flag: it fell once.
    let stored = a
        .hub
        .store()
        .load(&id.parse().unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.revision, 2, "{stored:?}");
    assert_eq!(a.game(&id).await["result"], over["result"]);
}

#[tokio::test]
async fn chat_said_on_one_node_reaches_the_room_on_the_other() {
    let pg = PgServer::get();
    let db = TempDb::on_postgres(&pg.url);
    let alice = TestApp::on(&db);
    let node_b = TestApp::on(&db);
    let bob_on_a = alice.client();
    let id = people_game(&alice, &bob_on_a).await;
    // Bob follows the game from node B.
    let bob = same_person(&bob_on_a, &node_b);
    let addr_b = common::serve(&node_b, NetLimits::default()).await;
    let mut ws = game_socket(addr_b, &bob, &id).await;
    next_of(&mut ws, "state").await;
    let (s, m) = alice
        .post(
            &format!("/api/games/{id}/chat"),
            json!({"text": "你好 <i>bob</i>"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{m}");
    let got = next_of(&mut ws, "chat").await;
    assert_eq!(got["message"]["text"], "你好 <i>bob</i>", "{got}");
    assert_eq!(got["message"]["id"], m["id"]);
    // Bob's answer, said on B, is kept once and read on A.
    let (s, _) = bob
        .post(&format!("/api/games/{id}/chat"), json!({"text": "hi"}))
        .await;
    assert_eq!(s, StatusCode::CREATED);
    let (_, log) = alice.get(&format!("/api/games/{id}/chat")).await;
    let texts: Vec<&str> = log
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["你好 <i>bob</i>", "hi"]);
}

fn terms() -> Value {
    json!({"clock": {"kind": "side", "initial_seconds": 600, "increment_seconds": 5}, "color": "black"})
}

/// A game between `black`, who seeks, and `white`, who accepts; its id.
async fn people_game(black: &TestApp, white: &TestApp) -> String {
    let (s, seek) = black.post("/api/seeks", terms()).await;
    assert_eq!(s, StatusCode::CREATED, "{seek}");
    let (s, g) = white
        .post(
            &format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    g["id"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn the_lobby_is_one_across_nodes() {
    let pg = PgServer::get();
    let db = TempDb::on_postgres(&pg.url);
    let alice = TestApp::on(&db);
    let node_b = TestApp::on(&db);
    let bob = node_b.client();
    register(&alice, "alice").await;
    // Bob is a guest (his first request makes him one) before his lobby page opens.
    bob.create(json!({"mode": "local"})).await;
    let (addr_a, addr_b) = (
        common::serve(&alice, NetLimits::default()).await,
        common::serve(&node_b, NetLimits::default()).await,
    );
    let mut a = lobby_socket(addr_a, &alice).await;
    let mut b = lobby_socket(addr_b, &bob).await;
    next_of(&mut a, "seeks").await;
    next_of(&mut b, "seeks").await;
    // A seek made on A is seen live on B and listed there; B's person takes it, once.
    let (s, seek) = alice.post("/api/seeks", terms()).await;
    assert_eq!(s, StatusCode::CREATED, "{seek}");
    assert_eq!(next_of(&mut b, "seek_added").await["seek"], seek);
    let (_, listed) = bob.get("/api/seeks").await;
    assert_eq!(listed, json!([seek.clone()]));
    let sid = seek["id"].as_str().unwrap();
    let (s, g) = bob
        .post(&format!("/api/seeks/{sid}/accept"), json!({}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    let (s, e) = same_person(&alice, &node_b)
        .post(&format!("/api/seeks/{sid}/accept"), json!({}))
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND, "taken already: {e}");
    // Both lobbies drop the seek, and the seeker, on A, is sent to the game.
    assert_eq!(next_of(&mut a, "seek_removed").await["id"], seek["id"]);
    assert_eq!(next_of(&mut a, "game_started").await["game"], g["id"]);
    // A challenge made on B to alice reaches her socket on A; declined there, B hears.
    let (s, c) = bob
        .post("/api/challenges", json!({"to": "alice", "terms": terms()}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    let heard = next_of(&mut a, "challenge").await;
    assert_eq!(heard["challenge"]["id"], c["id"]);
    let (_, mine) = alice.get("/api/challenges").await;
    assert_eq!(mine[0]["id"], c["id"], "{mine}");
    let (s, e) = alice
        .post(
            &format!("/api/challenges/{}/decline", c["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{e}");
    let gone = next_of(&mut b, "challenge_gone").await;
    assert_eq!(gone["why"], "declined", "{gone}");
    // A seek goes when its owner's last lobby page, on whichever node, closes.
    let (_, seek) = bob.post("/api/seeks", terms()).await;
    assert_eq!(
        next_of(&mut a, "seek_added").await["seek"]["id"],
        seek["id"]
    );
    b.close(None).await.unwrap();
    drop(b);
    assert_eq!(next_of(&mut a, "seek_removed").await["id"], seek["id"]);
}

#[tokio::test]
async fn a_player_on_another_node_is_not_away() {
    let pg = PgServer::get();
    let db = TempDb::on_postgres(&pg.url);
    let quick = wuzi_server::HubConfig {
        claim_after: Duration::from_millis(300),
        ..Default::default()
    };
    let alice = TestApp::with(&db, quick);
    let node_b = TestApp::with(&db, quick);
    let bob_on_a = alice.client();
    let id = people_game(&alice, &bob_on_a).await;
    let bob = same_person(&bob_on_a, &node_b);
    let (addr_a, addr_b) = (
        common::serve(&alice, NetLimits::default()).await,
        common::serve(&node_b, NetLimits::default()).await,
    );
    let mut a = game_socket(addr_a, &alice, &id).await;
    next_of(&mut a, "state").await;
    let mut spectator = game_socket(addr_b, &node_b.client(), &id).await;
    // A spectator on B counts on A.
    assert_eq!(next_of(&mut a, "crowd").await["spectators"], 1);
    next_of(&mut spectator, "state").await;
    // Bob opens the game on A, then moves to B: A does not see him gone.
    let mut b_on_a = game_socket(addr_a, &bob_on_a, &id).await;
    next_of(&mut b_on_a, "state").await;
    let mut b = game_socket(addr_b, &bob, &id).await;
    next_of(&mut b, "state").await;
    b_on_a.close(None).await.unwrap();
    drop(b_on_a);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let g = alice.game(&id).await;
    assert!(g["away"]["second"].is_null(), "{g}");
    let (s, e) = alice
        .post(&format!("/api/games/{id}/claim"), json!({"result": "win"}))
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "bob is on B: {e}");
    // He leaves B too: A's socket hears it, and after the wait Alice may claim.
    leaves_and_is_claimed(b, &mut a, &alice, &id).await;
}

/// White closes his last page `b` of game `id`: Black's socket `a` hears him away, and
/// after the wait (300 ms) Black claims the game.
async fn leaves_and_is_claimed(
    mut b: common::Socket,
    a: &mut common::Socket,
    black: &TestApp,
    id: &str,
) {
    b.close(None).await.unwrap();
    drop(b);
    state_where(a, |g| !g["away"]["second"].is_null()).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let (s, g) = black
        .post(&format!("/api/games/{id}/claim"), json!({"result": "win"}))
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["result"]["reason"], "abandoned");
}

#[tokio::test]
async fn pages_noted_again_after_a_stall_count_once() {
    let db = TempDb::new();
    let quick = wuzi_server::HubConfig {
        claim_after: Duration::from_millis(300),
        ..Default::default()
    };
    let alice = TestApp::with(&db, quick);
    let bob = alice.client();
    let id = people_game(&alice, &bob).await;
    let addr = common::serve(&alice, NetLimits::default()).await;
    let mut a = game_socket(addr, &alice, &id).await;
    next_of(&mut a, "state").await;
    let mut b = game_socket(addr, &bob, &id).await;
    next_of(&mut b, "state").await;
    // The node's row goes while its pages' rows stay: the state of a node whose first
    // heartbeat finds no row of its own while a page's note is on its way. Its next
    // heartbeat notes its pages again, and must not count Bob's page twice.
    assert_eq!(db.execute("DELETE FROM nodes"), 1);
    noted_again(&db).await;
    // Bob closes his one page: he is away, and Alice may claim.
    leaves_and_is_claimed(b, &mut a, &alice, &id).await;
}

/// Waits for the node to find its row gone and note its pages again (its heartbeat
/// comes every second).
async fn noted_again(db: &TempDb) {
    for _ in 0..100 {
        if db.execute("UPDATE nodes SET seen_at = seen_at") > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
}

#[tokio::test]
async fn lobby_pages_noted_again_after_a_stall_keep_their_person_there() {
    let db = TempDb::new();
    let alice = TestApp::on(&db);
    // A guest (her first request makes her one) before her lobby page opens.
    alice.create(json!({"mode": "local"})).await;
    let addr = common::serve(&alice, NetLimits::default()).await;
    let mut a = lobby_socket(addr, &alice).await;
    next_of(&mut a, "seeks").await;
    let (s, seek) = alice.post("/api/seeks", terms()).await;
    assert_eq!(s, StatusCode::CREATED, "{seek}");
    // Another node cleared this node's rows (a stall): the node notes its pages again,
    // the lobby's too.
    db.execute("DELETE FROM presence");
    assert_eq!(db.execute("DELETE FROM nodes"), 1);
    noted_again(&db).await;
    // A second page of hers opens and closes: she still has the first, her seek stays.
    let mut second = lobby_socket(addr, &alice).await;
    next_of(&mut second, "seeks").await;
    second.close(None).await.unwrap();
    drop(second);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (_, listed) = alice.get("/api/seeks").await;
    assert_eq!(listed, json!([seek.clone()]), "she is still in the lobby");
    // Her last page closes: she is gone, and so is her seek (counted once, not twice).
    a.close(None).await.unwrap();
    drop(a);
    for _ in 0..100 {
        if alice.get("/api/seeks").await.1 == json!([]) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("her seek stayed after her last lobby page closed");
}

#[tokio::test]
async fn a_computer_move_owed_by_a_node_that_stopped_is_made_by_another() {
    let db = TempDb::new();
    let a = TestApp::on(&db);
    let node_b = TestApp::on(&db);
    // Level 10 thinks for seconds: A stops while it searches the reply to h8.
    let g = a
        .create(json!({"computer": {"player": "level10", "color": "white"}}))
        .await;
    let id = g["id"].as_str().unwrap().to_owned();
    a.play(&id, "h8").await;
    a.hub.close();
    assert_eq!(node_b.hub.loaded(), 0, "nobody asked B about the game");
    assert_eq!(node_b.stored(&id).await.state.moves.len(), 1);
    // A's searches and heartbeat ended with it. Its lease on the move runs out, and B
    // takes the job over and moves, still without anyone asking B.
    let deadline = std::time::Instant::now()
        + Duration::from_millis(wuzi_server::store::JOB_LEASE_MS as u64 + 20_000);
    while node_b.stored(&id).await.state.moves.len() < 2 {
        assert!(std::time::Instant::now() < deadline, "nobody made the move");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(node_b.hub.loaded(), 1, "B made it");
    assert_eq!(node_b.game(&id).await["ply"], 2);
}
