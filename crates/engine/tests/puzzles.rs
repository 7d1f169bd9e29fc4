//! Puzzles: what the miner proves and rejects (ASCII boards), the renju VCF test
//! positions, and every puzzle the server ships (crates/server/puzzles/puzzles.jsonl):
//! each is proven again, unique at every step, and its record reads back the same.

mod common;

use wuzi_engine::puzzle::record::{PuzzleRecord, puzzle_id};
use wuzi_engine::puzzle::{self, MineLimits, Rejected, Theme};
use wuzi_rules::{Color, GameConfig, Rule, Size, Symmetry};

fn limits(min_length: u32) -> MineLimits {
    MineLimits {
        min_length,
        ..MineLimits::default()
    }
}

/// Black's broken three on row 9 (f9 g9 · i9): only h9 makes the open four.
const BROKEN_THREE: [&str; 15] = [
    "...............",
    "...............",
    "...............",
    "..O............",
    "...............",
    "...............",
    ".....XX.X......",
    "...............",
    "...............",
    "...............",
    "...............",
    "...............",
    "............O..",
    "...............",
    "...............",
];

#[test]
fn the_one_move_that_makes_an_open_four_is_a_puzzle_with_its_tree() {
    let pos = common::position(Rule::Freestyle, &BROKEN_THREE, Color::Black);
    let p = puzzle::find(&pos, &limits(1)).unwrap();
    assert_eq!(p.theme, Theme::Vcf);
    let s = &p.solution;
    assert_eq!(common::name(s.moves[0]), "h9");
    // e9 and j9 make fours too, but blocked ones that lead nowhere: refuted.
    assert!(p.refuted >= 2, "{p:?}");
    assert_eq!(s.replies.len(), 1, "the open four: one block shown");
    let last = &s.replies[0].next;
    assert_eq!(last.moves.len(), 1);
    assert!(last.replies.is_empty(), "the five ends it");
    assert_eq!(s.length(), 2);
    common::check_vcf_line(&pos, &s.main_line()).unwrap();
    assert_eq!(
        puzzle::find(&pos, &limits(3)),
        Err(Rejected::TooShort),
        "two turns are too short for the default"
    );
}

#[test]
fn an_open_three_has_two_winning_moves_and_is_no_puzzle() {
    let mut rows = BROKEN_THREE;
    rows[6] = ".....XXX.......";
    let pos = common::position(Rule::Freestyle, &rows, Color::Black);
    assert_eq!(puzzle::find(&pos, &limits(1)), Err(Rejected::NotUnique));
}

#[test]
fn a_five_to_make_or_to_block_is_trivial() {
    let mut rows = BROKEN_THREE;
    rows[6] = ".....XXXX......";
    let pos = common::position(Rule::Freestyle, &rows, Color::Black);
    assert_eq!(puzzle::find(&pos, &limits(1)), Err(Rejected::Trivial));
    let pos = common::position(Rule::Freestyle, &rows, Color::White);
    assert_eq!(puzzle::find(&pos, &limits(1)), Err(Rejected::Trivial));
}

#[test]
fn a_broken_three_has_three_defences_and_no_defence_puzzle() {
    // White to move against f9 g9 · i9: e9, h9 and j9 all stop it.
    let pos = common::position(Rule::Freestyle, &BROKEN_THREE, Color::White);
    assert_eq!(puzzle::find(&pos, &limits(1)), Err(Rejected::NotUnique));
    let none = MineLimits {
        defence: false,
        ..limits(1)
    };
    assert_eq!(puzzle::find(&pos, &none), Err(Rejected::NoWin));
}

#[test]
fn a_budget_too_small_proves_nothing() {
    let pos = common::position(Rule::Freestyle, &BROKEN_THREE, Color::Black);
    let tiny = MineLimits {
        nodes: 2,
        ..limits(1)
    };
    assert_eq!(puzzle::find(&pos, &tiny), Err(Rejected::Unproven));
}

#[test]
fn renju_vcf_positions_give_sound_puzzles_or_are_rejected_as_not_unique() {
    let mut kept = 0;
    for file in [
        "renju_vcf_puzzles_mintaka.jsonl",
        "renju_vcf_puzzles_renzzle.jsonl",
    ] {
        for r in common::records(file) {
            let to_move: Color = r["side_to_move"].as_str().unwrap().parse().unwrap();
            let board = common::board_of(&r);
            let pos = wuzi_engine::Position::from_board(
                &GameConfig::new(Rule::Renju, Size::STANDARD),
                &board,
                to_move,
            );
            match puzzle::find(&pos, &limits(1)) {
                Ok(p) => {
                    kept += 1;
                    assert!(matches!(p.theme, Theme::Vcf | Theme::Forbidden));
                    common::check_vcf_line(&pos, &p.solution.main_line())
                        .unwrap_or_else(|e| panic!("{}: {e}", r["id"]));
                    if p.theme == Theme::Forbidden {
                        assert_eq!(to_move, Color::White, "only White wins on forbidden points");
                    }
                }
                Err(Rejected::NotUnique | Rejected::Unproven) => {}
                Err(e) => panic!("{}: a VCF position rejected as {e}", r["id"]),
            }
        }
    }
    assert!(kept >= 2, "{kept} kept");
}

fn shipped() -> Vec<PuzzleRecord> {
    let path = format!(
        "{}/../server/puzzles/puzzles.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| PuzzleRecord::parse(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn every_shipped_puzzle_is_proven_again_unique_at_every_step() {
    let records = shipped();
    assert!(records.len() >= 100, "{} puzzles", records.len());
    let mut themes = std::collections::BTreeSet::new();
    for r in &records {
        themes.insert(r.theme);
        let limits = MineLimits {
            min_length: 1,
            ..MineLimits::default()
        };
        puzzle::verify(&r.position(), r.theme, &r.solution, &limits)
            .unwrap_or_else(|e| panic!("puzzle {} ({}): {e}", r.id, r.source));
    }
    assert!(themes.len() >= 3, "{themes:?}");
}

#[test]
fn a_puzzle_with_another_first_move_fails_the_check() {
    let r = shipped()
        .into_iter()
        .find(|r| r.theme == Theme::Vcf)
        .unwrap();
    let mut wrong = r.solution.clone();
    let first = r.solution.moves[0];
    let other = r
        .position()
        .legal_moves()
        .into_iter()
        .find(|&p| p != first)
        .unwrap();
    wrong.moves[0] = other;
    assert!(puzzle::verify(&r.position(), r.theme, &wrong, &MineLimits::default()).is_err());
    assert!(
        puzzle::verify(
            &r.position(),
            Theme::Vct,
            &r.solution,
            &MineLimits::default()
        )
        .is_err()
    );
}

#[test]
fn records_read_back_the_same_and_ids_ignore_symmetry() {
    for r in shipped().iter().take(40) {
        let again = PuzzleRecord::parse(&r.to_json().to_string()).unwrap();
        assert_eq!(&again, r);
        let pos = r.position();
        for s in Symmetry::ALL {
            assert_eq!(puzzle_id(r.rule, &s.board(pos.board()), r.to_move), r.id);
        }
        assert_ne!(puzzle_id(r.rule, pos.board(), r.to_move.opponent()), r.id);
    }
}

#[test]
fn damaged_records_are_refused_with_a_reason() {
    let r = &shipped()[0];
    let good = r.to_json();
    for (field, value) in [
        ("id", serde_json::json!("0000000000000000")),
        ("size", serde_json::json!(40)),
        ("theme", serde_json::json!("chess")),
        ("black", serde_json::json!(["z99"])),
        ("solution", serde_json::json!({"moves": []})),
    ] {
        let mut bad = good.clone();
        bad[field] = value;
        let e = PuzzleRecord::parse(&bad.to_string()).unwrap_err();
        assert!(!e.is_empty(), "{field}");
    }
    assert!(PuzzleRecord::parse("{").is_err());
    let mut twice = good.clone();
    twice["white"] = good["black"].clone();
    assert!(PuzzleRecord::parse(&twice.to_string()).is_err());
}
