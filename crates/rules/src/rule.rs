//! Rule sets: what makes a win and what Black may not play.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The winning condition and restrictions of a game.
///
/// | rule      | k or more in a row | overline (k+1 or more)            |
/// |-----------|--------------------|-----------------------------------|
/// | freestyle | wins               | wins                              |
/// | standard  | exactly k wins     | does not win                      |
/// | renju     | Black exactly 5, White 5+ | Black: forbidden; White: wins |
/// | caro      | exactly k, not blocked at both ends by opponent stones | does not win |
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    /// Five or more in a row wins.
    #[default]
    Freestyle,
    /// Exactly five wins, for both sides.
    Standard,
    /// Black: exactly five, and double-three, double-four and overline are forbidden.
    /// White: five or more, no restrictions.
    Renju,
    /// Exactly five that is not blocked at both ends by opponent stones.
    Caro,
}

impl Rule {
    /// All rules.
    pub const ALL: [Rule; 4] = [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro];

    /// The lowercase name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
        }
    }

    /// The Gomocup `INFO rule` value (bit 1 exact five, bit 4 renju, bit 8 caro).
    #[must_use]
    pub const fn gomocup_code(self) -> u32 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
        }
    }

    /// Decodes a Gomocup `INFO rule` bit mask (bit 2, "continuous game", is ignored).
    #[must_use]
    pub const fn from_gomocup_code(code: u32) -> Rule {
        if code & 4 != 0 {
            Rule::Renju
        } else if code & 8 != 0 {
            Rule::Caro
        } else if code & 1 != 0 {
            Rule::Standard
        } else {
            Rule::Freestyle
        }
    }

    /// Whether Black has forbidden moves.
    #[must_use]
    pub const fn has_forbidden(self) -> bool {
        matches!(self, Rule::Renju)
    }

    /// The values of k (stones in a row) this rule supports.
    #[must_use]
    pub fn supports_k(self, k: u8) -> bool {
        match self {
            Rule::Renju => k == 5,
            _ => (4..=7).contains(&k),
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A string that names no rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule {0:?} (expected freestyle, standard, renju or caro)")]
pub struct ParseRuleError(pub String);

impl FromStr for Rule {
    type Err = ParseRuleError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "freestyle" | "free" | "gomoku" | "0" => Ok(Rule::Freestyle),
            "standard" | "exact" | "exact5" | "1" => Ok(Rule::Standard),
            "renju" | "4" => Ok(Rule::Renju),
            "caro" | "8" | "9" => Ok(Rule::Caro),
            _ => Err(ParseRuleError(s.to_string())),
        }
    }
}
