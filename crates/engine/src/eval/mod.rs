//! Evaluation: line patterns, their combination per point ([`Threat`]), and the values
//! the static evaluation sums.

pub mod learned;
pub mod mask;
pub mod net;
pub mod pattern;
pub mod policy;

use pattern::Pattern;

use crate::board::Board;
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
    /// All threats, weakest first.
    pub const ALL: [Threat; THREAT_KINDS] = [
        Threat::None,
        Threat::Weak,
        Threat::Flex2,
        Threat::Block3,
        Threat::Flex2x2,
        Threat::Flex3,
        Threat::Block4,
        Threat::Flex3x2,
        Threat::Block4Flex3,
        Threat::Flex4,
        Threat::Five,
        Threat::Forbidden,
    ];

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

/// A point's threat, exact-check flag and values, by its four line patterns.
#[derive(Clone, Copy, Debug, Default)]
pub struct Combo {
    /// The combined threat.
    pub threat: Threat,
    /// Whether Black's exact forbidden check is needed.
    pub check: bool,
    /// The point's value for move ordering.
    pub value: i16,
    /// The point's share of the static evaluation (in sixteenths), by role:
    /// `[ROLE_MOVER]` when its colour is to move, `[ROLE_WAITER]` when not (see
    /// [`eval_value`]).
    pub eval: [i16; 2],
    /// The learned policy's value of the point's slot ([`policy`]), by role:
    /// `[ROLE_MOVER]` for its colour's own stone there (attack), `[ROLE_WAITER]` for the
    /// other colour's (defence), in hundredths of a logit.
    pub policy: [i16; 2],
}

/// The largest share of the evaluation one point can have: four line patterns and a
/// threat, each at its largest weight.
const MAX_POINT_EVAL: i32 = {
    let mut max = 0;
    let mut role = 0;
    while role < 2 {
        let (mut p, mut t) = (0, 0);
        let mut k = 0;
        while k < params::EVAL_PATTERN[role].len() {
            p = max_abs(p, params::EVAL_PATTERN[role][k]);
            k += 1;
        }
        k = 0;
        while k < params::EVAL_THREAT[role].len() {
            t = max_abs(t, params::EVAL_THREAT[role][k]);
            k += 1;
        }
        max = max_abs(max, 4 * p + t);
        role += 1;
    }
    max
};

const fn max_abs(a: i32, b: i32) -> i32 {
    if a > b.abs() { a } else { b.abs() }
}

// A point's share is stored in 16 bits (see `Combo::eval`).
const _: () = assert!(MAX_POINT_EVAL <= i16::MAX as i32);

const NP: usize = Pattern::ALL.len();

/// Table index of four patterns.
#[inline]
#[must_use]
pub fn combo_index(p: [Pattern; 4]) -> usize {
    ((p[0] as usize * NP + p[1] as usize) * NP + p[2] as usize) * NP + p[3] as usize
}

/// The four patterns of a [`combo_index`] (below `13^4`), by direction.
#[must_use]
pub fn combo_patterns(index: usize) -> [Pattern; 4] {
    [
        index / (NP * NP * NP),
        index / (NP * NP) % NP,
        index / NP % NP,
        index % NP,
    ]
    .map(|k| Pattern::ALL[k])
}

/// Place value of direction `d`'s pattern in [`combo_index`]: a point's index changes
/// by `(new - old) * COMBO_PLACE[d]` when one of its patterns does, so the board keeps
/// the index up to date without reading the four patterns back.
pub const COMBO_PLACE: [usize; 4] = [NP * NP * NP, NP * NP, NP, 1];

/// The combination of four line patterns (from a table built at first use);
/// `renju_black` applies Black's restrictions; the evaluation shares are the hand-set
/// ones.
#[inline]
#[must_use]
pub fn combo(p: [Pattern; 4], renju_black: bool) -> Combo {
    let class = if renju_black {
        learned::RENJU_BLACK
    } else {
        learned::UNRESTRICTED
    };
    combo_table(class, Source::HandSet, false)[usize::from(learned::slot_table()[combo_index(p)])]
}

/// Where a board's evaluation shares come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The hand-set values ([`params::EVAL_PATTERN`], [`params::EVAL_THREAT`]).
    HandSet,
    /// The learned table ([`learned::table`]).
    Learned,
    /// The second learned table of duels between two fits ([`learned::alt_table`]).
    Alt,
}

impl Source {
    /// The source the features ask for.
    #[must_use]
    pub fn of(features: &params::Features) -> Source {
        match (features.learned_eval, features.alt_weights) {
            (false, _) => Source::HandSet,
            (true, false) => Source::Learned,
            (true, true) => Source::Alt,
        }
    }
}

/// The combinations of four line patterns (built at first use), indexed by
/// combination ([`learned::slot_table`]: the patterns sorted, so
/// [`learned::COMBINATIONS`] entries, 22 KB), for stones of [`learned::class`] `class`
/// (Black under renju with its restrictions); `source` says where the evaluation
/// shares come from, `alt_policy` whether the policy values are
/// [`policy::alt_table`]'s. Every field of a [`Combo`] is the same for any order of
/// the four patterns. The board reads it through the slot table its network needs
/// anyway: a table by [`combo_index`] (28,561 entries, 343 KB a class) missed the
/// caches on most reads.
#[must_use]
pub fn combo_table(class: usize, source: Source, alt_policy: bool) -> &'static [Combo] {
    const N: usize = learned::CLASSES * 3 * 2;
    static TABLES: [std::sync::OnceLock<Vec<Combo>>; N] = [const { std::sync::OnceLock::new() }; N];
    let renju_black = learned::restricted(class);
    TABLES[class + learned::CLASSES * (source as usize + 3 * usize::from(alt_policy))].get_or_init(
        || {
            learned::combinations()
                .map(|pats| {
                    let index = combo_index(pats);
                    let (threat, check) = combine(pats, renju_black);
                    Combo {
                        threat,
                        check,
                        value: point_value(pats, threat).clamp(-32_000, 32_000) as i16,
                        eval: if source != Source::HandSet {
                            learned::value(index, threat, class, source == Source::Alt)
                        } else {
                            [ROLE_MOVER, ROLE_WAITER].map(|role| {
                                // In range: MAX_POINT_EVAL bounds it.
                                eval_value(pats, threat, role) as i16
                            })
                        },
                        policy: [ROLE_MOVER, ROLE_WAITER].map(|role| {
                            policy::table_for(alt_policy)[policy::slot_feature(
                                renju_black,
                                role,
                                learned::slot(index, threat),
                            )]
                        }),
                    }
                })
                .collect()
        },
    )
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

/// Role of a colour in the static evaluation: the side to move.
pub const ROLE_MOVER: usize = 0;
/// Role of a colour in the static evaluation: the side that just moved.
pub const ROLE_WAITER: usize = 1;

/// A point's share of the static evaluation (in sixteenths) for a colour in `role`: the
/// value of each of its line patterns plus that of its threat (see
/// [`params::EVAL_PATTERN`]).
/// The waiter's values are mostly negative: they are the opponent's chances.
#[must_use]
pub fn eval_value(pats: [Pattern; 4], threat: Threat, role: usize) -> i32 {
    let mut v = params::EVAL_THREAT[role][threat as usize];
    for p in pats {
        v += params::EVAL_PATTERN[role][p as usize];
    }
    v
}

/// Whether any [`params::EVAL_THREAT_PRESENT`] weight is set (the evaluation skips
/// those terms when none is).
pub const THREAT_PRESENT_USED: bool = {
    let mut used = false;
    let mut role = 0;
    while role < 2 {
        let mut t = 0;
        while t < THREAT_KINDS {
            used |= params::EVAL_THREAT_PRESENT[role][t] != 0;
            t += 1;
        }
        role += 1;
    }
    used
};

/// Length of the evaluation's feature vector: per role, the count of each line pattern
/// and of each threat over the empty points and whether each threat occurs at all;
/// then the leaf's "threatened" flag.
pub const FEATURES: usize = 2 * PER_ROLE + 1;
const PER_ROLE: usize = Pattern::ALL.len() + 2 * THREAT_KINDS;

/// The evaluation's features of a position (see [`FEATURES`]); the static evaluation
/// (before the division by [`params::EVAL_SCALE`]) plus the leaf's threat penalty is
/// their dot product with [`feature_weights`].
#[must_use]
pub fn features(board: &Board) -> [i32; FEATURES] {
    let mut x = [0; FEATURES];
    let me = board.to_move();
    let np = Pattern::ALL.len();
    for (role, color) in [me, me.opponent()].into_iter().enumerate() {
        let base = role * PER_ROLE;
        for &i in board.points() {
            if !board.is_empty(i) {
                continue;
            }
            for d in 0..4 {
                x[base + board.pattern(i, color, d) as usize] += 1;
            }
            x[base + np + board.threat(i, color) as usize] += 1;
        }
        for t in Threat::ALL {
            x[base + np + THREAT_KINDS + t as usize] = i32::from(board.threat_count(color, t) > 0);
        }
    }
    x[FEATURES - 1] = i32::from(threatened_leaf(board));
    x
}

/// The share of the evaluation (in sixteenths) of a point of Black's with the line
/// patterns `pats` that is forbidden (renju), in `role`, from `source`: what
/// [`Board::evaluate_exact`] puts in place of a double three's share when the exact
/// check finds the point forbidden.
#[must_use]
pub fn forbidden_share(pats: [Pattern; 4], source: Source, role: usize) -> i32 {
    match source {
        Source::HandSet => eval_value(pats, Threat::Forbidden, role),
        Source::Learned | Source::Alt => {
            let alt = source == Source::Alt;
            i32::from(learned::value(0, Threat::Forbidden, learned::RENJU_BLACK, alt)[role])
        }
    }
}

/// [`threatened_leaf`], with Black's double threes under renju counted only where the
/// exact check lets Black play them ([`Board::exact_forbidden_for`]).
pub fn threatened_leaf_exact(board: &mut Board) -> bool {
    let me = board.to_move();
    let fours =
        board.threat_count(me, Threat::Block4) + board.threat_count(me, Threat::Block4Flex3);
    fours == 0 && crate::movegen::under_threat_exact(board)
}

/// Whether a leaf's side to move faces a winning threat (open three or better) it
/// cannot answer with a four of its own; the leaf then adds
/// [`params::THREATENED_LEAF`].
#[must_use]
pub fn threatened_leaf(board: &Board) -> bool {
    let me = board.to_move();
    let fours =
        board.threat_count(me, Threat::Block4) + board.threat_count(me, Threat::Block4Flex3);
    fours == 0 && crate::movegen::under_threat(board)
}

/// Whether the static evaluation is how a search scores the position: no five on the
/// board for either side and no sure win (open four, four-three) for the side to move.
#[must_use]
pub fn is_quiet(board: &Board) -> bool {
    let me = board.to_move();
    !board.has_win(me)
        && !board.has_win(me.opponent())
        && board.threat_count(me, Threat::Flex4) == 0
        && board.threat_count(me, Threat::Block4Flex3) == 0
}

/// Whether feature `i` counts a weak shape (a pattern or threat below an open three);
/// the tuner can fit those alone and keep the values of the stronger ones.
#[must_use]
pub fn is_shape_feature(i: usize) -> bool {
    let np = Pattern::ALL.len();
    let k = i % PER_ROLE;
    i < 2 * PER_ROLE
        && if k < np {
            k < Pattern::Flex3 as usize
        } else {
            // Threat counts below an open three; the presence flags come after them.
            k - np < Threat::Flex3 as usize
        }
}

/// The weights of [`features`] in use, in the same order, in sixteenths of an
/// evaluation unit ([`params::EVAL_SCALE`]).
#[must_use]
pub fn feature_weights() -> Vec<i32> {
    let mut w = Vec::with_capacity(FEATURES);
    for role in [ROLE_MOVER, ROLE_WAITER] {
        w.extend_from_slice(&params::EVAL_PATTERN[role]);
        w.extend_from_slice(&params::EVAL_THREAT[role]);
        w.extend_from_slice(&params::EVAL_THREAT_PRESENT[role]);
    }
    w.push(params::THREATENED_LEAF * params::EVAL_SCALE);
    w
}

/// The names of [`features`], in order.
#[must_use]
pub fn feature_names() -> Vec<String> {
    let mut names = Vec::with_capacity(FEATURES);
    for role in ["mover", "waiter"] {
        names.extend(Pattern::ALL.iter().map(|p| format!("{role} {p:?}")));
        names.extend(Threat::ALL.iter().map(|t| format!("{role} threat {t:?}")));
        names.extend(Threat::ALL.iter().map(|t| format!("{role} any {t:?}")));
    }
    names.push("threatened leaf".to_string());
    names
}

/// The weights `w` (ordered as [`features`], in sixteenths) as the constants of
/// `params.rs`.
#[must_use]
pub fn format_weights(w: &[i32]) -> String {
    let np = Pattern::ALL.len();
    let row = |s: &[i32]| s.iter().map(i32::to_string).collect::<Vec<_>>().join(", ");
    let table = |name: &str, len: usize, at: usize| {
        format!(
            "pub const {name}: [[i32; {len}]; 2] = [\n    [{}],\n    [{}],\n];\n",
            row(&w[at..at + len]),
            row(&w[PER_ROLE + at..PER_ROLE + at + len])
        )
    };
    format!(
        "{}{}{}pub const THREATENED_LEAF: i32 = {};",
        table("EVAL_PATTERN", np, 0),
        table("EVAL_THREAT", THREAT_KINDS, np),
        table("EVAL_THREAT_PRESENT", THREAT_KINDS, np + THREAT_KINDS),
        w[2 * PER_ROLE] / params::EVAL_SCALE
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use Pattern as P;

    /// What the board's scans that stop early rely on: a point with a four (or five) in
    /// a line has one of [`crate::movegen::FOUR_THREATS`], and a point that needs
    /// Black's exact check is a double three, a four-three or an open four. Over every
    /// combination of four line patterns, for Black under renju and for the others.
    #[test]
    fn fours_and_exact_checks_have_the_threats_the_scans_count() {
        for a in P::ALL {
            for b in P::ALL {
                for c in P::ALL {
                    for d in P::ALL {
                        let pats = [a, b, c, d];
                        for renju_black in [false, true] {
                            let (threat, check) = combine(pats, renju_black);
                            if pats.iter().any(|p| p.is_four_or_better()) {
                                assert!(
                                    crate::movegen::FOUR_THREATS.contains(&threat),
                                    "{pats:?} {renju_black}: {threat:?}"
                                );
                            }
                            if check {
                                assert!(
                                    matches!(
                                        threat,
                                        Threat::Flex3x2 | Threat::Block4Flex3 | Threat::Flex4
                                    ),
                                    "{pats:?}: {threat:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    /// The tables hold one entry per combination and are read through the slot table:
    /// for every order of every four patterns, in every class and source, the entry read
    /// is the one those patterns give when combined directly, and the learned values and
    /// policy are those of the patterns' own slot.
    #[test]
    fn combo_tables_read_by_combination_agree_with_every_order() {
        let slots = learned::slot_table();
        for class in 0..learned::CLASSES {
            let renju_black = learned::restricted(class);
            for source in [Source::HandSet, Source::Learned] {
                let table = combo_table(class, source, false);
                assert_eq!(table.len(), learned::COMBINATIONS);
                for index in 0..NP * NP * NP * NP {
                    let pats = combo_patterns(index);
                    assert_eq!(combo_index(pats), index);
                    let k = table[usize::from(slots[index])];
                    let (threat, check) = combine(pats, renju_black);
                    assert_eq!((k.threat, k.check), (threat, check), "{pats:?} {class}");
                    assert_eq!(i32::from(k.value), point_value(pats, threat), "{pats:?}");
                    let eval = match source {
                        Source::HandSet => [ROLE_MOVER, ROLE_WAITER]
                            .map(|role| eval_value(pats, threat, role) as i16),
                        _ => learned::value(index, threat, class, false),
                    };
                    assert_eq!(k.eval, eval, "{pats:?} {class} {source:?}");
                    let slot = learned::slot(index, threat);
                    let policy = [ROLE_MOVER, ROLE_WAITER]
                        .map(|role| policy::table()[policy::slot_feature(renju_black, role, slot)]);
                    assert_eq!(k.policy, policy, "{pats:?} {class}");
                }
            }
        }
    }

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
