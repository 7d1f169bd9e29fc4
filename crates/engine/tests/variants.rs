//! Rock walls, ocean bubbles, k in a row and board sizes.

mod common;

use std::sync::atomic::AtomicBool;

use wuzi_engine::{Engine, EngineOptions, Position, Score, SearchLimits, SearchResult};
use wuzi_rules::{Board, Color, GameConfig, Pos, Rule, Size, Variant};

fn search(pos: &Position, depth: u32) -> SearchResult {
    let mut e = Engine::new(EngineOptions {
        hash_mb: 4,
        threads: 1,
    });
    e.search(
        pos,
        &SearchLimits::depth(depth),
        &AtomicBool::new(false),
        &mut |_| {},
    )
}

fn p(x: u8, y: u8) -> Pos {
    Pos::new_unchecked(x, y)
}

#[test]
fn a_wall_ends_a_row() {
    // Black four x 2..=5 on row 3, a wall at x 1: only x 6 completes it; White blocks
    // there (with the wall at x 6 instead, x 1 would be the block).
    let rows = [
        "..........",
        "..........",
        "..........",
        ".#XXXX....",
        "..........",
        "....O.....",
        "...O......",
        "..........",
        "..........",
        "..........",
    ];
    let pos = common::position(Rule::Freestyle, &rows, Color::White);
    assert_eq!(search(&pos, 3).best, Some(p(6, 3)));
    let rows = rows.map(|r| r.replace(".#XXXX....", "..XXXX#..."));
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let pos = common::position(Rule::Freestyle, &rows, Color::White);
    assert_eq!(search(&pos, 3).best, Some(p(1, 3)));
}

fn ocean(bubbles: Vec<Pos>) -> GameConfig {
    GameConfig {
        variant: Variant::Ocean {
            seed: 0,
            bubbles,
            target: 3,
        },
        ..GameConfig::new(Rule::Freestyle, Size::new(9, 9).unwrap())
    }
}

#[test]
fn bubbles_win_and_are_defended() {
    // Black holds two of the three bubbles it needs; the third, (8, 8), is empty.
    let mut board = Board::new(Size::new(9, 9).unwrap());
    let bubbles = vec![p(0, 0), p(8, 0), p(8, 8), p(0, 8)];
    board.set(p(0, 0), wuzi_rules::Cell::Black);
    board.set(p(8, 0), wuzi_rules::Cell::Black);
    board.set(p(4, 4), wuzi_rules::Cell::White);
    board.set(p(4, 5), wuzi_rules::Cell::White);
    let config = ocean(bubbles);
    let black = Position::from_board(&config, &board, Color::Black);
    let r = search(&black, 2);
    assert!(
        [p(8, 8), p(0, 8)].contains(&r.best.unwrap()),
        "{:?}",
        r.best
    );
    assert_eq!(r.score, Score::Win(1));
    // White to move must take a bubble away... but two remain: lost.
    let white = Position::from_board(&config, &board, Color::White);
    let r = search(&white, 3);
    assert!(matches!(r.score, Score::Loss(_)), "{}", r.score);
    // With only one empty bubble left White takes it.
    let mut board2 = board.clone();
    board2.set(p(0, 8), wuzi_rules::Cell::White);
    let white = Position::from_board(&config, &board2, Color::White);
    assert_eq!(search(&white, 3).best, Some(p(8, 8)));
}

#[test]
fn other_k_are_played() {
    for k in [4u8, 6] {
        let config = GameConfig {
            k,
            ..GameConfig::new(Rule::Standard, Size::STANDARD)
        };
        // Black has k-1 in a row open at both ends (x 3..): it wins with k.
        let mut board = Board::new(Size::STANDARD);
        for i in 0..k - 1 {
            board.set(p(3 + i, 7), wuzi_rules::Cell::Black);
            board.set(p(3 + i, 9), wuzi_rules::Cell::White);
        }
        let pos = Position::from_board(&config, &board, Color::Black);
        let r = search(&pos, 2);
        let m = r.best.unwrap();
        assert!(m == p(2, 7) || m == p(3 + k - 1, 7), "k {k}: {m:?}");
        assert_eq!(r.score, Score::Win(1), "k {k}");
        // White to move blocks one end (Black then wins at the other: a loss).
        let pos = Position::from_board(&config, &board, Color::White);
        let r = search(&pos, 2);
        let m = r.best.unwrap();
        assert!(
            [p(2, 9), p(3 + k - 1, 9)].contains(&m) || [p(2, 7), p(3 + k - 1, 7)].contains(&m),
            "k {k}: {m:?}"
        );
    }
}

#[test]
fn smallest_and_largest_boards() {
    for side in [5u8, 26] {
        let size = Size::square(side).unwrap();
        for rule in Rule::ALL {
            let config = GameConfig::new(rule, size);
            let mut board = Board::new(size);
            board.set(size.center(), wuzi_rules::Cell::Black);
            let pos = Position::from_board(&config, &board, Color::White);
            let r = search(&pos, 3);
            let m = r.best.unwrap();
            assert!(size.contains(m) && board.is_empty(m), "{side} {rule}");
        }
        // A full 5×5 board but one point: that point.
        let mut board = Board::new(Size::square(5).unwrap());
        for (i, q) in Size::square(5).unwrap().points().enumerate() {
            if i != 12 {
                let c = if (q.x / 2 + q.y) % 2 == 0 {
                    wuzi_rules::Cell::Black
                } else {
                    wuzi_rules::Cell::White
                };
                board.set(q, c);
            }
        }
        let config = GameConfig::new(Rule::Standard, Size::square(5).unwrap());
        let pos = Position::from_board(&config, &board, Color::Black);
        assert_eq!(search(&pos, 3).best, Some(p(2, 2)));
    }
}
