//! `/api/analysis`: the analysis board's position, threat map, forbidden points, live
//! analysis, threat solver and SGF trees, through the router with the real engine.

mod common;

use std::collections::BTreeMap;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::{TempDb, TestApp, code};
use serde_json::{Value, json};

/// The stones of an ASCII board (`X` black, `O` white, row 0 at the top) in renju
/// notation.
fn stones(rows: &[&str]) -> (Vec<String>, Vec<String>) {
    let n = rows.len();
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            let name = format!("{}{}", (b'a' + c as u8) as char, n - r);
            match ch {
                'X' => black.push(name),
                'O' => white.push(name),
                _ => {}
            }
        }
    }
    (black, white)
}

fn position(rule: &str, rows: &[&str], to_move: &str) -> Value {
    let (black, white) = stones(rows);
    json!({"rule": rule, "size": rows.len(), "black": black, "white": white, "to_move": to_move})
}

/// The threat map of one side as name → kind.
fn map(side: &Value) -> BTreeMap<String, String> {
    side.as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["point"]["name"].as_str().unwrap().to_owned(),
                t["kind"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn expect(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect()
}

/// A hand-made board: Black's open three h8-i8-j8, White's open two c3-d3, freestyle.
/// Black: g8 and k8 make open fours, f8 and l8 fours (broken, one completion). White: b3,
/// e3 and f3 make open threes; a3 makes only a closed three (the edge), g3 nothing.
const THREATS: [&str; 15] = [
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    ".......XXX.....",
    "...............",
    "...............",
    "...............",
    "...............",
    "..OO...........",
    "...............",
    "...............",
];

#[tokio::test]
async fn threat_map_of_a_hand_made_board() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let (s, v) = app
        .post(
            "/api/analysis/position",
            json!({"position": position("freestyle", &THREATS, "white")}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        map(&v["threats"]["black"]),
        expect(&[
            ("f8", "four"),
            ("g8", "open_four"),
            ("k8", "open_four"),
            ("l8", "four"),
        ])
    );
    assert_eq!(
        map(&v["threats"]["white"]),
        expect(&[
            ("b3", "open_three"),
            ("e3", "open_three"),
            ("f3", "open_three")
        ])
    );
    assert_eq!(v["side_to_move"], "white");
    assert_eq!(v["result"], Value::Null);
    assert_eq!(v["forbidden"], json!([]));
    // White must stop the open three: the engine's first candidates are g8 and k8.
    let first: Vec<&str> = v["candidates"].as_array().unwrap()[..2]
        .iter()
        .map(|c| c["point"]["name"].as_str().unwrap())
        .collect();
    assert!(
        first.contains(&"g8") || first.contains(&"k8"),
        "candidates {first:?}"
    );

    // A move that makes the five: the game is over, with no map.
    let mut p = position("freestyle", &THREATS, "black");
    p["moves"] = json!(["g8", "a1", "k8"]);
    let (s, v) = app
        .post("/api/analysis/position", json!({"position": p}))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["winner"], "black");
    assert!(v["result"].as_str().unwrap().contains("black wins"), "{v}");
    assert_eq!(v["candidates"], json!([]));
}

#[tokio::test]
async fn forbidden_points_under_renju() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    // The public mintaka set: a complete set of forbidden points on one board.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/renju_forbidden_mintaka.jsonl"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).unwrap();
        if case["check"] != "complete_set" {
            continue;
        }
        let rows: Vec<&str> = case["board"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        let (s, v) = app
            .post(
                "/api/analysis/position",
                json!({"position": position("renju", &rows, "black")}),
            )
            .await;
        assert_eq!(s, StatusCode::OK, "{}: {v}", case["id"]);
        let got: BTreeMap<String, String> = v["forbidden"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["point"]["name"].as_str().unwrap().to_owned(),
                    f["kind"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        let want: BTreeMap<String, String> = case["forbidden_for_black"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["name"].as_str().unwrap().to_owned(),
                    f["kind"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        assert_eq!(got, want, "{}", case["id"]);
        // A forbidden point makes no threat for Black on the map (a stone there loses).
        let black = map(&v["threats"]["black"]);
        for name in want.keys() {
            assert!(
                black.get(name).is_none_or(|k| k == "five"),
                "{name} on Black's map"
            );
        }
        checked += 1;
    }
    assert!(checked > 0);
    // Freestyle has none.
    let (_, v) = app
        .post(
            "/api/analysis/position",
            json!({"position": position("freestyle", &THREATS, "black")}),
        )
        .await;
    assert_eq!(v["forbidden"], json!([]));
}

#[tokio::test]
async fn the_solver_finds_a_known_vcf_and_none_where_there_is_none() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/renju_vcf_puzzles_mintaka.jsonl"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let case: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let rows: Vec<&str> = case["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    let p = position("renju", &rows, case["side_to_move"].as_str().unwrap());
    let (s, v) = app
        .post(
            "/api/analysis/solve",
            json!({"position": p, "kind": "vcf", "time_ms": 5000}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["found"], true, "{v}");
    assert_eq!(v["side"], "black");
    let line: Vec<String> = v["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        line.len() % 2,
        1,
        "the attacker plays first and last: {line:?}"
    );
    assert!(v["nodes"].as_u64().unwrap() > 0);
    // The line, played out, is a win for Black (checked by the rules, not the solver).
    let mut end = p.clone();
    end["moves"] = json!(line);
    let (s, v) = app
        .post("/api/analysis/position", json!({"position": end}))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["winner"], "black", "{v}");

    // White, to move in the same position, has no VCF: "none", with the nodes searched.
    let (s, v) = app
        .post(
            "/api/analysis/solve",
            json!({"position": p, "kind": "vcf", "side": "white"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["found"], false, "{v}");
    assert_eq!(v["line"], json!([]));
    assert_eq!(v["complete"], true);
}

#[tokio::test]
async fn bad_input_is_a_clear_4xx() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let ok = json!({"rule": "renju", "size": 15});
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "/api/analysis/position",
            json!({"position": {"rule": "chess", "size": 15}}),
            "chess",
        ),
        (
            "/api/analysis/position",
            json!({"position": {"rule": "renju", "size": 4}}),
            "5 to 26",
        ),
        (
            "/api/analysis/position",
            json!({"position": {"rule": "renju", "size": 27}}),
            "5 to 26",
        ),
        (
            "/api/analysis/position",
            json!({"position": {"rule": "renju", "size": 15, "black": ["z99"]}}),
            "z99",
        ),
        (
            "/api/analysis/position",
            json!({"position": {"rule": "renju", "size": 15, "black": ["h8"], "white": ["h8"]}}),
            "h8",
        ),
        (
            "/api/analysis/position",
            json!({"position": {"rule": "renju", "size": 15, "moves": ["h8", "h8"]}}),
            "move 2",
        ),
        (
            "/api/analysis/position",
            json!({"position": {"rule": "renju", "size": 15, "colour": "red"}}),
            "colour",
        ),
        ("/api/analysis/position", json!({"position": ok}), ""),
        (
            "/api/analysis/stream",
            json!({"position": ok, "multipv": 6}),
            "multipv",
        ),
        (
            "/api/analysis/stream",
            json!({"position": ok, "multipv": 0}),
            "multipv",
        ),
        (
            "/api/analysis/solve",
            json!({"position": ok, "kind": "mate"}),
            "kind",
        ),
        (
            "/api/analysis/solve",
            json!({"position": {"rule": "freestyle", "size": 5, "moves": ["a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2", "e1"]}, "kind": "vcf"}),
            "over",
        ),
        (
            "/api/analysis/sgf",
            json!({"position": ok, "nodes": [{"parent": 3, "move": "h8"}]}),
            "parent",
        ),
        (
            "/api/analysis/sgf",
            json!({"position": ok, "nodes": [{"parent": null, "move": "h8"}, {"parent": 0, "move": "h8"}]}),
            "node 1",
        ),
        (
            "/api/analysis/tree",
            json!({"sgf": "(;FF[4]GM[4]SZ[15];B[hh];W[hh])"}),
            "",
        ),
        ("/api/analysis/tree", json!({"sgf": "not sgf"}), ""),
        (
            "/api/analysis/tree",
            json!({"sgf": "(;FF[4]GM[4]SZ[30])"}),
            "",
        ),
    ];
    for (uri, body, needle) in cases {
        let (s, v) = app.post(uri, body.clone()).await;
        if needle.is_empty() && uri == "/api/analysis/position" {
            assert_eq!(s, StatusCode::OK, "{body}: {v}");
            continue;
        }
        assert!(s.is_client_error(), "{uri} {body}: {s} {v}");
        let message = v["error"].as_str().unwrap_or_default();
        assert!(!code(&v).is_empty(), "{v}");
        assert!(message.contains(needle), "{uri} {body}: {message}");
    }
    // Not JSON at all.
    let (s, _) = app.post_raw("/api/analysis/solve", "{".into()).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_tree_goes_to_sgf_with_variations_and_back() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let tree = json!({
        "position": {"rule": "renju", "size": 15, "black": ["a1"], "white": ["o15"], "to_move": "black"},
        "comment": "study <b>",
        "nodes": [
            {"parent": null, "move": "h8"},
            {"parent": 0, "move": "i9", "comment": "main"},
            {"parent": 1, "move": "j10"},
            {"parent": 0, "move": "h9", "comment": "a side line"},
            {"parent": 3, "move": "g8"},
            {"parent": null, "move": "g7"},
        ]
    });
    let (s, v) = app.post("/api/analysis/sgf", tree.clone()).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let sgf = v["sgf"].as_str().unwrap();
    assert!(sgf.contains("AB[ao]"), "{sgf}");
    assert!(sgf.contains("(;W[hg]C[a side line];B[gh])"), "{sgf}");
    let (s, back) = app.post("/api/analysis/tree", json!({"sgf": sgf})).await;
    assert_eq!(s, StatusCode::OK, "{back}");
    assert_eq!(
        back["nodes"],
        tree["nodes"]
            .clone()
            .as_array()
            .unwrap()
            .iter()
            .map(|n| {
                let mut n = n.clone();
                if n.get("comment").is_none() {
                    n.as_object_mut().unwrap().remove("comment");
                }
                n
            })
            .collect::<Value>()
    );
    assert_eq!(back["comment"], "study <b>");
    assert_eq!(back["position"]["black"], json!(["a1"]));
    assert_eq!(back["position"]["white"], json!(["o15"]));
    assert_eq!(back["position"]["rule"], "renju");
    assert_eq!(back["position"]["to_move"], "black");
}

#[tokio::test]
async fn live_analysis_streams_lines_and_ends() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let body = json!({
        "position": {"rule": "freestyle", "size": 15, "moves": ["h8", "i9", "j8"]},
        "multipv": 3,
        "time_ms": 400,
    });
    let (s, v, headers) = app
        .send(
            Request::post("/api/analysis/stream")
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body.to_string()))
                .unwrap(),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_TYPE], "application/x-ndjson");
    let text = v.as_str().expect("ndjson is not one JSON value");
    let msgs: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(msgs[0]["type"], "queued");
    assert_eq!(msgs.last().unwrap()["type"], "done");
    let ranks: std::collections::BTreeSet<u64> = msgs
        .iter()
        .filter(|m| m["type"] == "line")
        .map(|m| m["rank"].as_u64().unwrap())
        .collect();
    assert_eq!(ranks, [1, 2, 3].into_iter().collect(), "{text}");
    let line = msgs.iter().rfind(|m| m["type"] == "line").unwrap();
    assert!(line["pv"].as_array().is_some_and(|pv| !pv.is_empty()));
    assert!(line["score_text"].is_string());
}

#[tokio::test]
async fn per_client_limit_applies_to_the_analysis_board() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let p = json!({"rule": "freestyle", "size": 15, "moves": ["h8", "i9", "j8"]});
    let ip = [10, 0, 0, 7];
    // Two live analyses in flight from one address; a third search is refused with 429.
    let a = app.post_from(
        ip,
        "/api/analysis/stream",
        json!({"position": p, "time_ms": 800}),
    );
    let b = app.post_from(
        ip,
        "/api/analysis/stream",
        json!({"position": p, "time_ms": 800}),
    );
    let c = async {
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        app.post_from(
            ip,
            "/api/analysis/solve",
            json!({"position": p, "kind": "vcf"}),
        )
        .await
    };
    let (ra, rb, rc) = tokio::join!(a, b, c);
    assert_eq!(ra.0, StatusCode::OK, "{}", ra.1);
    assert_eq!(rb.0, StatusCode::OK, "{}", rb.1);
    assert_eq!(rc.0, StatusCode::TOO_MANY_REQUESTS, "{}", rc.1);
}
