//! Property tests: play/undo invariants, the incremental hash, symmetries, notation.

mod common;

use common::clustered_position;
use proptest::prelude::*;
use wuzi_rules::{
    Board, Color, Game, GameConfig, Pos, Rule, Size, Symmetry, Variant, forbidden, notation,
    zobrist,
};

fn config_strategy() -> impl Strategy<Value = GameConfig> {
    (
        0usize..4,
        5u8..=20,
        5u8..=20,
        4u8..=7,
        0u8..3,
        any::<u64>(),
        any::<bool>(),
    )
        .prop_map(|(rule, w, h, k, theme, seed, white_first)| {
            let rule = Rule::ALL[rule];
            let size = Size::new(w, h).unwrap();
            let k = if rule == Rule::Renju { 5 } else { k };
            let variant = match theme {
                0 => Variant::Wood,
                1 => Variant::rock(size, seed, Variant::default_rock_count(size)),
                _ => Variant::ocean(size, seed),
            };
            let first = if white_first {
                Color::White
            } else {
                Color::Black
            };
            GameConfig {
                rule,
                size,
                k,
                variant,
                first,
            }
        })
}

/// Plays pseudo-random legal moves (indices into the empty cells) until the game ends.
fn play_random(game: &mut Game, picks: &[usize]) {
    for &i in picks {
        if game.is_over() {
            break;
        }
        let empties: Vec<Pos> = game.board().empty_points().collect();
        if empties.is_empty() {
            break;
        }
        let p = empties[i % empties.len()];
        let before = game.clone();
        game.try_play(p).unwrap();
        assert_eq!(
            game.hash(),
            zobrist::hash_board(game.board()),
            "incremental hash after {p:?}"
        );
        assert_eq!(game.ply(), before.ply() + 1);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn undo_to_start_restores_the_empty_board_and_hash(
        config in config_strategy(),
        picks in prop::collection::vec(any::<usize>(), 0..120),
    ) {
        let mut game = Game::new(config).unwrap();
        let start_board = game.board().clone();
        play_random(&mut game, &picks);
        let end_board = game.board().clone();
        let end_hash = game.hash();
        let end_result = game.result().cloned();
        let n = game.ply();
        while game.undo().is_some() {
            prop_assert_eq!(game.hash(), zobrist::hash_board(game.board()));
        }
        prop_assert_eq!(game.board(), &start_board);
        prop_assert_eq!(game.hash(), 0);
        prop_assert!(game.result().is_none());
        // Redo replays exactly.
        game.go_to(n).unwrap();
        prop_assert_eq!(game.board(), &end_board);
        prop_assert_eq!(game.hash(), end_hash);
        prop_assert_eq!(game.result().cloned(), end_result);
    }

    #[test]
    fn illegal_moves_change_nothing(
        config in config_strategy(),
        picks in prop::collection::vec(any::<usize>(), 1..40),
        x in 0u8..30, y in 0u8..30,
    ) {
        let mut game = Game::new(config).unwrap();
        play_random(&mut game, &picks);
        let before = (game.board().clone(), game.ply(), game.hash(), game.result().cloned());
        let p = Pos::new_unchecked(x, y);
        if game.try_play(p).is_err() {
            prop_assert_eq!(before, (game.board().clone(), game.ply(), game.hash(), game.result().cloned()));
        }
    }

    #[test]
    fn symmetries_preserve_forbidden_points_and_wins(stones in 6usize..60, seed in any::<u64>(), side in 9u8..=15) {
        let size = Size::square(side).unwrap();
        let board = clustered_position(size, stones, seed);
        let base = forbidden::forbidden_points(&board);
        for s in Symmetry::ALL {
            let t = s.board(&board);
            let mut got = forbidden::forbidden_points(&t);
            let mut want: Vec<_> = base.iter().map(|&(p, k)| (s.apply(p, size), k)).collect();
            got.sort();
            want.sort();
            prop_assert_eq!(&got, &want, "{:?}\n{}", s, board);
            for p in board.empty_points() {
                for rule in Rule::ALL {
                    for color in Color::ALL {
                        let a = board.winning_line(p, color, rule, 5).is_some();
                        let b = t.winning_line(s.apply(p, size), color, rule, 5).is_some();
                        prop_assert_eq!(a, b);
                    }
                }
            }
        }
    }

    #[test]
    fn notation_roundtrips(w in 5u8..=26, h in 5u8..=26, picks in prop::collection::vec((any::<u8>(), any::<u8>()), 0..30)) {
        let size = Size::new(w, h).unwrap();
        let moves: Vec<Pos> = picks.iter().map(|&(x, y)| Pos::new_unchecked(x % w, y % h)).collect();
        for &p in &moves {
            prop_assert_eq!(size.parse_pos(&size.notation(p).to_string()).unwrap(), p);
        }
        for sep in ["", " ", ","] {
            let text = notation::format_moves(&moves, size, sep);
            prop_assert_eq!(notation::parse_moves(&text, size).unwrap(), moves.clone());
        }
        prop_assert_eq!(size.to_string().parse::<Size>().unwrap(), size);
    }

    #[test]
    fn parsers_never_panic(text in ".{0,40}") {
        let _ = notation::parse_moves(&text, Size::STANDARD);
        let _ = text.parse::<Size>();
        let _ = Size::STANDARD.parse_pos(&text);
        let _ = text.parse::<Rule>();
        let _ = Board::from_rows(&[text.as_str()]);
    }
}
