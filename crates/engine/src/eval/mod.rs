//! Evaluation: line patterns, their combination per point ([`Threat`]), and the values
//! the static evaluation sums.

pub mod pattern;

use pattern::Pattern;

use crate::params;

/// What one stone on an empty point makes over its four lines, weakest first. The
/// board keeps this for every empty point and both colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(u8)]
pub enum Threat {
    /// Nothing worth a name.
    #[default]
    None = 0,
    /// Ones and closed twos only.
    Weak,
    /// An open two.
    Flex2,
    /// A closed three.
    Block3,
    /// Two twos / threes that could grow into a double threat.
    Flex2x2,
    /// An open three: next move threatens a straight four.
    Flex3,
    /// A closed four: the opponent must block at once.
    Block4,
    /// Two open threes (forbidden for Black under renju when both are real).
    Flex3x2,
    /// A four and an open three: wins unless the opponent has fours.
    Block4Flex3,
    /// A straight four or two fours: wins next move.
    Flex4,
    /// A winning row.
    Five,
    /// Black under renju: overline or double four (always forbidden unless a five).
    Forbidden,
}

/// Number of [`Threat`] kinds.
pub const THREAT_KINDS: usize = 12;

impl Threat {
    /// Whether the stone makes a five threat (a four) or better, for a legal point.
    #[must_use]
    pub const fn is_four(self) -> bool {
        matches!(
            self,
            Threat::Block4 | Threat::Block4Flex3 | Threat::Flex4 | Threat::Five
        )
    }

    /// Whether the point wins by force unless the opponent has fours (open four or
    /// better, four-three, double three; for Black under renju the last needs the exact
    /// check).
    #[must_use]
    pub const fn is_winning_threat(self) -> bool {
        matches!(
            self,
            Threat::Flex3x2 | Threat::Block4Flex3 | Threat::Flex4 | Threat::Five
        )
    }
}

/// Combines the four line patterns of a point into its threat. `renju_black` applies
/// Black's restrictions; the second value says whether an exact forbidden-move check
/// is still needed (two or more open threes, which may be false).
#[must_use]
pub fn combine(pats: [Pattern; 4], renju_black: bool) -> (Threat, bool) {
    let mut n = [0u8; 13];
    for p in pats {
        n[p as usize] += 1;
    }
    let c = |p: Pattern| n[p as usize];
    if c(Pattern::Five) > 0 {
        return (Threat::Five, false);
    }
    let flex3 = c(Pattern::Flex3);
    let block4 = c(Pattern::Block4);
    let flex4 = c(Pattern::Flex4);
    let double4 = c(Pattern::DoubleFour);
    if renju_black {
        if c(Pattern::Overline) > 0 || block4 + flex4 + 2 * double4 >= 2 {
            return (Threat::Forbidden, false);
        }
    } else if flex4 + double4 > 0 || block4 >= 2 {
        return (Threat::Flex4, false);
    }
    let check = renju_black && flex3 >= 2;
    let t = if flex4 > 0 {
        Threat::Flex4
    } else if block4 > 0 && flex3 > 0 {
        Threat::Block4Flex3
    } else if flex3 >= 2 {
        Threat::Flex3x2
    } else if block4 > 0 {
        Threat::Block4
    } else if flex3 > 0 {
        Threat::Flex3
    } else {
        let twos = c(Pattern::Flex2) + c(Pattern::Flex2A) + c(Pattern::Block3);
        if twos >= 2 {
            Threat::Flex2x2
        } else if c(Pattern::Block3) > 0 {
            Threat::Block3
        } else if twos > 0 {
            Threat::Flex2
        } else if c(Pattern::Block1) + c(Pattern::Flex1) + c(Pattern::Block2) > 0 {
            Threat::Weak
        } else {
            Threat::None
        }
    };
    (t, check)
}

/// A point's threat, exact-check flag and value, by its four line patterns.
#[derive(Clone, Copy, Debug, Default)]
pub struct Combo {
    /// The combined threat.
    pub threat: Threat,
    /// Whether Black's exact forbidden check is needed.
    pub check: bool,
    /// The point's static value.
    pub value: i16,
}

const NP: usize = Pattern::ALL.len();

/// Table index of four patterns.
#[inline]
#[must_use]
pub fn combo_index(p: [Pattern; 4]) -> usize {
    ((p[0] as usize * NP + p[1] as usize) * NP + p[2] as usize) * NP + p[3] as usize
}

/// The combination of four line patterns (from a table built at first use);
/// `renju_black` applies Black's restrictions.
#[inline]
#[must_use]
pub fn combo(p: [Pattern; 4], renju_black: bool) -> Combo {
    static TABLES: [std::sync::OnceLock<Vec<Combo>>; 2] =
        [std::sync::OnceLock::new(), std::sync::OnceLock::new()];
    let t = TABLES[usize::from(renju_black)].get_or_init(|| {
        let mut v = vec![Combo::default(); NP * NP * NP * NP];
        for a in Pattern::ALL {
            for b in Pattern::ALL {
                for c in Pattern::ALL {
                    for d in Pattern::ALL {
                        let pats = [a, b, c, d];
                        let (threat, check) = combine(pats, renju_black);
                        v[combo_index(pats)] = Combo {
                            threat,
                            check,
                            value: point_value(pats, threat).clamp(-32_000, 32_000) as i16,
                        };
                    }
                }
            }
        }
        v
    });
    t[combo_index(p)]
}

/// The static value of a point for one colour: its line patterns plus its threat.
#[must_use]
pub fn point_value(pats: [Pattern; 4], threat: Threat) -> i32 {
    let mut v = params::THREAT_VALUE[threat as usize];
    for p in pats {
        v += params::PATTERN_VALUE[p as usize];
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use Pattern as P;

    #[test]
    fn combinations() {
        let d = P::Dead;
        assert_eq!(
            combine([P::Block4, P::Flex3, d, d], false).0,
            Threat::Block4Flex3
        );
        assert_eq!(
            combine([P::Block4, P::Block4, d, d], false).0,
            Threat::Flex4
        );
        assert_eq!(
            combine([P::Block4, P::Block4, d, d], true).0,
            Threat::Forbidden
        );
        assert_eq!(combine([P::DoubleFour, d, d, d], true).0, Threat::Forbidden);
        assert_eq!(combine([P::DoubleFour, d, d, d], false).0, Threat::Flex4);
        assert_eq!(combine([P::Overline, P::Five, d, d], true).0, Threat::Five);
        assert_eq!(combine([P::Overline, d, d, d], true).0, Threat::Forbidden);
        assert_eq!(combine([P::Overline, d, d, d], false).0, Threat::None);
        assert_eq!(
            combine([P::Flex3, P::Flex3, d, d], true),
            (Threat::Flex3x2, true)
        );
        assert_eq!(
            combine([P::Flex3, P::Flex3, d, d], false),
            (Threat::Flex3x2, false)
        );
        assert_eq!(
            combine([P::Flex4, P::Flex3, P::Flex3, d], true),
            (Threat::Flex4, true)
        );
        assert_eq!(
            combine([P::Flex2, P::Block3, d, d], false).0,
            Threat::Flex2x2
        );
    }
}
