//! The learned evaluation: one value per *slot*, the unordered combination of a point's
//! four line patterns (its multiset of [`Pattern`]s, 1,820 of them), by role (the side
//! to move's points, the other side's). A point's share of the static evaluation is the
//! value of its slot; the board keeps it with the point's other per-combination data
//! (see [`super::combo_table`]), so the learned evaluation costs nothing at run time.
//!
//! Each colour's points are valued by the table of its *class*
//! ([`class`]): a colour without restrictions (freestyle, standard), Black under renju
//! and White under renju, since a renju White shape is worth what it is worth against
//! a Black who cannot play every point (Rapfi's classical evaluator keeps renju's
//! colours apart so). A point where Black's stone would be forbidden (renju) has a slot
//! of its own. The
//! values are fitted by `examples/train.rs` to self-play data (`wuzi selfplay`), starting
//! from and pulled towards the hand-set evaluation ([`prior`]): a combination seldom
//! seen keeps about its hand-set value. The fitted table ships in the binary
//! ([`WEIGHTS`]); its provenance is in `weights/README.md`.

use std::sync::OnceLock;

use wuzi_rules::{Color, Rule};

use super::pattern::Pattern;
use super::{ROLE_MOVER, ROLE_WAITER, Threat, combine, combo_index, combo_patterns, eval_value};
use crate::board::Board;

const NP: usize = Pattern::ALL.len();

/// Unordered combinations of four patterns (multisets of size 4 out of 13).
pub const COMBINATIONS: usize = 1820;
/// The slot of a point whose stone is forbidden (renju, Black).
pub const FORBIDDEN_SLOT: usize = COMBINATIONS;
/// Slots per role.
pub const SLOTS: usize = COMBINATIONS + 1;
/// Classes of stones with tables of their own: a colour without restrictions (0),
/// Black under renju (1), White under renju (2); see [`class`].
pub const CLASSES: usize = 3;
/// Values in a table: per class, per role (mover, waiter), per slot.
pub const FEATURES: usize = CLASSES * 2 * SLOTS;

/// The class of every colour outside renju.
pub const UNRESTRICTED: usize = 0;
/// The class of Black under renju (its points carry the restrictions).
pub const RENJU_BLACK: usize = 1;
/// The class of White under renju.
pub const RENJU_WHITE: usize = 2;

/// The class of `color`'s stones under `rule`.
#[must_use]
pub fn class(rule: Rule, color: Color) -> usize {
    match (rule, color) {
        (Rule::Renju, Color::Black) => RENJU_BLACK,
        (Rule::Renju, Color::White) => RENJU_WHITE,
        _ => UNRESTRICTED,
    }
}

/// Whether a class is Black's under renju (its points carry the restrictions).
#[must_use]
pub const fn restricted(class: usize) -> bool {
    class == RENJU_BLACK
}

/// The place of a value in the table.
#[must_use]
pub const fn feature(class: usize, role: usize, slot: usize) -> usize {
    (class * 2 + role) * SLOTS + slot
}

/// The shipped table: [`FEATURES`] little-endian `i16` values in sixteenths of an
/// evaluation unit, in the order of [`feature`]. Named by its [`checksum`].
pub const WEIGHTS: &[u8] = include_bytes!("weights/eval-479dd60e8e0b55dc.bin");
/// The name of the shipped table's file.
pub const WEIGHTS_FILE: &str = "eval-479dd60e8e0b55dc.bin";

/// FNV-1a (64 bits) of `bytes`: the name of a weights file.
#[must_use]
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Every combination of four line patterns (the patterns sorted), in the order of
/// their numbers: the `s`-th is the combination of slot `s`.
pub fn combinations() -> impl Iterator<Item = [Pattern; 4]> {
    (0..NP).flat_map(|a| {
        (a..NP).flat_map(move |b| {
            (b..NP).flat_map(move |c| (c..NP).map(move |d| [a, b, c, d].map(|k| Pattern::ALL[k])))
        })
    })
}

/// The combination of every [`combo_index`]: its four patterns sorted, then numbered
/// in the order of [`combinations`] (below [`COMBINATIONS`]; the slot of a point
/// that is not forbidden).
#[must_use]
pub fn slot_table() -> &'static [u16] {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut sorted_ids = vec![u16::MAX; NP * NP * NP * NP];
        let mut slots = 0u16;
        for pats in combinations() {
            sorted_ids[combo_index(pats)] = slots;
            slots += 1;
        }
        assert_eq!(usize::from(slots), COMBINATIONS);
        (0..NP * NP * NP * NP)
            .map(|i| {
                let mut p = combo_patterns(i);
                p.sort_unstable();
                sorted_ids[combo_index(p)]
            })
            .collect()
    })
}

/// The slot of a point with the patterns of [`combo_index`] `index` and the threat
/// `threat` (which says whether the point is forbidden).
#[must_use]
pub fn slot(index: usize, threat: Threat) -> usize {
    combination_slot(usize::from(slot_table()[index]), threat)
}

/// The slot of a point with the patterns of combination `combination` (see
/// [`slot_table`]) and the threat `threat`.
#[inline]
#[must_use]
pub fn combination_slot(combination: usize, threat: Threat) -> usize {
    if threat == Threat::Forbidden {
        FORBIDDEN_SLOT
    } else {
        combination
    }
}

/// Four patterns with slot `s` (one representative of the combination).
#[must_use]
pub fn representative(s: usize) -> [Pattern; 4] {
    combinations().nth(s).unwrap_or([Pattern::Dead; 4])
}

/// The hand-set evaluation as a table (in sixteenths, by [`feature`]): what the fit
/// starts from and is pulled towards. Forbidden points start at 0.
#[must_use]
pub fn prior() -> Vec<i32> {
    let combos: Vec<[Pattern; 4]> = combinations().collect();
    (0..FEATURES)
        .map(|f| {
            let (role, s) = (f / SLOTS % 2, f % SLOTS);
            if s == FORBIDDEN_SLOT {
                return 0;
            }
            let pats = combos[s];
            eval_value(pats, combine(pats, false).0, role)
        })
        .collect()
}

/// A table as the weights file stores it.
#[must_use]
pub fn encode(table: &[i32]) -> Vec<u8> {
    table
        .iter()
        .flat_map(|&v| (v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16).to_le_bytes())
        .collect()
}

/// The table in use, by [`feature`], in sixteenths: the shipped one, or for strength
/// tests of a new fit the file named by the environment variable `WUZI_EVAL_WEIGHTS`
/// (read once).
#[must_use]
pub fn table() -> &'static [i16] {
    static TABLE: OnceLock<Vec<i16>> = OnceLock::new();
    TABLE.get_or_init(|| load("WUZI_EVAL_WEIGHTS").unwrap_or_else(|| decode(WEIGHTS)))
}

/// A second table for duels between two fits in one process (the feature switch
/// `+altweights`): the file named by `WUZI_EVAL_WEIGHTS_ALT`, else the shipped one.
#[must_use]
pub fn alt_table() -> &'static [i16] {
    static TABLE: OnceLock<Vec<i16>> = OnceLock::new();
    TABLE.get_or_init(|| load("WUZI_EVAL_WEIGHTS_ALT").unwrap_or_else(|| decode(WEIGHTS)))
}

/// The table in the file named by the environment variable `var`, if it is set.
fn load(var: &str) -> Option<Vec<i16>> {
    load_values(var, FEATURES, "weights")
}

/// The values of a weights file.
fn decode(bytes: &[u8]) -> Vec<i16> {
    decode_values(bytes, FEATURES, "weights")
}

/// The values in the file named by the environment variable `var`, if it is set: `len`
/// little-endian `i16` values (a `what` file, for the error).
pub(crate) fn load_values(var: &str, len: usize, what: &str) -> Option<Vec<i16>> {
    std::env::var_os(var).map(|path| {
        let bytes =
            std::fs::read(&path).unwrap_or_else(|e| panic!("{var} {}: {e}", path.display()));
        decode_values(&bytes, len, what)
    })
}

/// `len` little-endian `i16` values (a `what` file, for the error).
pub(crate) fn decode_values(bytes: &[u8], len: usize, what: &str) -> Vec<i16> {
    assert_eq!(bytes.len(), len * 2, "{what} file of the wrong size");
    bytes
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect()
}

/// A point's learned share of the evaluation by role (see [`super::Combo::eval`]) for a
/// stone of `class`, from [`table`] or, with `alt`, [`alt_table`].
#[must_use]
pub fn value(index: usize, threat: Threat, class: usize, alt: bool) -> [i16; 2] {
    let s = slot(index, threat);
    let t = if alt { alt_table() } else { table() };
    [ROLE_MOVER, ROLE_WAITER].map(|role| t[feature(class, role, s)])
}

/// The learned evaluation's features of a board: for every empty point and colour, its
/// place in the table ([`feature`]), pushed onto `out`. The learned static evaluation (before the division by
/// [`crate::params::EVAL_SCALE`]) is the sum of [`table`] over them. With the exact
/// renju check on ([`Board::set_exact_forbidden`]), Black's double-three points that
/// it finds forbidden are in the forbidden slot, as [`Board::evaluate_exact`] values
/// them.
pub fn features(board: &mut Board, out: &mut Vec<u32>) {
    let me = board.to_move();
    for (role, color) in [(ROLE_MOVER, me), (ROLE_WAITER, me.opponent())] {
        let class = class(board.rule(), color);
        for k in 0..board.points().len() {
            let i = board.points()[k];
            if board.is_empty(i) {
                let pats = [0, 1, 2, 3].map(|d| board.pattern(i, color, d));
                let mut threat = board.threat(i, color);
                if threat != Threat::Forbidden
                    && board.exact_forbidden_for(color)
                    && !board.is_legal_for(i, color)
                {
                    threat = Threat::Forbidden;
                }
                let s = slot(combo_index(pats), threat);
                out.push(feature(class, role, s) as u32);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shipped table is the one its provenance describes.
    #[test]
    fn weights_are_pinned() {
        let name = format!("eval-{:016x}.bin", checksum(WEIGHTS));
        assert_eq!(name, WEIGHTS_FILE);
        assert_eq!(WEIGHTS.len(), FEATURES * 2);
    }

    /// The prior in slot form is the hand-set evaluation of every combination (away
    /// from Black's forbidden points), whatever the order of its lines.
    #[test]
    fn the_prior_is_the_hand_set_evaluation() {
        let prior = prior();
        let np = Pattern::ALL.len();
        for index in 0..np * np * np * np {
            let pats = combo_patterns(index);
            let threat = combine(pats, false).0;
            for role in [ROLE_MOVER, ROLE_WAITER] {
                assert_eq!(
                    prior[feature(UNRESTRICTED, role, slot(index, threat))],
                    eval_value(pats, threat, role),
                    "{pats:?}"
                );
            }
        }
    }

    /// Each colour's points are read from its class's table: renju's two colours apart,
    /// every colour of the other rules in the unrestricted table.
    #[test]
    fn features_are_read_by_the_class_of_each_colour() {
        use crate::Position;
        use wuzi_rules::{Game, GameConfig, Size, notation};
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            for moves in ["h8 h9 i8", "h8 h9 i8 i9"] {
                let size = Size::STANDARD;
                let mv = notation::parse_moves(moves, size).unwrap();
                let game = Game::from_moves(GameConfig::new(rule, size), &mv).unwrap();
                let mut board = Board::new(&Position::from_game(&game));
                let mut out = Vec::new();
                features(&mut board, &mut out);
                let me = board.to_move();
                let half = out.len() / 2;
                for (k, &f) in out.iter().enumerate() {
                    let (color, role) = if k < half {
                        (me, ROLE_MOVER)
                    } else {
                        (me.opponent(), ROLE_WAITER)
                    };
                    let f = f as usize;
                    assert_eq!(f / SLOTS / 2, class(rule, color), "{rule:?} {moves}");
                    assert_eq!(f / SLOTS % 2, role);
                }
            }
        }
        assert_eq!(class(Rule::Renju, Color::White), RENJU_WHITE);
        assert!(restricted(class(Rule::Renju, Color::Black)));
        assert!(!restricted(class(Rule::Standard, Color::Black)));
    }

    /// Slots ignore the order of the lines and cover every combination once.
    #[test]
    fn slots_are_unordered_combinations() {
        use Pattern as P;
        let a = combo_index([P::Flex3, P::Dead, P::Block4, P::Flex1]);
        let b = combo_index([P::Flex1, P::Block4, P::Dead, P::Flex3]);
        assert_eq!(slot(a, Threat::Block4Flex3), slot(b, Threat::Block4Flex3));
        assert_eq!(slot(a, Threat::Forbidden), FORBIDDEN_SLOT);
        for s in [0, 1, 777, COMBINATIONS - 1] {
            assert_eq!(slot(combo_index(representative(s)), Threat::None), s);
        }
    }
}
