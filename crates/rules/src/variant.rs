//! The original designs' themes that change play: rock (walls) and ocean (bubbles).
//!
//! Layouts come from a seed through [`SplitMix64`], and the cells are stored with the
//! seed, so a record replays exactly even if generation ever changes.

use serde::{Deserialize, Serialize};

use crate::random::SplitMix64;
use crate::{Pos, Size};

/// Number of bubbles an ocean board has, as in the original design.
pub const OCEAN_BUBBLES: usize = 10;
/// Bubbles a player must hold to win on an ocean board.
pub const OCEAN_TARGET: u8 = 7;

/// A board theme that changes the rules.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(tag = "theme", rename_all = "lowercase")]
pub enum Variant {
    /// The plain board.
    #[default]
    Wood,
    /// Rock: walls nobody can play on. A wall ends a row like the edge and is no caro block.
    Rock {
        /// The seed the layout came from (informational once `walls` is stored).
        seed: u64,
        /// The wall cells.
        walls: Vec<Pos>,
    },
    /// Ocean: bubble cells; a player whose stones cover `target` of them wins at once.
    Ocean {
        /// The seed the layout came from.
        seed: u64,
        /// The bubble cells. As in the original design the list may repeat a cell, and a
        /// repeated cell counts once per entry.
        bubbles: Vec<Pos>,
        /// How many entries of `bubbles` a player must hold.
        target: u8,
    },
}

impl Variant {
    /// A rock layout: `count` distinct walls (at most a third of the board), never on the
    /// centre point, from `seed`.
    #[must_use]
    pub fn rock(size: Size, seed: u64, count: usize) -> Variant {
        let count = count.min(size.cells() / 3);
        let mut rng = SplitMix64::new(seed);
        let mut walls: Vec<Pos> = Vec::with_capacity(count);
        while walls.len() < count {
            let p = size.pos_at(rng.below(size.cells()));
            if p != size.center() && !walls.contains(&p) {
                walls.push(p);
            }
        }
        Variant::Rock { seed, walls }
    }

    /// The default number of rocks for a board: one cell in twenty.
    #[must_use]
    pub fn default_rock_count(size: Size) -> usize {
        size.cells() / 20
    }

    /// An ocean layout: [`OCEAN_BUBBLES`] random cells (repeats allowed), target
    /// [`OCEAN_TARGET`], from `seed`.
    #[must_use]
    pub fn ocean(size: Size, seed: u64) -> Variant {
        let mut rng = SplitMix64::new(seed);
        let bubbles = (0..OCEAN_BUBBLES)
            .map(|_| size.pos_at(rng.below(size.cells())))
            .collect();
        Variant::Ocean {
            seed,
            bubbles,
            target: OCEAN_TARGET,
        }
    }

    /// The theme's name: `wood`, `rock` or `ocean`.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Variant::Wood => "wood",
            Variant::Rock { .. } => "rock",
            Variant::Ocean { .. } => "ocean",
        }
    }

    /// The wall cells (empty unless rock).
    #[must_use]
    pub fn walls(&self) -> &[Pos] {
        match self {
            Variant::Rock { walls, .. } => walls,
            _ => &[],
        }
    }

    /// The bubble cells (empty unless ocean).
    #[must_use]
    pub fn bubbles(&self) -> &[Pos] {
        match self {
            Variant::Ocean { bubbles, .. } => bubbles,
            _ => &[],
        }
    }
}
