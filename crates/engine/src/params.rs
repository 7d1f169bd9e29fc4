//! Tunable constants of evaluation and search, named in one place.

/// Value of a line pattern on an empty point, indexed by [`crate::eval::pattern::Pattern`].
pub const PATTERN_VALUE: [i32; 13] = [
    0,   // Dead
    0,   // Overline
    1,   // Block1
    3,   // Flex1
    4,   // Block2
    12,  // Flex2
    16,  // Flex2A
    12,  // Block3
    40,  // Flex3
    36,  // Block4
    120, // Flex4
    120, // DoubleFour
    200, // Five
];

/// Extra value of a point's combined threat, indexed by [`crate::eval::Threat`].
pub const THREAT_VALUE: [i32; 12] = [
    0,   // None
    0,   // Weak
    0,   // Flex2
    0,   // Block3
    10,  // Flex2x2
    10,  // Flex3
    10,  // Block4
    80,  // Flex3x2
    150, // Block4Flex3
    300, // Flex4
    600, // Five
    0,   // Forbidden
];

/// Weight (in 1/16) of the side to move's point values against the opponent's: the
/// side to move gets to use its threats first.
pub const TEMPO_WEIGHT: i32 = 20;
/// Weight (in 1/16) of the opponent's point values.
pub const OPPONENT_WEIGHT: i32 = 16;

/// Move-ordering score of a point's threat for the mover (attack).
pub const ATTACK_ORDER: [i32; 12] = [0, 1, 4, 5, 12, 30, 25, 60, 300, 1000, 100_000, -100_000];
/// Move-ordering score of a point's threat for the opponent (defence).
pub const DEFENCE_ORDER: [i32; 12] = [0, 1, 3, 4, 10, 25, 20, 50, 250, 800, 50_000, 0];

/// Aspiration window half-width at the start of an iteration.
pub const ASPIRATION_WINDOW: i32 = 40;
/// Late-move reductions start after this many moves.
pub const LMR_MIN_MOVES: usize = 3;
/// Late-move reductions start at this depth.
pub const LMR_MIN_DEPTH: i32 = 3;
/// Futility margin per ply of remaining depth.
pub const FUTILITY_MARGIN: i32 = 120;
/// Plies (attacker moves) of the VCF search run at the leaves.
pub const LEAF_VCF_DEPTH: u32 = 8;
/// Node budget of the VCF search run at a leaf that has a four-three point.
pub const LEAF_VCF_NODES: u64 = 60;
/// Most moves searched at a node (the rest of the candidates are pruned), by depth.
pub const MAX_MOVES_BASE: usize = 12;

/// Attacker moves of the VCT tried at the root.
pub const ROOT_VCT_DEPTH: u32 = 6;
