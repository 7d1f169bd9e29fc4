//! Helpers shared by the engine's integration tests.
#![allow(dead_code)]

use serde_json::Value;
use wuzi_engine::Position;
use wuzi_rules::{Board, Color, GameConfig, Pos, Rule, Size};

/// The records of a JSON Lines file in testdata/.
pub fn records(name: &str) -> Vec<Value> {
    let path = format!("{}/../../testdata/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The board of a record (`board`: rows, top first).
pub fn board_of(r: &Value) -> Board {
    let rows: Vec<&str> = r["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    Board::from_rows(&rows).unwrap()
}

/// A position from an ASCII board (top row first) under `rule`.
pub fn position(rule: Rule, rows: &[&str], to_move: Color) -> Position {
    let board = Board::from_rows(rows).unwrap();
    Position::from_board(&GameConfig::new(rule, board.size()), &board, to_move)
}

/// Renju notation of a point on a 15×15 board.
pub fn name(p: Pos) -> String {
    Size::STANDARD.notation(p).to_string()
}

/// Checks that `line` is a sound VCF for the side to move of `pos`: every attacker move
/// is legal and makes a five threat, every defender move blocks the only five point,
/// and the line ends with a win (or with a block that Black may not play).
pub fn check_vcf_line(pos: &Position, line: &[Pos]) -> Result<(), String> {
    let mut p = pos.clone();
    let attacker = p.to_move();
    for (n, &m) in line.iter().enumerate() {
        if !p.board().is_empty(m) {
            return Err(format!("move {n} {} is occupied", name(m)));
        }
        if p.to_move() == attacker {
            if !p.is_legal(m) {
                return Err(format!("attacker move {n} {} is forbidden", name(m)));
            }
            if p.is_win(m) {
                return if n + 1 == line.len() {
                    Ok(())
                } else {
                    Err("moves after the win".into())
                };
            }
            p.play(m).unwrap();
            // The attacker must now threaten a five.
            let threats: Vec<Pos> = p
                .board()
                .empty_points()
                .filter(|&q| {
                    p.board()
                        .winning_line(q, attacker, p.rule(), p.k())
                        .is_some()
                })
                .collect();
            if threats.is_empty() {
                return Err(format!("attacker move {n} {} is no four", name(m)));
            }
        } else {
            if let Some(w) = p.board().empty_points().find(|&q| p.is_win(q)) {
                return Err(format!("defender wins at {} instead of blocking", name(w)));
            }
            let is_block = p
                .board()
                .winning_line(m, attacker, p.rule(), p.k())
                .is_some();
            if !is_block {
                return Err(format!("defender move {n} {} does not block", name(m)));
            }
            if !p.is_legal(m) {
                // The defender cannot block: the line wins here if it ends.
                return if n + 1 == line.len() {
                    Ok(())
                } else {
                    Err("moves after a forbidden block".into())
                };
            }
            p.play(m).unwrap();
        }
    }
    Err("the line does not end with a win".into())
}

/// From a game lost to classic-tuple, White to move: after k6 Black wins by an 11-ply
/// VCT (h10 i11 f10 …), a 3,900-node search that the per-iteration root-safety check
/// (4,000 nodes) only just finishes.
pub const TUPLE_GAME_40: [&str; 15] = [
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "........X......",
    "......X........",
    ".....XOX.......",
    "......OXO......",
    ".......O.......",
    "......X.O......",
    "...............",
    "...............",
    "...............",
    "...............",
];

/// From a game lost to classic-tuple (h8 h9 h6 g9 i9 j10 i8), White to move: after i10,
/// the search's choice to depth 7, Black wins by a 15-ply VCT (g8 f8 j8 …) of eight
/// attacker moves, one more than the per-iteration root-safety check looks at; the
/// final check (nine) finds it in about 2,000 nodes. After i11, the next move by move
/// ordering, Black wins by a 13-ply VCT.
pub const TUPLE_DEEP_VCT: [&str; 15] = [
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    ".........O.....",
    "......OOX......",
    ".......XX......",
    "...............",
    ".......X.......",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
];
