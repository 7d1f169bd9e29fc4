//! The lobby: open seeks, quick pairing and challenges between people, and the live
//! feed of them that every lobby socket follows.
//!
//! Seeks and challenges are kept in the store, so that every node on one database shows
//! the same lobby, and one seek or challenge is taken once. A seek disappears when its
//! owner accepts another, starts any game, or closes their last lobby page on every
//! node (a graceful restart keeps it; an unattended seek goes after [`SEEK_TTL_MS`]).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;
use wuzi_rules::opening::OpeningRule;
use wuzi_rules::{GameConfig, Rule, Size};

use crate::clock::ClockSetup;
use crate::error::Error;
use crate::identity::IdentityId;
use crate::live::{ForbiddenPolicy, Mode, Owners, Setup};
use crate::store::{Change, Step, Store, Taken};

/// Open seeks one person may have at once.
pub const MAX_SEEKS_EACH: usize = 3;
/// Open seeks in all (a bound on memory and on what the lobby page lists).
pub const MAX_SEEKS: usize = 2000;
/// Challenges one person may have open at once.
pub const MAX_CHALLENGES_EACH: usize = 10;
/// How long an unanswered challenge stays open (ms).
pub const CHALLENGE_TTL_MS: i64 = 30 * 60 * 1000;
/// How long a seek stays open without its owner in the lobby (ms): seeks made by
/// programs through the API, which have no lobby socket.
pub const SEEK_TTL_MS: i64 = 10 * 60 * 1000;

/// The colour the one who seeks or challenges wants.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    /// Black (the first seat under swap openings).
    Black,
    /// White (the second seat).
    White,
    /// Decided by a coin when the game starts.
    #[default]
    Random,
}

/// What a game between two people is to be: the part of a setup both agree to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Terms {
    /// The rule.
    #[serde(default)]
    pub rule: Rule,
    /// Board side (15 by default).
    #[serde(default = "standard_side")]
    pub size: u8,
    /// The opening rule.
    #[serde(default)]
    pub opening: OpeningRule,
    /// The clock (games between people need one).
    pub clock: ClockSetup,
    /// Rated.
    #[serde(default)]
    pub rated: bool,
    /// Takebacks may be asked for (the opponent grants or refuses each). Default: in
    /// casual games yes, in rated games no.
    #[serde(default)]
    pub takebacks: Option<bool>,
    /// The colour of the one who offers.
    #[serde(default)]
    pub color: ColorChoice,
}

fn standard_side() -> u8 {
    15
}

impl Terms {
    /// Checks the terms: a clock, a board that exists, and (rated) a setup that can be
    /// rated.
    pub fn validate(&self) -> Result<(), Error> {
        self.setup(None, None, false).map(|_| ())
    }

    /// The game's setup: `offerer` is the one who sought or challenged, `taker` the one
    /// who accepted (`coin`: the random colour's toss, true = the offerer takes Black).
    pub fn setup(
        &self,
        offerer: Option<IdentityId>,
        taker: Option<IdentityId>,
        coin: bool,
    ) -> Result<Setup, Error> {
        if self.clock == ClockSetup::None {
            return Err(Error::BadRequest(
                "clock: a game between people needs a clock".into(),
            ));
        }
        self.clock.validate().map_err(Error::BadRequest)?;
        let size = Size::from_u32(u32::from(self.size), u32::from(self.size))
            .map_err(|e| Error::BadRequest(format!("size: {e}")))?;
        let config = GameConfig::new(self.rule, size);
        config
            .validate()
            .map_err(|e| Error::BadRequest(e.to_string()))?;
        let offerer_first = match self.color {
            ColorChoice::Black => true,
            ColorChoice::White => false,
            ColorChoice::Random => coin,
        };
        let (first, second) = if offerer_first {
            (offerer, taker)
        } else {
            (taker, offerer)
        };
        let setup = Setup {
            mode: Mode::Online,
            config,
            opening: self.opening,
            computer: None,
            clock: self.clock,
            forbidden_policy: ForbiddenPolicy::default(),
            seed: None,
            owners: Owners { first, second },
            rated: self.rated,
            takebacks: self.takebacks.unwrap_or(!self.rated),
        };
        if setup.rated {
            crate::rating::pool_of(&setup)
                .map_err(|why| Error::BadRequest(format!("rated: {why}")))?;
        }
        Ok(setup)
    }
}

/// A person as the lobby shows them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Person {
    /// Their identity (their profile's id).
    pub id: IdentityId,
    /// Their name: an account's display name, or `null` for a guest.
    pub name: Option<String>,
    /// Their rating in the pool of the terms (1500, provisional, before their first rated
    /// game there; `null` for casual terms).
    pub rating: Option<f64>,
    /// That rating is provisional.
    pub provisional: bool,
}

/// An open seek.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Seek {
    /// Its id.
    pub id: String,
    /// Who seeks.
    pub by: Person,
    /// The game sought.
    pub terms: Terms,
    /// A quick-pairing seek (made by a "play now" button): `preset`'s name.
    pub preset: Option<String>,
    /// When (Unix ms).
    pub created_at: i64,
}

/// A challenge: a link anyone (or one named player) may accept.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Challenge {
    /// Its id (the secret of the link).
    pub id: String,
    /// Who challenges.
    pub by: Person,
    /// Whom (`null`: whoever opens the link).
    pub to: Option<Person>,
    /// The game offered.
    pub terms: Terms,
    /// When (Unix ms).
    pub created_at: i64,
}

/// What lobby sockets hear.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LobbyMsg {
    /// Every open seek (first message on a socket).
    Seeks {
        /// Open seeks, oldest first.
        seeks: Vec<Seek>,
    },
    /// A new seek.
    SeekAdded {
        /// It.
        seek: Seek,
    },
    /// A seek is gone (accepted, cancelled, its owner left).
    SeekRemoved {
        /// Its id.
        id: String,
    },
    /// A challenge for someone.
    Challenge {
        /// It.
        challenge: Challenge,
    },
    /// A challenge was declined or withdrawn.
    ChallengeGone {
        /// Its id.
        id: String,
        /// `declined`, `cancelled`, `expired` or `accepted`.
        why: String,
    },
    /// A game has started for these players: go to it.
    GameStarted {
        /// The game's id.
        game: String,
    },
}

/// A lobby message and whom it is for: everyone, or only the sockets of some people.
/// This is also what nodes tell each other (as JSON), so each passes the other's news to
/// its own sockets.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Routed {
    /// The message.
    pub msg: LobbyMsg,
    /// Only these people's sockets (none: everyone's).
    pub to: Option<Vec<IdentityId>>,
}

impl Routed {
    fn all(msg: LobbyMsg) -> Routed {
        Routed { msg, to: None }
    }

    /// Whether a socket of `who` (or of nobody) should get this message.
    #[must_use]
    pub fn is_for(&self, who: Option<&IdentityId>) -> bool {
        match &self.to {
            None => true,
            Some(to) => who.is_some_and(|w| to.contains(w)),
        }
    }
}

/// The lobby. Its seeks and challenges are in the store, shared by every node on the
/// database; each node passes the news to its own lobby sockets.
#[derive(Debug)]
pub struct Lobby {
    store: Store,
    tx: broadcast::Sender<Routed>,
    /// This node's lobby sockets, by person (for noting them again, [`Lobby::note_again`]).
    here: std::sync::Mutex<HashMap<IdentityId, i64>>,
    /// Held shared by a socket's join or leave across its count and its note in the
    /// store, and alone while they are all noted again: a page is either in that count
    /// and noted before it, or noted after it, never counted twice nor lost.
    noting: tokio::sync::RwLock<()>,
}

/// The place of the lobby among the places people are (see [`Store::enter`]).
pub const PLACE: &str = "lobby";

fn decode<T: serde::de::DeserializeOwned>(body: &str) -> Result<T, Error> {
    serde_json::from_str(body).map_err(|e| Error::Internal(format!("a stored lobby row: {e}")))
}

fn decode_all<T: serde::de::DeserializeOwned>(bodies: &[String]) -> Vec<T> {
    bodies
        .iter()
        .filter_map(|b| {
            decode(b)
                .inspect_err(|e| tracing::warn!(error = %e, "skipping a lobby row"))
                .ok()
        })
        .collect()
}

fn encode<T: Serialize>(v: &T) -> Result<String, Error> {
    serde_json::to_string(v).map_err(|e| Error::Internal(format!("a lobby row: {e}")))
}

impl Lobby {
    /// The lobby of the store.
    #[must_use]
    pub fn new(store: Store) -> Lobby {
        Lobby {
            store,
            tx: broadcast::Sender::new(256),
            here: std::sync::Mutex::default(),
            noting: tokio::sync::RwLock::default(),
        }
    }

    /// Adds `n` to `who`'s sockets here.
    fn count(&self, who: &IdentityId, n: i64) {
        let mut here = self
            .here
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let left = {
            let c = here.entry(who.clone()).or_default();
            *c += n;
            *c
        };
        if left <= 0 {
            here.remove(who);
        }
    }

    /// Notes again in the store every lobby page open on this node: another node found
    /// this one silent for too long and cleared its rows (see [`crate::Hub`]'s
    /// heartbeat). Without it, a person in the lobby here would be taken for gone: their
    /// seeks would expire, or go when they close a second page.
    pub async fn note_again(&self, now: i64) {
        let _alone = self.noting.write().await;
        let changes: Vec<Change> = self
            .here
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .map(|(who, &n)| Change {
                place: PLACE.into(),
                who: Some(who.clone()),
                step: Step::Holds(n),
            })
            .collect();
        if changes.is_empty() {
            return;
        }
        if let Err(e) = self.store.presence_changes(changes, now).await {
            tracing::warn!(error = %e, "cannot note the lobby's pages again");
        }
    }

    /// Passes `news` to this node's sockets and tells the other nodes.
    async fn publish(&self, news: Routed) {
        if self.store.is_postgres() {
            match serde_json::to_string(&news) {
                Ok(json) => {
                    if let Err(e) = self.store.tell_lobby(json).await {
                        tracing::warn!(error = %e, "cannot tell the other nodes of lobby news");
                    }
                }
                Err(e) => tracing::warn!(error = %e, "cannot encode lobby news"),
            }
        }
        self.relay(news);
    }

    /// Passes news (this node's or another's) to this node's lobby sockets.
    pub fn relay(&self, news: Routed) {
        // No subscribers is fine.
        let _ = self.tx.send(news);
    }

    async fn removed(&self, ids: Vec<String>) {
        for id in ids {
            self.publish(Routed::all(LobbyMsg::SeekRemoved { id }))
                .await;
        }
    }

    /// Follows the lobby: the open seeks now, and a receiver of what follows. The
    /// socket's owner is in the lobby until [`Lobby::leave`].
    pub async fn join(
        &self,
        who: Option<&IdentityId>,
        now: i64,
    ) -> Result<(Vec<Seek>, broadcast::Receiver<Routed>), Error> {
        let rx = self.tx.subscribe();
        if let Some(w) = who {
            let _order = self.noting.read().await;
            self.count(w, 1);
            if let Err(e) = self.store.enter(PLACE.into(), Some(w.clone()), now).await {
                self.count(w, -1);
                return Err(e.into());
            }
        }
        Ok((self.seeks(now).await?, rx))
    }

    /// A lobby socket closed: when it was its owner's last on any node, their seeks go.
    /// At a graceful stop (`stopping`) they stay, for the owner to find on another
    /// node or after the restart.
    pub async fn leave(&self, who: Option<&IdentityId>, now: i64, stopping: bool) {
        let Some(w) = who else { return };
        let order = self.noting.read().await;
        self.count(w, -1);
        if stopping {
            return;
        }
        let gone = self.store.leave(PLACE.into(), Some(w.clone()), now).await;
        drop(order);
        match gone {
            Ok(true) => self.gone(w).await,
            Ok(false) => {}
            Err(e) => tracing::warn!(error = %e, "cannot note that someone left the lobby"),
        }
    }

    /// `who` has no lobby page open anywhere any more: their seeks go.
    pub async fn gone(&self, who: &IdentityId) {
        match self.store.drop_seeks_of(vec![who.clone()]).await {
            Ok(ids) => self.removed(ids).await,
            Err(e) => tracing::warn!(error = %e, "cannot drop the seeks of someone who left"),
        }
    }

    /// The open seeks.
    pub async fn seeks(&self, now: i64) -> Result<Vec<Seek>, Error> {
        self.expire(now).await?;
        Ok(decode_all(&self.store.seeks().await?))
    }

    /// Drops seeks of absent owners and challenges past their time.
    async fn expire(&self, now: i64) -> Result<(), Error> {
        let gone = self.store.expire_seeks(now - SEEK_TTL_MS, now).await?;
        self.removed(gone).await;
        let expired = self.store.expire_challenges(now - CHALLENGE_TTL_MS).await?;
        for c in decode_all::<Challenge>(&expired) {
            self.challenge_gone(&c, "expired").await;
        }
        Ok(())
    }

    /// Opens a seek.
    pub async fn add_seek(&self, seek: Seek, now: i64) -> Result<Seek, Error> {
        self.expire(now).await?;
        let row = crate::store::SeekRow {
            id: seek.id.clone(),
            owner: seek.by.id.clone(),
            preset: seek.preset.clone(),
            rating: seek.by.rating,
            created_at: seek.created_at,
            body: encode(&seek)?,
        };
        match self.store.add_seek(row, MAX_SEEKS_EACH, MAX_SEEKS).await? {
            Some(true) => {
                return Err(Error::TooManyRequests(format!(
                    "you have {MAX_SEEKS_EACH} open seeks; cancel one first"
                )));
            }
            Some(false) => return Err(Error::Busy),
            None => {}
        }
        self.publish(Routed::all(LobbyMsg::SeekAdded { seek: seek.clone() }))
            .await;
        Ok(seek)
    }

    /// Cancels `who`'s seek `id`.
    pub async fn cancel_seek(&self, id: &str, who: &IdentityId) -> Result<(), Error> {
        match self.store.cancel_seek(id.into(), who.clone()).await? {
            Taken::Done(()) => {}
            Taken::Missing => return Err(no_seek()),
            Taken::Refused { .. } => {
                return Err(Error::NotYours("this seek is someone else's".into()));
            }
        }
        self.removed(vec![id.to_string()]).await;
        Ok(())
    }

    /// Takes seek `id` for `taker` (it leaves the lobby at once, on every node, so two
    /// people cannot both take it). The caller starts the game, then calls
    /// [`Lobby::started`].
    pub async fn take_seek(&self, id: &str, taker: &IdentityId) -> Result<Seek, Error> {
        let seek: Seek = match self.store.take_seek(id.into(), taker.clone()).await? {
            Taken::Done(body) => decode(&body)?,
            Taken::Missing => return Err(no_seek()),
            Taken::Refused { .. } => {
                return Err(Error::Conflict("this is your own seek".into()));
            }
        };
        self.removed(vec![seek.id.clone()]).await;
        Ok(seek)
    }

    /// The quick-pairing seek of `preset` by someone else closest in rating to `rating`,
    /// the oldest first among equals (taken, as [`Lobby::take_seek`]).
    pub async fn take_pairing(
        &self,
        preset: &str,
        taker: &IdentityId,
        rating: f64,
    ) -> Result<Option<Seek>, Error> {
        let Some((id, body)) = self
            .store
            .take_pairing(preset.into(), taker.clone(), rating)
            .await?
        else {
            return Ok(None);
        };
        self.removed(vec![id]).await;
        Ok(Some(decode(&body)?))
    }

    /// A game started for `players`: their other seeks go, and their lobby pages are
    /// told where to go.
    pub async fn started(&self, game: &str, players: &[IdentityId]) {
        match self.store.drop_seeks_of(players.to_vec()).await {
            Ok(ids) => self.removed(ids).await,
            Err(e) => tracing::warn!(error = %e, "cannot drop the seeks of players"),
        }
        self.publish(Routed {
            msg: LobbyMsg::GameStarted {
                game: game.to_string(),
            },
            to: Some(players.to_vec()),
        })
        .await;
    }

    /// `who` started a game elsewhere (against the computer): their seeks go.
    pub async fn busy(&self, who: &IdentityId) {
        self.gone(who).await;
    }

    /// Opens a challenge; a named opponent hears of it at once on any lobby page.
    pub async fn add_challenge(&self, c: Challenge, now: i64) -> Result<Challenge, Error> {
        self.expire(now).await?;
        let row = crate::store::ChallengeRow {
            id: c.id.clone(),
            owner: c.by.id.clone(),
            addressee: c.to.as_ref().map(|t| t.id.clone()),
            created_at: c.created_at,
            body: encode(&c)?,
        };
        if !self.store.add_challenge(row, MAX_CHALLENGES_EACH).await? {
            return Err(Error::TooManyRequests(format!(
                "you have {MAX_CHALLENGES_EACH} open challenges; cancel one first"
            )));
        }
        if let Some(to) = &c.to {
            self.publish(Routed {
                msg: LobbyMsg::Challenge {
                    challenge: c.clone(),
                },
                to: Some(vec![to.id.clone()]),
            })
            .await;
        }
        Ok(c)
    }

    /// A challenge, for whoever has its link.
    pub async fn challenge(&self, id: &str, now: i64) -> Result<Challenge, Error> {
        self.expire(now).await?;
        match self.store.challenge(id.into()).await? {
            Some(body) => decode(&body),
            None => Err(no_challenge()),
        }
    }

    /// Challenges made by or to `who` and still open, oldest first.
    pub async fn challenges_for(
        &self,
        who: &IdentityId,
        now: i64,
    ) -> Result<Vec<Challenge>, Error> {
        self.expire(now).await?;
        Ok(decode_all(&self.store.challenges_of(who.clone()).await?))
    }

    /// Takes challenge `id` for `taker` (removed at once, on every node). A named
    /// challenge is for its addressee only; nobody accepts their own.
    pub async fn take_challenge(&self, id: &str, taker: &IdentityId) -> Result<Challenge, Error> {
        match self.store.take_challenge(id.into(), taker.clone()).await? {
            Taken::Done(body) => decode(&body),
            Taken::Missing => Err(no_challenge()),
            Taken::Refused { owner, .. } if owner == taker.as_str() => {
                Err(Error::Conflict("this is your own challenge".into()))
            }
            Taken::Refused { .. } => {
                Err(Error::NotYours("this challenge is for someone else".into()))
            }
        }
    }

    /// Declines (the addressee) or withdraws (the challenger) challenge `id`.
    pub async fn drop_challenge(&self, id: &str, who: &IdentityId) -> Result<(), Error> {
        let (body, by_owner) = match self.store.drop_challenge(id.into(), who.clone()).await? {
            Taken::Done(done) => done,
            Taken::Missing => return Err(no_challenge()),
            Taken::Refused { .. } => {
                return Err(Error::NotYours(
                    "only the challenger or the one challenged may do this".into(),
                ));
            }
        };
        let c: Challenge = decode(&body)?;
        let why = if by_owner { "cancelled" } else { "declined" };
        self.challenge_gone(&c, why).await;
        Ok(())
    }

    /// Tells a challenge's two people it is gone (`why`: accepted, ...).
    pub async fn challenge_gone(&self, c: &Challenge, why: &str) {
        let mut to = vec![c.by.id.clone()];
        to.extend(c.to.as_ref().map(|t| t.id.clone()));
        self.publish(Routed {
            msg: LobbyMsg::ChallengeGone {
                id: c.id.clone(),
                why: why.to_string(),
            },
            to: Some(to),
        })
        .await;
    }
}

fn no_seek() -> Error {
    Error::NotFound("no such seek (it may have been taken)".into())
}

fn no_challenge() -> Error {
    Error::NotFound("no such challenge (it may have been answered)".into())
}

/// The quick-pairing presets: name, terms.
#[must_use]
pub fn presets() -> Vec<(&'static str, Terms)> {
    let side = |base: f64, inc: f64| ClockSetup::Side {
        initial_seconds: base.try_into().expect("a valid clock"),
        increment_seconds: inc.try_into().expect("a valid clock"),
    };
    let terms = |rule, opening, clock| Terms {
        rule,
        size: 15,
        opening,
        clock,
        rated: true,
        takebacks: None,
        color: ColorChoice::Random,
    };
    vec![
        (
            "freestyle-3+2",
            terms(Rule::Freestyle, OpeningRule::Free, side(180.0, 2.0)),
        ),
        (
            "freestyle-10+5",
            terms(Rule::Freestyle, OpeningRule::Free, side(600.0, 5.0)),
        ),
        (
            "standard-swap2-5+3",
            terms(Rule::Standard, OpeningRule::Swap2, side(300.0, 3.0)),
        ),
        (
            "renju-swap2-5+5",
            terms(Rule::Renju, OpeningRule::Swap2, side(300.0, 5.0)),
        ),
        (
            "renju-swap2-15+10",
            terms(Rule::Renju, OpeningRule::Swap2, side(900.0, 10.0)),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn who(s: &str) -> IdentityId {
        format!("{s:a<16}").parse().unwrap()
    }

    fn seek(id: &str, by: &str, preset: Option<&str>, rating: f64, at: i64) -> Seek {
        Seek {
            id: id.into(),
            by: Person {
                id: who(by),
                name: None,
                rating: Some(rating),
                provisional: false,
            },
            terms: presets()[0].1.clone(),
            preset: preset.map(Into::into),
            created_at: at,
        }
    }

    fn lobby() -> Lobby {
        Lobby::new(Store::open_in_memory().unwrap())
    }

    #[tokio::test]
    async fn seeks_go_with_their_owner_and_are_taken_once() {
        let lobby = lobby();
        let (none, mut rx) = lobby.join(Some(&who("b")), 0).await.unwrap();
        assert!(none.is_empty());
        lobby.join(Some(&who("a")), 0).await.unwrap();
        lobby
            .add_seek(seek("s1", "a", None, 1500.0, 0), 0)
            .await
            .unwrap();
        lobby
            .add_seek(seek("s2", "a", None, 1500.0, 0), 0)
            .await
            .unwrap();
        assert!(matches!(
            rx.try_recv().map(|r| r.msg),
            Ok(LobbyMsg::SeekAdded { .. })
        ));
        assert!(matches!(
            lobby.take_seek("s1", &who("a")).await,
            Err(Error::Conflict(_))
        ));
        assert!(matches!(
            lobby.cancel_seek("s1", &who("b")).await,
            Err(Error::NotYours(_))
        ));
        let taken = lobby.take_seek("s1", &who("b")).await.unwrap();
        assert_eq!(taken, seek("s1", "a", None, 1500.0, 0), "as it was made");
        assert!(matches!(
            lobby.take_seek("s1", &who("c")).await,
            Err(Error::NotFound(_))
        ));
        // a leaves the lobby: the other seek goes too.
        lobby.leave(Some(&who("a")), 0, false).await;
        assert!(lobby.seeks(0).await.unwrap().is_empty());
        // A seek by someone never present lasts its time.
        lobby
            .add_seek(seek("s3", "c", None, 1500.0, 0), 0)
            .await
            .unwrap();
        assert_eq!(lobby.seeks(SEEK_TTL_MS - 1).await.unwrap().len(), 1);
        assert!(lobby.seeks(SEEK_TTL_MS).await.unwrap().is_empty());
        for i in 0..MAX_SEEKS_EACH {
            lobby
                .add_seek(seek(&format!("d{i}"), "d", None, 1500.0, 0), 0)
                .await
                .unwrap();
        }
        assert!(matches!(
            lobby.add_seek(seek("dx", "d", None, 1500.0, 0), 0).await,
            Err(Error::TooManyRequests(_))
        ));
        // A graceful stop keeps the seeks of those still in the lobby.
        lobby.join(Some(&who("e")), 0).await.unwrap();
        lobby
            .add_seek(seek("e1", "e", None, 1500.0, 0), 0)
            .await
            .unwrap();
        lobby.leave(Some(&who("e")), 0, true).await;
        assert!(lobby.seeks(0).await.unwrap().iter().any(|k| k.id == "e1"));
    }

    #[tokio::test]
    async fn one_seek_is_taken_by_one_of_two_nodes() {
        let db = std::env::temp_dir().join(format!("wuzi-lobby-{}.sqlite3", std::process::id()));
        let _ = std::fs::remove_file(&db);
        let (one, two) = (
            Lobby::new(Store::open(&db).unwrap()),
            Lobby::new(Store::open(&db).unwrap()),
        );
        one.add_seek(seek("s1", "a", None, 1500.0, 0), 0)
            .await
            .unwrap();
        // The other node shows it, and past its time without its owner keeps it while
        // the owner has a lobby page open on the first.
        one.join(Some(&who("a")), SEEK_TTL_MS - 1000).await.unwrap();
        assert_eq!(two.seeks(SEEK_TTL_MS).await.unwrap().len(), 1);
        one.leave(Some(&who("a")), SEEK_TTL_MS, true).await;
        assert_eq!(
            two.seeks(SEEK_TTL_MS + crate::OUTAGE_AFTER_MS)
                .await
                .unwrap()
                .len(),
            0,
            "the owner's node is gone"
        );
        one.join(Some(&who("a")), 0).await.unwrap();
        one.add_seek(seek("s1", "a", None, 1500.0, 0), 0)
            .await
            .unwrap();
        let (b, c) = (who("b"), who("c"));
        let (x, y) = tokio::join!(two.take_seek("s1", &b), one.take_seek("s1", &c));
        assert!(x.is_ok() != y.is_ok(), "taken once: {x:?} {y:?}");
        let _ = std::fs::remove_file(&db);
    }

    #[tokio::test]
    async fn quick_pairing_takes_the_closest_rating_of_the_same_preset() {
        let lobby = lobby();
        for (id, by, r) in [
            ("far", "a", 2100.0),
            ("near", "b", 1550.0),
            ("mine", "c", 1500.0),
        ] {
            lobby.join(Some(&who(by)), 0).await.unwrap();
            lobby
                .add_seek(seek(id, by, Some("p"), r, 0), 0)
                .await
                .unwrap();
        }
        lobby.join(Some(&who("x")), 0).await.unwrap();
        lobby
            .add_seek(seek("other", "x", Some("q"), 1500.0, 0), 0)
            .await
            .unwrap();
        let got = lobby.take_pairing("p", &who("c"), 1500.0).await.unwrap();
        assert_eq!(got.unwrap().id, "near");
        let got = lobby.take_pairing("p", &who("c"), 1500.0).await.unwrap();
        assert_eq!(got.unwrap().id, "far");
        assert!(
            lobby
                .take_pairing("p", &who("c"), 1500.0)
                .await
                .unwrap()
                .is_none(),
            "never one's own"
        );
    }

    #[tokio::test]
    async fn challenges_are_for_their_addressee_and_private_messages_stay_private() {
        let lobby = lobby();
        let person = |s: &str| Person {
            id: who(s),
            name: Some(format!("{s} \"quoted\"")),
            rating: None,
            provisional: false,
        };
        let c = Challenge {
            id: "c1".into(),
            by: person("a"),
            to: Some(person("b")),
            terms: presets()[0].1.clone(),
            created_at: 0,
        };
        let (_, mut rx) = lobby.join(None, 0).await.unwrap();
        lobby.add_challenge(c.clone(), 0).await.unwrap();
        let msg = rx.try_recv().unwrap();
        assert!(msg.is_for(Some(&who("b"))));
        assert!(!msg.is_for(Some(&who("z"))) && !msg.is_for(None));
        assert_eq!(lobby.challenge("c1", 0).await.unwrap(), c, "as made");
        assert!(matches!(
            lobby.take_challenge("c1", &who("z")).await,
            Err(Error::NotYours(_))
        ));
        assert!(matches!(
            lobby.take_challenge("c1", &who("a")).await,
            Err(Error::Conflict(_))
        ));
        assert!(matches!(
            lobby.drop_challenge("c1", &who("z")).await,
            Err(Error::NotYours(_))
        ));
        assert_eq!(lobby.challenges_for(&who("b"), 0).await.unwrap().len(), 1);
        lobby.drop_challenge("c1", &who("b")).await.unwrap();
        assert!(lobby.challenges_for(&who("b"), 0).await.unwrap().is_empty());
        let gone = rx.try_recv().unwrap();
        assert!(gone.is_for(Some(&who("a"))) && gone.is_for(Some(&who("b"))));
        assert!(matches!(gone.msg, LobbyMsg::ChallengeGone { ref why, .. } if why == "declined"));
        // Past its time, a challenge is gone.
        let mut c2 = c.clone();
        c2.id = "c2".into();
        lobby.add_challenge(c2, 0).await.unwrap();
        assert!(lobby.challenge("c2", CHALLENGE_TTL_MS - 1).await.is_ok());
        assert!(matches!(
            lobby.challenge("c2", CHALLENGE_TTL_MS).await,
            Err(Error::NotFound(_))
        ));
    }

    #[test]
    fn terms_need_a_clock_and_give_the_colours_asked_for() {
        let mut t = presets()[0].1.clone();
        let (a, b) = (who("a"), who("b"));
        let s = t.setup(Some(a.clone()), Some(b.clone()), false).unwrap();
        assert_eq!(s.mode, Mode::Online);
        assert_eq!(s.owners.second, Some(a.clone()), "the coin gave Black to b");
        t.color = ColorChoice::Black;
        let s = t.setup(Some(a.clone()), Some(b.clone()), false).unwrap();
        assert_eq!(s.owners.first, Some(a.clone()));
        t.clock = ClockSetup::None;
        assert!(t.validate().is_err());
        let mut t = presets()[0].1.clone();
        t.size = 13;
        assert!(t.validate().is_err(), "rated needs 15 to 20");
        t.rated = false;
        assert!(t.validate().is_ok());
        t.size = 40;
        assert!(t.validate().is_err());
    }
}
