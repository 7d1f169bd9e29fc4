//! Ratings in the store: the update at a rated game's end, and what profiles, graphs and
//! leaderboards read.

use std::collections::HashMap;

use serde::Serialize;
use wuzi_engine::PlayerKind;

use super::db::{Db, vals};
use super::{Store, StoreError, limit_of};
use crate::id::GameId;
use crate::identity::IdentityId;
use crate::rating::{PROVISIONAL_DEVIATION, Pool, Rating};

/// A rated game that is over, as the rating update needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedResult {
    /// Its pool.
    pub pool: Pool,
    /// Each person who played it.
    pub seats: Vec<RatedSeat>,
}

/// One person's result in a rated game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedSeat {
    /// Who.
    pub who: IdentityId,
    /// Their score in half points: 2 a win, 1 a draw, 0 a loss.
    pub half_points: u8,
    /// Against whom.
    pub opponent: RatedOpponent,
}

/// The other side of a rated game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RatedOpponent {
    /// The computer, at its published rating.
    Computer(PlayerKind),
    /// A person, at their rating before the game.
    Person(IdentityId),
}

/// A rating as a profile shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingRow {
    /// `gomoku.blitz`, ...
    pub pool: String,
    /// The rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Still provisional ("?").
    pub provisional: bool,
    /// Rated games played in the pool.
    pub games: i64,
}

/// A player as lists show them: see [`Store::people`].
#[derive(Clone, Debug, Default)]
pub struct PersonRow {
    /// The account's display name; `None` for a guest.
    pub name: Option<String>,
    /// Their ratings, most played pool first.
    pub ratings: Vec<RatingRow>,
}

/// One point of a rating graph: the rating after a game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingPoint {
    /// When (Unix ms).
    pub at: i64,
    /// The rating after the game.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// The game.
    pub game: String,
}

/// A rating change of one game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingChange {
    /// Whose.
    pub identity: String,
    /// The pool.
    pub pool: String,
    /// Before the game.
    pub before: f64,
    /// After it.
    pub after: f64,
}

/// A leaderboard line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LeaderRow {
    /// The player's identity (their profile's id).
    pub id: String,
    /// Username.
    pub username: String,
    /// Name shown.
    pub display_name: String,
    /// Rating.
    pub rating: f64,
    /// Deviation.
    pub deviation: f64,
    /// Rated games in the pool.
    pub games: i64,
}

fn read_rating(db: &mut dyn Db, who: &IdentityId, pool: &str) -> Result<(Rating, i64), StoreError> {
    let Some(r) = db.query_opt(
        "SELECT rating, deviation, volatility, games FROM ratings
         WHERE identity = $1 AND pool = $2",
        &vals![who.as_str(), pool],
    )?
    else {
        return Ok((Rating::default(), 0));
    };
    Ok((
        Rating {
            rating: r.get(0)?,
            deviation: r.get(1)?,
            volatility: r.get(2)?,
        },
        r.get(3)?,
    ))
}

/// Rates a finished game, inside the transaction that stores its end. A game is rated
/// once: a person with a change for it already is skipped (a game saved again, a
/// restart of the server). Everyone is rated from the ratings before the game.
pub(super) fn apply(
    db: &mut dyn Db,
    game: &GameId,
    result: &RatedResult,
    now: i64,
) -> Result<(), StoreError> {
    let pool = result.pool.key();
    let mut updates = Vec::new();
    for seat in &result.seats {
        let done = db.query_opt(
            "SELECT 1 FROM rating_changes WHERE game = $1 AND identity = $2",
            &vals![game.as_str(), seat.who.as_str()],
        )?;
        if done.is_some() {
            continue;
        }
        let (mine, games) = read_rating(db, &seat.who, &pool)?;
        let theirs = match &seat.opponent {
            RatedOpponent::Computer(p) => Rating::computer(*p),
            RatedOpponent::Person(id) => read_rating(db, id, &pool)?.0,
        };
        let after = mine.after(&theirs, f64::from(seat.half_points) / 2.0);
        updates.push((seat.who.clone(), mine, after, games));
    }
    for (who, before, after, games) in updates {
        db.execute(
            "INSERT INTO rating_changes (game, identity, pool, at, before, after, deviation)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
            &vals![
                game.as_str(),
                who.as_str(),
                pool.as_str(),
                now,
                before.rating,
                after.rating,
                after.deviation
            ],
        )?;
        db.execute(
            "INSERT INTO ratings (identity, pool, rating, deviation, volatility, games, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (identity, pool) DO UPDATE SET rating = excluded.rating,
               deviation = excluded.deviation, volatility = excluded.volatility,
               games = excluded.games, updated_at = excluded.updated_at",
            &vals![
                who.as_str(),
                pool.as_str(),
                after.rating,
                after.deviation,
                after.volatility,
                games + 1,
                now
            ],
        )?;
    }
    Ok(())
}

impl Store {
    /// A player's ratings, in every pool they have played rated games in.
    pub async fn ratings(&self, who: IdentityId) -> Result<Vec<RatingRow>, StoreError> {
        self.with(move |db| ratings_of(db, &who)).await
    }

    /// The display name (accounts only) and ratings of each of `ids`, in one trip to the
    /// database: what a list of many players (the watch list) needs.
    pub async fn people(
        &self,
        ids: Vec<IdentityId>,
    ) -> Result<HashMap<IdentityId, PersonRow>, StoreError> {
        self.with(move |db| {
            let mut out = HashMap::new();
            for id in ids {
                if out.contains_key(&id) {
                    continue;
                }
                let name = db
                    .query_opt(
                        "SELECT display_name FROM accounts WHERE identity = $1",
                        &vals![id.as_str()],
                    )?
                    .map(|r| r.get(0))
                    .transpose()?;
                let ratings = ratings_of(db, &id)?;
                out.insert(id, PersonRow { name, ratings });
            }
            Ok(out)
        })
        .await
    }

    /// A player's rating after each rated game in `pool`, oldest first (the last `limit`).
    pub async fn rating_history(
        &self,
        who: IdentityId,
        pool: Pool,
        limit: usize,
    ) -> Result<Vec<RatingPoint>, StoreError> {
        self.with(move |db| {
            let rows = db.query(
                "SELECT at, after, deviation, game FROM rating_changes
                 WHERE identity = $1 AND pool = $2 ORDER BY at DESC, game LIMIT $3",
                &vals![who.as_str(), pool.key(), limit_of(limit)],
            )?;
            let mut points = rows
                .iter()
                .map(|r| {
                    Ok(RatingPoint {
                        at: r.get(0)?,
                        rating: r.get(1)?,
                        deviation: r.get(2)?,
                        game: r.get(3)?,
                    })
                })
                .collect::<Result<Vec<_>, StoreError>>()?;
            points.reverse();
            Ok(points)
        })
        .await
    }

    /// The rating changes a game made (none until it is over and rated).
    pub async fn rating_changes(&self, game: GameId) -> Result<Vec<RatingChange>, StoreError> {
        self.with(move |db| {
            db.query(
                "SELECT identity, pool, before, after FROM rating_changes
                 WHERE game = $1 ORDER BY identity",
                &vals![game.as_str()],
            )?
            .iter()
            .map(|r| {
                Ok(RatingChange {
                    identity: r.get(0)?,
                    pool: r.get(1)?,
                    before: r.get(2)?,
                    after: r.get(3)?,
                })
            })
            .collect()
        })
        .await
    }

    /// The best established ratings of `pool` (accounts only: not provisional, not
    /// guests, not deleted), highest first.
    pub async fn leaderboard(
        &self,
        pool: Pool,
        limit: usize,
    ) -> Result<Vec<LeaderRow>, StoreError> {
        self.with(move |db| {
            db.query(
                "SELECT r.identity, a.username, a.display_name, r.rating, r.deviation, r.games
                 FROM ratings r JOIN accounts a ON a.identity = r.identity
                 WHERE r.pool = $1 AND r.deviation <= $2
                 ORDER BY r.rating DESC, r.identity LIMIT $3",
                &vals![pool.key(), PROVISIONAL_DEVIATION, limit_of(limit)],
            )?
            .iter()
            .map(|r| {
                Ok(LeaderRow {
                    id: r.get(0)?,
                    username: r.get(1)?,
                    display_name: r.get(2)?,
                    rating: r.get(3)?,
                    deviation: r.get(4)?,
                    games: r.get(5)?,
                })
            })
            .collect()
        })
        .await
    }
}

/// `who`'s ratings, most played pool first.
fn ratings_of(db: &mut dyn Db, who: &IdentityId) -> Result<Vec<RatingRow>, StoreError> {
    db.query(
        "SELECT pool, rating, deviation, games FROM ratings
         WHERE identity = $1 ORDER BY games DESC, pool",
        &vals![who.as_str()],
    )?
    .iter()
    .map(|r| {
        let deviation: f64 = r.get(2)?;
        Ok(RatingRow {
            pool: r.get(0)?,
            rating: r.get(1)?,
            deviation,
            provisional: deviation > PROVISIONAL_DEVIATION,
            games: r.get(3)?,
        })
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rating::{Family, Speed};
    use rusqlite::Connection;

    fn id(s: &str) -> IdentityId {
        s.parse().unwrap()
    }

    fn rating(conn: &Connection, who: &str) -> (f64, i64) {
        conn.query_row(
            "SELECT rating, games FROM ratings WHERE identity = ?1 AND pool = 'renju.rapid'",
            [who],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap()
    }

    #[test]
    fn a_game_is_rated_once_and_both_people_from_their_ratings_before_it() {
        let mut conn = Connection::open_in_memory().unwrap();
        super::super::migrate_sqlite(&mut conn).unwrap();
        let pool = Pool {
            family: Family::Renju,
            speed: Speed::Rapid,
        };
        let (a, b) = ("aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb");
        let game = |g: &str| -> GameId { g.parse().unwrap() };
        for who in [a, b] {
            conn.execute(
                "INSERT INTO identities (id, kind, created_at) VALUES (?1, 'guest', 0)",
                [who],
            )
            .unwrap();
        }
        for g in ["gameaaaaaaaa", "gamebbbbbbbb"] {
            conn.execute(
                "INSERT INTO games (id, created_at, updated_at, mode, rule, status, setup, state)
                 VALUES (?1, 0, 0, 'computer', 'renju', 'over', '{}', '{}')",
                [g],
            )
            .unwrap();
        }
        // a beats the computer, then a beats b (a person).
        let vs_computer = RatedResult {
            pool,
            seats: vec![RatedSeat {
                who: id(a),
                half_points: 2,
                opponent: RatedOpponent::Computer(PlayerKind::Level(5)),
            }],
        };
        let vs_person = RatedResult {
            pool,
            seats: vec![
                RatedSeat {
                    who: id(a),
                    half_points: 2,
                    opponent: RatedOpponent::Person(id(b)),
                },
                RatedSeat {
                    who: id(b),
                    half_points: 0,
                    opponent: RatedOpponent::Person(id(a)),
                },
            ],
        };
        apply(&mut conn, &game("gameaaaaaaaa"), &vs_computer, 1).unwrap();
        let (after_one, games) = rating(&conn, a);
        assert!(after_one > 1500.0);
        assert_eq!(games, 1);
        // Saving the same end again (a restart, a second write) changes nothing.
        apply(&mut conn, &game("gameaaaaaaaa"), &vs_computer, 2).unwrap();
        assert_eq!(rating(&conn, a), (after_one, 1));
        apply(&mut conn, &game("gamebbbbbbbb"), &vs_person, 3).unwrap();
        let (a2, a_games) = rating(&conn, a);
        let (b2, b_games) = rating(&conn, b);
        assert_eq!((a_games, b_games), (2, 1));
        // Each from the other's rating before the game: b's change is b's loss against
        // a as a stood after the first game (the opponent's volatility plays no part).
        let a_before: Rating = conn
            .query_row(
                "SELECT after, deviation FROM rating_changes WHERE game = 'gameaaaaaaaa'",
                [],
                |r| {
                    Ok(Rating {
                        rating: r.get(0)?,
                        deviation: r.get(1)?,
                        ..Rating::default()
                    })
                },
            )
            .unwrap();
        let expected_b = Rating::default().after(&a_before, 0.0);
        assert!(a2 > after_one && b2 < 1500.0);
        assert!(
            (b2 - expected_b.rating).abs() < 0.5,
            "{b2} vs {expected_b:?}"
        );
    }
}
