//! Who has a page open where, across the nodes that share the database: each node keeps
//! its own rows (sockets per place and person) and notes its heartbeat; a node unheard
//! of for [`crate::OUTAGE_AFTER_MS`] is gone, and the first node to notice clears its
//! rows. A person who no longer has a page open at a place on any live node is *away*
//! from then on (a player's opponent may claim the game after a while).

use super::db::{Db, Row, transaction, vals};
use super::{Store, StoreError};
use crate::identity::IdentityId;

/// The pages open at one place (a game or the lobby) on every live node.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Presence {
    /// Open sockets per person (`None`: visitors without an identity).
    pub sockets: Vec<(Option<IdentityId>, i64)>,
    /// Since when each person who left (and has not come back) has been away.
    pub away: Vec<(IdentityId, i64)>,
}

impl Presence {
    /// Since when `who` has been away, if they left.
    #[must_use]
    pub fn away_since(&self, who: Option<&IdentityId>) -> Option<i64> {
        let who = who?;
        self.away
            .iter()
            .find(|(id, _)| id == who)
            .map(|&(_, since)| since)
    }

    /// Sockets open by people other than `players`.
    #[must_use]
    pub fn others(&self, players: [Option<&IdentityId>; 2]) -> usize {
        self.sockets
            .iter()
            .filter(|(who, _)| who.is_none() || !players.contains(&who.as_ref()))
            .map(|&(_, n)| usize::try_from(n).unwrap_or_default())
            .sum()
    }
}

/// A page opened or closed at a place on this node, or the count of them noted again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The game's id or `lobby`.
    pub place: String,
    /// Whose page (`None`: a visitor without an identity).
    pub who: Option<IdentityId>,
    /// What happened.
    pub step: Step,
}

/// What a [`Change`] notes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A page opened.
    Came,
    /// A page closed.
    Left,
    /// This node has this many of the person's pages open at the place (noted again
    /// after another node cleared this node's rows): a count, not an increment, so a
    /// page that was noted meanwhile is not counted twice. At least 1.
    Holds(i64),
}

/// Places named in one notice (each up to a dozen characters: well under PostgreSQL's
/// 8,000-byte payload).
const PLACES_PER_NOTICE: usize = 300;

/// A person who left a place because their node was found gone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Left {
    /// The game's id or `lobby`.
    pub place: String,
    /// Who.
    pub who: IdentityId,
}

fn key(who: Option<&IdentityId>) -> String {
    who.map(ToString::to_string).unwrap_or_default()
}

/// The oldest heartbeat of a node still alive at `now`.
fn live_after(now: i64) -> i64 {
    now - crate::OUTAGE_AFTER_MS
}

/// Whether `who` has a page open at `place` on a live node.
fn is_there(db: &mut dyn Db, place: &str, who: &str, now: i64) -> Result<bool, StoreError> {
    Ok(db
        .query_opt(
            "SELECT 1 FROM presence p JOIN nodes n ON n.name = p.node
             WHERE p.place = $1 AND p.identity = $2 AND n.seen_at >= $3 LIMIT 1",
            &vals![place, who, live_after(now)],
        )?
        .is_some())
}

fn note_node(db: &mut dyn Db, node: &str, now: i64) -> Result<(), StoreError> {
    db.execute(
        "INSERT INTO nodes (name, seen_at) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET seen_at = excluded.seen_at",
        &vals![node, now],
    )?;
    Ok(())
}

impl Store {
    /// A page of `who` opened at `place` on this node: they are there (and no longer
    /// away).
    pub async fn enter(
        &self,
        place: String,
        who: Option<IdentityId>,
        now: i64,
    ) -> Result<(), StoreError> {
        self.presence_changes(
            vec![Change {
                place,
                who,
                step: Step::Came,
            }],
            now,
        )
        .await
        .map(|_| ())
    }

    /// A page of `who` at `place` closed on this node. Returns whether they are now gone
    /// from it on every node (then away from `now`).
    pub async fn leave(
        &self,
        place: String,
        who: Option<IdentityId>,
        now: i64,
    ) -> Result<bool, StoreError> {
        self.presence_changes(
            vec![Change {
                place,
                who,
                step: Step::Left,
            }],
            now,
        )
        .await
        .map(|gone| gone.first().copied().unwrap_or_default())
    }

    /// Pages opened and closed on this node, in order, in one transaction with one
    /// notice per few hundred places (a node that many people leave at once, at the end
    /// of a tournament round or when another node dies and they all come here, makes a
    /// handful of commits, not thousands). For each change, whether its person is now
    /// gone from its place on every node (after a close; `false` otherwise).
    pub async fn presence_changes(
        &self,
        changes: Vec<Change>,
        now: i64,
    ) -> Result<Vec<bool>, StoreError> {
        let node = std::sync::Arc::clone(&self.node);
        self.with(move |db| {
            transaction(db, |db| {
                note_node(db, &node, now)?;
                let mut gone = Vec::with_capacity(changes.len());
                let mut places: Vec<&str> = Vec::new();
                for c in &changes {
                    let who = key(c.who.as_ref());
                    let place = c.place.as_str();
                    if !places.contains(&place) {
                        places.push(place);
                    }
                    let came = match c.step {
                        Step::Came => {
                            db.execute(
                                "INSERT INTO presence (place, identity, node, sockets)
                                 VALUES ($1, $2, $3, 1)
                                 ON CONFLICT (place, identity, node)
                                 DO UPDATE SET sockets = presence.sockets + 1",
                                &vals![place, who.as_str(), &*node],
                            )?;
                            true
                        }
                        Step::Holds(n) => {
                            db.execute(
                                "INSERT INTO presence (place, identity, node, sockets)
                                 VALUES ($1, $2, $3, $4)
                                 ON CONFLICT (place, identity, node)
                                 DO UPDATE SET sockets = excluded.sockets",
                                &vals![place, who.as_str(), &*node, n],
                            )?;
                            true
                        }
                        Step::Left => false,
                    };
                    if came {
                        db.execute(
                            "DELETE FROM away WHERE place = $1 AND identity = $2",
                            &vals![place, who.as_str()],
                        )?;
                        gone.push(false);
                        continue;
                    }
                    db.execute(
                        "UPDATE presence SET sockets = sockets - 1
                         WHERE place = $1 AND identity = $2 AND node = $3",
                        &vals![place, who.as_str(), &*node],
                    )?;
                    db.execute(
                        "DELETE FROM presence
                         WHERE place = $1 AND identity = $2 AND node = $3 AND sockets <= 0",
                        &vals![place, who.as_str(), &*node],
                    )?;
                    let left = !is_there(db, place, &who, now)?;
                    if left && c.who.is_some() {
                        db.execute(
                            "INSERT INTO away (place, identity, since) VALUES ($1, $2, $3)
                             ON CONFLICT (place, identity) DO UPDATE SET since = excluded.since",
                            &vals![place, who.as_str(), now],
                        )?;
                    }
                    gone.push(left);
                }
                for chunk in places.chunks(PLACES_PER_NOTICE) {
                    db.notify(&format!("presence {node} {}", chunk.join(" ")))?;
                }
                Ok(gone)
            })
        })
        .await
    }

    /// Who is at `place` on the live nodes, and who left it.
    pub async fn presence(&self, place: String, now: i64) -> Result<Presence, StoreError> {
        self.with(move |db| {
            let sockets = db
                .query(
                    "SELECT p.identity, CAST(SUM(p.sockets) AS BIGINT) FROM presence p
                     JOIN nodes n ON n.name = p.node
                     WHERE p.place = $1 AND n.seen_at >= $2
                     GROUP BY p.identity",
                    &vals![place.as_str(), live_after(now)],
                )?
                .iter()
                .map(|r: &Row| {
                    let who: String = r.get(0)?;
                    Ok((who.parse().ok(), r.get(1)?))
                })
                .collect::<Result<Vec<_>, StoreError>>()?;
            let away = db
                .query(
                    "SELECT identity, since FROM away WHERE place = $1",
                    &vals![place.as_str()],
                )?
                .iter()
                .filter_map(|r| {
                    let who: Result<String, _> = r.get(0);
                    let since: Result<i64, _> = r.get(1);
                    Some((who.ok()?.parse().ok()?, since.ok()?))
                })
                .collect();
            Ok(Presence { sockets, away })
        })
        .await
    }

    /// This node's heartbeat; also clears the rows of nodes unheard of for too long.
    /// Those nodes' people who are now nowhere at a place are away from the node's last
    /// heartbeat, or from `started` (this node's start) if that is later: a restart
    /// does not count against them. Returns them, and whether this node's own row was
    /// missing (its first heartbeat, or it was silent so long that another node cleared
    /// it: then its pages must be noted again, see [`Store::presence_changes`]).
    pub async fn heartbeat(&self, now: i64, started: i64) -> Result<(Vec<Left>, bool), StoreError> {
        let node = std::sync::Arc::clone(&self.node);
        self.with(move |db| {
            transaction(db, |db| {
                let missing = db.execute(
                    "UPDATE nodes SET seen_at = $2 WHERE name = $1",
                    &vals![&*node, now],
                )? == 0;
                if missing {
                    note_node(db, &node, now)?;
                }
                let dead: Vec<(String, i64)> = db
                    .query(
                        "DELETE FROM nodes WHERE seen_at < $1 RETURNING name, seen_at",
                        &vals![live_after(now)],
                    )?
                    .iter()
                    .map(|r| Ok((r.get(0)?, r.get(1)?)))
                    .collect::<Result<_, StoreError>>()?;
                let mut left = Vec::new();
                let mut places: Vec<String> = Vec::new();
                for (name, seen_at) in dead {
                    let rows = db.query(
                        "DELETE FROM presence WHERE node = $1 RETURNING place, identity",
                        &vals![name.as_str()],
                    )?;
                    let since = seen_at.max(started);
                    for r in rows {
                        let (place, who): (String, String) = (r.get(0)?, r.get(1)?);
                        if !places.contains(&place) {
                            places.push(place.clone());
                        }
                        let Ok(id) = who.parse::<IdentityId>() else {
                            continue;
                        };
                        if is_there(db, &place, &who, now)? {
                            continue;
                        }
                        db.execute(
                            "INSERT INTO away (place, identity, since) VALUES ($1, $2, $3)
                             ON CONFLICT (place, identity) DO NOTHING",
                            &vals![place.as_str(), who.as_str(), since],
                        )?;
                        left.push(Left { place, who: id });
                    }
                }
                for chunk in places.chunks(PLACES_PER_NOTICE) {
                    db.notify(&format!("presence {node} {}", chunk.join(" ")))?;
                }
                Ok((left, missing))
            })
        })
        .await
    }

    /// Forgets where this node's people were without marking them away (a graceful
    /// stop: they come back to another node, or to this one once it is back).
    pub async fn forget_presence(&self) -> Result<(), StoreError> {
        let node = std::sync::Arc::clone(&self.node);
        self.with(move |db| {
            transaction(db, |db| {
                let places = db.query(
                    "DELETE FROM presence WHERE node = $1 RETURNING place",
                    &vals![&*node],
                )?;
                db.execute("DELETE FROM nodes WHERE name = $1", &vals![&*node])?;
                let mut seen: Vec<String> = Vec::new();
                for r in places {
                    let place: String = r.get(0)?;
                    if !seen.contains(&place) {
                        seen.push(place);
                    }
                }
                for chunk in seen.chunks(PLACES_PER_NOTICE) {
                    db.notify(&format!("presence {node} {}", chunk.join(" ")))?;
                }
                Ok(())
            })
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn who(s: &str) -> IdentityId {
        format!("{s:a<16}").parse().unwrap()
    }

    #[tokio::test]
    async fn a_person_is_away_only_when_gone_from_every_node() {
        let db = std::env::temp_dir().join(format!("wuzi-presence-{}.sqlite3", std::process::id()));
        let _ = std::fs::remove_file(&db);
        let a = Store::open(&db).unwrap();
        let b = Store::open(&db).unwrap();
        let (p, g) = (who("p"), "game1".to_string());
        a.enter(g.clone(), Some(p.clone()), 1000).await.unwrap();
        b.enter(g.clone(), Some(p.clone()), 1000).await.unwrap();
        b.enter(g.clone(), None, 1000).await.unwrap();
        let seen = a.presence(g.clone(), 1000).await.unwrap();
        assert_eq!(seen.others([Some(&p), None]), 1, "the visitor");
        assert_eq!(seen.others([None, None]), 3);
        assert!(
            !a.leave(g.clone(), Some(p.clone()), 1500).await.unwrap(),
            "still on b"
        );
        assert_eq!(
            a.presence(g.clone(), 1500)
                .await
                .unwrap()
                .away_since(Some(&p)),
            None
        );
        // b dies (no heartbeat): a finds it gone and p away since b's last heartbeat.
        let later = 1000 + crate::OUTAGE_AFTER_MS + 1;
        let (left, _) = a.heartbeat(later, 0).await.unwrap();
        assert_eq!(
            left,
            vec![Left {
                place: g.clone(),
                who: p.clone()
            }]
        );
        let seen = a.presence(g.clone(), later).await.unwrap();
        assert_eq!(seen.away_since(Some(&p)), Some(1000));
        assert!(seen.sockets.is_empty(), "b's rows are gone: {seen:?}");
        // Were b only stalled, its next heartbeat says so: it must note its pages again.
        assert!(b.heartbeat(later + 1, 0).await.unwrap().1);
        // p comes back: no longer away.
        a.enter(g.clone(), Some(p.clone()), later).await.unwrap();
        assert_eq!(
            a.presence(g.clone(), later)
                .await
                .unwrap()
                .away_since(Some(&p)),
            None
        );
        let seen = a.presence(g.clone(), later).await.unwrap();
        assert!(seen.sockets.iter().any(|(w, _)| w.as_ref() == Some(&p)));
        // ... and leaves: away from then.
        assert!(
            a.leave(g.clone(), Some(p.clone()), later + 5)
                .await
                .unwrap()
        );
        assert_eq!(
            a.presence(g.clone(), later + 5)
                .await
                .unwrap()
                .away_since(Some(&p)),
            Some(later + 5)
        );
        let _ = std::fs::remove_file(&db);
    }

    #[tokio::test]
    async fn a_restart_does_not_count_against_the_people_of_the_dead_node() {
        let s = Store::open_in_memory().unwrap();
        let old = Store {
            node: "old".into(),
            ..s.clone()
        };
        old.enter("g".into(), Some(who("p")), 1000).await.unwrap();
        // This node started at 50,000, long after the old one's last heartbeat.
        let (left, missing) = s.heartbeat(60_000, 50_000).await.unwrap();
        assert!(missing, "its first heartbeat");
        assert!(!s.heartbeat(60_500, 50_000).await.unwrap().1);
        assert_eq!(left.len(), 1);
        let seen = s.presence("g".into(), 60_000).await.unwrap();
        assert_eq!(seen.away_since(Some(&who("p"))), Some(50_000));
        // A graceful stop forgets without marking anyone away.
        s.enter("g".into(), Some(who("q")), 60_000).await.unwrap();
        s.forget_presence().await.unwrap();
        let seen = s.presence("g".into(), 60_000).await.unwrap();
        assert!(seen.sockets.is_empty());
        assert_eq!(seen.away_since(Some(&who("q"))), None);
    }
}
