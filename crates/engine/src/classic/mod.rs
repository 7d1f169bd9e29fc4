//! The original designs' "classic" computer players: the pattern-rank scorer, the
//! five-cell-window tuple scorer and the longest-line greedy player.

use std::fmt;

use wuzi_rules::Pos;

use crate::Position;

/// One of the original designs' AIs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClassicAi {
    /// The pattern-rank scorer (five 100, live four 13, …; best attack vs best defence).
    Rank,
    /// The five-cell-window tuple scorer.
    Tuple,
    /// The longest-line greedy player.
    Greedy,
}

impl ClassicAi {
    /// All classic AIs.
    pub const ALL: [ClassicAi; 3] = [ClassicAi::Rank, ClassicAi::Tuple, ClassicAi::Greedy];

    /// The name used in player strings (`rank`, `tuple`, `greedy`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ClassicAi::Rank => "rank",
            ClassicAi::Tuple => "tuple",
            ClassicAi::Greedy => "greedy",
        }
    }
}

impl fmt::Display for ClassicAi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The classic AI's move in `pos`.
///
/// Placeholder: the first legal point (the centre on an empty board). The gomocup
/// helper implements the real scorers here.
#[must_use]
pub fn choose(ai: ClassicAi, pos: &Position) -> Pos {
    let _ = ai;
    let c = pos.size().center();
    if pos.is_legal(c) {
        return c;
    }
    pos.legal_moves().first().copied().unwrap_or(c)
}
