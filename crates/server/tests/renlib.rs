//! Issue 27, item 13: RenLib libraries into the analysis board. `POST /api/analysis/renlib`
//! reads a real `.lib` (testdata/renlib) into the board's flat tree; damaged or foreign
//! files, bad base64 and files too large are clear 4xx errors, never a panic.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use base64::Engine as _;
use common::{TempDb, TestApp, code};
use serde_json::{Value, json};

fn lib(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/../../testdata/renlib/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

async fn read(app: &TestApp, bytes: &[u8]) -> (StatusCode, Value) {
    app.post("/api/analysis/renlib", json!({"data": b64(bytes)}))
        .await
}

/// The node whose line from the root is `line`.
fn node_of(tree: &Value, line: &[&str]) -> Option<usize> {
    let nodes = tree["nodes"].as_array().unwrap();
    let mut parent: Option<usize> = None;
    let mut found = None;
    for mv in line {
        found = nodes
            .iter()
            .position(|n| n["move"] == *mv && n["parent"].as_u64().map(|p| p as usize) == parent);
        parent = Some(found?);
    }
    found
}

#[tokio::test]
async fn a_real_library_reads_into_the_boards_tree() {
    let db = TempDb::new();
    let app = TestApp::on(&db);

    // D4.lib: RenLib 3.0, Kagetsu (h8 h9 i9) analysed, 3058 moves.
    let (s, t) = read(&app, &lib("D4.lib")).await;
    assert_eq!(s, StatusCode::OK, "{t}");
    assert_eq!(t["version"], "3.0");
    assert_eq!(t["position"]["rule"], "renju");
    assert_eq!(t["position"]["size"], 15);
    assert_eq!(t["position"]["to_move"], "black");
    let nodes = t["nodes"].as_array().unwrap();
    let skipped = t["skipped"].as_u64().unwrap() as usize;
    assert_eq!(nodes.len() + skipped, 3058, "every move is kept or counted");
    assert!(nodes.len() > 3000, "{} moves kept", nodes.len());
    // Pre-order, each node after its parent; the main line starts h8 h9 i9 g10.
    for (i, n) in nodes.iter().enumerate() {
        if let Some(p) = n["parent"].as_u64() {
            assert!((p as usize) < i, "node {i}: parent {p}");
        }
    }
    let main: Vec<&str> = nodes
        .iter()
        .take(4)
        .map(|n| n["move"].as_str().unwrap())
        .collect();
    assert_eq!(main, ["h8", "h9", "i9", "g10"]);
    // A known comment: after h8 h9 i9 g10, Black's j8 "Transition to opening D7".
    let j8 = node_of(&t, &["h8", "h9", "i9", "g10", "j8"]).expect("the j8 node");
    assert_eq!(nodes[j8]["comment"], "Transition to opening D7");
    let g7 = node_of(&t, &["h8", "h9", "i9", "g10", "g7"]).expect("the g7 node");
    assert_eq!(nodes[g7]["comment"], "\"A\"");

    // VCF.lib: 741 moves, 31 lines each ending in "VCF for <side to move>".
    let (s, t) = read(&app, &lib("VCF.lib")).await;
    assert_eq!(s, StatusCode::OK, "{t}");
    let nodes = t["nodes"].as_array().unwrap();
    assert_eq!(nodes.len() + t["skipped"].as_u64().unwrap() as usize, 741);
    let vcf = nodes
        .iter()
        .filter(|n| {
            n["comment"]
                .as_str()
                .is_some_and(|c| c.starts_with("VCF for"))
        })
        .count();
    assert_eq!(vcf, 31);
}

/// A RenLib 3.0 file of one move, h8, commented `comment`.
fn one_move_with(comment: &[u8]) -> Vec<u8> {
    let mut b = b"\xffRenLib\xff\x03\x00".to_vec();
    b.extend([0xff; 10]);
    b.extend([0x78, 0x08]);
    b.extend_from_slice(comment);
    b.push(0);
    if b.len() % 2 == 1 {
        b.push(0);
    }
    b
}

#[tokio::test]
async fn a_comment_is_text_whatever_it_holds() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let text = "<img src=x onerror=alert(1)> & <b>bold</b>";
    let (s, t) = read(&app, &one_move_with(text.as_bytes())).await;
    assert_eq!(s, StatusCode::OK, "{t}");
    assert_eq!(t["nodes"][0]["move"], "h8");
    assert_eq!(
        t["nodes"][0]["comment"], text,
        "kept as it is: the page shows it as text"
    );
}

#[tokio::test]
async fn bad_libraries_are_refused_with_a_reason() {
    let db = TempDb::new();
    let app = TestApp::on(&db);
    let d4 = lib("D4.lib");
    let mut newer = d4.clone();
    newer[8] = 9;
    let mut off_board = d4[..20].to_vec();
    off_board.extend([0xf1, 0x00]);
    for (bytes, status, want, says) in [
        (
            b"".to_vec(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad_record",
            "empty",
        ),
        (
            b"(;FF[4]SZ[15];B[hh])".to_vec(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad_record",
            "not a RenLib library",
        ),
        (
            d4[..1001].to_vec(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad_record",
            "byte",
        ),
        (
            d4[..12].to_vec(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad_record",
            "header",
        ),
        (
            newer,
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad_record",
            "newer",
        ),
        (
            off_board,
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad_record",
            "no point",
        ),
        (
            vec![0x78; (1 << 20) + 2],
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            "1024 KiB",
        ),
    ] {
        let (s, e) = read(&app, &bytes).await;
        assert_eq!(s, status, "{} bytes: {e}", bytes.len());
        assert_eq!(code(&e), want, "{e}");
        assert!(e["error"].as_str().unwrap().contains(says), "{says}: {e}");
    }
    for (body, want) in [
        (json!({"data": "not base64!"}), "base64"),
        (json!({}), "data"),
        (json!({"data": b64(&d4), "name": "x"}), "unknown field"),
        (json!({"data": 7}), "data"),
    ] {
        let (s, e) = app.post("/api/analysis/renlib", body.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}: {e}");
        assert!(e["error"].as_str().unwrap().contains(want), "{want}: {e}");
    }
    // Raw bytes are not JSON: refused before they are read.
    let (s, e, _) = app
        .send(
            Request::post("/api/analysis/renlib")
                .header(header::CONTENT_TYPE, "application/octet-stream")
                .body(Body::from(d4.clone()))
                .unwrap(),
        )
        .await;
    assert_eq!(s, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{e}");
    // A body over the route's limit is refused by its declared length, and the other
    // routes keep their 64 KiB.
    let huge = json!({"data": "A".repeat(wuzi_server::RENLIB_BODY_LIMIT)}).to_string();
    let (s, e) = app.post_raw("/api/analysis/renlib", huge).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{e}");
    let (s, t) = read(&app, &d4).await;
    assert_eq!(s, StatusCode::OK, "{t}");
    let big = json!({"sgf": "x".repeat(100 * 1024)}).to_string();
    let (s, e) = app.post_raw("/api/analysis/tree", big).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{e}");
}
