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
/// Plies beyond the horizon the threat extension may add.
pub const THREAT_EXTENSION_PLIES: i32 = 1;
/// Most moves searched at a node (the rest of the candidates are pruned), by depth.
pub const MAX_MOVES_BASE: usize = 12;

/// Attacker moves of the VCT tried at the root.
pub const ROOT_VCT_DEPTH: u32 = 6;
/// Node budget of the opponent's VCT run against each new best root move (root safety).
pub const ROOT_SAFETY_NODES: u64 = 4_000;
/// Most root moves dropped by root safety in one search (when more lose, the position
/// is lost anyway and the search's own choice resists best).
pub const ROOT_SAFETY_MAX_DROPS: usize = 2;
/// Attacker moves of that VCT.
pub const ROOT_SAFETY_VCT_DEPTH: u32 = 7;

/// Node budget of the threat thread's search for the side to move's own VCT.
pub const THREAT_THREAD_VCT_NODES: u64 = 200_000;
/// Node budget of the threat thread's opponent VCT after each root move.
pub const THREAT_THREAD_REFUTE_NODES: u64 = 20_000;

/// Search features that can be switched for strength tests (A/B matches between the
/// same binary with and without a feature). Names for `WUZI_FEATURES_OFF`
/// (comma-separated; a name with a leading `+` switches a feature on): `lmr`, `lmp`,
/// `futility`, `leafvcf`, `rootvct`, `rootsafety`, `partial`, `threatthread`, `forcedext`, `aspiration`, `threatext`.
///
/// Measured at 100 ms a move, 80 games each (Elo of "with" minus "without", 95%
/// interval): futility + late-move pruning +185 (+107..+286); leaf VCF +70 (−3..+151);
/// LMR +39 (−34..+116); root VCT −22 (−99..+53) freestyle and −48 (−126..+25) renju,
/// so it is off by default; threat extension +17 (−58..+95) freestyle. Root safety:
/// ±0 (−88..+88) at 200 ms, 60 games freestyle, kept because it never plays into a
/// VCT it can see; a VCT at every inner node cost −207 (−332..−117) and at ply 1
/// −114 (−213..−31) at 100 ms, so the search uses none. Partial iteration: +42
/// (−25..+112) and, with a later soft deadline, +35 (−32..+104), 100 games each at
/// 200 ms freestyle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Late-move reductions.
    pub lmr: bool,
    /// Late-move pruning.
    pub lmp: bool,
    /// Reverse futility pruning at shallow depth.
    pub futility: bool,
    /// VCF at leaves with a four-three point.
    pub leaf_vcf: bool,
    /// VCT at the root.
    pub root_vct: bool,
    /// Root safety: a best move after which the opponent has a VCT is dropped.
    pub root_safety: bool,
    /// When time runs out mid-iteration, a root move that beat alpha in it is played.
    pub partial_iteration: bool,
    /// With two or more threads, the first helper is a threat thread.
    pub threat_thread: bool,
    /// Forced replies do not cost depth.
    pub forced_extension: bool,
    /// Aspiration windows.
    pub aspiration: bool,
    /// Threat extension: leaves under a winning threat are searched on.
    pub threat_extension: bool,
}

impl Features {
    /// The default set (every feature that gained in matches).
    pub const ALL: Features = Features {
        lmr: true,
        lmp: true,
        futility: true,
        leaf_vcf: true,
        root_vct: false,
        root_safety: true,
        partial_iteration: true,
        threat_thread: true,
        forced_extension: true,
        aspiration: true,
        threat_extension: true,
    };

    /// The features in use: all, minus those named in the environment variable
    /// `WUZI_FEATURES_OFF` (read once).
    #[must_use]
    pub fn current() -> Features {
        static CURRENT: std::sync::OnceLock<Features> = std::sync::OnceLock::new();
        *CURRENT.get_or_init(|| {
            let off = std::env::var("WUZI_FEATURES_OFF").unwrap_or_default();
            let mut f = Features::ALL;
            for name in off.split(',').map(str::trim) {
                if name == "+rootvct" {
                    f.root_vct = true;
                }
                match name {
                    "lmr" => f.lmr = false,
                    "lmp" => f.lmp = false,
                    "futility" => f.futility = false,
                    "leafvcf" => f.leaf_vcf = false,
                    "rootvct" => f.root_vct = false,
                    "rootsafety" => f.root_safety = false,
                    "partial" => f.partial_iteration = false,
                    "threatthread" => f.threat_thread = false,
                    "forcedext" => f.forced_extension = false,
                    "aspiration" => f.aspiration = false,
                    "threatext" => f.threat_extension = false,
                    _ => {}
                }
            }
            f
        })
    }
}
