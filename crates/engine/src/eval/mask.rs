//! The threat mask: a term of the static evaluation for the combination of threats
//! both sides hold at once. The points' shares ([`super::learned`]) value each point
//! alone; what a threat is worth also depends on the threats around it on the board
//! (an open three of the side to move is worth more when the other side has no four to
//! answer with). The mask is a few bits per side ([`side_bits`]: how many points make
//! an open three, how many a four, whether one makes a double three, a four-three, an
//! open four), for the side to move and the other side, and the term is one fitted
//! value per mask and rule class (`examples/train.rs --mask`).
//!
//! The switch `tmask` ([`crate::params::Features::threat_mask`], on for level 10) adds
//! the term. The fitted values ship in the binary ([`WEIGHTS`]); their provenance is in
//! `weights/README.md`.

use std::sync::OnceLock;

use wuzi_rules::Color;

use super::{Threat, learned};
use crate::board::Board;

/// Bits of one side's part of the mask.
pub const SIDE_BITS: usize = 7;
/// Masks per rule class: the side to move's bits, then the other side's.
pub const MASKS: usize = 1 << (2 * SIDE_BITS);
/// Classes with values of their own, numbered as [`learned::class`] numbers the colour
/// to move's: without restrictions, renju with Black to move, renju with White to move.
pub const CLASSES: usize = 3;
/// Values in a table.
pub const FEATURES: usize = CLASSES * MASKS;

/// The shipped table: [`FEATURES`] little-endian `i16` values in sixteenths of an
/// evaluation unit, by [`index`]. Named by its [`super::learned::checksum`].
pub const WEIGHTS: &[u8] = include_bytes!("weights/mask-42996338c2a73770.bin");
/// The name of the shipped table's file.
pub const WEIGHTS_FILE: &str = "mask-42996338c2a73770.bin";

/// The threats `color` holds, as [`SIDE_BITS`] bits: bits 0–1 the points that make an
/// open three (none, 1–3, 4–6, 7 or more: an open two has up to four), bits 2–3 the
/// points that make a four (none, 1, 2, 3 or more), then whether a point makes a double
/// three (bit 4), a four-three (bit 5), an open four (bit 6).
#[must_use]
pub fn side_bits(board: &Board, color: Color) -> usize {
    let n = |t: Threat| usize::from(board.threat_count(color, t));
    let threes = n(Threat::Flex3).div_ceil(3).min(3);
    let fours = n(Threat::Block4).min(3);
    threes
        | fours << 2
        | usize::from(n(Threat::Flex3x2) > 0) << 4
        | usize::from(n(Threat::Block4Flex3) > 0) << 5
        | usize::from(n(Threat::Flex4) > 0) << 6
}

/// One side's bits in the layout of session 22 (six bits: an open-three point, four or
/// more of them, a four, a double three, a four-three, an open four) from its bits in
/// this one, which splits each of that layout's masks into several.
#[must_use]
pub const fn six_bits(bits: usize) -> usize {
    let (threes, fours) = (bits & 3, bits >> 2 & 3);
    let flags = bits >> 4;
    (threes >= 1) as usize
        | ((threes >= 2) as usize) << 1
        | ((fours >= 1) as usize) << 2
        | flags << 3
}

/// A table of the six-bit layout ([`six_bits`], both sides; two classes, unrestricted
/// and renju) in this one: every mask takes the value of the six-bit mask it refines,
/// and both renju classes the renju values, so the evaluation is unchanged.
#[must_use]
pub fn widen(six: &[i16]) -> Vec<i16> {
    let old_masks = 1 << 12;
    assert_eq!(six.len(), 2 * old_masks, "a six-bit mask table");
    let side = (1 << SIDE_BITS) - 1;
    (0..FEATURES)
        .map(|i| {
            let (class, m) = (i / MASKS, i % MASKS);
            let old = six_bits(m & side) | six_bits(m >> SIDE_BITS) << 6;
            let renju = usize::from(class != learned::UNRESTRICTED);
            six[renju * old_masks + old]
        })
        .collect()
}

/// The place of a board's mask in the table.
#[must_use]
pub fn index(board: &Board) -> usize {
    let me = board.to_move();
    let class = learned::class(board.rule(), me);
    class * MASKS + (side_bits(board, me) | side_bits(board, me.opponent()) << SIDE_BITS)
}

/// The mask values in use, in sixteenths of an evaluation unit: the shipped ones, or
/// for strength tests of a new fit the file named by `WUZI_EVAL_MASK` (read once).
#[must_use]
pub fn table() -> &'static [i16] {
    static TABLE: OnceLock<Vec<i16>> = OnceLock::new();
    TABLE.get_or_init(|| load("WUZI_EVAL_MASK"))
}

/// A second table for duels between two fits in one process (with the learned table's
/// second one, the switch `+altweights`): the file named by `WUZI_EVAL_MASK_ALT`, else
/// the shipped one.
#[must_use]
pub fn alt_table() -> &'static [i16] {
    static TABLE: OnceLock<Vec<i16>> = OnceLock::new();
    TABLE.get_or_init(|| load("WUZI_EVAL_MASK_ALT"))
}

/// [`alt_table`] if `alt`, else [`table`].
#[must_use]
pub fn table_for(alt: bool) -> &'static [i16] {
    if alt { alt_table() } else { table() }
}

/// The table in the file named by the environment variable `var`, else the shipped one.
fn load(var: &str) -> Vec<i16> {
    learned::load_values(var, FEATURES, "mask")
        .unwrap_or_else(|| learned::decode_values(WEIGHTS, FEATURES, "mask"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;
    use wuzi_rules::{Game, GameConfig, Rule, Size, notation};

    fn board_of(moves: &str) -> Board {
        let size = Size::STANDARD;
        let moves = notation::parse_moves(moves, size).unwrap();
        let game = Game::from_moves(GameConfig::new(Rule::Freestyle, size), &moves).unwrap();
        Board::new(&Position::from_game(&game))
    }

    /// The shipped table is the one its provenance describes.
    #[test]
    fn mask_weights_are_pinned() {
        let name = format!("mask-{:016x}.bin", learned::checksum(WEIGHTS));
        assert_eq!(name, WEIGHTS_FILE);
        assert_eq!(WEIGHTS.len(), FEATURES * 2);
    }

    /// An open two gives its side open-three points; a closed three gives a four; the
    /// side to move's bits come first.
    #[test]
    fn masks_follow_the_threats() {
        // Black: h8 i8 (open two); White: a1 a2 a3 (a three closed by the edge).
        let b = board_of("h8 a1 i8 a2 o15 a3");
        let black = side_bits(&b, Color::Black);
        let white = side_bits(&b, Color::White);
        assert_ne!(black & 0b11, 0, "an open two makes open-three points");
        assert_eq!(black & 0b1100, 0, "no four for Black");
        assert_eq!(
            white >> 2 & 3,
            2,
            "a three at the edge makes fours at a4 and a5"
        );
        assert_eq!(b.to_move(), Color::Black);
        assert_eq!(index(&b), black | white << SIDE_BITS);
    }

    /// Under renju the side to move's colour picks the class; other rules share one.
    #[test]
    fn renju_masks_are_kept_apart_by_the_colour_to_move() {
        let size = Size::STANDARD;
        for (rule, moves, class) in [
            (Rule::Freestyle, "h8 h9 i8", 0),
            (Rule::Freestyle, "h8 h9", 0),
            (Rule::Standard, "h8 h9 i8", 0),
            (Rule::Renju, "h8 h9", 1),
            (Rule::Renju, "h8 h9 i8", 2),
        ] {
            let moves = notation::parse_moves(moves, size).unwrap();
            let game = Game::from_moves(GameConfig::new(rule, size), &moves).unwrap();
            let b = Board::new(&Position::from_game(&game));
            assert_eq!(index(&b) / MASKS, class, "{rule:?} {moves:?}");
        }
    }

    /// The six-bit layout read from this one agrees with the six bits taken from the
    /// board directly, and a widened table values every board as the six-bit one did.
    #[test]
    fn six_bit_masks_are_refined() {
        let six_direct = |b: &Board, color: Color| {
            let n = |t: Threat| usize::from(b.threat_count(color, t));
            usize::from(n(Threat::Flex3) > 0)
                | usize::from(n(Threat::Flex3) >= 4) << 1
                | usize::from(n(Threat::Block4) > 0) << 2
                | usize::from(n(Threat::Flex3x2) > 0) << 3
                | usize::from(n(Threat::Block4Flex3) > 0) << 4
                | usize::from(n(Threat::Flex4) > 0) << 5
        };
        let six: Vec<i16> = (0..2 << 12).map(|i| (i % 7919) as i16).collect();
        let wide = widen(&six);
        for moves in [
            "h8 a1 i8 a2 o15 a3",
            "h8 h9 i8 i9 j7 a1 g9",
            "h8 h9 i9 g8 i7 i8 j8 g10 k9 g7",
            "h8 i9 h9 h10 g8 f7 i7 j6 g10 g9 f9",
        ] {
            let b = board_of(moves);
            for c in [Color::Black, Color::White] {
                assert_eq!(six_bits(side_bits(&b, c)), six_direct(&b, c), "{moves}");
            }
            let me = b.to_move();
            let old = six_direct(&b, me) | six_direct(&b, me.opponent()) << 6;
            assert_eq!(wide[index(&b)], six[old], "{moves}");
        }
    }

    /// With the switch on, the evaluation adds the mask's value, and only that.
    #[test]
    fn the_evaluation_adds_the_mask_value() {
        let mut b = board_of("h8 h9 i8 i9 j7 a1 g9");
        let without = b.pattern_eval();
        b.set_threat_mask(true);
        let with = b.pattern_eval();
        assert_eq!(with - without, i32::from(table()[index(&b)]));
        assert_ne!(with, without, "the shipped table values this mask");
    }
}
