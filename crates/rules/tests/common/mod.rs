//! Helpers shared by the rules integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

use serde_json::Value;
use wuzi_rules::{Board, Color, ForbiddenKind, Pos, Size, forbidden};

/// The repository's `testdata/` folder.
pub fn testdata(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(name)
}

/// Every JSON object of a JSON Lines file in `testdata/`.
pub fn jsonl(name: &str) -> Vec<Value> {
    let path = testdata(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| serde_json::from_str(l).unwrap_or_else(|e| panic!("{name}:{}: {e}", i + 1)))
        .collect()
}

/// The board of a record's `board` field (rows top first).
pub fn board_of(v: &Value, field: &str) -> Board {
    let rows: Vec<String> = v[field]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect();
    Board::from_rows(&rows).unwrap()
}

/// A `{x, y}` object as a point.
pub fn pos_of(v: &Value) -> Pos {
    Pos::new_unchecked(
        v["x"].as_u64().unwrap() as u8,
        v["y"].as_u64().unwrap() as u8,
    )
}

/// A diagram from rows, panicking with the row on error (for board literals in tests).
pub fn board(rows: &[&str]) -> Board {
    Board::from_rows(rows).unwrap_or_else(|e| panic!("bad test board: {e}"))
}

/// The forbidden points drawn on the board: `3`, `4`, `6` by kind.
pub fn show_forbidden(board: &Board, points: &[(Pos, ForbiddenKind)]) -> String {
    board.diagram_with(|p| {
        points.iter().find(|(q, _)| *q == p).map(|(_, k)| match k {
            ForbiddenKind::DoubleThree => '3',
            ForbiddenKind::DoubleFour => '4',
            ForbiddenKind::Overline => '6',
        })
    })
}

/// Checks the complete set of Black's forbidden points; on failure prints both boards.
pub fn assert_forbidden_set(board: &Board, expected: &[(Pos, ForbiddenKind)], what: &str) {
    let mut got = forbidden::forbidden_points(board);
    let mut want = expected.to_vec();
    got.sort();
    want.sort();
    assert!(
        got == want,
        "{what}: forbidden points differ (3 = double-three, 4 = double-four, 6 = overline)\nexpected:\n{}\ngot:\n{}",
        show_forbidden(board, &want),
        show_forbidden(board, &got)
    );
}

/// Parses `name:kind` pairs like `"g9:33 j10:44"` on a board of `size`.
pub fn marks(size: Size, text: &str) -> Vec<(Pos, ForbiddenKind)> {
    text.split_whitespace()
        .map(|t| {
            let (p, k) = t.split_once(':').unwrap();
            (size.parse_pos(p).unwrap(), k.parse().unwrap())
        })
        .collect()
}

/// A colour from a JSON string.
pub fn color_of(v: &Value) -> Color {
    v.as_str().unwrap().parse().unwrap()
}

/// A renju-like position of realistic density: `stones` stones placed alternately
/// (Black first), each within distance 2 of an earlier one, from `seed`.
pub fn clustered_position(size: Size, stones: usize, seed: u64) -> Board {
    use wuzi_rules::Cell;
    use wuzi_rules::random::SplitMix64;
    let mut rng = SplitMix64::new(seed);
    let mut b = Board::new(size);
    let mut placed: Vec<Pos> = Vec::new();
    let mut color = Color::Black;
    let mut tries = 0;
    while placed.len() < stones && tries < stones * 50 {
        tries += 1;
        let p = match placed.last() {
            None => size.center(),
            Some(_) => {
                let anchor = placed[rng.below(placed.len())];
                let dx = rng.below(5) as i32 - 2;
                let dy = rng.below(5) as i32 - 2;
                match anchor.offset(dx, dy, size) {
                    Some(p) => p,
                    None => continue,
                }
            }
        };
        if !b.is_empty(p) {
            continue;
        }
        b.set(p, Cell::stone(color));
        placed.push(p);
        color = color.opponent();
    }
    b
}
