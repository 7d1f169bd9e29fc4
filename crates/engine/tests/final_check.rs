//! The safety checks of limited searches: the final check of a search cut short (by
//! nodes, so deterministic), and the two-thread safety helper. A test binary of its
//! own, its timed tests one at a time: the checks get the time kept back from the
//! search (or the second core), and tests running beside them on the same cores would
//! take that time away.

mod common;

use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use common::{TUPLE_DEEP_VCT, name, position};
use wuzi_engine::params::{self, Features};
use wuzi_engine::{Engine, EngineOptions, Position, SearchLimits};
use wuzi_rules::{Board, Color, GameConfig, Pos, Rule, Size};

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

/// One single-threaded search of `pos` limited by `nodes` alone with `features`: the
/// move played. Deterministic: such a search keeps back a tenth of its nodes for the
/// final safety check, as a timed one keeps back time.
fn play_nodes(pos: &Position, nodes: u64, features: Features) -> Pos {
    let mut e = Engine::new(EngineOptions {
        hash_mb: 8,
        threads: 1,
    });
    e.set_features(features);
    let limits = SearchLimits {
        nodes: Some(nodes),
        ..SearchLimits::default()
    };
    e.search(pos, &limits, &AtomicBool::new(false), &mut |_| {})
        .best
        .expect("a move")
}

/// The last iteration of a limited search is usually cut short; the move about to be
/// played is then checked in what was kept back for it (a tenth of a node limit), and
/// a move the check refutes is replaced by the next one, checked in turn. In this
/// position (from a game lost to classic-tuple) searches cut at 10,000 to 40,000 nodes
/// often pick i10, which loses to a 13-ply VCT; where the kept-back nodes suffice to
/// find it, the engine must play something else, unless the two replacements the walk
/// checks lose as well (then it keeps the search's choice, which resists best in a lost
/// position): so at least two other moves must then lose to a VCT on those nodes.
/// (Which replacement it plays is the safety walk's, tested in the engine's unit
/// tests.) Limited by nodes, not time, so the machine's load does not change the
/// answer; at least one search must have its refuted move replaced, or the position no
/// longer tests the check.
#[test]
fn final_safety_checks_the_move_of_a_cut_search() {
    let pos = position(Rule::Freestyle, &TUPLE_DEEP_VCT, Color::White);
    // The search without the fitted tables (the policy, the learned evaluation, the
    // threat mask): with them it no longer picks i10 at these limits, their fits
    // change, and the test is about the check.
    let all = Features::ALL.switched("policy,ppr,plmr,psharp,tmask,learned");
    let unchecked = all.switched("finalsafety");
    let mut replaced = 0;
    for nodes in (10..=40).map(|k| k * 1_000) {
        let m = play_nodes(&pos, nodes, unchecked);
        // What the final check would find, on a little less than it has.
        let budget = nodes / 10 * 9 / 10;
        let refuted = |x| refutation(&pos, x, params::FINAL_SAFETY_VCT_DEPTH, budget).is_some();
        if !refuted(m) {
            continue;
        }
        let checked = play_nodes(&pos, nodes, all);
        if checked != m {
            replaced += 1;
            continue;
        }
        let others = near_stones(&pos)
            .into_iter()
            .filter(|&x| x != m && refuted(x))
            .count();
        assert!(
            others >= 2,
            "{} is played though the final check refutes it and only {others} other moves \
             lose ({nodes} nodes)",
            name(m)
        );
    }
    assert!(
        replaced > 0,
        "no search has its refuted move replaced: the test needs a new position"
    );
}

/// The empty points within two lines of a stone.
fn near_stones(pos: &Position) -> Vec<Pos> {
    let b = pos.board();
    let mut out = Vec::new();
    for y in 0..15 {
        for x in 0..15 {
            let near = (-2..=2).any(|dy| {
                (-2..=2).any(|dx| {
                    matches!(
                        b.get_xy(x + dx, y + dy),
                        Some(wuzi_rules::Cell::Black | wuzi_rules::Cell::White)
                    )
                })
            });
            if near && b.get_xy(x, y) == Some(wuzi_rules::Cell::Empty) {
                out.push(Pos::new_unchecked(x as u8, y as u8));
            }
        }
    }
    out
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
