//! The lobby's seeks and challenges in the store, so that every node shows the same
//! ones and a seek or challenge is taken once, whichever nodes its two people are on.
//! Rows keep the JSON the lobby shows (`body`) beside the columns the queries need; the
//! rules (who may do what) are the lobby's ([`crate::lobby`]).

use super::db::{Db, transaction, vals};
use super::{Store, StoreError, limit_of};
use crate::identity::IdentityId;

/// A seek as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct SeekRow {
    /// Its id.
    pub id: String,
    /// Who seeks.
    pub owner: IdentityId,
    /// Its quick-pairing preset.
    pub preset: Option<String>,
    /// The owner's rating in the pool of its terms.
    pub rating: Option<f64>,
    /// When (Unix ms).
    pub created_at: i64,
    /// The seek as the lobby shows it (JSON).
    pub body: String,
}

/// A challenge as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct ChallengeRow {
    /// Its id.
    pub id: String,
    /// Who challenges.
    pub owner: IdentityId,
    /// Whom (none: whoever has the link).
    pub addressee: Option<IdentityId>,
    /// When (Unix ms).
    pub created_at: i64,
    /// The challenge as the lobby shows it (JSON).
    pub body: String,
}

/// What came of taking or dropping a seek or challenge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Taken<T> {
    /// Done: what was removed.
    Done(T),
    /// There is no such one (it was taken, or never was).
    Missing,
    /// It is there, but not for this person: `owner` is whose it is (the taker's own,
    /// for a take; someone else's, for a cancel).
    Refused {
        /// Who made it.
        owner: String,
        /// Whom it is for, if anyone in particular.
        addressee: Option<String>,
    },
}

/// People with a lobby page open on a live node.
const IN_LOBBY: &str = "SELECT p.identity FROM presence p JOIN nodes n ON n.name = p.node
     WHERE p.place = 'lobby' AND n.seen_at >= $2";

fn refusal<T>(db: &mut dyn Db, table: &str, id: &str) -> Result<Taken<T>, StoreError> {
    let sql = if table == "seeks" {
        "SELECT owner, CAST(NULL AS TEXT) FROM seeks WHERE id = $1"
    } else {
        "SELECT owner, addressee FROM challenges WHERE id = $1"
    };
    Ok(match db.query_opt(sql, &vals![id])? {
        None => Taken::Missing,
        Some(r) => Taken::Refused {
            owner: r.get(0)?,
            addressee: r.get(1)?,
        },
    })
}

/// Runs `delete` (a `DELETE … RETURNING body` of row `id` for `taker`): the body, or
/// why there was none (see [`refusal`]).
fn take(
    db: &mut dyn Db,
    delete: &str,
    table: &str,
    id: &str,
    taker: &IdentityId,
) -> Result<Taken<String>, StoreError> {
    match db.query_opt(delete, &vals![id, taker.as_str()])? {
        Some(r) => Ok(Taken::Done(r.get(0)?)),
        None => refusal(db, table, id),
    }
}

fn bodies(rows: &[super::db::Row]) -> Result<Vec<String>, StoreError> {
    rows.iter().map(|r| r.get(0)).collect()
}

impl Store {
    /// Adds a seek unless its owner has `max_each` open already or the lobby holds
    /// `max_all` (then `Ok(Some(true))`: theirs, `Ok(Some(false))`: everyone's).
    pub async fn add_seek(
        &self,
        row: SeekRow,
        max_each: usize,
        max_all: usize,
    ) -> Result<Option<bool>, StoreError> {
        self.with(move |db| {
            transaction(db, |db| {
                let count = |db: &mut dyn Db, sql: &str, p: &[super::db::Value]| {
                    db.query_opt(sql, p)?.map_or(Ok(0), |r| r.get::<i64>(0))
                };
                let mine = count(
                    db,
                    "SELECT COUNT(*) FROM seeks WHERE owner = $1",
                    &vals![row.owner.as_str()],
                )?;
                if mine >= limit_of(max_each) {
                    return Ok(Some(true));
                }
                if count(db, "SELECT COUNT(*) FROM seeks", &[])? >= limit_of(max_all) {
                    return Ok(Some(false));
                }
                db.execute(
                    "INSERT INTO seeks (id, owner, preset, rating, created_at, body)
                     VALUES ($1, $2, $3, $4, $5, $6)",
                    &vals![
                        row.id.as_str(),
                        row.owner.as_str(),
                        row.preset.as_deref(),
                        row.rating,
                        row.created_at,
                        row.body.as_str()
                    ],
                )?;
                Ok(None)
            })
        })
        .await
    }

    /// Removes the seeks older than `older_than` whose owners have no lobby page open
    /// on a live node; returns their ids.
    pub async fn expire_seeks(&self, older_than: i64, now: i64) -> Result<Vec<String>, StoreError> {
        self.with(move |db| {
            bodies(&db.query(
                &format!(
                    "DELETE FROM seeks WHERE created_at <= $1 AND owner NOT IN ({IN_LOBBY})
                     RETURNING id"
                ),
                &vals![older_than, now - crate::OUTAGE_AFTER_MS],
            )?)
        })
        .await
    }

    /// The open seeks (their bodies), oldest first.
    pub async fn seeks(&self) -> Result<Vec<String>, StoreError> {
        self.with(|db| bodies(&db.query("SELECT body FROM seeks ORDER BY created_at, id", &[])?))
            .await
    }

    /// Removes `owner`'s seek `id`.
    pub async fn cancel_seek(
        &self,
        id: String,
        owner: IdentityId,
    ) -> Result<Taken<()>, StoreError> {
        self.with(move |db| {
            if db.execute(
                "DELETE FROM seeks WHERE id = $1 AND owner = $2",
                &vals![id.as_str(), owner.as_str()],
            )? > 0
            {
                return Ok(Taken::Done(()));
            }
            refusal(db, "seeks", &id)
        })
        .await
    }

    /// Takes seek `id` for `taker` (not their own); its body. Only one taker gets it.
    pub async fn take_seek(
        &self,
        id: String,
        taker: IdentityId,
    ) -> Result<Taken<String>, StoreError> {
        self.with(move |db| {
            take(
                db,
                "DELETE FROM seeks WHERE id = $1 AND owner <> $2 RETURNING body",
                "seeks",
                &id,
                &taker,
            )
        })
        .await
    }

    /// Takes the seek of `preset` by someone other than `taker` closest in rating to
    /// `rating`, the oldest first among equals; its id and body.
    pub async fn take_pairing(
        &self,
        preset: String,
        taker: IdentityId,
        rating: f64,
    ) -> Result<Option<(String, String)>, StoreError> {
        self.with(move |db| {
            // Another node may take the one chosen first: choose again.
            for _ in 0..8 {
                let Some(r) = db.query_opt(
                    "SELECT id FROM seeks WHERE preset = $1 AND owner <> $2
                     ORDER BY ABS(COALESCE(rating, 1500.0) - $3), created_at, id LIMIT 1",
                    &vals![preset.as_str(), taker.as_str(), rating],
                )?
                else {
                    return Ok(None);
                };
                let id: String = r.get(0)?;
                if let Some(r) = db.query_opt(
                    "DELETE FROM seeks WHERE id = $1 RETURNING body",
                    &vals![id.as_str()],
                )? {
                    return Ok(Some((id, r.get(0)?)));
                }
            }
            Ok(None)
        })
        .await
    }

    /// Removes every seek of `owners`; their ids.
    pub async fn drop_seeks_of(&self, owners: Vec<IdentityId>) -> Result<Vec<String>, StoreError> {
        self.with(move |db| {
            let mut gone = Vec::new();
            for o in &owners {
                gone.extend(bodies(&db.query(
                    "DELETE FROM seeks WHERE owner = $1 RETURNING id",
                    &vals![o.as_str()],
                )?)?);
            }
            Ok(gone)
        })
        .await
    }

    /// Adds a challenge unless its owner has `max_each` open already (then `false`).
    pub async fn add_challenge(
        &self,
        row: ChallengeRow,
        max_each: usize,
    ) -> Result<bool, StoreError> {
        self.with(move |db| {
            transaction(db, |db| {
                let mine: i64 = db
                    .query_opt(
                        "SELECT COUNT(*) FROM challenges WHERE owner = $1",
                        &vals![row.owner.as_str()],
                    )?
                    .map_or(Ok(0), |r| r.get(0))?;
                if mine >= limit_of(max_each) {
                    return Ok(false);
                }
                db.execute(
                    "INSERT INTO challenges (id, owner, addressee, created_at, body)
                     VALUES ($1, $2, $3, $4, $5)",
                    &vals![
                        row.id.as_str(),
                        row.owner.as_str(),
                        row.addressee.as_ref().map(IdentityId::as_str),
                        row.created_at,
                        row.body.as_str()
                    ],
                )?;
                Ok(true)
            })
        })
        .await
    }

    /// Removes the challenges made at or before `older_than`; their bodies.
    pub async fn expire_challenges(&self, older_than: i64) -> Result<Vec<String>, StoreError> {
        self.with(move |db| {
            bodies(&db.query(
                "DELETE FROM challenges WHERE created_at <= $1 RETURNING body",
                &vals![older_than],
            )?)
        })
        .await
    }

    /// Challenge `id`'s body, if it is open.
    pub async fn challenge(&self, id: String) -> Result<Option<String>, StoreError> {
        self.with(move |db| {
            db.query_opt(
                "SELECT body FROM challenges WHERE id = $1",
                &vals![id.as_str()],
            )?
            .map(|r| r.get(0))
            .transpose()
        })
        .await
    }

    /// The open challenges made by or to `who`, oldest first (bodies).
    pub async fn challenges_of(&self, who: IdentityId) -> Result<Vec<String>, StoreError> {
        self.with(move |db| {
            bodies(&db.query(
                "SELECT body FROM challenges WHERE owner = $1 OR addressee = $1
                 ORDER BY created_at, id",
                &vals![who.as_str()],
            )?)
        })
        .await
    }

    /// Takes challenge `id` for `taker`: not their own, and theirs if it names someone.
    pub async fn take_challenge(
        &self,
        id: String,
        taker: IdentityId,
    ) -> Result<Taken<String>, StoreError> {
        self.with(move |db| {
            take(
                db,
                "DELETE FROM challenges
                 WHERE id = $1 AND owner <> $2 AND (addressee IS NULL OR addressee = $2)
                 RETURNING body",
                "challenges",
                &id,
                &taker,
            )
        })
        .await
    }

    /// Removes challenge `id` for its owner or its addressee: its body and whether the
    /// owner removed it.
    pub async fn drop_challenge(
        &self,
        id: String,
        who: IdentityId,
    ) -> Result<Taken<(String, bool)>, StoreError> {
        self.with(move |db| {
            if let Some(r) = db.query_opt(
                "DELETE FROM challenges WHERE id = $1 AND (owner = $2 OR addressee = $2)
                 RETURNING body, owner",
                &vals![id.as_str(), who.as_str()],
            )? {
                let owner: String = r.get(1)?;
                return Ok(Taken::Done((r.get(0)?, owner == who.as_str())));
            }
            refusal(db, "challenges", &id)
        })
        .await
    }

    /// Tells the other nodes `news` about the lobby (see [`super::db::Notice::Lobby`]).
    pub async fn tell_lobby(&self, news: String) -> Result<(), StoreError> {
        let node = std::sync::Arc::clone(&self.node);
        self.with(move |db| db.notify(&format!("lobby {node} {news}")))
            .await
    }
}
