//! Game ids: short random strings that are safe in URLs.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};
use wuzi_rules::random::SplitMix64;

/// Length of a game id.
const LEN: usize = 10;
/// Characters of a game id (no look-alikes such as `0`/`o`, `1`/`l`).
const ALPHABET: &[u8] = b"23456789abcdefghjkmnpqrstuvwxyz";

/// A game's id, e.g. `k3m9x2p7qa`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct GameId(String);

impl GameId {
    /// A fresh random id.
    #[must_use]
    pub fn random() -> GameId {
        let mut rng = SplitMix64::new(random_seed());
        let id = (0..LEN)
            .map(|_| ALPHABET[rng.below(ALPHABET.len())] as char)
            .collect();
        GameId(id)
    }

    /// The id as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A seed that differs between calls and between runs: the clock, the process id and a
/// counter, mixed.
#[must_use]
pub fn random_seed() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut rng =
        SplitMix64::new(nanos ^ (u64::from(std::process::id()) << 32) ^ n.rotate_left(17));
    rng.next()
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Text that is not a game id.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a game id")]
pub struct ParseGameIdError(pub String);

impl FromStr for GameId {
    type Err = ParseGameIdError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.len() == LEN && s.bytes().all(|b| ALPHABET.contains(&b)) {
            Ok(GameId(s.to_string()))
        } else {
            Err(ParseGameIdError(s.chars().take(40).collect()))
        }
    }
}

impl TryFrom<String> for GameId {
    type Error = ParseGameIdError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<GameId> for String {
    fn from(id: GameId) -> String {
        id.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_roundtrip_and_differ() {
        let a = GameId::random();
        let b = GameId::random();
        assert_ne!(a, b);
        assert_eq!(a.to_string().parse::<GameId>().unwrap(), a);
        for bad in [
            "",
            "short",
            "k3m9x2p7qaa",
            "K3M9X2P7QA",
            "k3m9x2p7q0",
            "../etc/pas",
        ] {
            assert!(bad.parse::<GameId>().is_err(), "{bad}");
        }
    }
}
