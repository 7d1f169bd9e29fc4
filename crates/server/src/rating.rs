//! Ratings: Glicko-2 (the `skillratings` crate), one pool per rule family and speed class.
//!
//! A rated game updates each person's rating in its pool once, in the same transaction
//! that stores its end ([`crate::store::Store::save`]). The computer's players are not
//! rated by games with people: they stand at the fixed ratings of [`COMPUTER_RATINGS`],
//! measured with `wuzi match` (scripts/computer-ratings.sh; docs/ratings.md).

use serde::Serialize;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use wuzi_engine::PlayerKind;
use wuzi_rules::{GameConfig, Rule, Variant};

use crate::clock::ClockSetup;
use crate::live::{Mode, Setup};

/// A rule family: the rules whose games are rated together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Freestyle and standard (exact five): the same game for rating purposes.
    Gomoku,
    /// Renju.
    Renju,
    /// Caro.
    Caro,
}

impl Family {
    /// All families.
    pub const ALL: [Family; 3] = [Family::Gomoku, Family::Renju, Family::Caro];

    /// The family of a rule.
    #[must_use]
    pub fn of(rule: Rule) -> Family {
        match rule {
            Rule::Freestyle | Rule::Standard => Family::Gomoku,
            Rule::Renju => Family::Renju,
            Rule::Caro => Family::Caro,
        }
    }

    /// Its name in pool keys.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Family::Gomoku => "gomoku",
            Family::Renju => "renju",
            Family::Caro => "caro",
        }
    }
}

/// A speed class, by the time a game is expected to take (as lichess does):
/// a side clock's base plus 30 increments (a gomoku game is about 30 moves a side), or
/// 30 moves at a per-move limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Speed {
    /// Under 3 minutes.
    Bullet,
    /// 3 to 8 minutes.
    Blitz,
    /// 8 to 25 minutes.
    Rapid,
    /// 25 minutes or more.
    Classical,
}

/// Moves a side is expected to make in a game, for the speed class.
const EXPECTED_MOVES: u64 = 30;

impl Speed {
    /// All speed classes, fastest first.
    pub const ALL: [Speed; 4] = [Speed::Bullet, Speed::Blitz, Speed::Rapid, Speed::Classical];

    /// The class of a clock; `None` for a game without a clock (not rated: a game
    /// nobody has to finish could be left whenever it goes badly).
    #[must_use]
    pub fn of(clock: &ClockSetup) -> Option<Speed> {
        let ms = match *clock {
            ClockSetup::None => return None,
            ClockSetup::Move { seconds } => seconds.ms() * EXPECTED_MOVES,
            ClockSetup::Side {
                initial_seconds,
                increment_seconds,
            } => initial_seconds.ms() + increment_seconds.ms() * EXPECTED_MOVES,
        };
        Some(match ms / 1000 {
            0..180 => Speed::Bullet,
            180..480 => Speed::Blitz,
            480..1500 => Speed::Rapid,
            _ => Speed::Classical,
        })
    }

    /// Its name in pool keys.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
        }
    }
}

/// A rating pool: a family at a speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pool {
    /// The rules.
    pub family: Family,
    /// The clock.
    pub speed: Speed,
}

impl Pool {
    /// Every pool.
    pub fn all() -> impl Iterator<Item = Pool> {
        Family::ALL.into_iter().flat_map(|family| {
            Speed::ALL
                .into_iter()
                .map(move |speed| Pool { family, speed })
        })
    }

    /// `gomoku.blitz`, `renju.rapid`, ...
    #[must_use]
    pub fn key(self) -> String {
        format!("{}.{}", self.family.name(), self.speed.name())
    }
}

impl std::str::FromStr for Pool {
    type Err = String;
    fn from_str(s: &str) -> Result<Pool, String> {
        Pool::all().find(|p| p.key() == s).ok_or_else(|| {
            format!(
                "unknown rating pool {:?} (family.speed: gomoku, renju or caro; bullet, blitz, rapid or classical)",
                s.chars().take(40).collect::<String>()
            )
        })
    }
}

/// The pool a game with this setup is rated in, or why it cannot be rated.
///
/// Rated: a game against the computer or between two people online, with a clock, five
/// in a row on a plain square board of 15 to 20 lines, the sizes the computer's ratings
/// were measured on and tournaments use.
pub fn pool_of(setup: &Setup) -> Result<Pool, String> {
    let computer = setup.mode == Mode::Computer && setup.computer.is_some();
    if !computer && setup.mode != Mode::Online {
        return Err("only games against the computer or another person online are rated (two players at one screen are one person)".into());
    }
    rated_config(&setup.config)?;
    let speed = Speed::of(&setup.clock)
        .ok_or("a rated game needs a clock (a game without one could be left unfinished)")?;
    Ok(Pool {
        family: Family::of(setup.config.rule),
        speed,
    })
}

fn rated_config(config: &GameConfig) -> Result<(), String> {
    if config.k != 5 {
        return Err("rated games are five in a row".into());
    }
    if config.variant != Variant::Wood {
        return Err("rated games are on the plain board (no rock or ocean theme)".into());
    }
    let (w, h) = (config.size.width(), config.size.height());
    if w != h || !(15..=20).contains(&w) {
        return Err("rated games are on a square board of 15 to 20 lines".into());
    }
    Ok(())
}

/// Deviation above which a rating is provisional (shown with a "?"; not on leaderboards).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// The deviation the computer's fixed ratings are taken to have.
pub const COMPUTER_DEVIATION: f64 = 60.0;

/// A player's rating in a pool.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// The rating (1500 at the start).
    pub rating: f64,
    /// Its deviation (350 at the start).
    pub deviation: f64,
    /// Glicko-2 volatility.
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        let r = Glicko2Rating::new();
        Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

impl Rating {
    /// Still uncertain: shown with a "?" and kept off the leaderboard.
    #[must_use]
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The fixed rating of a computer player.
    #[must_use]
    pub fn computer(player: PlayerKind) -> Rating {
        Rating {
            rating: f64::from(computer_rating(player)),
            deviation: COMPUTER_DEVIATION,
            volatility: Glicko2Rating::new().volatility,
        }
    }

    /// The rating after one game against `opponent` (`score`: 1 win, 0.5 draw, 0 loss).
    #[must_use]
    pub fn after(&self, opponent: &Rating, score: f64) -> Rating {
        let outcome = if score > 0.75 {
            Outcomes::WIN
        } else if score < 0.25 {
            Outcomes::LOSS
        } else {
            Outcomes::DRAW
        };
        let g = |r: &Rating| Glicko2Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        };
        let (me, _) = glicko2(&g(self), &g(opponent), &outcome, &Glicko2Config::new());
        Rating {
            rating: me.rating,
            deviation: me.deviation,
            volatility: me.volatility,
        }
    }
}

/// The computer's ratings, measured with `scripts/computer-ratings.sh` on engine 0f8120e
/// (levels 1 to 9 still play with that evaluation; level 10 now has the learned one): the
/// levels in a ladder of neighbours (100 games a
/// pair below level 5, 300 and 260 where levels 5 to 7 are close, 60, 40 and 16 for
/// the costly top), level 1 anchored at 800; each classic AI fitted to 60 to 100 games
/// against levels 4, 5 and 6. docs/ratings.md has every pair's score and interval, and
/// docs/computer-ratings/ the match reports.
pub const COMPUTER_RATINGS: [(PlayerKind, i32); 13] = {
    use wuzi_engine::PlayerKind::{Classic, Level};
    use wuzi_engine::classic::ClassicAi::{Greedy, Rank, Tuple};
    [
        (Level(1), 800),
        (Level(2), 831),
        (Level(3), 958),
        (Level(4), 1007),
        (Level(5), 1130),
        (Classic(Greedy), 1153),
        (Level(6), 1226),
        (Level(7), 1265),
        (Classic(Rank), 1290),
        (Classic(Tuple), 1354),
        (Level(8), 1379),
        (Level(9), 1537),
        (Level(10), 1792),
    ]
};

/// The published rating of a computer player.
#[must_use]
pub fn computer_rating(player: PlayerKind) -> i32 {
    COMPUTER_RATINGS
        .iter()
        .find(|(p, _)| *p == player)
        .map_or(COMPUTER_RATINGS[COMPUTER_RATINGS.len() - 1].1, |&(_, r)| r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Seconds;
    use wuzi_engine::classic::ClassicAi;

    #[test]
    fn the_computer_table_covers_every_level_and_classic_ai_once() {
        let mut players: Vec<PlayerKind> = (1..=10).map(PlayerKind::Level).collect();
        players.extend(ClassicAi::ALL.map(PlayerKind::Classic));
        for p in &players {
            let n = COMPUTER_RATINGS.iter().filter(|(q, _)| q == p).count();
            assert_eq!(n, 1, "{p} appears {n} times in COMPUTER_RATINGS");
        }
        assert_eq!(COMPUTER_RATINGS.len(), players.len());
        // Levels rise with their number; the weakest is a beginner.
        let levels: Vec<i32> = (1..=10)
            .map(|n| computer_rating(PlayerKind::Level(n)))
            .collect();
        assert!(levels.windows(2).all(|w| w[0] <= w[1]), "{levels:?}");
        assert_eq!(COMPUTER_RATINGS.iter().map(|r| r.1).min(), Some(800));
    }

    #[test]
    fn pools_by_family_and_speed() {
        let secs = |s: f64| Seconds::try_from(s).unwrap();
        let side = |base, inc| ClockSetup::Side {
            initial_seconds: secs(base),
            increment_seconds: secs(inc),
        };
        assert_eq!(Speed::of(&ClockSetup::None), None);
        assert_eq!(Speed::of(&side(60.0, 0.0)), Some(Speed::Bullet));
        assert_eq!(Speed::of(&side(120.0, 2.0)), Some(Speed::Blitz));
        assert_eq!(Speed::of(&side(180.0, 2.0)), Some(Speed::Blitz));
        assert_eq!(Speed::of(&side(600.0, 5.0)), Some(Speed::Rapid));
        assert_eq!(Speed::of(&side(1800.0, 0.0)), Some(Speed::Classical));
        let per_move = ClockSetup::Move {
            seconds: secs(10.0),
        };
        assert_eq!(Speed::of(&per_move), Some(Speed::Blitz));
        assert_eq!(Family::of(Rule::Standard), Family::Gomoku);
        for pool in Pool::all() {
            assert_eq!(pool.key().parse::<Pool>(), Ok(pool));
        }
        assert!("gomoku.slow".parse::<Pool>().is_err());
        assert_eq!(Pool::all().count(), 12);
    }

    #[test]
    fn glicko2_moves_towards_the_result_and_gains_certainty() {
        let start = Rating::default();
        assert!(start.provisional());
        let level6 = Rating::computer(PlayerKind::Level(6));
        let won = start.after(&level6, 1.0);
        let lost = start.after(&level6, 0.0);
        assert!(won.rating > start.rating && lost.rating < start.rating);
        assert!(won.deviation < start.deviation);
        // Beating a much weaker player gains little; losing to it costs much.
        let weak = Rating::computer(PlayerKind::Level(1));
        let mut r = Rating {
            rating: 1800.0,
            deviation: 80.0,
            volatility: 0.06,
        };
        assert!(!r.provisional());
        let gain = r.after(&weak, 1.0).rating - r.rating;
        let loss = r.rating - r.after(&weak, 0.0).rating;
        assert!(gain > 0.0 && gain < loss / 5.0, "gain {gain}, loss {loss}");
        // Many games settle the deviation below the provisional mark.
        r = start;
        for i in 0..20 {
            r = r.after(&level6, if i % 2 == 0 { 1.0 } else { 0.0 });
        }
        assert!(!r.provisional(), "{r:?}");
        assert!((r.rating - f64::from(computer_rating(PlayerKind::Level(6)))).abs() < 100.0);
    }
}
