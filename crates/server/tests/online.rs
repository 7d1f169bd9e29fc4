//! Games between people (issue 25): seeks, quick pairing, challenges, the lobby's live
//! feed, seats that belong to each player, server clocks and rated results.

mod common;

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{TempDb, TestApp, code, game_socket, lobby_socket, next_of, register, state_where};
use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use wuzi_server::net::NetLimits;

fn terms(rated: bool, color: &str) -> Value {
    json!({
        "rule": "freestyle",
        "size": 15,
        "clock": {"kind": "side", "initial_seconds": 300, "increment_seconds": 3},
        "rated": rated,
        "color": color
    })
}

async fn me(app: &TestApp) -> String {
    let (_, me) = app.get("/api/me").await;
    me["identity"].as_str().expect("an identity").to_string()
}

async fn delete(app: &TestApp, uri: &str) -> (StatusCode, Value) {
    let (s, b, _) = app
        .send(Request::delete(uri).body(Body::empty()).unwrap())
        .await;
    (s, b)
}

#[tokio::test]
async fn a_seek_taken_starts_a_game_where_each_plays_only_their_own_colour() {
    let db = TempDb::new();
    let alice = TestApp::on(&db);
    let bob = alice.client();
    let carol = alice.client();
    // A game between people cannot be made directly.
    let (s, e) = alice.post("/api/games", json!({"mode": "online"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    // Seeks need a clock.
    let (s, e) = alice
        .post("/api/seeks", json!({"clock": {"kind": "none"}}))
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    let (s, seek) = alice.post("/api/seeks", terms(false, "black")).await;
    assert_eq!(s, StatusCode::CREATED, "{seek}");
    let id = seek["id"].as_str().unwrap().to_string();
    let (_, list) = carol.get("/api/seeks").await;
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["by"]["id"], me(&alice).await.as_str());
    // Nobody takes their own seek, nor cancels another's.
    let (s, _) = alice
        .post(&format!("/api/seeks/{id}/accept"), json!({}))
        .await;
    assert_eq!(s, StatusCode::CONFLICT);
    bob.post("/api/seeks", terms(false, "random")).await;
    let (s, _) = delete(&bob, &format!("/api/seeks/{id}")).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, g) = bob
        .post(&format!("/api/seeks/{id}/accept"), json!({}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    assert_eq!(g["mode"], "online");
    assert_eq!(
        g["owners"]["first"],
        me(&alice).await.as_str(),
        "alice asked for Black"
    );
    assert_eq!(g["owners"]["second"], me(&bob).await.as_str());
    let (_, list) = carol.get("/api/seeks").await;
    assert!(
        list.as_array().unwrap().is_empty(),
        "both players' seeks are gone: {list}"
    );
    let (s, _) = carol
        .post(&format!("/api/seeks/{id}/accept"), json!({}))
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND, "taken once");
    let gid = g["id"].as_str().unwrap().to_string();
    // Each moves only for their own colour; a spectator not at all.
    let mv = |pos: &str| json!({"pos": pos});
    let (s, e) = bob.post(&format!("/api/games/{gid}/moves"), mv("h8")).await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{e}");
    alice.play(&gid, "h8").await;
    let (s, _) = alice
        .post(&format!("/api/games/{gid}/moves"), mv("i9"))
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _) = carol
        .post(&format!("/api/games/{gid}/moves"), mv("i9"))
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    bob.play(&gid, "i9").await;
    // No takebacks alone, no restart, no engine help.
    for (who, action) in [(&bob, "undo"), (&bob, "restart"), (&alice, "hint")] {
        let (s, e) = who
            .post(&format!("/api/games/{gid}/{action}"), json!({}))
            .await;
        assert_eq!(s, StatusCode::CONFLICT, "{action}: {e}");
        assert_eq!(code(&e), "rated_game");
    }
    // Bob resigns for himself only; Alice wins.
    let (s, _) = carol
        .post(&format!("/api/games/{gid}/resign"), json!({}))
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, g) = bob
        .post(&format!("/api/games/{gid}/resign"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["result"]["winner"], "black");
    let who = me(&alice).await;
    let (_, p) = alice.get(&format!("/api/profiles/{who}")).await;
    assert_eq!(p["stats"]["by_opponent"]["people"]["wins"], 1, "{p}");
    let who = me(&bob).await;
    let (_, p) = bob.get(&format!("/api/profiles/{who}")).await;
    assert_eq!(p["stats"]["by_opponent"]["people"]["losses"], 1, "{p}");
}

#[tokio::test]
async fn a_rated_game_between_people_moves_both_ratings() {
    let db = TempDb::new();
    let alice = TestApp::on(&db);
    let bob = alice.client();
    let (_, seek) = alice.post("/api/seeks", terms(true, "white")).await;
    let (s, g) = bob
        .post(
            &format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    assert_eq!(g["rated"], true);
    let gid = g["id"].as_str().unwrap();
    bob.play(gid, "h8").await;
    let (s, _) = alice
        .post(&format!("/api/games/{gid}/resign"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK);
    let (_, changes) = bob.get(&format!("/api/games/{gid}/rating")).await;
    let changes = changes.as_array().unwrap();
    assert_eq!(changes.len(), 2, "{changes:?}");
    let bob_id = me(&bob).await;
    for c in changes {
        assert_eq!(c["pool"], "gomoku.blitz");
        assert_eq!(c["before"], 1500.0);
        let up = c["after"].as_f64().unwrap() > 1500.0;
        assert_eq!(up, c["identity"] == bob_id.as_str(), "{c}");
    }
}

#[tokio::test]
async fn quick_pairing_pairs_two_waiting_players() {
    let db = TempDb::new();
    let alice = TestApp::on(&db);
    let bob = alice.client();
    let (_, presets) = alice.get("/api/pairing").await;
    let preset = presets[0]["id"].as_str().unwrap().to_string();
    let (s, w) = alice
        .post(&format!("/api/pairing/{preset}"), json!({}))
        .await;
    assert_eq!(s, StatusCode::ACCEPTED, "{w}");
    assert!(w["seek"]["id"].is_string());
    let (_, presets) = bob.get("/api/pairing").await;
    assert_eq!(presets[0]["waiting"], 1);
    let (s, g) = bob.post(&format!("/api/pairing/{preset}"), json!({})).await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    let owners = [
        &g["game"]["owners"]["first"],
        &g["game"]["owners"]["second"],
    ];
    let (a, b) = (me(&alice).await, me(&bob).await);
    assert!(
        owners.contains(&&Value::from(a.as_str())) && owners.contains(&&Value::from(b.as_str()))
    );
    let (_, list) = alice.get("/api/seeks").await;
    assert!(list.as_array().unwrap().is_empty());
    let (s, _) = bob.post("/api/pairing/chess-1+0", json!({})).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn challenges_go_to_their_addressee_or_to_whoever_has_the_link() {
    let db = TempDb::new();
    let alice = TestApp::on(&db);
    let bob = alice.client();
    let mallory = alice.client();
    alice.create(json!({"mode": "local"})).await;
    register(&alice, "alice").await;
    bob.create(json!({"mode": "local"})).await;
    register(&bob, "Bob").await;
    let (s, e) = alice
        .post(
            "/api/challenges",
            json!({"to": "nobody", "terms": terms(false, "random")}),
        )
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{e}");
    let (s, c) = alice
        .post(
            "/api/challenges",
            json!({"to": "bob", "terms": terms(false, "random")}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    let cid = c["id"].as_str().unwrap().to_string();
    let (_, mine) = bob.get("/api/challenges").await;
    assert_eq!(mine.as_array().unwrap().len(), 1, "{mine}");
    for (path, body) in [("accept", json!({})), ("decline", json!({}))] {
        let (s, _) = mallory
            .post(&format!("/api/challenges/{cid}/{path}"), body)
            .await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{path}");
    }
    let (s, _) = bob
        .post(&format!("/api/challenges/{cid}/decline"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK);
    let (s, _) = bob.get(&format!("/api/challenges/{cid}")).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    // An open link: a guest takes it.
    let (_, c) = alice
        .post("/api/challenges", json!({"terms": terms(false, "white")}))
        .await;
    let cid = c["id"].as_str().unwrap();
    let guest = alice.client();
    let (s, g) = guest
        .post(&format!("/api/challenges/{cid}/accept"), json!({}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    assert_eq!(g["owners"]["first"], me(&guest).await.as_str());
    let (s, _) = mallory
        .post(&format!("/api/challenges/{cid}/accept"), json!({}))
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND, "answered once");
}

#[tokio::test]
async fn the_lobby_feed_shows_seeks_live_and_tells_the_players_where_to_go() {
    let db = TempDb::new();
    let alice = TestApp::on(&db);
    let bob = alice.client();
    let watcher = alice.client();
    alice.create(json!({"mode": "local"})).await;
    bob.create(json!({"mode": "local"})).await;
    let addr = common::serve(&alice, NetLimits::default()).await;
    let mut a = lobby_socket(addr, &alice).await;
    let mut w = lobby_socket(addr, &watcher).await;
    assert_eq!(next_of(&mut w, "seeks").await["seeks"], json!([]));
    let (_, seek) = alice.post("/api/seeks", terms(false, "black")).await;
    let added = next_of(&mut w, "seek_added").await;
    assert_eq!(added["seek"]["id"], seek["id"]);
    let (s, g) = bob
        .post(
            &format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED);
    let removed = next_of(&mut w, "seek_removed").await;
    assert_eq!(removed["id"], seek["id"]);
    let started = next_of(&mut a, "game_started").await;
    assert_eq!(started["game"], g["id"]);
    // A seek goes when its owner's last lobby page closes.
    let (_, seek) = alice.post("/api/seeks", terms(false, "black")).await;
    next_of(&mut w, "seek_added").await;
    a.close(None).await.unwrap();
    drop(a);
    let removed = next_of(&mut w, "seek_removed").await;
    assert_eq!(removed["id"], seek["id"]);
    // The watcher never heard of the game started for others: its next message is the
    // next public one.
    let (_, seek) = bob.post("/api/seeks", terms(false, "black")).await;
    let next = loop {
        match w.next().await {
            Some(Ok(Message::Text(t))) => break serde_json::from_str::<Value>(&t).unwrap(),
            Some(Ok(_)) => {}
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(next["type"], "seek_added", "{next}");
    assert_eq!(next["seek"]["id"], seek["id"]);
}

#[tokio::test]
async fn the_flag_falls_on_the_server_with_nobody_watching_and_after_a_restart() {
    let db = TempDb::new();
    let alice = TestApp::on(&db);
    let bob = alice.client();
    let short = json!({
        "clock": {"kind": "side", "initial_seconds": 1.5, "increment_seconds": 0},
        "color": "black"
    });
    let (_, seek) = alice.post("/api/seeks", short.clone()).await;
    let (_, g) = bob
        .post(
            &format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    let gid = g["id"].as_str().unwrap().to_string();
    alice.play(&gid, "h8").await;
    // Bob's clock runs; nobody looks. The server ends the game on time by itself.
    let over = async {
        loop {
            tokio::time::sleep(Duration::from_millis(100)).await;
            if alice.stored(&gid).await.state.verdict.is_some() {
                break;
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(20), over)
        .await
        .expect("the flag fell on the server");
    let g = alice.game(&gid).await;
    assert_eq!(g["result"]["reason"], "time", "{g}");
    assert_eq!(g["result"]["winner"], "black");

    // A second game; the server stops while Bob's clock runs and comes back: the game is
    // loaded at start-up and its flag falls with nobody asking for it.
    let (_, seek) = alice.post("/api/seeks", short).await;
    let (_, g) = bob
        .post(
            &format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    let gid = g["id"].as_str().unwrap().to_string();
    alice.play(&gid, "h8").await;
    alice.hub.close();
    drop((alice, bob));
    let again = TestApp::on(&db);
    let over = async {
        loop {
            tokio::time::sleep(Duration::from_millis(100)).await;
            let stored = again
                .hub
                .store()
                .load(&gid.parse().unwrap())
                .await
                .unwrap()
                .unwrap();
            if stored.state.verdict.is_some() {
                break;
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(20), over)
        .await
        .expect("the flag fell after the restart");
}

/// A game between `a` (Black) and `b` from a seek of `a`'s with `extra` terms.
async fn start(a: &TestApp, b: &TestApp, extra: Value) -> String {
    let mut t = terms(false, "black");
    for (k, v) in extra.as_object().unwrap() {
        t[k] = v.clone();
    }
    let (s, seek) = a.post("/api/seeks", t).await;
    assert_eq!(s, StatusCode::CREATED, "{seek}");
    let (s, g) = b
        .post(
            &format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    g["id"].as_str().unwrap().to_string()
}

async fn offer(app: &TestApp, gid: &str, kind: &str, action: &str) -> (StatusCode, Value) {
    app.post(
        &format!("/api/games/{gid}/offer"),
        json!({"kind": kind, "action": action}),
    )
    .await
}

#[tokio::test]
async fn draws_takebacks_and_rematches_need_both_players() {
    let db = TempDb::new();
    let alice = TestApp::on(&db);
    let bob = alice.client();
    let carol = alice.client();
    let gid = start(&alice, &bob, json!({})).await;
    alice.play(&gid, "h8").await;
    bob.play(&gid, "j9").await;
    // A takeback: Bob asks, a stranger cannot answer, Alice grants: j9 is gone.
    let (s, g) = offer(&bob, &gid, "takeback", "offer").await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["offers"]["takeback"], "second");
    let (s, _) = offer(&carol, &gid, "takeback", "accept").await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _) = offer(&bob, &gid, "takeback", "accept").await;
    assert_eq!(s, StatusCode::CONFLICT, "not one's own offer");
    let (s, g) = offer(&alice, &gid, "takeback", "accept").await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(common::moves(&g), ["h8"]);
    assert!(g["offers"].get("takeback").is_none(), "{g}");
    bob.play(&gid, "i9").await;
    // A draw offer lapses when a stone is played.
    let (_, g) = offer(&alice, &gid, "draw", "offer").await;
    assert_eq!(g["offers"]["draw"], "first");
    let (s, _) = offer(&alice, &gid, "draw", "offer").await;
    assert_eq!(s, StatusCode::CONFLICT, "offered already");
    let g = alice.play(&gid, "h9").await;
    assert!(g["offers"].get("draw").is_none(), "lapsed: {g}");
    let (s, _) = offer(&alice, &gid, "draw", "accept").await;
    assert_eq!(s, StatusCode::CONFLICT, "nothing to accept");
    // Declined, then offered by the other and accepted by making the same offer.
    offer(&bob, &gid, "draw", "offer").await;
    let (_, g) = offer(&alice, &gid, "draw", "decline").await;
    assert!(g["result"].is_null());
    offer(&bob, &gid, "draw", "offer").await;
    let (s, g) = offer(&alice, &gid, "draw", "offer").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["result"]["reason"], "agreement", "{g}");
    assert!(g["result"]["winner"].is_null());
    // A rematch, colours swapped: the new game is noted in the old one.
    let (s, _) = offer(&bob, &gid, "takeback", "offer").await;
    assert_eq!(s, StatusCode::CONFLICT, "over");
    offer(&alice, &gid, "rematch", "offer").await;
    let (s, g) = offer(&bob, &gid, "rematch", "accept").await;
    assert_eq!(s, StatusCode::OK, "{g}");
    let next = g["offers"]["rematch_game"]
        .as_str()
        .expect("the rematch")
        .to_string();
    let n = alice.game(&next).await;
    assert_eq!(
        n["owners"]["first"],
        me(&bob).await.as_str(),
        "colours swapped"
    );
    assert_eq!(n["owners"]["second"], me(&alice).await.as_str());
    let (s, _) = offer(&alice, &gid, "rematch", "offer").await;
    assert_eq!(s, StatusCode::CONFLICT, "once");
    // Rated games refuse takebacks unless the terms allow them.
    let rated = start(&alice, &bob, json!({"rated": true})).await;
    alice.play(&rated, "h8").await;
    let (s, e) = offer(&alice, &rated, "takeback", "offer").await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(code(&e), "rated_game");
    // Offers are between people only.
    let computer = alice.create(json!({})).await;
    let (s, _) = offer(&alice, computer["id"].as_str().unwrap(), "draw", "offer").await;
    assert_eq!(s, StatusCode::CONFLICT);
}

#[tokio::test]
async fn a_game_is_aborted_only_before_it_is_under_way_and_never_rated() {
    let db = TempDb::new();
    let alice = TestApp::on(&db);
    let bob = alice.client();
    let gid = start(&alice, &bob, json!({"rated": true})).await;
    alice.play(&gid, "h8").await;
    let (s, _) = alice
        .client()
        .post(&format!("/api/games/{gid}/abort"), json!({}))
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, g) = bob
        .post(&format!("/api/games/{gid}/abort"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["result"]["reason"], "aborted");
    let (_, changes) = alice.get(&format!("/api/games/{gid}/rating")).await;
    assert_eq!(changes, json!([]), "no rating change");
    let who = me(&alice).await;
    let (_, p) = alice.get(&format!("/api/profiles/{who}")).await;
    assert_eq!(
        p["stats"]["all"]["games"], 0,
        "an aborted game counts for nobody: {p}"
    );
    let (_, list) = alice.get(&format!("/api/profiles/{who}/games")).await;
    assert_eq!(list[0]["result"], "aborted");
    // Once both have played, it is too late.
    let gid = start(&alice, &bob, json!({})).await;
    alice.play(&gid, "h8").await;
    bob.play(&gid, "j9").await;
    let (s, e) = alice
        .post(&format!("/api/games/{gid}/abort"), json!({}))
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
}

#[tokio::test]
async fn a_move_sent_twice_is_played_once() {
    let db = TempDb::new();
    let alice = TestApp::on(&db);
    let bob = alice.client();
    let gid = start(&alice, &bob, json!({})).await;
    let mv = json!({"pos": "h8", "ply": 0});
    let (s, g) = alice
        .post(&format!("/api/games/{gid}/moves"), mv.clone())
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["ply"], 1);
    // The retry (the answer was lost) is answered with the game, unchanged.
    let (s, g) = alice
        .post(&format!("/api/games/{gid}/moves"), mv.clone())
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["ply"], 1);
    // Bob, whose turn it is, sending the same message plays nothing: it is stale.
    let (s, e) = bob.post(&format!("/api/games/{gid}/moves"), mv).await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(code(&e), "stale");
    let (s, e) = alice
        .post(
            &format!("/api/games/{gid}/moves"),
            json!({"pos": "a1", "ply": 0}),
        )
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN, "not Alice's turn: {e}");
    let (s, e) = bob
        .post(
            &format!("/api/games/{gid}/moves"),
            json!({"pos": "a1", "ply": 0}),
        )
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(code(&e), "stale");
}

#[tokio::test]
async fn moves_over_the_socket_are_acknowledged_and_a_retry_is_played_once() {
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let db = TempDb::new();
    let alice = TestApp::on(&db);
    let bob = alice.client();
    let gid = start(&alice, &bob, json!({})).await;
    let addr = common::serve(&alice, NetLimits::default()).await;
    let mut req = format!("ws://{addr}/api/games/{gid}/ws")
        .into_client_request()
        .unwrap();
    let cookie = alice.cookie.lock().unwrap().clone().unwrap();
    req.headers_mut().insert("cookie", cookie.parse().unwrap());
    let mut ws = tokio_tungstenite::connect_async(req).await.unwrap().0;
    next_of(&mut ws, "state").await;
    let mv = json!({"type": "move", "pos": "h8", "ply": 0, "id": "m-1"}).to_string();
    for _ in 0..2 {
        ws.send(Message::Text(mv.clone().into())).await.unwrap();
        let ack = next_of(&mut ws, "ack").await;
        assert_eq!(ack, json!({"type": "ack", "id": "m-1", "ply": 1}));
    }
    assert_eq!(alice.game(&gid).await["ply"], 1, "played once");
    // Offers over the socket too.
    let offer = json!({"type": "offer", "kind": "draw", "action": "offer"}).to_string();
    ws.send(Message::Text(offer.into())).await.unwrap();
    let state = next_of(&mut ws, "state").await;
    assert_eq!(state["game"]["offers"]["draw"], "first", "{state}");
}

#[tokio::test]
async fn a_player_whose_opponent_left_may_claim_after_the_wait_and_spectators_are_counted() {
    let db = TempDb::new();
    let alice = TestApp::with(
        &db,
        wuzi_server::HubConfig {
            claim_after: Duration::from_millis(400),
            ..Default::default()
        },
    );
    let bob = alice.client();
    let carol = alice.client();
    carol.create(json!({"mode": "local"})).await;
    let gid = start(&alice, &bob, json!({})).await;
    alice.play(&gid, "h8").await;
    bob.play(&gid, "j9").await;
    let addr = common::serve(&alice, NetLimits::default()).await;
    let mut a = game_socket(addr, &alice, &gid).await;
    let mut b = game_socket(addr, &bob, &gid).await;
    let mut c = game_socket(addr, &carol, &gid).await;
    // A spectator's coming and going reaches the players at once, and the count is in
    // every view.
    assert_eq!(next_of(&mut a, "crowd").await["spectators"], 1);
    assert_eq!(next_of(&mut b, "crowd").await["spectators"], 1);
    let g = alice.game(&gid).await;
    assert_eq!(g["spectators"], 1, "{g}");
    assert!(g["away"]["second"].is_null(), "{g}");
    c.close(None).await.unwrap();
    drop(c);
    assert_eq!(next_of(&mut a, "crowd").await["spectators"], 0);
    let mut c = game_socket(addr, &carol, &gid).await;
    assert_eq!(next_of(&mut a, "crowd").await["spectators"], 1);
    assert_eq!(next_of(&mut c, "state").await["game"]["spectators"], 1);
    // Nothing to claim while Bob is there.
    let (s, e) = alice
        .post(&format!("/api/games/{gid}/claim"), json!({"result": "win"}))
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    b.close(None).await.unwrap();
    drop(b);
    let g = state_where(&mut a, |g| !g["away"]["second"].is_null()).await;
    assert!(g["away"]["first"].is_null());
    let (s, e) = carol
        .post(&format!("/api/games/{gid}/claim"), json!({"result": "win"}))
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN, "a spectator claims nothing: {e}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (s, g) = alice
        .post(&format!("/api/games/{gid}/claim"), json!({"result": "win"}))
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["result"]["winner"], "black");
    assert_eq!(g["result"]["reason"], "abandoned");
}

#[tokio::test]
async fn a_player_whose_opponent_left_may_claim_a_draw_instead() {
    let db = TempDb::new();
    let alice = TestApp::with(
        &db,
        wuzi_server::HubConfig {
            claim_after: Duration::from_millis(300),
            ..Default::default()
        },
    );
    let bob = alice.client();
    let gid = start(&alice, &bob, json!({"rated": true})).await;
    alice.play(&gid, "h8").await;
    bob.play(&gid, "j9").await;
    let addr = common::serve(&alice, NetLimits::default()).await;
    let mut a = game_socket(addr, &alice, &gid).await;
    let b = game_socket(addr, &bob, &gid).await;
    drop(b);
    state_where(&mut a, |g| !g["away"]["second"].is_null()).await;
    // Too early, then a result that is no claim.
    let (s, e) = alice
        .post(
            &format!("/api/games/{gid}/claim"),
            json!({"result": "draw"}),
        )
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    tokio::time::sleep(Duration::from_millis(400)).await;
    let (s, e) = alice
        .post(
            &format!("/api/games/{gid}/claim"),
            json!({"result": "loss"}),
        )
        .await;
    assert!(s.is_client_error(), "{s} {e}");
    assert!(alice.game(&gid).await["result"].is_null());
    // The one who left claims nothing.
    let (s, e) = bob
        .post(
            &format!("/api/games/{gid}/claim"),
            json!({"result": "draw"}),
        )
        .await;
    assert!(s.is_client_error(), "{s} {e}");
    let (s, g) = alice
        .post(
            &format!("/api/games/{gid}/claim"),
            json!({"result": "draw"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert!(g["result"]["winner"].is_null(), "{g}");
    assert_eq!(g["result"]["reason"], "abandoned");
    // A drawn rated game: both rated, nobody far from 1500.
    let (_, r) = alice.get(&format!("/api/games/{gid}/rating")).await;
    assert_eq!(r.as_array().map(Vec::len), Some(2), "{r}");
}

#[tokio::test]
async fn the_watch_list_shows_games_in_play_highest_rated_first() {
    let db = TempDb::new();
    let alice = TestApp::on(&db);
    let bob = alice.client();
    let casual = start(&alice, &bob, json!({})).await;
    let rated = start(&alice, &bob, json!({"rated": true})).await;
    let (s, live) = alice.client().get("/api/live").await;
    assert_eq!(s, StatusCode::OK);
    let live = live.as_array().unwrap();
    assert_eq!(live.len(), 2, "{live:?}");
    assert_eq!(live[0]["id"], rated.as_str(), "rated (1500) before unrated");
    assert_eq!(live[0]["black"]["id"], me(&alice).await.as_str());
    assert_eq!(live[1]["id"], casual.as_str());
    // A finished game leaves the list.
    alice
        .post(&format!("/api/games/{casual}/resign"), json!({}))
        .await;
    let (_, live) = alice.get("/api/live").await;
    assert_eq!(live.as_array().unwrap().len(), 1);
}

async fn say(app: &TestApp, gid: &str, text: &str) -> (StatusCode, Value) {
    app.post(&format!("/api/games/{gid}/chat"), json!({ "text": text }))
        .await
}

#[tokio::test]
async fn players_and_spectators_chat_in_their_own_rooms_within_limits() {
    let db = TempDb::new();
    let alice = TestApp::on(&db);
    let bob = alice.client();
    let carol = alice.client();
    carol.create(json!({"mode": "local"})).await;
    let gid = start(&alice, &bob, json!({})).await;
    let addr = common::serve(&alice, NetLimits::default()).await;
    let mut a = game_socket(addr, &alice, &gid).await;
    next_of(&mut a, "state").await;
    // The spectator's message does not reach the players' sockets; Bob's does.
    let (s, m) = say(&carol, &gid, "go black!").await;
    assert_eq!(s, StatusCode::CREATED, "{m}");
    assert_eq!(m["room"], "spectators");
    let (s, m) = say(&bob, &gid, "  good luck <script>alert(1)</script> 🙂 ").await;
    assert_eq!(s, StatusCode::CREATED, "{m}");
    assert_eq!(m["room"], "players");
    let heard = next_of(&mut a, "chat").await;
    assert_eq!(
        heard["message"]["text"],
        "good luck <script>alert(1)</script> 🙂"
    );
    assert_eq!(heard["message"]["author"], me(&bob).await.as_str());
    // Each reads their own room, kept with the game.
    let (_, players) = alice.get(&format!("/api/games/{gid}/chat")).await;
    assert_eq!(players.as_array().unwrap().len(), 1, "{players}");
    let (_, spectators) = carol.get(&format!("/api/games/{gid}/chat")).await;
    assert_eq!(spectators[0]["text"], "go black!");
    // Limits: length, emptiness, pace.
    let (s, _) = say(&alice, &gid, &"x".repeat(201)).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (s, _) = say(&alice, &gid, " \n ").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let mut refused = false;
    for i in 0..8 {
        let (s, _) = say(&alice, &gid, &format!("spam {i}")).await;
        refused |= s == StatusCode::TOO_MANY_REQUESTS;
    }
    assert!(refused, "a burst of eight is slowed down");
    // Chat is for games between people.
    let computer = alice.create(json!({})).await;
    let (s, _) = alice
        .post(
            &format!("/api/games/{}/chat", computer["id"].as_str().unwrap()),
            json!({"text": "hi"}),
        )
        .await;
    assert_eq!(s, StatusCode::CONFLICT);
}
