//! Issue 23, item 19: every state-changing endpoint, called by someone who may not: no
//! identity, another identity, a revoked API token, a forged Origin. Each gets 401 or 403
//! and nothing of the owner's changes. Text fields keep SQL metacharacters verbatim.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::{TempDb, TestApp};
use serde_json::{Value, json};

/// What the owner has, to compare before and after the attacks.
async fn owner_state(app: &TestApp, games: &[String], who: &str) -> Vec<Value> {
    let mut out = Vec::new();
    for id in games {
        out.push(serde_json::to_value(app.stored(id).await.state).unwrap());
    }
    let (_, me) = app.get("/api/me").await;
    out.push(me);
    let (_, tokens) = app.get("/api/account/tokens").await;
    out.push(tokens);
    let (_, games) = app.get(&format!("/api/profiles/{who}/games")).await;
    out.push(games);
    let (_, seeks) = app.get("/api/seeks").await;
    out.push(seeks);
    let (_, challenges) = app.get("/api/challenges").await;
    out.push(challenges);
    out
}

#[tokio::test]
async fn nobody_but_the_owner_changes_anything() {
    let db = TempDb::new();
    let owner = TestApp::on(&db);
    let local = owner.create(json!({"mode": "local"})).await;
    owner
        .post(
            "/api/account/register",
            json!({"username": "owner", "password": "owner's pass", "display_name": "Robert'); DROP TABLE games;--"}),
        )
        .await;
    let computer = owner
        .create(json!({"computer": {"player": "level1", "color": "white"}}))
        .await;
    let rated = owner
        .create(json!({
            "computer": {"player": "level1", "color": "white"},
            "clock": {"kind": "side", "initial_seconds": 600, "increment_seconds": 0},
            "rated": true
        }))
        .await;
    let games: Vec<String> = [&local, &computer, &rated]
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect();
    owner.play(&games[0], "h8").await;
    owner.play(&games[1], "h8").await;
    owner.wait_ply(&games[1], 1).await;
    owner.play(&games[2], "h8").await;
    owner.wait_ply(&games[2], 1).await;
    let (_, kept) = owner
        .post("/api/account/tokens", json!({"name": "kept \" ' ; --"}))
        .await;
    let (_, revoked) = owner
        .post("/api/account/tokens", json!({"name": "revoked"}))
        .await;
    let revoked_token = revoked["token"].as_str().unwrap().to_string();
    let (s, _, _) = owner
        .send(
            Request::delete(format!(
                "/api/account/tokens/{}",
                revoked["id"].as_str().unwrap()
            ))
            .body(Body::empty())
            .unwrap(),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    // An open seek and an open challenge link of the owner's.
    let clock = json!({"kind": "side", "initial_seconds": 300, "increment_seconds": 0});
    let (_, seek) = owner.post("/api/seeks", json!({"clock": clock})).await;
    let (_, challenge) = owner
        .post("/api/challenges", json!({"terms": {"clock": clock}}))
        .await;
    let (seek, challenge) = (
        seek["id"].as_str().unwrap().to_string(),
        challenge["id"].as_str().unwrap().to_string(),
    );
    let (_, me) = owner.get("/api/me").await;
    let who = me["identity"].as_str().unwrap().to_string();
    assert_eq!(
        me["display_name"], "Robert'); DROP TABLE games;--",
        "stored verbatim"
    );
    let owner_cookie = owner.cookie.lock().unwrap().clone().unwrap();
    let before = owner_state(&owner, &games, &who).await;

    // Another person, with an account of their own.
    let other = owner.client();
    other.create(json!({"mode": "local"})).await;
    other
        .post(
            "/api/account/register",
            json!({"username": "mallory", "password": "mallory pass"}),
        )
        .await;
    let other_cookie = other.cookie.lock().unwrap().clone().unwrap();

    let kept_id = kept["id"].as_str().unwrap();
    let mut endpoints: Vec<(&str, String, Value)> = Vec::new();
    for id in &games {
        for (path, body) in [
            ("moves", json!({"pos": "a1"})),
            ("undo", json!({})),
            ("resign", json!({})),
            ("resign", json!({"color": "white"})),
            ("restart", json!({})),
            ("opening", json!({"choice": "black"})),
            ("hint", json!({})),
            ("analysis", json!({})),
            ("stop", json!({})),
        ] {
            endpoints.push(("POST", format!("/api/games/{id}/{path}"), body));
        }
    }
    endpoints.push((
        "DELETE",
        format!("/api/account/tokens/{kept_id}"),
        json!({}),
    ));
    endpoints.push(("GET", format!("/api/profiles/{who}/archive"), Value::Null));
    endpoints.push(("DELETE", format!("/api/seeks/{seek}"), Value::Null));
    endpoints.push((
        "DELETE",
        format!("/api/challenges/{challenge}"),
        Value::Null,
    ));
    endpoints.push((
        "POST",
        format!("/api/challenges/{challenge}/decline"),
        json!({}),
    ));
    // The owner's account, even with the owner's password in hand.
    endpoints.push((
        "POST",
        "/api/account/password".into(),
        json!({"password": "owner's pass", "new_password": "taken over"}),
    ));
    endpoints.push((
        "DELETE",
        "/api/account".into(),
        json!({"password": "owner's pass"}),
    ));
    // Changes to one's own account: refused without a (valid, same-site) identity.
    let own_account = endpoints.len();
    for (method, uri) in [
        ("POST", "/api/account/logout-all"),
        ("POST", "/api/account/tokens"),
    ] {
        endpoints.push((method, uri.into(), json!({"name": "x"})));
    }

    enum Attacker<'a> {
        Nobody,
        Other(&'a str),
        Revoked(&'a str),
        ForgedOrigin(&'a str),
    }
    for attacker in [
        Attacker::Nobody,
        Attacker::Other(&other_cookie),
        Attacker::Revoked(&revoked_token),
        Attacker::ForgedOrigin(&owner_cookie),
    ] {
        for (i, (method, uri, body)) in endpoints.iter().enumerate() {
            // Another account may change its own account (not the owner's).
            if i >= own_account && matches!(attacker, Attacker::Other(_)) {
                continue;
            }
            // A read from another site is not forgery: the browser keeps the answer from the
            // other site's script (no CORS headers are sent).
            if *method == "GET" && matches!(attacker, Attacker::ForgedOrigin(_)) {
                continue;
            }
            let mut req = Request::builder()
                .method(*method)
                .uri(uri)
                .header(header::HOST, "127.0.0.1:8080");
            if !body.is_null() {
                req = req.header(header::CONTENT_TYPE, "application/json");
            }
            let name = match attacker {
                Attacker::Nobody => "no identity",
                Attacker::Other(c) => {
                    req = req.header(header::COOKIE, c);
                    "another identity"
                }
                Attacker::Revoked(t) => {
                    req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
                    "a revoked token"
                }
                Attacker::ForgedOrigin(c) => {
                    req = req
                        .header(header::COOKIE, c)
                        .header(header::ORIGIN, "https://evil.example");
                    "a forged Origin"
                }
            };
            let body = if body.is_null() {
                String::new()
            } else {
                body.to_string()
            };
            let (s, e, _) = owner.send_bare(req.body(Body::from(body)).unwrap()).await;
            assert!(
                matches!(
                    s,
                    StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN | StatusCode::NOT_FOUND
                ),
                "{method} {uri} with {name}: {s} {e}"
            );
        }
    }
    // The owner's games, session, tokens and history are as they were.
    *owner.cookie.lock().unwrap() = Some(owner_cookie);
    assert_eq!(owner_state(&owner, &games, &who).await, before);
    let (s, _) = owner
        .post(
            "/api/account/login",
            json!({"username": "owner", "password": "owner's pass"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "the password is unchanged");
}
