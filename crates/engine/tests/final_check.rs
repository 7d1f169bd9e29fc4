//! The safety checks of timed searches: the final check of a search cut short by time,
//! and the two-thread safety helper. A test binary of its own, its tests one at a time:
//! the checks get the time kept back from the search (or the second core), and tests
//! running beside them on the same cores would take that time away.

mod common;

use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use common::{TUPLE_DEEP_VCT, TUPLE_GAME_40, name, position};
use wuzi_engine::params::Features;
use wuzi_engine::{Engine, EngineOptions, Position, SearchLimits};
use wuzi_rules::{Board, Color, GameConfig, Pos, Rule, Size};

/// The VCT (attacker moves, nodes) that decides whether a move loses: far beyond the
/// engine's own checks.
const DEEP_VCT: (u32, u64) = (8, 2_000_000);

/// Held by each test: one timed search at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The position after `moves` (renju notation, Black first) on 15×15.
fn after(rule: Rule, moves: &str) -> Position {
    let size = Size::STANDARD;
    let mut pos = Position::from_board(
        &GameConfig::new(rule, size),
        &Board::new(size),
        Color::Black,
    );
    for m in moves.split_whitespace() {
        pos.play(size.parse_pos(m).unwrap()).unwrap();
    }
    pos
}

/// The first move of the opponent's VCT after `m`, searched up to `depth` attacker
/// moves on `nodes` nodes.
fn refutation(pos: &Position, m: Pos, depth: u32, nodes: u64) -> Option<Vec<Pos>> {
    let mut after = pos.clone();
    after.play(m).expect("a legal move");
    wuzi_engine::vct(
        &after,
        &SearchLimits {
            nodes: Some(nodes),
            depth: Some(depth),
            ..SearchLimits::default()
        },
    )
}

/// One search of `pos` at `ms` a move on `threads` threads with `features`; the move
/// played.
fn play(pos: &Position, threads: usize, ms: u64, features: Features) -> Pos {
    let mut e = Engine::new(EngineOptions {
        hash_mb: 8,
        threads,
    });
    e.set_features(features);
    e.search(
        pos,
        &SearchLimits::per_move(Duration::from_millis(ms)),
        &AtomicBool::new(false),
        &mut |_| {},
    )
    .best
    .expect("a move")
}

/// At 200 ms a move the last iteration is usually cut short at the search deadline;
/// the move about to be played is then checked in the time kept back (15% of the
/// limit). Before it was, the engine played k6 in the first position (Black then wins
/// by an 11-ply VCT). In the second the final check refutes i10 and the depth is
/// searched again without it, which time cuts short; the move that replaces i10 is
/// checked in turn. Before it was, the replacement (i11, by move ordering, with the
/// placeholder score of a move the search only failed low on) went unchecked and lost
/// to a 13-ply VCT. With two threads the safety helper checks the best move too.
#[test]
fn final_safety_checks_the_move_of_a_search_cut_by_time() {
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    for rows in [&TUPLE_GAME_40, &TUPLE_DEEP_VCT] {
        let pos = position(Rule::Freestyle, rows, Color::White);
        for threads in [1, 1, 1, 2, 2] {
            let m = play(&pos, threads, 200, Features::ALL);
            let vct = refutation(&pos, m, DEEP_VCT.0, DEEP_VCT.1);
            assert_eq!(vct, None, "{} loses to a VCT ({threads} threads)", name(m));
        }
    }
}

/// Renju, White to move, from a game lost to the tuple AI: every move loses, most to
/// long VCTs (h10, m8 and n9 to lines of 19 to 21 plies) but n4 to a 3-ply one (h10
/// g11 l6). The safety helper refutes the moves in the main search's order and keeps
/// the last one searchable; the engine then plays the move whose refutation it found
/// longest. Without that it played the last one, which a short VCT refutes (n4, m5).
/// At 200 ms a move the helper had not always checked every move before the search
/// proved the loss (one failure in 12 runs), hence 400 ms.
#[test]
fn in_a_lost_position_the_longest_refutation_is_played() {
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let pos = after(Rule::Renju, "h8 i7 j6 k6 j8 j5 i8 k8 g8 f8 k7 l7 i4 i5 i9");
    for _ in 0..3 {
        let m = play(&pos, 2, 400, Features::ALL);
        assert_eq!(
            refutation(&pos, m, 4, 100_000),
            None,
            "{} loses to a short VCT",
            name(m)
        );
    }
}
