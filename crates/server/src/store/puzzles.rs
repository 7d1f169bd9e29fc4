//! Puzzles in the store: the puzzles with their ratings, each person's puzzle rating and
//! streak, and each person's first try of each puzzle (the rated one). A try and both
//! ratings (Glicko-2, as games are rated: [`crate::rating`]) change in one transaction,
//! so two tries of the same puzzle at once count once.

use super::db::vals;
use super::{Store, StoreError};
use crate::identity::IdentityId;
use crate::rating::Rating;

/// A puzzle as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRow {
    /// Its id.
    pub id: String,
    /// The puzzle file's JSON line (position, solution, source).
    pub body: String,
    /// Its rating now.
    pub rating: Rating,
    /// Rated tries, and how many were solved.
    pub plays: i64,
    /// Solved tries.
    pub solved: i64,
}

/// A person's puzzle rating and streak.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PuzzlePlayer {
    /// The rating.
    pub rating: Rating,
    /// Puzzles solved in a row, up to now.
    pub streak: i64,
    /// The longest streak.
    pub best_streak: i64,
    /// Rated tries.
    pub plays: i64,
    /// Solved tries.
    pub solved: i64,
}

/// What a try changed.
#[derive(Clone, Debug, PartialEq)]
pub struct TryOutcome {
    /// Whether it was the person's first try of the puzzle (only that one is rated).
    pub counted: bool,
    /// The person's rating before.
    pub before: f64,
    /// The person afterwards.
    pub player: PuzzlePlayer,
    /// The puzzle's rating afterwards.
    pub puzzle_rating: f64,
}

/// The deviation a mined puzzle starts with: its starting rating is an estimate.
pub const NEW_PUZZLE_DEVIATION: f64 = 200.0;

fn glicko(row: &super::db::Row, from: usize) -> Result<Rating, StoreError> {
    Ok(Rating {
        rating: row.get(from)?,
        deviation: row.get(from + 1)?,
        volatility: row.get(from + 2)?,
    })
}

impl Store {
    /// Adds the puzzles not stored yet: (id, rule, theme, body, starting rating).
    /// Returns how many were new.
    pub async fn add_puzzles(
        &self,
        puzzles: Vec<(String, String, String, String, f64)>,
    ) -> Result<u64, StoreError> {
        self.with(move |db| {
            super::db::transaction(db, |db| {
                let mut added = 0;
                for (id, rule, theme, body, rating) in &puzzles {
                    added += db.execute(
                        "INSERT INTO puzzles (id, rule, theme, body, rating, deviation,
                                              volatility, plays, solved)
                         VALUES ($1, $2, $3, $4, $5, $6, $7, 0, 0)
                         ON CONFLICT (id) DO NOTHING",
                        &vals![
                            id.as_str(),
                            rule.as_str(),
                            theme.as_str(),
                            body.as_str(),
                            *rating,
                            NEW_PUZZLE_DEVIATION,
                            0.06
                        ],
                    )?;
                }
                Ok(added)
            })
        })
        .await
    }

    /// The number of puzzles, by theme.
    pub async fn puzzle_counts(&self) -> Result<Vec<(String, i64)>, StoreError> {
        self.with(move |db| {
            db.query(
                "SELECT theme, COUNT(*) FROM puzzles GROUP BY theme ORDER BY theme",
                &vals![],
            )?
            .iter()
            .map(|r| Ok((r.get(0)?, r.get(1)?)))
            .collect()
        })
        .await
    }

    /// One puzzle.
    pub async fn puzzle(&self, id: String) -> Result<Option<PuzzleRow>, StoreError> {
        self.with(move |db| {
            db.query_opt(
                "SELECT id, body, rating, deviation, volatility, plays, solved
                 FROM puzzles WHERE id = $1",
                &vals![id.as_str()],
            )?
            .map(|r| puzzle_row(&r))
            .transpose()
        })
        .await
    }

    /// Puzzles `who` has not tried, nearest to `rating` first (at most `n`), of `theme`
    /// if given.
    pub async fn untried_puzzles(
        &self,
        who: Option<IdentityId>,
        rating: f64,
        theme: Option<String>,
        n: i64,
    ) -> Result<Vec<PuzzleRow>, StoreError> {
        let who = who.map(|w| w.as_str().to_string()).unwrap_or_default();
        let theme = theme.unwrap_or_default();
        self.with(move |db| {
            db.query(
                "SELECT id, body, rating, deviation, volatility, plays, solved FROM puzzles p
                 WHERE ($1 = '' OR theme = $1)
                   AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a
                                   WHERE a.identity = $2 AND a.puzzle = p.id)
                 ORDER BY ABS(rating - $3), id LIMIT $4",
                &vals![theme.as_str(), who.as_str(), rating, n],
            )?
            .iter()
            .map(puzzle_row)
            .collect()
        })
        .await
    }

    /// `who`'s puzzle rating and streak (a newcomer's when there is none).
    pub async fn puzzle_player(&self, who: IdentityId) -> Result<PuzzlePlayer, StoreError> {
        self.with(move |db| read_player(db, who.as_str())).await
    }

    /// Records `who`'s try of `puzzle`: the first try rates both (Glicko-2, one game a
    /// period) and moves the streak; a later try changes nothing. `None` when there is
    /// no such puzzle.
    pub async fn try_puzzle(
        &self,
        who: IdentityId,
        puzzle: String,
        solved: bool,
        now: i64,
    ) -> Result<Option<TryOutcome>, StoreError> {
        self.with(move |db| {
            super::db::transaction(db, |db| {
                let Some(p) = db.query_opt(
                    "SELECT id, body, rating, deviation, volatility, plays, solved
                     FROM puzzles WHERE id = $1",
                    &vals![puzzle.as_str()],
                )?
                else {
                    return Ok(None);
                };
                let p = puzzle_row(&p)?;
                let player = read_player(db, who.as_str())?;
                let before = player.rating.rating;
                let tried = db
                    .query_opt(
                        "SELECT solved FROM puzzle_attempts WHERE identity = $1 AND puzzle = $2",
                        &vals![who.as_str(), puzzle.as_str()],
                    )?
                    .is_some();
                if tried {
                    return Ok(Some(TryOutcome {
                        counted: false,
                        before,
                        player,
                        puzzle_rating: p.rating.rating,
                    }));
                }
                let score = if solved { 1.0 } else { 0.0 };
                let rated = player.rating.after(&p.rating, score);
                let puzzle_after = p.rating.after(&player.rating, 1.0 - score);
                let streak = if solved { player.streak + 1 } else { 0 };
                let after = PuzzlePlayer {
                    rating: rated,
                    streak,
                    best_streak: player.best_streak.max(streak),
                    plays: player.plays + 1,
                    solved: player.solved + i64::from(solved),
                };
                db.execute(
                    "INSERT INTO puzzle_players (identity, rating, deviation, volatility, streak,
                                                 best_streak, plays, solved, updated_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                     ON CONFLICT (identity) DO UPDATE SET
                       rating = excluded.rating, deviation = excluded.deviation,
                       volatility = excluded.volatility, streak = excluded.streak,
                       best_streak = excluded.best_streak, plays = excluded.plays,
                       solved = excluded.solved, updated_at = excluded.updated_at",
                    &vals![
                        who.as_str(),
                        after.rating.rating,
                        after.rating.deviation,
                        after.rating.volatility,
                        after.streak,
                        after.best_streak,
                        after.plays,
                        after.solved,
                        now
                    ],
                )?;
                db.execute(
                    "UPDATE puzzles SET rating = $1, deviation = $2, volatility = $3,
                            plays = plays + 1, solved = solved + $4
                     WHERE id = $5",
                    &vals![
                        puzzle_after.rating,
                        puzzle_after.deviation,
                        puzzle_after.volatility,
                        i64::from(solved),
                        puzzle.as_str()
                    ],
                )?;
                db.execute(
                    "INSERT INTO puzzle_attempts (identity, puzzle, solved, rating_before,
                                                  rating_after, at)
                     VALUES ($1, $2, $3, $4, $5, $6)",
                    &vals![
                        who.as_str(),
                        puzzle.as_str(),
                        i64::from(solved),
                        before,
                        after.rating.rating,
                        now
                    ],
                )?;
                Ok(Some(TryOutcome {
                    counted: true,
                    before,
                    player: after,
                    puzzle_rating: puzzle_after.rating,
                }))
            })
        })
        .await
    }
}

fn puzzle_row(r: &super::db::Row) -> Result<PuzzleRow, StoreError> {
    Ok(PuzzleRow {
        id: r.get(0)?,
        body: r.get(1)?,
        rating: glicko(r, 2)?,
        plays: r.get(5)?,
        solved: r.get(6)?,
    })
}

fn read_player(db: &mut dyn super::db::Db, who: &str) -> Result<PuzzlePlayer, StoreError> {
    let Some(r) = db.query_opt(
        "SELECT rating, deviation, volatility, streak, best_streak, plays, solved
         FROM puzzle_players WHERE identity = $1",
        &vals![who],
    )?
    else {
        return Ok(PuzzlePlayer::default());
    };
    Ok(PuzzlePlayer {
        rating: glicko(&r, 0)?,
        streak: r.get(3)?,
        best_streak: r.get(4)?,
        plays: r.get(5)?,
        solved: r.get(6)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn add(id: &str, rating: f64) -> (String, String, String, String, f64) {
        (
            id.into(),
            "freestyle".into(),
            "vcf".into(),
            format!("{{\"id\":\"{id}\"}}"),
            rating,
        )
    }

    #[tokio::test]
    async fn the_first_try_rates_both_sides_once_and_moves_the_streak() {
        let s = Store::open_in_memory().unwrap();
        assert_eq!(
            s.add_puzzles(vec![add("a", 1400.0), add("b", 1900.0)])
                .await
                .unwrap(),
            2
        );
        assert_eq!(s.add_puzzles(vec![add("a", 1000.0)]).await.unwrap(), 0);
        assert_eq!(s.puzzle_counts().await.unwrap(), [("vcf".to_string(), 2)]);
        let who = IdentityId::random();
        let near = s
            .untried_puzzles(Some(who.clone()), 1500.0, None, 5)
            .await
            .unwrap();
        assert_eq!(near[0].id, "a", "1400 is nearer 1500 than 1900");
        let won = s
            .try_puzzle(who.clone(), "a".into(), true, 1)
            .await
            .unwrap()
            .unwrap();
        assert!(won.counted && won.player.rating.rating > 1500.0);
        assert_eq!((won.player.streak, won.player.best_streak), (1, 1));
        assert!(won.puzzle_rating < 1400.0, "solved: the puzzle was easier");
        // Again: nothing changes.
        let again = s
            .try_puzzle(who.clone(), "a".into(), false, 2)
            .await
            .unwrap()
            .unwrap();
        assert!(!again.counted);
        assert_eq!(again.player, won.player);
        // A tried puzzle is not offered again.
        let near = s
            .untried_puzzles(Some(who.clone()), 1500.0, None, 5)
            .await
            .unwrap();
        assert_eq!(near.len(), 1);
        assert_eq!(near[0].id, "b");
        let lost = s
            .try_puzzle(who.clone(), "b".into(), false, 3)
            .await
            .unwrap()
            .unwrap();
        assert_eq!((lost.player.streak, lost.player.best_streak), (0, 1));
        assert!(lost.player.rating.rating < won.player.rating.rating);
        assert_eq!(s.puzzle_player(who.clone()).await.unwrap(), lost.player);
        let b = s.puzzle("b".into()).await.unwrap().unwrap();
        assert_eq!((b.plays, b.solved), (1, 0));
        assert!(b.rating.rating > 1900.0);
        assert!(
            s.try_puzzle(who, "zz".into(), true, 4)
                .await
                .unwrap()
                .is_none()
        );
        assert!(
            s.untried_puzzles(None, 1500.0, Some("vct".into()), 5)
                .await
                .unwrap()
                .is_empty()
        );
    }
}
