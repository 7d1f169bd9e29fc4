//! The computer's moves as jobs: the node that searches a game's move holds a lease on
//! it, renewed by its heartbeat. Another node holding the game leaves the search to the
//! lease's holder (one search per move, not one per node); when the holder dies, its
//! lease runs out and the first node to notice takes the job over, so no game waits for
//! a node that is gone. A node that stops searching because nobody there watches the
//! game any more keeps the job: its lease runs out and the move is made anyway (one
//! search), so no owed move is ever left unmade.

use super::db::{Db, transaction, vals};
use super::{Store, StoreError};
use crate::id::GameId;

/// How long a lease lasts without being renewed (ms): a few heartbeats.
pub const JOB_LEASE_MS: i64 = 5_000;

/// Leases taken over at once by one heartbeat.
const TAKE_AT_ONCE: i64 = 16;

/// After a write of `j`'s game, now at `revision`: the computer's move it owes becomes
/// the writing node's job (whoever held the last one), or the game's job goes. Games
/// between people have none: nothing to write.
pub(super) fn note_owed(
    db: &mut dyn Db,
    j: &super::WriteJob,
    revision: i64,
) -> Result<(), StoreError> {
    let game = j.game.id.as_str();
    if j.summary.computer_owes {
        db.execute(
            "INSERT INTO computer_jobs (game, node, revision, leased_until)
             VALUES ($1, $2, $3, $4)
             ON CONFLICT (game) DO UPDATE
             SET node = excluded.node, revision = excluded.revision,
                 leased_until = excluded.leased_until",
            &vals![game, &*j.node, revision, j.game.updated_at + JOB_LEASE_MS],
        )?;
    } else if j.game.setup.computer.is_some() {
        db.execute("DELETE FROM computer_jobs WHERE game = $1", &vals![game])?;
    }
    Ok(())
}

impl Store {
    /// Claims the computer's move of `game` (built on `revision`) for this node: `false`
    /// when another node holds a live lease on it at this revision or a later one.
    pub async fn claim_job(
        &self,
        game: GameId,
        revision: i64,
        now: i64,
    ) -> Result<bool, StoreError> {
        let node = std::sync::Arc::clone(&self.node);
        self.with(move |db| {
            Ok(db.execute(
                "INSERT INTO computer_jobs (game, node, revision, leased_until)
                 VALUES ($1, $2, $3, $4)
                 ON CONFLICT (game) DO UPDATE
                 SET node = excluded.node, revision = excluded.revision,
                     leased_until = excluded.leased_until
                 WHERE computer_jobs.node = excluded.node
                    OR computer_jobs.leased_until < $5
                    OR computer_jobs.revision < excluded.revision",
                &vals![game.as_str(), &*node, revision, now + JOB_LEASE_MS, now],
            )? > 0)
        })
        .await
    }

    /// Renews this node's leases on `games` (searches still running).
    pub async fn renew_jobs(&self, games: Vec<GameId>, now: i64) -> Result<(), StoreError> {
        if games.is_empty() {
            return Ok(());
        }
        let node = std::sync::Arc::clone(&self.node);
        self.with(move |db| {
            transaction(db, |db| {
                for g in &games {
                    db.execute(
                        "UPDATE computer_jobs SET leased_until = $1 WHERE game = $2 AND node = $3",
                        &vals![now + JOB_LEASE_MS, g.as_str(), &*node],
                    )?;
                }
                Ok(())
            })
        })
        .await
    }

    /// This node gives up the job of `game` (nothing is owed there any more, or the game
    /// is gone).
    pub async fn drop_job(&self, game: GameId) -> Result<(), StoreError> {
        let node = std::sync::Arc::clone(&self.node);
        self.with(move |db| {
            db.execute(
                "DELETE FROM computer_jobs WHERE game = $1 AND node = $2",
                &vals![game.as_str(), &*node],
            )?;
            Ok(())
        })
        .await
    }

    /// Takes over the jobs whose leases ran out (their nodes died, or stopped): the
    /// games whose computer moves this node now owes. Each job is taken by one node.
    pub async fn take_over_jobs(&self, now: i64) -> Result<Vec<String>, StoreError> {
        let node = std::sync::Arc::clone(&self.node);
        // PostgreSQL: nodes taking over at once skip each other's rows instead of
        // waiting. SQLite has one writer at a time anyway.
        let lock = if self.is_postgres() {
            "FOR UPDATE SKIP LOCKED"
        } else {
            ""
        };
        self.with(move |db| {
            db.query(
                &format!(
                    "UPDATE computer_jobs SET node = $1, leased_until = $2
                     WHERE game IN (SELECT game FROM computer_jobs WHERE leased_until < $3
                                    ORDER BY leased_until LIMIT $4 {lock})
                     RETURNING game"
                ),
                &vals![&*node, now + JOB_LEASE_MS, now, TAKE_AT_ONCE],
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
    async fn a_job_is_held_by_one_node_until_its_lease_runs_out() {
        let a = Store::open_in_memory().unwrap();
        let b = Store {
            node: "b".into(),
            ..a.clone()
        };
        let g: GameId = "gamegamegame".parse().unwrap();
        assert!(a.claim_job(g.clone(), 3, 1000).await.unwrap());
        assert!(
            !b.claim_job(g.clone(), 3, 1000).await.unwrap(),
            "a holds it"
        );
        assert!(
            a.claim_job(g.clone(), 3, 1000).await.unwrap(),
            "again, its own"
        );
        // a renews; b cannot take it over while the lease lives.
        a.renew_jobs(vec![g.clone()], 4000).await.unwrap();
        assert!(
            b.take_over_jobs(4000 + JOB_LEASE_MS - 1)
                .await
                .unwrap()
                .is_empty()
        );
        // a dies: the lease runs out and b takes it, once.
        let late = 4000 + JOB_LEASE_MS + 1;
        assert_eq!(b.take_over_jobs(late).await.unwrap(), [g.to_string()]);
        assert!(b.take_over_jobs(late).await.unwrap().is_empty());
        assert!(
            !a.claim_job(g.clone(), 3, late).await.unwrap(),
            "b holds it now"
        );
        // A later revision is a new move: whoever has it may search it.
        assert!(a.claim_job(g.clone(), 4, late).await.unwrap());
        assert!(!b.claim_job(g.clone(), 4, late).await.unwrap());
        // Given up, it is nobody's.
        a.drop_job(g.clone()).await.unwrap();
        assert!(b.claim_job(g.clone(), 4, late).await.unwrap(), "gone");
        b.drop_job(g.clone()).await.unwrap();
        assert!(a.take_over_jobs(late * 2).await.unwrap().is_empty());
    }
}
