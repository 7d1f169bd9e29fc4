//! Game clocks: none, a limit per move, or time per side with an increment.
//!
//! Pure: every operation takes `now` (Unix milliseconds), so tests need no sleeping and
//! a clock reloaded from the database keeps counting from when it was saved.

use serde::{Deserialize, Serialize};
use wuzi_rules::Color;

/// The time control chosen for a game (seconds, as the new-game request gives them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", try_from = "RawClock")]
pub enum ClockSetup {
    /// No clock.
    #[default]
    None,
    /// A limit for every move.
    Move {
        /// Seconds per move.
        seconds: Seconds,
    },
    /// Time for each side, plus an increment after each move.
    Side {
        /// Each side's starting time in seconds.
        initial_seconds: Seconds,
        /// Seconds added after each move.
        #[serde(default)]
        increment_seconds: Seconds,
    },
}

/// A clock as written, before it is checked: every field of every kind, none unknown.
#[derive(Debug, Deserialize)]
struct RawClock {
    kind: String,
    seconds: Option<Seconds>,
    initial_seconds: Option<Seconds>,
    increment_seconds: Option<Seconds>,
    #[serde(flatten)]
    unknown: std::collections::BTreeMap<String, serde::de::IgnoredAny>,
}

impl TryFrom<RawClock> for ClockSetup {
    type Error = String;
    fn try_from(raw: RawClock) -> Result<Self, String> {
        let RawClock {
            kind,
            seconds,
            initial_seconds,
            increment_seconds,
            unknown,
        } = raw;
        let extra = |allowed: &[&str]| {
            let given = [
                ("seconds", seconds.is_some()),
                ("initial_seconds", initial_seconds.is_some()),
                ("increment_seconds", increment_seconds.is_some()),
            ];
            let stray = given
                .iter()
                .find(|(name, set)| *set && !allowed.contains(name))
                .map(|(name, _)| (*name).to_string())
                .or_else(|| unknown.keys().next().map(|k| k.chars().take(40).collect()));
            match stray {
                Some(name) => Err(format!(
                    "clock: a {kind:?} clock has no field {name:?} (it takes {})",
                    if allowed.is_empty() {
                        "no other field".to_string()
                    } else {
                        allowed.join(", ")
                    }
                )),
                None => Ok(()),
            }
        };
        match kind.as_str() {
            "none" => extra(&[]).map(|()| ClockSetup::None),
            "move" => {
                extra(&["seconds"])?;
                let seconds = seconds.ok_or("clock: a \"move\" clock needs \"seconds\"")?;
                Ok(ClockSetup::Move { seconds })
            }
            "side" => {
                extra(&["initial_seconds", "increment_seconds"])?;
                let initial_seconds =
                    initial_seconds.ok_or("clock: a \"side\" clock needs \"initial_seconds\"")?;
                Ok(ClockSetup::Side {
                    initial_seconds,
                    increment_seconds: increment_seconds.unwrap_or_default(),
                })
            }
            other => Err(format!(
                "clock: unknown kind {:?} (none, move or side)",
                other.chars().take(40).collect::<String>()
            )),
        }
    }
}

/// A duration in seconds as the API takes it: a JSON number, possibly fractional (tests
/// use short clocks), kept in whole milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(try_from = "f64", into = "f64")]
pub struct Seconds(u64);

/// Longest clock accepted: one day.
const MAX_SECONDS: f64 = 86_400.0;

impl Seconds {
    /// The duration in milliseconds.
    #[must_use]
    pub const fn ms(self) -> u64 {
        self.0
    }
}

impl TryFrom<f64> for Seconds {
    type Error = String;
    fn try_from(s: f64) -> Result<Self, String> {
        if s.is_finite() && (0.0..=MAX_SECONDS).contains(&s) {
            Ok(Seconds((s * 1000.0).round() as u64))
        } else {
            Err(format!(
                "clock seconds must be between 0 and {MAX_SECONDS}, not {s}"
            ))
        }
    }
}

impl From<Seconds> for f64 {
    fn from(s: Seconds) -> f64 {
        s.0 as f64 / 1000.0
    }
}

impl ClockSetup {
    /// Checks values that serde cannot: a clock must give some time.
    pub fn validate(&self) -> Result<(), String> {
        match *self {
            ClockSetup::Move { seconds } if seconds.ms() == 0 => {
                Err("a per-move clock needs more than 0 seconds".into())
            }
            ClockSetup::Side {
                initial_seconds, ..
            } if initial_seconds.ms() == 0 => {
                Err("a per-side clock needs more than 0 initial seconds".into())
            }
            _ => Ok(()),
        }
    }

    /// Whether there is a clock at all.
    #[must_use]
    pub const fn is_timed(&self) -> bool {
        !matches!(self, ClockSetup::None)
    }

    /// The time each side starts with (and gets again every move, for a move clock).
    #[must_use]
    pub const fn initial_ms(&self) -> i64 {
        match *self {
            ClockSetup::None => 0,
            ClockSetup::Move { seconds } => seconds.ms() as i64,
            ClockSetup::Side {
                initial_seconds, ..
            } => initial_seconds.ms() as i64,
        }
    }

    /// The increment after each move.
    #[must_use]
    pub const fn increment_ms(&self) -> i64 {
        match *self {
            ClockSetup::Side {
                increment_seconds, ..
            } => increment_seconds.ms() as i64,
            _ => 0,
        }
    }
}

/// The running state of a clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockState {
    /// Black's time left, as of `since` if Black's clock runs.
    pub black_ms: i64,
    /// White's time left, as of `since` if White's clock runs.
    pub white_ms: i64,
    /// Whose clock runs.
    pub running: Option<Color>,
    /// When the running clock last was settled (Unix ms).
    pub since: i64,
}

impl ClockState {
    /// A clock at the start of a game: full time, not running.
    #[must_use]
    pub fn new(setup: &ClockSetup, now: i64) -> ClockState {
        ClockState {
            black_ms: setup.initial_ms(),
            white_ms: setup.initial_ms(),
            running: None,
            since: now,
        }
    }

    fn slot(&mut self, color: Color) -> &mut i64 {
        match color {
            Color::Black => &mut self.black_ms,
            Color::White => &mut self.white_ms,
        }
    }

    /// `color`'s time left at `now` (may be negative once the flag has fallen).
    #[must_use]
    pub fn remaining(&self, color: Color, now: i64) -> i64 {
        let stored = match color {
            Color::Black => self.black_ms,
            Color::White => self.white_ms,
        };
        if self.running == Some(color) {
            stored - (now - self.since).max(0)
        } else {
            stored
        }
    }

    /// Charges the running side for the time since `since`.
    pub fn settle(&mut self, now: i64) {
        if let Some(c) = self.running {
            let left = self.remaining(c, now);
            *self.slot(c) = left;
        }
        self.since = now;
    }

    /// After `mover` completed a move: settles and adds the increment.
    pub fn after_move(&mut self, setup: &ClockSetup, mover: Color, now: i64) {
        if !setup.is_timed() {
            return;
        }
        self.settle(now);
        if self.running == Some(mover) {
            *self.slot(mover) += setup.increment_ms();
        }
    }

    /// Gives `mover` back `ms` of the time their last move took (lag compensation; see
    /// [`crate::lag`]). Side clocks only: a per-move clock starts each turn afresh.
    pub fn credit(&mut self, setup: &ClockSetup, mover: Color, ms: i64) {
        if matches!(setup, ClockSetup::Side { .. }) && ms > 0 {
            *self.slot(mover) += ms;
        }
    }

    /// Makes `who`'s clock run (or none). A move clock starts each turn from full time.
    pub fn set_running(&mut self, setup: &ClockSetup, who: Option<Color>, now: i64) {
        if !setup.is_timed() {
            return;
        }
        self.settle(now);
        if self.running == who {
            return;
        }
        if let (ClockSetup::Move { .. }, Some(c)) = (setup, who) {
            *self.slot(c) = setup.initial_ms();
            *self.slot(c.opponent()) = setup.initial_ms();
        }
        self.running = who;
    }

    /// The side whose flag has fallen at `now`, if any.
    #[must_use]
    pub fn flagged(&self, now: i64) -> Option<Color> {
        self.running.filter(|&c| self.remaining(c, now) <= 0)
    }

    /// When the running side's flag falls (Unix ms).
    #[must_use]
    pub fn deadline(&self) -> Option<i64> {
        self.running
            .map(|c| self.since + self.remaining(c, self.since))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(initial: f64, inc: f64) -> ClockSetup {
        ClockSetup::Side {
            initial_seconds: Seconds::try_from(initial).unwrap(),
            increment_seconds: Seconds::try_from(inc).unwrap(),
        }
    }

    #[test]
    fn side_clock_counts_down_and_adds_increment() {
        let setup = side(60.0, 2.0);
        let mut c = ClockState::new(&setup, 0);
        c.set_running(&setup, Some(Color::White), 1_000);
        assert_eq!(c.remaining(Color::White, 11_000), 50_000);
        c.after_move(&setup, Color::White, 11_000);
        c.set_running(&setup, Some(Color::Black), 11_000);
        assert_eq!(c.white_ms, 52_000);
        assert_eq!(c.remaining(Color::Black, 12_000), 59_000);
        assert_eq!(c.deadline(), Some(71_000));
        assert_eq!(c.flagged(70_999), None);
        assert_eq!(c.flagged(71_000), Some(Color::Black));
    }

    #[test]
    fn move_clock_restarts_every_turn() {
        let setup = ClockSetup::Move {
            seconds: Seconds::try_from(10.0).unwrap(),
        };
        let mut c = ClockState::new(&setup, 0);
        c.set_running(&setup, Some(Color::White), 0);
        c.after_move(&setup, Color::White, 9_000);
        c.set_running(&setup, Some(Color::Black), 9_000);
        assert_eq!(c.remaining(Color::Black, 9_000), 10_000);
        assert_eq!(c.remaining(Color::White, 9_000), 10_000);
        assert_eq!(c.deadline(), Some(19_000));
    }

    #[test]
    fn no_clock_never_runs() {
        let setup = ClockSetup::None;
        let mut c = ClockState::new(&setup, 0);
        c.set_running(&setup, Some(Color::Black), 0);
        assert_eq!(c.running, None);
        assert_eq!(c.deadline(), None);
        assert_eq!(c.flagged(i64::MAX / 2), None);
    }

    #[test]
    fn bad_setups_are_refused() {
        assert!(serde_json::from_str::<ClockSetup>(r#"{"kind":"move","seconds":-1}"#).is_err());
        assert!(serde_json::from_str::<ClockSetup>(r#"{"kind":"side"}"#).is_err());
        assert!(serde_json::from_str::<ClockSetup>(r#"{"kind":"hourglass"}"#).is_err());
        // Fields of another kind, or of no kind, are refused, not ignored.
        for extra in [
            r#"{"kind":"none","x":1}"#,
            r#"{"kind":"none","seconds":5}"#,
            r#"{"kind":"move","seconds":5,"initial_seconds":5}"#,
            r#"{"kind":"side","initial_seconds":5,"seconds":5}"#,
        ] {
            let e = serde_json::from_str::<ClockSetup>(extra).unwrap_err();
            assert!(e.to_string().contains("clock"), "{extra}: {e}");
        }
        for setup in [
            ClockSetup::None,
            ClockSetup::Move {
                seconds: Seconds(5000),
            },
            ClockSetup::Side {
                initial_seconds: Seconds(60_000),
                increment_seconds: Seconds(2000),
            },
        ] {
            let json = serde_json::to_string(&setup).unwrap();
            assert_eq!(
                serde_json::from_str::<ClockSetup>(&json).unwrap(),
                setup,
                "{json}"
            );
        }
        let zero: ClockSetup = serde_json::from_str(r#"{"kind":"move","seconds":0}"#).unwrap();
        assert!(zero.validate().is_err());
        let ok: ClockSetup =
            serde_json::from_str(r#"{"kind":"side","initial_seconds":0.5,"increment_seconds":0}"#)
                .unwrap();
        assert_eq!(ok.initial_ms(), 500);
    }
}
