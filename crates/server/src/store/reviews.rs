//! Post-game reviews in the store: one row per game with its lease, and the analysed
//! positions as they come (see [`crate::review`]). Like the computer's moves
//! ([`super::jobs`]), a review is run by one node at a time: the node holding the lease,
//! renewed with every stored position; when it dies, another node takes the review
//! over and continues from the positions stored so far.

use super::db::vals;
use super::{Store, StoreError};
use crate::id::GameId;

/// How long a review's lease lasts without being renewed (ms). A position takes well
/// under a second to analyse, and each one stored renews the lease.
pub const REVIEW_LEASE_MS: i64 = 5_000;

/// A review as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewRow {
    /// Positions to analyse (moves + 1).
    pub positions: i64,
    /// Whether every position is analysed.
    pub done: bool,
    /// Analysed positions so far: (stones on the board, the analysis as JSON).
    pub analysed: Vec<(i64, String)>,
}

impl Store {
    /// The review of `game` (created, running and leased by nobody, if there was none):
    /// `positions` is used only when it is created.
    pub async fn open_review(
        &self,
        game: GameId,
        positions: i64,
        now: i64,
    ) -> Result<ReviewRow, StoreError> {
        let g = game.clone();
        self.with(move |db| {
            db.execute(
                "INSERT INTO reviews (game, positions, status, node, leased_until, created_at,
                                      updated_at)
                 VALUES ($1, $2, 'running', '', 0, $3, $3)
                 ON CONFLICT (game) DO NOTHING",
                &vals![g.as_str(), positions, now],
            )?;
            Ok(())
        })
        .await?;
        self.review(game)
            .await?
            .ok_or_else(|| StoreError::Task("a review vanished as it was made".into()))
    }

    /// The review of `game`, if someone asked for one.
    pub async fn review(&self, game: GameId) -> Result<Option<ReviewRow>, StoreError> {
        self.with(move |db| {
            let Some(row) = db.query_opt(
                "SELECT positions, status FROM reviews WHERE game = $1",
                &vals![game.as_str()],
            )?
            else {
                return Ok(None);
            };
            let analysed = db
                .query(
                    "SELECT ply, body FROM review_positions WHERE game = $1 ORDER BY ply",
                    &vals![game.as_str()],
                )?
                .iter()
                .map(|r| Ok((r.get(0)?, r.get(1)?)))
                .collect::<Result<Vec<_>, StoreError>>()?;
            Ok(Some(ReviewRow {
                positions: row.get(0)?,
                done: row.get::<String>(1)? == "done",
                analysed,
            }))
        })
        .await
    }

    /// Claims the running review of `game` for this node: `false` when it is done, or
    /// another node holds a live lease on it.
    pub async fn claim_review(&self, game: GameId, now: i64) -> Result<bool, StoreError> {
        let node = std::sync::Arc::clone(&self.node);
        self.with(move |db| {
            Ok(db.execute(
                "UPDATE reviews SET node = $1, leased_until = $2
                 WHERE game = $3 AND status = 'running' AND (node = $1 OR leased_until < $4)",
                &vals![&*node, now + REVIEW_LEASE_MS, game.as_str(), now],
            )? > 0)
        })
        .await
    }

    /// Stores one analysed position of the review of `game` and renews this node's
    /// lease: `false` (and nothing stored) when this node no longer holds it.
    pub async fn store_review_position(
        &self,
        game: GameId,
        ply: i64,
        body: String,
        now: i64,
    ) -> Result<bool, StoreError> {
        let node = std::sync::Arc::clone(&self.node);
        self.with(move |db| {
            super::db::transaction(db, |db| {
                let held = db.execute(
                    "UPDATE reviews SET leased_until = $1, updated_at = $2
                     WHERE game = $3 AND node = $4 AND status = 'running'",
                    &vals![now + REVIEW_LEASE_MS, now, game.as_str(), &*node],
                )? > 0;
                if held {
                    db.execute(
                        "INSERT INTO review_positions (game, ply, body) VALUES ($1, $2, $3)
                         ON CONFLICT (game, ply) DO UPDATE SET body = excluded.body",
                        &vals![game.as_str(), ply, body],
                    )?;
                }
                Ok(held)
            })
        })
        .await
    }

    /// Marks the review of `game` done (every position is stored).
    pub async fn finish_review(&self, game: GameId, now: i64) -> Result<(), StoreError> {
        self.with(move |db| {
            db.execute(
                "UPDATE reviews SET status = 'done', updated_at = $1, leased_until = 0
                 WHERE game = $2",
                &vals![now, game.as_str()],
            )?;
            Ok(())
        })
        .await
    }

    /// Forgets the review of `game` and its analysed positions (its game is gone, or
    /// no longer finished).
    pub async fn drop_review(&self, game: GameId) -> Result<(), StoreError> {
        self.with(move |db| {
            super::db::transaction(db, |db| {
                db.execute(
                    "DELETE FROM review_positions WHERE game = $1",
                    &vals![game.as_str()],
                )?;
                db.execute("DELETE FROM reviews WHERE game = $1", &vals![game.as_str()])?;
                Ok(())
            })
        })
        .await
    }

    /// The games whose review is done, most recently reviewed first (at most `limit`): the
    /// games `wuzi puzzles mine --db` looks at.
    pub async fn reviewed_games(&self, limit: i64) -> Result<Vec<String>, StoreError> {
        self.with(move |db| {
            db.query(
                "SELECT game FROM reviews WHERE status = 'done' ORDER BY updated_at DESC LIMIT $1",
                &vals![limit],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect()
        })
        .await
    }

    /// Running reviews whose leases ran out (their node died or stopped, or nobody has
    /// started them yet): this node may claim them.
    pub async fn orphan_reviews(&self, now: i64) -> Result<Vec<String>, StoreError> {
        self.with(move |db| {
            db.query(
                "SELECT game FROM reviews WHERE status = 'running' AND leased_until < $1
                 ORDER BY updated_at LIMIT 16",
                &vals![now],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect()
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_review_is_held_by_one_node_and_keeps_its_positions() {
        let a = Store::open_in_memory().unwrap();
        let b = Store {
            node: "b".into(),
            ..a.clone()
        };
        let g: GameId = "gamegamegame".parse().unwrap();
        let row = a.open_review(g.clone(), 3, 1000).await.unwrap();
        assert_eq!((row.positions, row.done), (3, false));
        assert_eq!(a.orphan_reviews(1000).await.unwrap(), ["gamegamegame"]);
        assert!(a.claim_review(g.clone(), 1000).await.unwrap());
        assert!(
            !b.claim_review(g.clone(), 1000).await.unwrap(),
            "a holds it"
        );
        assert!(
            a.store_review_position(g.clone(), 0, "{}".into(), 2000)
                .await
                .unwrap()
        );
        assert!(
            !b.store_review_position(g.clone(), 1, "{}".into(), 2000)
                .await
                .unwrap(),
            "not b's to write"
        );
        // Opened again (another request): the same review, its position kept.
        let again = b.open_review(g.clone(), 99, 2500).await.unwrap();
        assert_eq!(again.positions, 3);
        assert_eq!(again.analysed, [(0, "{}".to_string())]);
        // a dies: b takes it over once the lease runs out.
        let late = 2000 + REVIEW_LEASE_MS + 1;
        assert_eq!(b.orphan_reviews(late).await.unwrap(), ["gamegamegame"]);
        assert!(b.claim_review(g.clone(), late).await.unwrap());
        assert!(!a.claim_review(g.clone(), late).await.unwrap());
        assert!(
            b.reviewed_games(10).await.unwrap().is_empty(),
            "not done yet"
        );
        b.finish_review(g.clone(), late).await.unwrap();
        assert_eq!(b.reviewed_games(10).await.unwrap(), ["gamegamegame"]);
        assert!(b.review(g.clone()).await.unwrap().unwrap().done);
        assert!(!b.claim_review(g.clone(), late).await.unwrap(), "done");
        assert!(a.orphan_reviews(late * 2).await.unwrap().is_empty());
        // Dropped (its game was deleted): gone, positions and all.
        let h: GameId = "hgamehgamehg".parse().unwrap();
        a.open_review(h.clone(), 2, 1000).await.unwrap();
        assert!(a.claim_review(h.clone(), 1000).await.unwrap());
        assert!(
            a.store_review_position(h.clone(), 0, "{}".into(), 1000)
                .await
                .unwrap()
        );
        a.drop_review(h.clone()).await.unwrap();
        assert!(a.review(h.clone()).await.unwrap().is_none());
        assert!(a.orphan_reviews(late * 3).await.unwrap().is_empty());
        let again = a.open_review(h, 2, 3000).await.unwrap();
        assert!(
            again.analysed.is_empty(),
            "no position of the old one is left"
        );
    }
}
