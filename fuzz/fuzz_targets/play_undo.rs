//! Play/undo invariants on a random configuration: the incremental hash always equals a
//! recomputed one; undoing to the start leaves an empty board (walls only) and hash 0;
//! redoing everything restores the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi_rules::{Cell, Color, Game, GameConfig, Rule, Size, Variant, zobrist};

fuzz_target!(|data: &[u8]| {
    let [rule, w, h, k, theme, seed, rest @ ..] = data else {
        return;
    };
    let rule = Rule::ALL[usize::from(*rule) % 4];
    let Ok(size) = Size::new(5 + w % 22, 5 + h % 22) else {
        return;
    };
    let mut config = GameConfig::new(rule, size);
    config.k = if rule == Rule::Renju { 5 } else { 4 + k % 4 };
    config.first = if k & 0x80 == 0 {
        Color::Black
    } else {
        Color::White
    };
    config.variant = match theme % 3 {
        0 => Variant::Wood,
        1 => Variant::rock(size, u64::from(*seed), Variant::default_rock_count(size)),
        _ => Variant::ocean(size, u64::from(*seed)),
    };
    let mut game = Game::new(config).expect("a valid configuration");
    for &byte in rest {
        if byte >= 240 {
            // Undo, or redo when there is nothing to undo.
            if game.undo().is_none() {
                game.redo();
            }
        } else if !game.is_over() {
            let empty: Vec<_> = size
                .points()
                .filter(|&p| game.board().get(p) == Cell::Empty)
                .collect();
            if empty.is_empty() {
                break;
            }
            let p = empty[usize::from(byte) % empty.len()];
            let before = game.hash();
            game.try_play(p)
                .expect("an empty cell is legal before the end");
            assert_ne!(game.hash(), before);
        } else {
            // Moves after the end are refused and change nothing.
            let hash = game.hash();
            let ply = game.ply();
            assert!(game.try_play(size.center()).is_err());
            assert_eq!((game.hash(), game.ply()), (hash, ply));
        }
        assert_eq!(game.hash(), zobrist::hash_board(game.board()));
    }
    let (end_hash, end_ply, end_result) = (game.hash(), game.ply(), game.result().cloned());
    game.go_to(0).expect("ply 0 exists");
    assert_eq!(game.hash(), 0);
    assert!(game.result().is_none());
    assert!(size.points().all(|p| game.board().get(p).color().is_none()));
    game.go_to(end_ply).expect("the moves were kept for redo");
    assert_eq!(game.hash(), end_hash);
    assert_eq!(game.result().cloned(), end_result);
});
