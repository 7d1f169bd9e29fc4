//! Opening rules as a pure state machine: free, swap (swap1) and swap2.
//!
//! During a swap opening the colours are not yet assigned, so the machine speaks of
//! *seats*: the [`Seat::First`] player places the first stones, the [`Seat::Second`]
//! player answers. The stones themselves alternate Black, White, Black, … as always; the
//! machine only says which seat must act, whether that is placing a stone or choosing a
//! colour, and which seat ends up with Black.
//!
//! - **free**: done at once; the first seat is Black.
//! - **swap**: the first seat places 3 stones; the second seat takes Black or White.
//! - **swap2**: the first seat places 3 stones; the second seat takes Black, takes White
//!   (and plays move 4), or chooses [`Choice::Place2`]: it places moves 4 and 5 and the
//!   first seat then takes Black or White.
//!
//! The machine is driven by [`Step`]s (a stone was placed, a seat chose). A list of steps
//! replays to the same state ([`Opening::replay`]), which is how undo works.
//!
//! ```
//! use wuzi_rules::opening::{Choice, Opening, OpeningRule, Phase, Seat};
//! use wuzi_rules::Color;
//!
//! let mut o = Opening::new(OpeningRule::Swap2);
//! for _ in 0..3 {
//!     o.place(Seat::First).unwrap();
//! }
//! assert_eq!(o.phase(), Phase::Choose { seat: Seat::Second });
//! o.choose(Seat::Second, Choice::White).unwrap();
//! assert!(o.is_done());
//! // White is to move at ply 3, and White is the second seat.
//! assert_eq!(o.seat_to_act(3), Seat::Second);
//! assert_eq!(o.color_of(Seat::First), Some(Color::Black));
//! ```

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::Color;

/// Which opening rule a game uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OpeningRule {
    /// Black starts anywhere; no negotiation.
    #[default]
    Free,
    /// Swap (swap1): three stones, then the second seat chooses a colour.
    Swap,
    /// Swap2: three stones, then take Black, take White, or place two more and let the
    /// first seat choose.
    Swap2,
}

impl OpeningRule {
    /// All opening rules.
    pub const ALL: [OpeningRule; 3] = [OpeningRule::Free, OpeningRule::Swap, OpeningRule::Swap2];

    /// The lowercase name: `free`, `swap`, `swap2`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            OpeningRule::Free => "free",
            OpeningRule::Swap => "swap",
            OpeningRule::Swap2 => "swap2",
        }
    }
}

impl fmt::Display for OpeningRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A string that names no opening rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown opening {0:?} (expected free, swap or swap2)")]
pub struct ParseOpeningRuleError(pub String);

impl FromStr for OpeningRule {
    type Err = ParseOpeningRuleError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "free" | "none" => Ok(OpeningRule::Free),
            "swap" | "swap1" => Ok(OpeningRule::Swap),
            "swap2" => Ok(OpeningRule::Swap2),
            _ => Err(ParseOpeningRuleError(s.to_string())),
        }
    }
}

/// A player's seat: who places the first stones, independent of colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    /// The player who places the first stone(s).
    First,
    /// The other player.
    Second,
}

impl Seat {
    /// The other seat.
    #[must_use]
    pub const fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }

    /// The lowercase name: `first`, `second`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Seat::First => "first",
            Seat::Second => "second",
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A decision during a swap opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Choice {
    /// The choosing seat takes Black.
    Black,
    /// The choosing seat takes White.
    White,
    /// Swap2 only, after three stones: the choosing seat places moves 4 and 5, then the
    /// other seat chooses a colour.
    Place2,
}

impl Choice {
    /// The lowercase name: `black`, `white`, `place2`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Choice::Black => "black",
            Choice::White => "white",
            Choice::Place2 => "place2",
        }
    }
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A string that names no choice.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown choice {0:?} (expected black, white or place2)")]
pub struct ParseChoiceError(pub String);

impl FromStr for Choice {
    type Err = ParseChoiceError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "black" | "b" | "swap" => Ok(Choice::Black),
            "white" | "w" | "stay" => Ok(Choice::White),
            "place2" | "place" | "two" => Ok(Choice::Place2),
            _ => Err(ParseChoiceError(s.to_string())),
        }
    }
}

/// What the opening waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// `seat` places the next opening stone.
    Place {
        /// Who places it.
        seat: Seat,
    },
    /// `seat` chooses; [`Opening::options`] lists what it may choose.
    Choose {
        /// Who chooses.
        seat: Seat,
    },
    /// The opening is over: colours are assigned and play goes on normally.
    Done,
}

impl Phase {
    /// The lowercase name: `place`, `choose`, `done`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Place { .. } => "place",
            Phase::Choose { .. } => "choose",
            Phase::Done => "done",
        }
    }
}

/// One thing that happened in an opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "lowercase")]
pub enum Step {
    /// A stone was placed (by the seat the phase named).
    Stone,
    /// The seat the phase named made a choice.
    Choice {
        /// What it chose.
        choice: Choice,
    },
}

/// An action that the opening does not allow now. Nothing changes when one is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    /// The other seat must act.
    #[error("it is the {expected} player's turn, not the {got} player's")]
    NotYourTurn {
        /// The seat that must act.
        expected: Seat,
        /// The seat that tried.
        got: Seat,
    },
    /// A stone was placed while a choice is pending.
    #[error("the {seat} player must first choose ({options})")]
    ChoicePending {
        /// Who must choose.
        seat: Seat,
        /// The options, comma-separated.
        options: String,
    },
    /// A choice was made while none is pending, or one not offered.
    #[error("no such choice now: {choice} ({why})")]
    NoSuchChoice {
        /// What was asked for.
        choice: Choice,
        /// Why it is not possible.
        why: &'static str,
    },
}

/// The state of an opening: which phase it is in, and which seat holds Black once that is
/// decided. Build with [`Opening::new`], drive with [`Opening::place`] and
/// [`Opening::choose`] (or [`Opening::apply`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    rule: OpeningRule,
    stones: u8,
    phase: Phase,
    black: Option<Seat>,
    steps: Vec<Step>,
}

/// Stones the first seat places before the first choice in swap and swap2.
const FIRST_STONES: u8 = 3;
/// Stones on the board after a swap2 `place2`.
const PLACE2_STONES: u8 = 5;

impl Opening {
    /// The start of an opening under `rule`.
    #[must_use]
    pub fn new(rule: OpeningRule) -> Opening {
        let (phase, black) = match rule {
            OpeningRule::Free => (Phase::Done, Some(Seat::First)),
            OpeningRule::Swap | OpeningRule::Swap2 => (Phase::Place { seat: Seat::First }, None),
        };
        Opening {
            rule,
            stones: 0,
            phase,
            black,
            steps: Vec::new(),
        }
    }

    /// Replays `steps` from the start; the error names the 0-based step that failed.
    pub fn replay(rule: OpeningRule, steps: &[Step]) -> Result<Opening, (usize, OpeningError)> {
        let mut o = Opening::new(rule);
        for (i, &s) in steps.iter().enumerate() {
            let seat = o.seat_to_act(usize::from(o.stones));
            o.apply(seat, s).map_err(|e| (i, e))?;
        }
        Ok(o)
    }

    /// The rule.
    #[must_use]
    pub const fn rule(&self) -> OpeningRule {
        self.rule
    }

    /// The current phase.
    #[must_use]
    pub const fn phase(&self) -> Phase {
        self.phase
    }

    /// Whether colours are assigned and play is normal.
    #[must_use]
    pub const fn is_done(&self) -> bool {
        matches!(self.phase, Phase::Done)
    }

    /// The steps so far (opening stones and choices; after the opening is done, stones
    /// are no longer recorded).
    #[must_use]
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The number of stones placed while the opening was not done.
    #[must_use]
    pub const fn opening_stones(&self) -> u8 {
        self.stones
    }

    /// Which seat holds Black, once decided.
    #[must_use]
    pub const fn black_seat(&self) -> Option<Seat> {
        self.black
    }

    /// The colour `seat` plays, once decided.
    #[must_use]
    pub fn color_of(&self, seat: Seat) -> Option<Color> {
        self.black.map(|b| {
            if b == seat {
                Color::Black
            } else {
                Color::White
            }
        })
    }

    /// The seat that plays `color`, once decided.
    #[must_use]
    pub fn seat_of(&self, color: Color) -> Option<Seat> {
        self.black.map(|b| match color {
            Color::Black => b,
            Color::White => b.other(),
        })
    }

    /// The choices open now (empty unless the phase is [`Phase::Choose`]).
    #[must_use]
    pub fn options(&self) -> Vec<Choice> {
        match self.phase {
            Phase::Choose { .. } if self.rule == OpeningRule::Swap2 && self.stones == 3 => {
                vec![Choice::Black, Choice::White, Choice::Place2]
            }
            Phase::Choose { .. } => vec![Choice::Black, Choice::White],
            _ => Vec::new(),
        }
    }

    /// The seat that must act when `ply` stones are on the board (`ply` matters only once
    /// the opening is done: then the seat holding the colour to move, Black moving first).
    #[must_use]
    pub fn seat_to_act(&self, ply: usize) -> Seat {
        match self.phase {
            Phase::Place { seat } | Phase::Choose { seat } => seat,
            Phase::Done => {
                let color = if ply.is_multiple_of(2) {
                    Color::Black
                } else {
                    Color::White
                };
                // Done implies colours are assigned.
                self.seat_of(color).unwrap_or(Seat::First)
            }
        }
    }

    /// Whether the opening waits for a choice.
    #[must_use]
    pub const fn choice_pending(&self) -> bool {
        matches!(self.phase, Phase::Choose { .. })
    }

    /// Records that `seat` placed a stone. Refused while a choice is pending or when it is
    /// the other seat's turn. After the opening is done this only checks nothing (colours
    /// decide turns then) and records nothing.
    pub fn place(&mut self, seat: Seat) -> Result<(), OpeningError> {
        match self.phase {
            Phase::Done => Ok(()),
            Phase::Choose { seat: chooser } => Err(OpeningError::ChoicePending {
                seat: chooser,
                options: self
                    .options()
                    .iter()
                    .map(|c| c.name())
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
            Phase::Place { seat: placer } if placer != seat => Err(OpeningError::NotYourTurn {
                expected: placer,
                got: seat,
            }),
            Phase::Place { seat: placer } => {
                self.stones += 1;
                self.steps.push(Step::Stone);
                let target = if placer == Seat::First {
                    FIRST_STONES
                } else {
                    PLACE2_STONES
                };
                if self.stones == target {
                    // After the first three the second seat chooses; after place2's two
                    // stones the first seat does.
                    self.phase = Phase::Choose {
                        seat: placer.other(),
                    };
                }
                Ok(())
            }
        }
    }

    /// Records `seat`'s choice. Refused when no choice is pending, when it is the other
    /// seat's turn, or when the choice is not among [`Opening::options`].
    pub fn choose(&mut self, seat: Seat, choice: Choice) -> Result<(), OpeningError> {
        let Phase::Choose { seat: chooser } = self.phase else {
            return Err(OpeningError::NoSuchChoice {
                choice,
                why: "no colour choice is pending",
            });
        };
        if chooser != seat {
            return Err(OpeningError::NotYourTurn {
                expected: chooser,
                got: seat,
            });
        }
        if !self.options().contains(&choice) {
            return Err(OpeningError::NoSuchChoice {
                choice,
                why: "only swap2 offers place2, and only after three stones",
            });
        }
        self.steps.push(Step::Choice { choice });
        match choice {
            Choice::Black => {
                self.black = Some(seat);
                self.phase = Phase::Done;
            }
            Choice::White => {
                self.black = Some(seat.other());
                self.phase = Phase::Done;
            }
            Choice::Place2 => self.phase = Phase::Place { seat },
        }
        Ok(())
    }

    /// Applies one step for `seat`.
    pub fn apply(&mut self, seat: Seat, step: Step) -> Result<(), OpeningError> {
        match step {
            Step::Stone => self.place(seat),
            Step::Choice { choice } => self.choose(seat, choice),
        }
    }

    /// Takes back the last recorded step and returns it (`None` when there is none).
    /// Stones placed after the opening was done are not recorded, so the caller undoes
    /// those on the board without asking the opening.
    pub fn undo(&mut self) -> Option<Step> {
        let mut steps = self.steps.clone();
        let last = steps.pop()?;
        // Replaying a prefix of a valid history cannot fail.
        if let Ok(o) = Opening::replay(self.rule, &steps) {
            *self = o;
        }
        Some(last)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placed(rule: OpeningRule, n: usize) -> Opening {
        let mut o = Opening::new(rule);
        for _ in 0..n {
            let seat = o.seat_to_act(usize::from(o.opening_stones()));
            o.place(seat).unwrap();
        }
        o
    }

    #[test]
    fn free_is_done_with_first_seat_black() {
        let o = Opening::new(OpeningRule::Free);
        assert!(o.is_done());
        assert_eq!(o.color_of(Seat::First), Some(Color::Black));
        assert_eq!(o.seat_to_act(0), Seat::First);
        assert_eq!(o.seat_to_act(1), Seat::Second);
        assert!(o.options().is_empty());
    }

    #[test]
    fn swap_second_seat_takes_black() {
        let mut o = placed(OpeningRule::Swap, 3);
        assert_eq!(o.phase(), Phase::Choose { seat: Seat::Second });
        assert_eq!(o.options(), vec![Choice::Black, Choice::White]);
        assert_eq!(o.color_of(Seat::First), None);
        o.choose(Seat::Second, Choice::Black).unwrap();
        assert!(o.is_done());
        assert_eq!(o.seat_of(Color::Black), Some(Seat::Second));
        // Move 4 is White's: the first seat.
        assert_eq!(o.seat_to_act(3), Seat::First);
        assert_eq!(o.seat_to_act(4), Seat::Second);
    }

    #[test]
    fn swap_second_seat_stays_white_and_plays_four() {
        let mut o = placed(OpeningRule::Swap, 3);
        o.choose(Seat::Second, Choice::White).unwrap();
        assert_eq!(o.seat_to_act(3), Seat::Second);
        assert_eq!(o.color_of(Seat::First), Some(Color::Black));
    }

    #[test]
    fn swap_has_no_place2() {
        let mut o = placed(OpeningRule::Swap, 3);
        let before = o.clone();
        assert!(matches!(
            o.choose(Seat::Second, Choice::Place2),
            Err(OpeningError::NoSuchChoice { .. })
        ));
        assert_eq!(o, before);
    }

    #[test]
    fn swap2_place2_then_first_seat_chooses() {
        let mut o = placed(OpeningRule::Swap2, 3);
        assert_eq!(o.options().len(), 3);
        o.choose(Seat::Second, Choice::Place2).unwrap();
        assert_eq!(o.phase(), Phase::Place { seat: Seat::Second });
        // The first seat may not place moves 4 and 5.
        assert!(matches!(
            o.place(Seat::First),
            Err(OpeningError::NotYourTurn { .. })
        ));
        o.place(Seat::Second).unwrap();
        assert_eq!(o.phase(), Phase::Place { seat: Seat::Second });
        o.place(Seat::Second).unwrap();
        assert_eq!(o.phase(), Phase::Choose { seat: Seat::First });
        assert_eq!(o.options(), vec![Choice::Black, Choice::White]);
        o.choose(Seat::First, Choice::White).unwrap();
        assert_eq!(o.seat_of(Color::White), Some(Seat::First));
        // Move 6 (ply 5) is White's.
        assert_eq!(o.seat_to_act(5), Seat::First);
    }

    #[test]
    fn refusals_change_nothing() {
        let mut o = placed(OpeningRule::Swap2, 2);
        let before = o.clone();
        assert!(o.place(Seat::Second).is_err());
        assert!(o.choose(Seat::First, Choice::Black).is_err());
        assert_eq!(o, before);
        o.place(Seat::First).unwrap();
        let before = o.clone();
        assert!(matches!(
            o.place(Seat::First),
            Err(OpeningError::ChoicePending { .. })
        ));
        assert!(matches!(
            o.choose(Seat::First, Choice::Black),
            Err(OpeningError::NotYourTurn { .. })
        ));
        assert_eq!(o, before);
    }

    #[test]
    fn undo_walks_back_through_choices() {
        let mut o = placed(OpeningRule::Swap2, 3);
        o.choose(Seat::Second, Choice::Place2).unwrap();
        o.place(Seat::Second).unwrap();
        assert_eq!(o.undo(), Some(Step::Stone));
        assert_eq!(o.phase(), Phase::Place { seat: Seat::Second });
        assert_eq!(
            o.undo(),
            Some(Step::Choice {
                choice: Choice::Place2
            })
        );
        assert_eq!(o.phase(), Phase::Choose { seat: Seat::Second });
        assert_eq!(o.undo(), Some(Step::Stone));
        assert_eq!(o.phase(), Phase::Place { seat: Seat::First });
        assert_eq!(o.opening_stones(), 2);
        o.undo();
        o.undo();
        assert_eq!(o, Opening::new(OpeningRule::Swap2));
        assert_eq!(o.undo(), None);
    }

    #[test]
    fn replay_rebuilds_and_names_bad_steps() {
        let mut o = placed(OpeningRule::Swap, 3);
        o.choose(Seat::Second, Choice::White).unwrap();
        assert_eq!(Opening::replay(OpeningRule::Swap, o.steps()).unwrap(), o);
        let bad = [
            Step::Stone,
            Step::Choice {
                choice: Choice::Black,
            },
        ];
        assert_eq!(Opening::replay(OpeningRule::Swap, &bad).unwrap_err().0, 1);
    }

    #[test]
    fn every_path_assigns_both_colours() {
        // Exhaustive walk over all choice sequences of every rule: when done, the two
        // seats hold different colours and the seat to act plays the colour to move.
        fn walk(o: Opening, depth: usize) {
            assert!(depth < 10, "opening never ends");
            match o.phase() {
                Phase::Done => {
                    let (a, b) = (o.color_of(Seat::First), o.color_of(Seat::Second));
                    assert!(a.is_some() && b.is_some() && a != b);
                    for ply in 0..8 {
                        let color = if ply % 2 == 0 {
                            Color::Black
                        } else {
                            Color::White
                        };
                        assert_eq!(o.color_of(o.seat_to_act(ply)), Some(color));
                    }
                }
                Phase::Place { seat } => {
                    let mut next = o.clone();
                    next.place(seat).unwrap();
                    walk(next, depth + 1);
                }
                Phase::Choose { seat } => {
                    for c in o.options() {
                        let mut next = o.clone();
                        next.choose(seat, c).unwrap();
                        walk(next, depth + 1);
                    }
                }
            }
        }
        for rule in OpeningRule::ALL {
            walk(Opening::new(rule), 0);
        }
    }

    #[test]
    fn names_parse_back() {
        for r in OpeningRule::ALL {
            assert_eq!(r.name().parse::<OpeningRule>().unwrap(), r);
        }
        for c in [Choice::Black, Choice::White, Choice::Place2] {
            assert_eq!(c.name().parse::<Choice>().unwrap(), c);
        }
        assert!("swap3".parse::<OpeningRule>().is_err());
        assert!("red".parse::<Choice>().is_err());
    }
}
