//! The renju cases that break most implementations (REFERENCE.md), as ASCII boards.
//!
//! In a board literal `X` is Black, `O` White, `.` empty; a digit marks an empty point
//! that must be forbidden for Black (`3` double-three, `4` double-four, `6` overline) and
//! `!` an empty point that must be legal. Failures print the board with what was found.

mod common;

use common::show_forbidden;
use wuzi_rules::forbidden::{forbidden_kind, forbidden_points};
use wuzi_rules::{Board, Color, EndReason, ForbiddenKind, Game, GameConfig, Pos, Rule};

/// Reads a marked board and checks every mark.
fn check(rows: &[&str]) {
    let mut expected = Vec::new();
    let clean: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(y, r)| {
            r.split_whitespace()
                .enumerate()
                .map(|(x, t)| {
                    let p = Pos::new_unchecked(x as u8, y as u8);
                    match t {
                        "3" => expected.push((p, Some(ForbiddenKind::DoubleThree))),
                        "4" => expected.push((p, Some(ForbiddenKind::DoubleFour))),
                        "6" => expected.push((p, Some(ForbiddenKind::Overline))),
                        "!" => expected.push((p, None)),
                        _ => return t.to_string(),
                    }
                    ".".to_string()
                })
                .collect::<String>()
        })
        .collect();
    let board = Board::from_rows(&clean).unwrap();
    let all = forbidden_points(&board);
    for (p, want) in expected {
        let got = forbidden_kind(&board, p);
        let in_all = all.iter().find(|(q, _)| *q == p).map(|(_, k)| *k);
        assert!(
            got == want && in_all == want,
            "at {}: expected {want:?}, got {got:?} (whole-board scan: {in_all:?})\n{}",
            board.size().notation(p),
            show_forbidden(&board, &all)
        );
    }
}

#[test]
fn five_beats_double_four_and_overline() {
    // f6 makes the five b6–f6 and the straight four f6–f9 at once: the five wins.
    // h3 makes the exact five h3–l3 and the overline h3–h8 at once: the five wins.
    check(&[
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . X . . . . . .",
        ". . . . . X . X . . . .",
        ". . . . . X . X . . . .",
        ". X X X X ! . X . . . .",
        ". . . . . . . X . . . .",
        ". . . . . . . X . . . .",
        ". . . . . . . ! X X X X",
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
    ]);
}

#[test]
fn overline_alone_is_forbidden() {
    check(&[
        ". . . . . . . . . .",
        ". X X X . X X . . .",
        ". . . . . . . . . .",
        ". . . . . . . . . .",
        ". . . . . . . . . .",
        ". . . . . . . . . .",
        ". . . . . . . . . .",
        ". . . . . . . . . .",
        ". . . . . . . . . .",
        ". . . . . . . . . .",
    ]);
    let board = Board::from_rows(&[
        ". . . . . . . . . .",
        ". X X X . X X . . .",
        ". . . . . . . . . .",
        ". . . . . . . . . .",
        ". . . . . . . . . .",
        ". . . . . . . . . .",
        ". . . . . . . . . .",
        ". . . . . . . . . .",
        ". . . . . . . . . .",
        ". . . . . . . . . .",
    ])
    .unwrap();
    assert_eq!(
        forbidden_kind(&board, Pos::new_unchecked(4, 1)),
        Some(ForbiddenKind::Overline)
    );
}

#[test]
fn double_four_on_one_line() {
    // X.X?X.X, XX.X?.XX and XXX.?.XXX each make two fours on one line;
    // .XXX?. is one straight four and legal.
    check(&[
        ". X . X 4 X . X . . . . .",
        ". . . . . . . . . . . . .",
        "X X . X 4 . X X . . . . .",
        ". . . . . . . . . . . . .",
        "X X X . 4 . X X X . . . .",
        ". . . . . . . . . . . . .",
        ". . X X X ! . . . . . . .",
        ". . . . . . . . . . . . .",
        ". . . . . . . . . . . . .",
        ". . . . . . . . . . . . .",
        ". . . . . . . . . . . . .",
        ". . . . . . . . . . . . .",
        ". . . . . . . . . . . . .",
    ]);
}

#[test]
fn a_row_whose_only_completion_is_an_overline_is_no_four() {
    // Row 7: X . X X X ! O — after f7 the only completion (b7) makes six: no four there.
    // So f7 has one four (the column f7–f10) and is legal. Without the blocking O at g7 it
    // has two (g7 completes c7–g7): a double-four.
    check(&[
        ". . . . . . . . . . .",
        ". . . . . X . . . . .",
        ". . . . . X . . . . .",
        ". . . . . X . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
    ]);
    check(&[
        ". . . . . . . . . . .",
        ". . . . . X . . . . .",
        ". . . . . X . . . . .",
        ". . . . . X . . . . .",
        "X . X X X ! O . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
    ]);
    check(&[
        ". . . . . . . . . . .",
        ". . . . . X . . . . .",
        ". . . . . X . . . . .",
        ". . . . . X . . . . .",
        "X . X X X 4 . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
    ]);
}

#[test]
fn four_three_is_legal_but_four_four_three_and_four_three_three_are_not() {
    // e10: a blocked four (b10–e10) + an open three (e8–e10): 4-3, legal.
    check(&[
        ". . . . . . . . . . .",
        "O X X X ! . . . . . .",
        ". . . . X . . . . . .",
        ". . . . X . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
    ]);
    // f6: a blocked four on row 6, open threes in column f (f6–f8) and on the diagonal
    // (d4–f6): 4-3-3, a double-three.
    check(&[
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . X . . . . .",
        ". . . . . X . . . . .",
        "O X X X . 3 . . . . .",
        ". . . . X . . . . . .",
        ". . . X . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
    ]);
    // f6: blocked fours on row 6 and column f + an open diagonal three: 4-4-3, a double-four.
    check(&[
        ". . . . . . . . . . .",
        ". . . . . O . . . . .",
        ". . . . . X . . . . .",
        ". . . . . X . . . . .",
        ". . . . . X . . . . .",
        "O X X X . 4 . . . . .",
        ". . . . X . . . . . .",
        ". . . X . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
    ]);
}

#[test]
fn false_three_when_the_straight_four_square_makes_a_five() {
    // Control: f7 makes two open threes (row d7 e7 f7, column f7 f8 f9): double-three.
    check(&[
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . X . . . . . .",
        ". . . . . X . . . . . .",
        ". . . X X 3 . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
    ]);
    // With the columns c8–c11 and g8–g11, both squares that would make the row a straight
    // four (c7, g7) make a five instead: the row is no real three, so f7 is legal.
    check(&[
        ". . . . . . . . . . . .",
        ". . X . . . X . . . . .",
        ". . X . . . X . . . . .",
        ". . X . . X X . . . . .",
        ". . X . . X X . . . . .",
        ". . . X X ! . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
    ]);
}

#[test]
fn false_three_when_the_straight_four_square_is_itself_forbidden() {
    // Without the g column f5 is a plain double-three (row d5 e5 f5, column f5 f6 f7)...
    check(&[
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . X . . . . . .",
        ". . . . . X . . . . . .",
        ". O . X X 3 . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
    ]);
    // ...but with five black stones above g5 the row's only straight-four square, g5, is an
    // overline point, so the row is a false three and f5 is legal (the recursive rule).
    check(&[
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . X . . . . .",
        ". . . . . . X . . . . .",
        ". . . . . . X . . . . .",
        ". . . . . X X . . . . .",
        ". . . . . X X . . . . .",
        ". O . X X ! 6 . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
    ]);
}

fn game_at(rows: &[&str], to_move: Color) -> Game {
    let board = Board::from_rows(rows).unwrap();
    Game::from_setup(GameConfig::new(Rule::Renju, board.size()), &board, to_move).unwrap()
}

#[test]
fn white_is_never_restricted_and_its_overline_wins() {
    let rows = [
        ". . . . . . . . . .",
        ". O O O . O O . . .",
        ". . . . . . . . . .",
        ". . . . . O . . . .",
        ". . . . . O . . . .",
        ". . . O O . . . . .",
        ". . . . . . . . . .",
        ". . . . . . . . . .",
        ". . . . . . . . . .",
        ". . . . . . . . . .",
    ];
    // The double-three shape at f5 is fine for White.
    let mut g = game_at(&rows, Color::White);
    g.try_play(Pos::new_unchecked(5, 5)).unwrap();
    assert!(g.result().is_none(), "{:?}", g.result());
    // White's overline wins under renju.
    let mut g = game_at(&rows, Color::White);
    g.try_play(Pos::new_unchecked(4, 1)).unwrap();
    let r = g.result().expect("white wins");
    assert_eq!(r.winner, Some(Color::White));
    assert!(matches!(&r.reason, EndReason::Five { cells } if cells.len() == 6));
}

#[test]
fn black_forced_onto_a_forbidden_point_loses() {
    // White's four d10–g10 can only be stopped at h10, where Black would make two fours
    // (column h7–h10 and diagonal e7–h10): a double-four.
    let rows = [
        ". . . . . . . . . . .",
        ". . X O O O O . . . .",
        ". . . . . . X X . . .",
        ". . . . . X . X . . .",
        ". . . . X . . X . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
    ];
    let mut g = game_at(&rows, Color::Black);
    let h10 = g.size().parse_pos("h10").unwrap();
    assert_eq!(
        g.forbidden_kind(h10),
        Some(ForbiddenKind::DoubleFour),
        "\n{}",
        g.board()
    );
    g.try_play(h10).unwrap();
    assert_eq!(
        g.result().unwrap().describe(g.size()),
        "white wins: black forbidden double-four at h10"
    );
    // Undo restores the position and the game goes on.
    g.undo();
    assert!(g.result().is_none());
    assert_eq!(g.forbidden_kind(h10), Some(ForbiddenKind::DoubleFour));
}

#[test]
fn black_with_only_forbidden_points_left_must_play_one() {
    // The board's one empty point, c6, would give Black six in a row.
    let rows = [
        "X X . X X X",
        "O O X O O X",
        "X X O X X O",
        "O O X O O X",
        "X X O X X O",
        "O O X O O X",
    ];
    let g = game_at(&rows, Color::Black);
    let c6 = g.size().parse_pos("c6").unwrap();
    assert_eq!(g.forbidden_points(), vec![(c6, ForbiddenKind::Overline)]);
    assert!(g.only_forbidden_left());
    // White is never restricted; other rules restrict no one.
    assert!(!game_at(&rows, Color::White).only_forbidden_left());
    let board = Board::from_rows(&rows).unwrap();
    let free = GameConfig::new(Rule::Freestyle, board.size());
    assert!(
        !Game::from_setup(free, &board, Color::Black)
            .unwrap()
            .only_forbidden_left()
    );
    // A second empty point Black may take: not every move loses.
    let mut open = rows;
    open[5] = "O O X O O .";
    assert!(!game_at(&open, Color::Black).only_forbidden_left());
    // Black plays the point and loses, as the rules say; then nothing is left to ask.
    let mut g = g;
    g.try_play(c6).unwrap();
    assert_eq!(g.result().unwrap().winner, Some(Color::White));
    assert!(!g.only_forbidden_left());
}
