//! Accounts (issue 23): registering a guest in place, signing in and out, passwords,
//! throttling, deletion, and what each does to the seats a browser owns.

mod common;

use axum::http::StatusCode;
use common::{TempDb, TestApp, code};
use serde_json::json;

fn cookie(app: &TestApp) -> Option<String> {
    app.cookie.lock().unwrap().clone()
}

#[tokio::test]
async fn a_guest_registers_in_place_and_keeps_its_games() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let g = app.create(json!({"mode": "local"})).await;
    let id = g["id"].as_str().unwrap().to_string();
    app.play(&id, "h8").await;
    let guest = cookie(&app);
    let (_, me) = app.get("/api/me").await;
    assert_eq!(me["kind"], "guest");
    let (s, a) = app
        .post(
            "/api/account/register",
            json!({"username": "Wu_Zi", "password": "correct horse", "display_name": "五子棋 <b>大师</b>"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{a}");
    assert_eq!(a["display_name"], "五子棋 <b>大师</b>", "stored verbatim");
    assert_ne!(cookie(&app), guest, "a new session token at registration");
    let (_, me) = app.get("/api/me").await;
    assert_eq!(me["kind"], "account");
    assert_eq!(me["identity"], g["owners"]["first"], "the same identity");
    // The guest's game is the account's.
    assert_eq!(app.play(&id, "i9").await["ply"], 2);
    // The old guest session is gone.
    *app.cookie.lock().unwrap() = guest;
    let (_, me) = app.get("/api/me").await;
    assert_eq!(me["identity"], serde_json::Value::Null);
    // Usernames are unique without regard to case; bad ones are refused.
    let other = TestApp::on(&db);
    other.create(json!({"mode": "local"})).await;
    for (body, status) in [
        (
            json!({"username": "wu_zi", "password": "another one"}),
            StatusCode::CONFLICT,
        ),
        (
            json!({"username": "x", "password": "long enough"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"username": "ok_name", "password": "short"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"username": "ok'; DROP TABLE accounts;--", "password": "long enough"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"username": "ok_name", "password": "long enough", "display_name": ""}),
            StatusCode::BAD_REQUEST,
        ),
    ] {
        let (s, e) = other.post("/api/account/register", body.clone()).await;
        assert_eq!(s, status, "{body}: {e}");
    }
}

#[tokio::test]
async fn sign_out_and_in_moves_the_seats_with_the_account() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let g = app.create(json!({"mode": "local"})).await;
    let id = g["id"].as_str().unwrap().to_string();
    let (s, _) = app
        .post(
            "/api/account/register",
            json!({"username": "alice", "password": "secret pass"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED);
    let (s, _) = app.post("/api/account/logout", json!({})).await;
    assert_eq!(s, StatusCode::OK);
    // Signed out, this browser is a stranger to the game.
    let (s, e) = app
        .post(&format!("/api/games/{id}/moves"), json!({"pos": "h8"}))
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{e}");
    // A wrong password and an unknown user get the same answer.
    let (s1, e1) = app
        .post(
            "/api/account/login",
            json!({"username": "alice", "password": "wrong pass"}),
        )
        .await;
    let (s2, e2) = app
        .post(
            "/api/account/login",
            json!({"username": "nobody", "password": "wrong pass"}),
        )
        .await;
    assert_eq!(
        (s1, s2),
        (StatusCode::UNAUTHORIZED, StatusCode::UNAUTHORIZED)
    );
    assert_eq!(e1["error"], e2["error"]);
    let (s, a) = app
        .post(
            "/api/account/login",
            json!({"username": "ALICE", "password": "secret pass"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{a}");
    assert_eq!(app.play(&id, "h8").await["ply"], 1);
}

#[tokio::test]
async fn sign_in_is_throttled_without_saying_whether_the_user_exists() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    for name in ["carol", "nobody"] {
        let mut last = (StatusCode::OK, json!(null));
        for _ in 0..6 {
            last = app
                .post_from(
                    [10, 1, 1, 1],
                    "/api/account/login",
                    json!({"username": name, "password": "wrong pass"}),
                )
                .await;
        }
        assert_eq!(last.0, StatusCode::TOO_MANY_REQUESTS, "{name}: {}", last.1);
        let text = last.1["error"].as_str().unwrap();
        assert!(
            text.starts_with("too many sign-in attempts; try again in "),
            "{text}"
        );
        assert_eq!(code(&last.1), "too_many_requests");
    }
}

#[tokio::test]
async fn password_change_sign_out_everywhere_and_deletion() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let g = app.create(json!({"mode": "local"})).await;
    let id = g["id"].as_str().unwrap().to_string();
    app.post(
        "/api/account/register",
        json!({"username": "dave", "password": "first pass"}),
    )
    .await;
    // A second browser signs in to the same account.
    let laptop = TestApp::on(&db);
    let (s, _) = laptop
        .post(
            "/api/account/login",
            json!({"username": "dave", "password": "first pass"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    let (s, e) = app
        .post(
            "/api/account/password",
            json!({"password": "wrong pass", "new_password": "second pass"}),
        )
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "{e}");
    let (s, e) = app
        .post(
            "/api/account/password",
            json!({"password": "first pass", "new_password": "second pass"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{e}");
    // The other session ended; this one goes on.
    let (_, me) = laptop.get("/api/me").await;
    assert_eq!(me["identity"], serde_json::Value::Null, "{me}");
    let (_, me) = app.get("/api/me").await;
    assert_eq!(me["username"], "dave");
    let (s, _) = laptop
        .post(
            "/api/account/login",
            json!({"username": "dave", "password": "first pass"}),
        )
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let (s, _) = laptop
        .post(
            "/api/account/login",
            json!({"username": "dave", "password": "second pass"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    // Sign out everywhere.
    let (s, _) = app.post("/api/account/logout-all", json!({})).await;
    assert_eq!(s, StatusCode::OK);
    let (_, me) = laptop.get("/api/me").await;
    assert_eq!(me["identity"], serde_json::Value::Null);
    // Deletion: the personal data goes, the game stays with its owner id.
    app.post(
        "/api/account/login",
        json!({"username": "dave", "password": "second pass"}),
    )
    .await;
    let (s, e, _) = app
        .send(
            axum::http::Request::delete("/api/account")
                .header("content-type", "application/json")
                .body(axum::body::Body::from(r#"{"password":"second pass"}"#))
                .unwrap(),
        )
        .await;
    let (s, e) = (s, e);
    assert_eq!(s, StatusCode::OK, "{e}");
    let (s, _) = app
        .post(
            "/api/account/login",
            json!({"username": "dave", "password": "second pass"}),
        )
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let g = app.game(&id).await;
    assert_eq!(g["owners"]["first"], g["owners"]["second"]);
    assert!(
        app.hub
            .store()
            .account_by_name("dave".into())
            .await
            .unwrap()
            .is_none()
    );
}

/// Issue 23, item 8: personal API tokens for programs: shown once, stored hashed, sent as
/// `Authorization: Bearer`, revocable; a revoked token acts for nobody.
#[tokio::test]
async fn api_tokens_let_a_program_play_its_own_games() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    app.create(json!({"mode": "local"})).await;
    app.post(
        "/api/account/register",
        json!({"username": "botmaker", "password": "long enough"}),
    )
    .await;
    let (s, t) = app
        .post("/api/account/tokens", json!({"name": "my bot"}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{t}");
    let token = t["token"].as_str().unwrap().to_string();
    let (_, list) = app.get("/api/account/tokens").await;
    assert_eq!(list[0]["name"], "my bot");
    assert!(list[0].get("token").is_none(), "shown once: {list}");
    // The program: no cookie, the token in a header.
    let bot = |method: &str, uri: String, body: serde_json::Value| {
        axum::http::Request::builder()
            .method(method)
            .uri(uri)
            .header("content-type", "application/json")
            .header("authorization", format!("Bearer {token}"))
            .body(axum::body::Body::from(body.to_string()))
            .unwrap()
    };
    let (s, g, headers) = app
        .send_bare(bot("POST", "/api/games".into(), json!({"mode": "local"})))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    assert!(
        headers.get("set-cookie").is_none(),
        "no guest for a program"
    );
    let id = g["id"].as_str().unwrap().to_string();
    let (s, g, _) = app
        .send_bare(bot(
            "POST",
            format!("/api/games/{id}/moves"),
            json!({"pos": "h8"}),
        ))
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    // The account's browser owns the same game.
    assert_eq!(app.play(&id, "i9").await["ply"], 2);
    // Revoked: the token acts for nobody, and nothing changes.
    let tid = list[0]["id"].as_str().unwrap();
    let (s, r, _) = app
        .send(
            axum::http::Request::delete(format!("/api/account/tokens/{tid}"))
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{r}");
    let (s, e, _) = app
        .send_bare(bot(
            "POST",
            format!("/api/games/{id}/moves"),
            json!({"pos": "j10"}),
        ))
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "{e}");
    assert_eq!(app.game(&id).await["ply"], 2);
    // Guests have no tokens.
    let guest = TestApp::on(&db);
    guest.create(json!({"mode": "local"})).await;
    let (s, _) = guest
        .post("/api/account/tokens", json!({"name": "x"}))
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
}

/// Issue 23, items 10-11: a player's statistics and history, from their own colour;
/// games at one screen are listed but count for nobody.
#[tokio::test]
async fn profiles_count_results_and_list_history() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    // Two losses against level 1 under renju (resigned as Black, then as White), and a
    // game at one screen.
    let mut ids = Vec::new();
    for color in ["white", "black"] {
        let g = app
            .create(json!({"computer": {"player": "level1", "color": color}, "rule": "renju"}))
            .await;
        let id = g["id"].as_str().unwrap().to_string();
        if color == "white" {
            app.play(&id, "h8").await;
        }
        let g = app
            .wait_ply(&id, if color == "white" { 1 } else { 0 })
            .await;
        assert!(g["result"].is_null(), "{g}");
        let (s, e) = app
            .post(&format!("/api/games/{id}/resign"), json!({}))
            .await;
        assert_eq!(s, StatusCode::OK, "{e}");
        ids.push(id);
    }
    let local = app.create(json!({"mode": "local"})).await;
    let local_id = local["id"].as_str().unwrap().to_string();
    app.play(&local_id, "h8").await;
    let (_, me) = app.get("/api/me").await;
    let who = me["identity"].as_str().unwrap();
    let (s, p) = app.get(&format!("/api/profiles/{who}")).await;
    assert_eq!(s, StatusCode::OK, "{p}");
    assert_eq!(p["kind"], "guest");
    assert_eq!(p["stats"]["all"]["games"], 2, "{p}");
    assert_eq!(p["stats"]["all"]["losses"], 2, "{p}");
    assert_eq!(p["stats"]["by_rule"]["renju"]["games"], 2, "{p}");
    assert_eq!(
        p["stats"]["by_opponent"]["computer:level1"]["losses"], 2,
        "{p}"
    );
    let (_, list) = app.get(&format!("/api/profiles/{who}/games")).await;
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 3, "{list:?}");
    assert_eq!(list[0]["id"], local_id.as_str(), "newest first");
    assert_eq!(list[0]["result"], "playing");
    assert_eq!(list[1]["color"], "white");
    assert_eq!(list[1]["result"], "loss");
    assert_eq!(list[1]["reason"], "resignation");
    let (_, losses) = app
        .get(&format!("/api/profiles/{who}/games?result=loss&rule=renju"))
        .await;
    assert_eq!(losses.as_array().unwrap().len(), 2);
    let (_, none) = app
        .get(&format!(
            "/api/profiles/{who}/games?opponent=computer:level9"
        ))
        .await;
    assert!(none.as_array().unwrap().is_empty());
    let (s, _) = app.get("/api/profiles/zzzzzzzzzzzzzzzz").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _) = app
        .get(&format!("/api/profiles/{who}/games?result=maybe"))
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
}

/// Issue 23, item 11: "download all my games" is one archive of SGF and PSQ files, for the
/// player only.
#[tokio::test]
async fn a_player_downloads_all_their_games_as_one_archive() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let mut ids = Vec::new();
    for _ in 0..2 {
        let g = app.create(json!({"mode": "local"})).await;
        let id = g["id"].as_str().unwrap().to_string();
        app.play(&id, "h8").await;
        ids.push(id);
    }
    let (_, me) = app.get("/api/me").await;
    let who = me["identity"].as_str().unwrap().to_string();
    let (s, body, headers) = app
        .send(
            axum::http::Request::get(format!("/api/profiles/{who}/archive"))
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(headers["content-type"], "application/x-tar");
    let tar = body.as_str().unwrap_or_default().to_string();
    for id in &ids {
        assert!(tar.contains(&format!("wuzi-{id}.sgf")), "{id}");
        assert!(tar.contains(&format!("wuzi-{id}.psq")), "{id}");
    }
    assert!(tar.contains("(;FF[4]GM[4]"), "SGF inside");
    let stranger = TestApp::on(&db);
    stranger.create(json!({"mode": "local"})).await;
    let (s, _) = stranger.get(&format!("/api/profiles/{who}/archive")).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
}
