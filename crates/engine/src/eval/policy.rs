//! The learned move-ordering score (a policy): how likely the search is to play an
//! empty point, as a logit that is the sum of
//! - the value of the point's slot ([`learned::slot`], its four line patterns) for the
//!   side to move (attack: what the stone makes),
//! - the value of its slot for the other side (defence: what the stone takes away),
//! - a value for where it lies from the last move, and one for where it lies from the
//!   mover's own move before that ([`near_bucket`]).
//!
//! `examples/policy.rs` fits the values to the moves `wuzi selfplay` records (the
//! search's own choices: a softmax over the moves [`crate::movegen::generate`] gives).
//! They order the search's moves with the switch `policy`
//! ([`crate::movegen::order_score_policy`]). Values in hundredths of a logit.

use std::sync::OnceLock;

use wuzi_rules::Color;

use super::learned::{self, SLOTS};
use super::{ROLE_MOVER, ROLE_WAITER, THREAT_KINDS};

use crate::board::{Board, Idx, STRIDE};

/// Classes of stones with slot values of their own: a colour without restrictions (0),
/// Black under renju (1). (The evaluation's tables keep renju's White apart as well,
/// [`learned::CLASSES`]; the policy's do not.)
pub const CLASSES: usize = 2;

/// The place of a slot's value in the table: class by `renju_black`, then role, then
/// slot.
#[must_use]
pub const fn slot_feature(renju_black: bool, role: usize, slot: usize) -> usize {
    ((renju_black as usize) * 2 + role) * SLOTS + slot
}

/// Buckets of a point's place relative to one earlier move ([`near_bucket`]).
pub const NEAR_BUCKETS: usize = 10;
/// Values in a table: the slot values per class, role and slot, then the buckets
/// relative to the last move, then those relative to the mover's own last move, then
/// the threat pairs.
pub const FEATURES: usize = CLASSES * 2 * SLOTS + 2 * NEAR_BUCKETS + THREAT_KINDS * THREAT_KINDS;
/// Where the place buckets start.
pub const NEAR_START: usize = CLASSES * 2 * SLOTS;
/// Where the threat pairs start.
pub const PAIR_START: usize = NEAR_START + 2 * NEAR_BUCKETS;

/// The shipped table: [`FEATURES`] little-endian `i16` values, in hundredths of a
/// logit, by feature. Named by its [`learned::checksum`]; provenance in
/// `weights/README.md`.
pub const WEIGHTS: &[u8] = include_bytes!("weights/policy-1839e3e10cec942c.bin");
/// The name of the shipped table's file.
pub const WEIGHTS_FILE: &str = "policy-1839e3e10cec942c.bin";

/// The table in use (hundredths of a logit, by feature): the shipped one, or for
/// strength tests of a new fit the file named by `WUZI_POLICY_WEIGHTS` (read once).
#[must_use]
pub fn table() -> &'static [i16] {
    static TABLE: OnceLock<Vec<i16>> = OnceLock::new();
    TABLE.get_or_init(|| load("WUZI_POLICY_WEIGHTS").unwrap_or_else(|| decode(WEIGHTS)))
}

/// A second table for duels between two fits in one process (the feature switch
/// `+altpolicy`): the file named by `WUZI_POLICY_WEIGHTS_ALT`, else the shipped one.
#[must_use]
pub fn alt_table() -> &'static [i16] {
    static TABLE: OnceLock<Vec<i16>> = OnceLock::new();
    TABLE.get_or_init(|| load("WUZI_POLICY_WEIGHTS_ALT").unwrap_or_else(|| decode(WEIGHTS)))
}

/// [`alt_table`] if `alt`, else [`table`].
#[must_use]
pub fn table_for(alt: bool) -> &'static [i16] {
    if alt { alt_table() } else { table() }
}

/// The table in the file named by the environment variable `var`, if it is set.
fn load(var: &str) -> Option<Vec<i16>> {
    learned::load_values(var, FEATURES, "policy")
}

/// The values of a policy file.
fn decode(bytes: &[u8]) -> Vec<i16> {
    learned::decode_values(bytes, FEATURES, "policy")
}

/// The bucket of the empty point `i` relative to the earlier move `m`: on one of its
/// lines at distance 1 to 4 (0–3), off its lines at Chebyshev distance 1 to 2 (4–5),
/// farther on a line (6: 5 or more) or off (7: 3, 8: 4 or more); 9 when there is no
/// such move.
#[must_use]
pub fn near_bucket(i: Idx, m: Option<Idx>) -> usize {
    let Some(m) = m else {
        return 9;
    };
    let (x0, y0) = ((i % STRIDE) as isize, (i / STRIDE) as isize);
    let (x1, y1) = ((m % STRIDE) as isize, (m / STRIDE) as isize);
    let (dx, dy) = ((x0 - x1).abs(), (y0 - y1).abs());
    let d = dx.max(dy);
    let aligned = dx == 0 || dy == 0 || dx == dy;
    match (aligned, d) {
        (true, 1..=4) => (d - 1) as usize,
        (true, _) => 6,
        (false, 1..=2) => 3 + d as usize,
        (false, 3) => 7,
        _ => 8,
    }
}

/// The features of the empty point `i` for the side to move: attack slot, defence
/// slot, place from the last move, place from the mover's own last move, threat pair.
#[must_use]
pub fn features(board: &Board, i: Idx) -> [usize; 5] {
    let me = board.to_move();
    let opp = me.opponent();
    let renju = board.rule() == wuzi_rules::Rule::Renju;
    let rb = |c: Color| renju && c == Color::Black;
    let (last, own) = (board.recent(0), board.recent(1));
    [
        slot_feature(
            rb(me),
            ROLE_MOVER,
            learned::slot(board.combo(i, me), board.threat(i, me)),
        ),
        slot_feature(
            rb(opp),
            ROLE_WAITER,
            learned::slot(board.combo(i, opp), board.threat(i, opp)),
        ),
        NEAR_START + near_bucket(i, last),
        NEAR_START + NEAR_BUCKETS + near_bucket(i, own),
        PAIR_START + board.threat(i, me) as usize * THREAT_KINDS + board.threat(i, opp) as usize,
    ]
}

/// The policy logit of the empty point `i` for the side to move, in hundredths: the
/// sum of the board's table ([`Board::policy_table`]) over [`features`] (the slot
/// values as the board keeps them).
#[must_use]
pub fn score(board: &Board, i: Idx) -> i32 {
    Scorer::new(board, true).score(board, i)
}

/// [`near_bucket`] by the distances across and down (each below [`MAX_SIDE`]): a table,
/// so that scoring a point needs no branches.
const BUCKET_BY_DISTANCE: [[u8; MAX_SIDE]; MAX_SIDE] = {
    let mut t = [[0u8; MAX_SIDE]; MAX_SIDE];
    let mut dx = 0;
    while dx < MAX_SIDE {
        let mut dy = 0;
        while dy < MAX_SIDE {
            let d = if dx > dy { dx } else { dy };
            let aligned = dx == 0 || dy == 0 || dx == dy;
            t[dx][dy] = match (aligned, d) {
                (true, 1..=4) => (d - 1) as u8,
                (true, _) => 6,
                (false, 1..=2) => 3 + d as u8,
                (false, 3) => 7,
                _ => 8,
            };
            dy += 1;
        }
        dx += 1;
    }
    t
};
/// The largest board side.
const MAX_SIDE: usize = wuzi_rules::pos::MAX_SIDE as usize;

/// The policy of one position, ready to score its points: the place values relative to
/// the last two moves are looked up once, not for every point (the search scores every
/// candidate of a node).
#[derive(Debug)]
pub struct Scorer {
    table: &'static [i16],
    me: Color,
    /// Column and row of the last move and of the mover's own last move.
    moves: [Option<(usize, usize)>; 2],
    /// The table's place values relative to those moves, by bucket.
    near: [[i32; NEAR_BUCKETS]; 2],
}

impl Scorer {
    /// The scorer of `board`'s position (the side to move and its last two moves).
    /// Without `game_moves` only moves played on the board count (as the search did
    /// before the switch `pgame`): at its root and first ply the moves of the game
    /// before it are taken as missing, where the fit saw them.
    #[must_use]
    pub fn new(board: &Board, game_moves: bool) -> Scorer {
        let table = board.policy_table();
        let (last, own) = if game_moves {
            (board.recent(0), board.recent(1))
        } else {
            let h = board.history();
            (h.last().copied(), h.len().checked_sub(2).map(|k| h[k]))
        };
        let near = |start: usize| -> [i32; NEAR_BUCKETS] {
            std::array::from_fn(|b| i32::from(table[start + b]))
        };
        Scorer {
            table,
            me: board.to_move(),
            moves: [last, own].map(|m| m.map(|m| (m % STRIDE, m / STRIDE))),
            near: [near(NEAR_START), near(NEAR_START + NEAR_BUCKETS)],
        }
    }

    /// The place value of the point at column `x`, row `y` relative to move `k`.
    #[inline]
    fn near(&self, k: usize, x: usize, y: usize) -> i32 {
        let b = match self.moves[k] {
            Some((mx, my)) => usize::from(BUCKET_BY_DISTANCE[x.abs_diff(mx)][y.abs_diff(my)]),
            None => 9,
        };
        self.near[k][b]
    }

    /// [`score`] of the empty point `i` of `board`, the position this scorer was made
    /// for.
    #[inline]
    #[must_use]
    pub fn score(&self, board: &Board, i: Idx) -> i32 {
        let me = self.me;
        let opp = me.opponent();
        let (x, y) = (i % STRIDE, i / STRIDE);
        board.policy_share(i, me, ROLE_MOVER)
            + board.policy_share(i, opp, ROLE_WAITER)
            + self.near(0, x, y)
            + self.near(1, x, y)
            + i32::from(
                self.table[PAIR_START
                    + board.threat(i, me) as usize * THREAT_KINDS
                    + board.threat(i, opp) as usize],
            )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shipped table is the one its provenance describes.
    #[test]
    fn policy_weights_are_pinned() {
        let name = format!("policy-{:016x}.bin", learned::checksum(WEIGHTS));
        assert_eq!(name, WEIGHTS_FILE);
        assert_eq!(WEIGHTS.len(), FEATURES * 2);
    }

    /// The score the board's kept slot values give is the sum over the features, of
    /// the shipped table or of the second one (`+altpolicy`).
    #[test]
    fn the_score_is_the_sum_over_the_features() {
        use wuzi_rules::{Game, GameConfig, Rule, Size, notation};
        for rule in [Rule::Freestyle, Rule::Renju] {
            for alt in [false, true] {
                let size = Size::STANDARD;
                let moves = notation::parse_moves("h8 h9 i7 g9 j6 g8 g10 f9", size).unwrap();
                let game = Game::from_moves(GameConfig::new(rule, size), &moves).unwrap();
                let pos = crate::Position::from_game(&game);
                let board = Board::with_tables(&pos, crate::eval::Source::Learned, alt);
                assert!(std::ptr::eq(board.policy_table(), table_for(alt)));
                for &i in board.points() {
                    if board.is_empty(i) {
                        let sum: i32 = features(&board, i)
                            .iter()
                            .map(|&f| i32::from(table_for(alt)[f]))
                            .sum();
                        assert_eq!(score(&board, i), sum);
                    }
                }
            }
        }
    }

    /// Places relative to an earlier move: on its lines by distance, off them by
    /// distance, and no move.
    #[test]
    fn places_from_a_move_fall_in_their_buckets() {
        let m = 10 * STRIDE + 10;
        assert_eq!(near_bucket(m + 1, Some(m)), 0);
        assert_eq!(near_bucket(m + 4 * (STRIDE + 1), Some(m)), 3);
        assert_eq!(near_bucket(m + 5 * STRIDE, Some(m)), 6);
        assert_eq!(near_bucket(m + STRIDE + 2, Some(m)), 5);
        assert_eq!(near_bucket(m + 3 * STRIDE + 1, Some(m)), 7);
        assert_eq!(near_bucket(m, None), 9);
    }

    /// The scorer's bucket table gives [`near_bucket`]'s buckets, wherever the two
    /// points lie.
    #[test]
    fn the_bucket_table_agrees_with_near_bucket() {
        use crate::board::PAD;
        for (x0, y0) in [(PAD, PAD), (12, 9), (30, 30)] {
            let m = y0 * STRIDE + x0;
            for y in PAD..PAD + MAX_SIDE {
                for x in PAD..PAD + MAX_SIDE {
                    let i = y * STRIDE + x;
                    if i != m {
                        assert_eq!(
                            usize::from(BUCKET_BY_DISTANCE[x.abs_diff(x0)][y.abs_diff(y0)]),
                            near_bucket(i, Some(m))
                        );
                    }
                }
            }
        }
    }
}
