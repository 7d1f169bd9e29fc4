//! The public test positions in `testdata/` (see its README for sources), as data-driven
//! tests: renju forbidden points, outcomes under every rule, and one-line patterns.

mod common;

use common::*;
use serde_json::Value;
use wuzi_rules::forbidden::{self, LineShape};
use wuzi_rules::{
    Board, Cell, Color, EndReason, ForbiddenKind, Game, GameConfig, Pos, Rule, Size, notation,
};

fn kind_of(v: &Value) -> ForbiddenKind {
    v.as_str().unwrap().parse().unwrap()
}

#[test]
fn mintaka_complete_forbidden_sets() {
    let records = jsonl("renju_forbidden_mintaka.jsonl");
    let mut points = 0;
    for r in &records {
        let board = board_of(r, "board");
        let expected: Vec<_> = r["forbidden_for_black"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| (pos_of(f), kind_of(&f["kind"])))
            .collect();
        points += expected.len();
        assert_forbidden_set(&board, &expected, r["id"].as_str().unwrap());
    }
    assert_eq!(
        (records.len(), points),
        (12, 25),
        "the data README promises 12 positions, 25 points"
    );
}

/// Plays `color` at `pos` on `board` under `rule` and names the outcome as the data does.
fn outcome(board: &Board, rule: Rule, color: Color, pos: Pos) -> &'static str {
    let config = GameConfig::new(rule, board.size());
    let mut game = Game::from_setup(config, board, color).unwrap();
    game.try_play(pos).unwrap();
    match game.result().map(|r| r.winner) {
        Some(Some(Color::Black)) => "CROSS_WIN",
        Some(Some(Color::White)) => "CIRCLE_WIN",
        Some(None) => "DRAW",
        None => "UNKNOWN",
    }
}

#[test]
fn alphagomoku_renju_steps() {
    let (mut checks, mut outcomes) = (0, 0);
    for r in jsonl("renju_forbidden_alphagomoku.jsonl") {
        let id = r["id"].as_str().unwrap();
        let mut board = board_of(&r, "board");
        for (i, step) in r["steps"].as_array().unwrap().iter().enumerate() {
            let mv = &step["move"];
            let pos = pos_of(mv);
            let color = color_of(&mv["color"]);
            match step["op"].as_str().unwrap() {
                "place" => board.set(pos, Cell::stone(color)),
                "remove" => board.set(pos, Cell::Empty),
                "check_forbidden" => {
                    checks += 1;
                    let want = step["expect_forbidden"].as_bool().unwrap();
                    let got = forbidden::forbidden_kind(&board, pos);
                    assert_eq!(
                        got.is_some(),
                        want,
                        "{id} step {i}: {} forbidden? got {got:?}\n{board}",
                        mv["name"]
                    );
                }
                "check_outcome" => {
                    outcomes += 1;
                    assert_eq!(step["rule"], "RENJU");
                    let got = outcome(&board, Rule::Renju, color, pos);
                    assert_eq!(
                        got, step["expect"],
                        "{id} step {i}: {} by {color}\n{board}",
                        mv["name"]
                    );
                }
                op => panic!("unknown op {op}"),
            }
        }
    }
    assert_eq!(
        (checks, outcomes),
        (59, 6),
        "the data holds 59 forbidden checks and 6 outcome checks"
    );
}

#[test]
fn alphagomoku_outcomes_freestyle_standard_caro() {
    let (mut checks, mut skipped) = (0, 0);
    for r in jsonl("gomoku_outcome_alphagomoku.jsonl") {
        let id = r["id"].as_str().unwrap();
        let board = board_of(&r, "board");
        for (i, step) in r["steps"].as_array().unwrap().iter().enumerate() {
            let rule = match step["rule"].as_str().unwrap() {
                "FREESTYLE" => Rule::Freestyle,
                "STANDARD" => Rule::Standard,
                "CARO5" => Rule::Caro,
                // Caro that lets overlines win is not one of wuzi's rules.
                "CARO6" => {
                    skipped += 1;
                    continue;
                }
                other => panic!("unknown rule {other}"),
            };
            checks += 1;
            let mv = &step["move"];
            let got = outcome(&board, rule, color_of(&mv["color"]), pos_of(mv));
            assert_eq!(
                got, step["expect"],
                "{id} step {i}: {} under {rule}\n{board}",
                mv["name"]
            );
        }
    }
    assert_eq!(checks + skipped, 69, "the data README promises 69 checks");
    assert!(checks >= 50, "only {checks} checks ran");
}

#[test]
fn renzzle_move_sequences() {
    let records = jsonl("renju_forbidden_renzzle.jsonl");
    for r in &records {
        let id = r["id"].as_str().unwrap();
        let size = Size::STANDARD;
        let moves = notation::parse_moves(r["moves"].as_str().unwrap(), size).unwrap();
        let (last, before) = moves.split_last().unwrap();
        let mut game = Game::from_moves(GameConfig::new(Rule::Renju, size), before).unwrap();
        assert_eq!(
            game.board(),
            &board_of(r, "board_before_last_move"),
            "{id}: board before the last move"
        );
        assert!(!game.is_over(), "{id}: ended early: {:?}", game.result());
        let want_forbidden = r["expected_last_move_forbidden"].as_bool();
        let shown = game.board().to_string();
        game.try_play(*last).unwrap();
        let result = game.result();
        match r["expected_after_last_move"].as_str().unwrap() {
            "white_wins" => assert!(
                matches!(result, Some(g) if g.winner == Some(Color::White) && matches!(g.reason, EndReason::Forbidden{..})),
                "{id}: expected Black's move to be forbidden, got {result:?}\n{shown}"
            ),
            "black_wins" => assert!(
                matches!(result, Some(g) if g.winner == Some(Color::Black)),
                "{id}: expected Black to win, got {result:?}\n{shown}"
            ),
            "not_white_win" => assert!(
                !matches!(result, Some(g) if g.winner == Some(Color::White)),
                "{id}: expected no White win, got {result:?}\n{shown}"
            ),
            other => panic!("unknown expectation {other}"),
        }
        if let Some(f) = want_forbidden {
            let forbidden =
                matches!(result, Some(g) if matches!(g.reason, EndReason::Forbidden{..}));
            assert_eq!(forbidden, f, "{id}: last move forbidden?\n{shown}");
        }
    }
    assert_eq!(records.len(), 12);
}

/// One line of the mintaka pattern data, placed as the middle row of a board whose row is
/// bounded by walls (a wall ends a row exactly like the edge).
fn line_board(cells: &[Cell]) -> (Board, u8) {
    let width = (cells.len() + 2).max(5);
    let size = Size::new(width as u8, 5).unwrap();
    let mut b = Board::new(size);
    for x in 0..width {
        let c = if x >= 1 && x <= cells.len() {
            cells[x - 1]
        } else {
            Cell::Wall
        };
        b.set(Pos::new_unchecked(x as u8, 2), c);
    }
    (b, 2)
}

fn parse_line(text: &str, invert: bool) -> Vec<Cell> {
    text.split_whitespace()
        .map(|t| match (t, invert) {
            ("X", false) | ("O", true) => Cell::Black,
            ("O", false) | ("X", true) => Cell::White,
            (".", _) | ("V", _) => Cell::Empty,
            _ => panic!("bad cell {t}"),
        })
        .collect()
}

#[test]
fn mintaka_line_patterns_open_three_four_five() {
    let mut checked = 0;
    for r in jsonl("renju_line_patterns_mintaka.jsonl") {
        let line = r["line"].as_str().unwrap();
        let spec = r["color_spec"].as_str().unwrap();
        // Which colour the written stones are tested for, and whether to invert the line.
        let cases: Vec<(Color, bool)> = if spec.starts_with("both") {
            vec![(Color::White, false), (Color::Black, true)]
        } else if spec == "black" {
            vec![(Color::Black, false)]
        } else {
            vec![(Color::White, false)]
        };
        for (color, invert) in cases {
            let cells = parse_line(line, invert);
            let (board, y) = line_board(&cells);
            for (kind, marks) in r["expect"].as_object().unwrap() {
                let pick: fn(&LineShape) -> bool = match kind.as_str() {
                    "open_three" => |s| s.three,
                    "open_four" => |s| s.open_four,
                    "five" => |s| s.five,
                    _ => continue, // the README: other kinds follow mintaka's own definitions
                };
                let want: Vec<bool> = marks
                    .as_str()
                    .unwrap()
                    .split_whitespace()
                    .map(|t| t == "V")
                    .collect();
                let got: Vec<bool> = (0..cells.len())
                    .map(|i| {
                        let p = Pos::new_unchecked(i as u8 + 1, y);
                        board.is_empty(p) && pick(&forbidden::line_shape(&board, p, (1, 0), color))
                    })
                    .collect();
                checked += 1;
                assert_eq!(
                    got, want,
                    "{kind} for {color} in `{line}` (inverted: {invert})"
                );
            }
        }
    }
    assert!(checked > 40, "only {checked} pattern checks ran");
}
