//! Zobrist keys: one random 64-bit key per (cell, colour), fixed for all time so hashes
//! can be stored.

use crate::pos::MAX_CELLS;
use crate::random::SplitMix64;
use crate::{Color, Pos, Size};

const fn generate() -> [[u64; 2]; MAX_CELLS] {
    let mut keys = [[0u64; 2]; MAX_CELLS];
    let mut rng = SplitMix64::new(0x5755_5A49_2020_0001);
    let mut i = 0;
    while i < MAX_CELLS {
        keys[i][0] = rng.next();
        keys[i][1] = rng.next();
        i += 1;
    }
    keys
}

/// Keys indexed by `y * 26 + x` (the largest board's layout, so a key does not depend on
/// the board size) and colour.
static KEYS: [[u64; 2]; MAX_CELLS] = generate();

/// The key of a `color` stone at `pos`.
#[must_use]
pub fn key(pos: Pos, color: Color) -> u64 {
    KEYS[pos.y as usize * crate::pos::MAX_SIDE as usize + pos.x as usize][color.index()]
}

/// The hash of a board's stones, computed from scratch.
#[must_use]
pub fn hash_board(board: &crate::Board) -> u64 {
    let size: Size = board.size();
    size.points()
        .filter_map(|p| board.get(p).color().map(|c| key(p, c)))
        .fold(0, |h, k| h ^ k)
}
