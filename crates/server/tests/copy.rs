//! `wuzi db copy` (issue 26, item 5): an installation on SQLite, with accounts, sessions,
//! a rated game between two people with its rating changes, chat and a local game, is
//! copied into PostgreSQL (and back), and the copy serves the same people and games.

mod common;

use axum::http::StatusCode;
use common::{PgServer, TempDb, TestApp, register};
use serde_json::{Value, json};
use wuzi_server::{DbLocation, Store};

fn sqlite_db() -> TempDb {
    // Whatever the suite's store, the source here is a SQLite file.
    let dir = std::env::temp_dir().join(format!("wuzi-copy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    TempDb::at(DbLocation::Sqlite(dir.join(format!(
        "{}.sqlite3",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ))))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_installation_moves_to_postgresql_and_back_with_everything() {
    let sqlite = sqlite_db();
    let (alice, bob, local, rated, challenge) = {
        let alice = TestApp::on(&sqlite);
        let bob = alice.client();
        register(&alice, "alice").await;
        register(&bob, "bob").await;
        let local = alice.create(json!({"mode": "local"})).await["id"]
            .as_str()
            .unwrap()
            .to_owned();
        alice.play(&local, "h8").await;
        alice.play(&local, "i9").await;
        // A rated game between the two, resigned: both rated, with a change each.
        let clock = json!({"kind": "side", "initial_seconds": 300, "increment_seconds": 3});
        let (s, seek) = alice
            .post(
                "/api/seeks",
                json!({"rule": "freestyle", "size": 15, "clock": clock, "rated": true, "color": "black"}),
            )
            .await;
        assert_eq!(s, StatusCode::CREATED, "{seek}");
        let (s, g) = bob
            .post(
                &format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap()),
                json!({}),
            )
            .await;
        assert_eq!(s, StatusCode::CREATED, "{g}");
        let rated = g["id"].as_str().unwrap().to_owned();
        alice.play(&rated, "h8").await;
        bob.play(&rated, "j9").await;
        let (s, m) = bob
            .post(
                &format!("/api/games/{rated}/chat"),
                json!({"text": "好棋 <b>gg</b>"}),
            )
            .await;
        assert_eq!(s, StatusCode::CREATED, "{m}");
        let (s, _) = bob
            .post(&format!("/api/games/{rated}/resign"), json!({}))
            .await;
        assert_eq!(s, StatusCode::OK);
        // An open challenge link, still unanswered.
        let (s, c) = alice
            .post("/api/challenges", json!({"terms": {"clock": clock}}))
            .await;
        assert_eq!(s, StatusCode::CREATED, "{c}");
        // A rated puzzle try.
        wuzi_server::puzzles::seed(alice.hub.store()).await.unwrap();
        let (_, p) = alice.get("/api/puzzles/next").await;
        let puzzle = p["puzzle"]["id"].as_str().unwrap().to_owned();
        let (s, t) = alice
            .post(
                &format!("/api/puzzles/{puzzle}/attempt"),
                json!({"solved": true}),
            )
            .await;
        assert_eq!(s, StatusCode::OK, "{t}");
        let alice_cookie = alice.cookie.lock().unwrap().clone();
        let bob_cookie = bob.cookie.lock().unwrap().clone();
        alice.hub.close();
        (
            alice_cookie,
            bob_cookie,
            local,
            rated,
            c["id"].as_str().unwrap().to_owned(),
        )
    };

    let pg = PgServer::get();
    let target = TempDb::on_postgres(&pg.url);
    let copied = tokio::task::spawn_blocking({
        let (from, to) = (sqlite.location.clone(), target.location.clone());
        move || {
            let (src, dst) = (Store::connect(&from).unwrap(), Store::connect(&to).unwrap());
            let report = src.copy_into(&dst).unwrap();
            // A second copy into the same database is refused and changes nothing.
            let again = src.copy_into(&dst);
            assert!(again.is_err(), "{again:?}");
            report
        }
    })
    .await
    .unwrap();
    let rows = |t: &str| copied.iter().find(|r| r.0 == t).map(|r| (r.1, r.2));
    assert_eq!(rows("games"), Some((2, 2)), "{copied:?}");
    assert_eq!(rows("accounts"), Some((2, 2)));
    assert_eq!(rows("rating_changes"), Some((2, 2)));
    assert_eq!(rows("ratings"), Some((2, 2)));
    assert_eq!(rows("chat_messages"), Some((1, 1)));
    assert_eq!(rows("challenges"), Some((1, 1)));
    assert!(rows("sessions").unwrap().0 >= 2);
    let shipped = wuzi_server::puzzles::builtin().len() as i64;
    assert_eq!(rows("puzzles"), Some((shipped, shipped)));
    assert_eq!(rows("puzzle_players"), Some((1, 1)));
    assert_eq!(rows("puzzle_attempts"), Some((1, 1)));

    // The copy serves the same people: their sessions, games, ratings and chat.
    let app = TestApp::on(&target);
    let (s, c) = app.get(&format!("/api/challenges/{challenge}")).await;
    assert_eq!(s, StatusCode::OK, "the open challenge came along: {c}");
    *app.cookie.lock().unwrap() = alice;
    let (_, me) = app.get("/api/me").await;
    assert_eq!(me["username"], "alice", "{me}");
    let (_, p) = app.get("/api/puzzles").await;
    assert_eq!(
        (
            p["player"]["plays"].as_i64(),
            p["player"]["streak"].as_i64()
        ),
        (Some(1), Some(1)),
        "{p}"
    );
    let g = app.game(&local).await;
    assert_eq!(g["ply"], 2);
    let g = app.game(&rated).await;
    assert_eq!(g["result"]["winner"], "black", "{g}");
    let (_, changes) = app.get(&format!("/api/games/{rated}/rating")).await;
    assert_eq!(changes.as_array().map(Vec::len), Some(2), "{changes}");
    let (_, chat) = app.get(&format!("/api/games/{rated}/chat")).await;
    assert_eq!(chat[0]["text"], "好棋 <b>gg</b>", "{chat}");
    let bob_app = app.client();
    *bob_app.cookie.lock().unwrap() = bob;
    // New rows go on from the copied ones (chat numbers, a new game).
    let (s, m) = bob_app
        .post(
            &format!("/api/games/{rated}/chat"),
            json!({"text": "again"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{m}");
    assert!(
        m["id"].as_i64() > chat[0]["id"].as_i64(),
        "{m} after {chat}"
    );
    let (_, me) = bob_app.get("/api/me").await;
    let (_, history) = bob_app
        .get(&format!(
            "/api/profiles/{}/games",
            me["identity"].as_str().unwrap()
        ))
        .await;
    let listed: Vec<&Value> = history
        .as_array()
        .map(|v| v.iter().collect())
        .unwrap_or_default();
    assert!(
        listed
            .iter()
            .any(|g| g["id"] == rated.as_str() && g["rating_change"].as_f64() < Some(0.0)),
        "{history}"
    );
    app.hub.close();

    // And back to a new SQLite file: the same counts.
    let back = sqlite_db();
    let report = tokio::task::spawn_blocking({
        let (from, to) = (target.location.clone(), back.location.clone());
        move || {
            let (src, dst) = (Store::connect(&from).unwrap(), Store::connect(&to).unwrap());
            src.copy_into(&dst).unwrap()
        }
    })
    .await
    .unwrap();
    let rows = |t: &str| report.iter().find(|r| r.0 == t).map(|r| (r.1, r.2));
    assert_eq!(rows("games"), Some((2, 2)));
    assert_eq!(rows("chat_messages"), Some((2, 2)));
}
