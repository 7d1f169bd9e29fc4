//! The lobby: open seeks, quick pairing and challenges between people, and the live
//! feed of them that every lobby socket follows.
//!
//! Seeks and challenges live in memory (a restart forgets them, as lichess forgets open
//! seeks); the games they start are stored like any other. A seek disappears when its
//! owner accepts another, starts any game, or closes their last lobby page.

use std::collections::HashMap;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;
use wuzi_rules::opening::OpeningRule;
use wuzi_rules::{GameConfig, Rule, Size};

use crate::clock::ClockSetup;
use crate::error::Error;
use crate::identity::IdentityId;
use crate::live::{ForbiddenPolicy, Mode, Owners, Setup};

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
#[derive(Clone, Debug, PartialEq, Serialize)]
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
#[derive(Clone, Debug, PartialEq, Serialize)]
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
#[derive(Clone, Debug, PartialEq, Serialize)]
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

/// What lobby sockets hear. Messages with `for` go to those identities only.
#[derive(Clone, Debug, Serialize)]
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
        /// Whom it is for.
        #[serde(skip)]
        to: IdentityId,
    },
    /// A challenge was declined or withdrawn.
    ChallengeGone {
        /// Its id.
        id: String,
        /// `declined`, `cancelled`, `expired` or `accepted`.
        why: &'static str,
        /// Who is told.
        #[serde(skip)]
        to: Vec<IdentityId>,
    },
    /// A game has started for these players: go to it.
    GameStarted {
        /// The game's id.
        game: String,
        /// Who plays it.
        #[serde(skip)]
        players: Vec<IdentityId>,
    },
}

impl LobbyMsg {
    /// Whether a socket of `who` (or of nobody) should get this message.
    #[must_use]
    pub fn is_for(&self, who: Option<&IdentityId>) -> bool {
        match self {
            LobbyMsg::Challenge { to, .. } => Some(to) == who,
            LobbyMsg::ChallengeGone { to, .. } => who.is_some_and(|w| to.contains(w)),
            LobbyMsg::GameStarted { players, .. } => who.is_some_and(|w| players.contains(w)),
            _ => true,
        }
    }
}

#[derive(Debug, Default)]
struct State {
    seeks: Vec<Seek>,
    challenges: HashMap<String, Challenge>,
    /// Open lobby sockets per identity.
    present: HashMap<IdentityId, usize>,
}

/// The lobby.
#[derive(Debug)]
pub struct Lobby {
    state: Mutex<State>,
    tx: broadcast::Sender<LobbyMsg>,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby {
            state: Mutex::default(),
            tx: broadcast::Sender::new(256),
        }
    }
}

impl Lobby {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn send(&self, msg: LobbyMsg) {
        // No subscribers is fine.
        let _ = self.tx.send(msg);
    }

    /// Follows the lobby: the open seeks now, and a receiver of what follows. The
    /// socket's owner counts as present until [`Lobby::leave`].
    pub fn join(&self, who: Option<&IdentityId>) -> (Vec<Seek>, broadcast::Receiver<LobbyMsg>) {
        let mut s = self.state();
        if let Some(w) = who {
            *s.present.entry(w.clone()).or_default() += 1;
        }
        (s.seeks.clone(), self.tx.subscribe())
    }

    /// A lobby socket closed: when it was its owner's last, their seeks go.
    pub fn leave(&self, who: Option<&IdentityId>) {
        let Some(w) = who else { return };
        let gone = {
            let mut s = self.state();
            let n = s.present.entry(w.clone()).or_default();
            *n = n.saturating_sub(1);
            if *n > 0 {
                return;
            }
            s.present.remove(w);
            take_seeks_of(&mut s, std::slice::from_ref(w))
        };
        for id in gone {
            self.send(LobbyMsg::SeekRemoved { id });
        }
    }

    /// The open seeks.
    #[must_use]
    pub fn seeks(&self, now: i64) -> Vec<Seek> {
        self.expire(now);
        self.state().seeks.clone()
    }

    /// Drops seeks of absent owners and challenges past their time.
    fn expire(&self, now: i64) {
        let (seeks, challenges) = {
            let mut s = self.state();
            let present = s.present.clone();
            let mut gone = Vec::new();
            s.seeks.retain(|k| {
                let keep = present.contains_key(&k.by.id) || now - k.created_at < SEEK_TTL_MS;
                if !keep {
                    gone.push(k.id.clone());
                }
                keep
            });
            let mut expired = Vec::new();
            s.challenges.retain(|_, c| {
                let keep = now - c.created_at < CHALLENGE_TTL_MS;
                if !keep {
                    expired.push(c.clone());
                }
                keep
            });
            (gone, expired)
        };
        for id in seeks {
            self.send(LobbyMsg::SeekRemoved { id });
        }
        for c in challenges {
            self.send(LobbyMsg::ChallengeGone {
                id: c.id.clone(),
                why: "expired",
                to: involved(&c),
            });
        }
    }

    /// Opens a seek.
    pub fn add_seek(&self, seek: Seek, now: i64) -> Result<Seek, Error> {
        self.expire(now);
        {
            let mut s = self.state();
            if s.seeks.iter().filter(|k| k.by.id == seek.by.id).count() >= MAX_SEEKS_EACH {
                return Err(Error::TooManyRequests(format!(
                    "you have {MAX_SEEKS_EACH} open seeks; cancel one first"
                )));
            }
            if s.seeks.len() >= MAX_SEEKS {
                return Err(Error::Busy);
            }
            s.seeks.push(seek.clone());
        }
        self.send(LobbyMsg::SeekAdded { seek: seek.clone() });
        Ok(seek)
    }

    /// Cancels `who`'s seek `id`.
    pub fn cancel_seek(&self, id: &str, who: &IdentityId) -> Result<(), Error> {
        {
            let mut s = self.state();
            let at =
                s.seeks.iter().position(|k| k.id == id).ok_or_else(|| {
                    Error::NotFound("no such seek (it may have been taken)".into())
                })?;
            if &s.seeks[at].by.id != who {
                return Err(Error::NotYours("this seek is someone else's".into()));
            }
            s.seeks.remove(at);
        }
        self.send(LobbyMsg::SeekRemoved { id: id.to_string() });
        Ok(())
    }

    /// Takes seek `id` for `taker` (it leaves the lobby at once, so two people cannot
    /// both take it). The caller starts the game, then calls [`Lobby::started`].
    pub fn take_seek(&self, id: &str, taker: &IdentityId) -> Result<Seek, Error> {
        let seek = {
            let mut s = self.state();
            let at =
                s.seeks.iter().position(|k| k.id == id).ok_or_else(|| {
                    Error::NotFound("no such seek (it may have been taken)".into())
                })?;
            if &s.seeks[at].by.id == taker {
                return Err(Error::Conflict("this is your own seek".into()));
            }
            s.seeks.remove(at)
        };
        self.send(LobbyMsg::SeekRemoved {
            id: seek.id.clone(),
        });
        Ok(seek)
    }

    /// The oldest quick-pairing seek of `preset` by someone else, closest in rating to
    /// `rating` first (taken, as [`Lobby::take_seek`]).
    pub fn take_pairing(&self, preset: &str, taker: &IdentityId, rating: f64) -> Option<Seek> {
        let seek = {
            let mut s = self.state();
            let at = s
                .seeks
                .iter()
                .enumerate()
                .filter(|(_, k)| k.preset.as_deref() == Some(preset) && &k.by.id != taker)
                .min_by(|(_, a), (_, b)| {
                    let d = |k: &Seek| (k.by.rating.unwrap_or(1500.0) - rating).abs();
                    d(a).total_cmp(&d(b)).then(a.created_at.cmp(&b.created_at))
                })
                .map(|(i, _)| i)?;
            s.seeks.remove(at)
        };
        self.send(LobbyMsg::SeekRemoved {
            id: seek.id.clone(),
        });
        Some(seek)
    }

    /// A game started for `players`: their other seeks go, and their lobby pages are
    /// told where to go.
    pub fn started(&self, game: &str, players: &[IdentityId]) {
        let gone = take_seeks_of(&mut self.state(), players);
        for id in gone {
            self.send(LobbyMsg::SeekRemoved { id });
        }
        self.send(LobbyMsg::GameStarted {
            game: game.to_string(),
            players: players.to_vec(),
        });
    }

    /// `who` started a game elsewhere (against the computer): their seeks go.
    pub fn busy(&self, who: &IdentityId) {
        let gone = take_seeks_of(&mut self.state(), std::slice::from_ref(who));
        for id in gone {
            self.send(LobbyMsg::SeekRemoved { id });
        }
    }

    /// Opens a challenge; a named opponent hears of it at once on any lobby page.
    pub fn add_challenge(&self, c: Challenge, now: i64) -> Result<Challenge, Error> {
        self.expire(now);
        {
            let mut s = self.state();
            let mine = s.challenges.values().filter(|x| x.by.id == c.by.id).count();
            if mine >= MAX_CHALLENGES_EACH {
                return Err(Error::TooManyRequests(format!(
                    "you have {MAX_CHALLENGES_EACH} open challenges; cancel one first"
                )));
            }
            s.challenges.insert(c.id.clone(), c.clone());
        }
        if let Some(to) = &c.to {
            self.send(LobbyMsg::Challenge {
                challenge: c.clone(),
                to: to.id.clone(),
            });
        }
        Ok(c)
    }

    /// A challenge, for whoever has its link.
    pub fn challenge(&self, id: &str, now: i64) -> Result<Challenge, Error> {
        self.expire(now);
        self.state()
            .challenges
            .get(id)
            .cloned()
            .ok_or_else(|| Error::NotFound("no such challenge (it may have been answered)".into()))
    }

    /// Challenges made to `who` and still open.
    #[must_use]
    pub fn challenges_for(&self, who: &IdentityId, now: i64) -> Vec<Challenge> {
        self.expire(now);
        let mut v: Vec<Challenge> = self
            .state()
            .challenges
            .values()
            .filter(|c| c.to.as_ref().is_some_and(|t| &t.id == who) || &c.by.id == who)
            .cloned()
            .collect();
        v.sort_by_key(|c| c.created_at);
        v
    }

    /// Takes challenge `id` for `taker` (removed at once). A named challenge is for its
    /// addressee only; nobody accepts their own.
    pub fn take_challenge(&self, id: &str, taker: &IdentityId) -> Result<Challenge, Error> {
        let c = {
            let mut s = self.state();
            let c = s.challenges.get(id).ok_or_else(|| {
                Error::NotFound("no such challenge (it may have been answered)".into())
            })?;
            if &c.by.id == taker {
                return Err(Error::Conflict("this is your own challenge".into()));
            }
            if c.to.as_ref().is_some_and(|t| &t.id != taker) {
                return Err(Error::NotYours("this challenge is for someone else".into()));
            }
            s.challenges.remove(id).expect("present")
        };
        Ok(c)
    }

    /// Declines (the addressee) or withdraws (the challenger) challenge `id`.
    pub fn drop_challenge(&self, id: &str, who: &IdentityId) -> Result<(), Error> {
        let (c, why) = {
            let mut s = self.state();
            let c = s.challenges.get(id).ok_or_else(|| {
                Error::NotFound("no such challenge (it may have been answered)".into())
            })?;
            let why = if &c.by.id == who {
                "cancelled"
            } else if c.to.as_ref().is_some_and(|t| &t.id == who) {
                "declined"
            } else {
                return Err(Error::NotYours(
                    "only the challenger or the one challenged may do this".into(),
                ));
            };
            (s.challenges.remove(id).expect("present"), why)
        };
        self.send(LobbyMsg::ChallengeGone {
            id: c.id.clone(),
            why,
            to: involved(&c),
        });
        Ok(())
    }
}

impl Lobby {
    /// Tells a challenge's two people it is gone (`why`: accepted, ...).
    pub fn send_challenge_gone(&self, c: &Challenge, why: &'static str) {
        self.send(LobbyMsg::ChallengeGone {
            id: c.id.clone(),
            why,
            to: involved(c),
        });
    }
}

fn involved(c: &Challenge) -> Vec<IdentityId> {
    let mut v = vec![c.by.id.clone()];
    v.extend(c.to.as_ref().map(|t| t.id.clone()));
    v
}

fn take_seeks_of(s: &mut State, who: &[IdentityId]) -> Vec<String> {
    let mut gone = Vec::new();
    s.seeks.retain(|k| {
        let keep = !who.contains(&k.by.id);
        if !keep {
            gone.push(k.id.clone());
        }
        keep
    });
    gone
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

    #[test]
    fn seeks_go_with_their_owner_and_are_taken_once() {
        let lobby = Lobby::default();
        let (none, mut rx) = lobby.join(Some(&who("b")));
        assert!(none.is_empty());
        lobby.join(Some(&who("a")));
        lobby.add_seek(seek("s1", "a", None, 1500.0, 0), 0).unwrap();
        lobby.add_seek(seek("s2", "a", None, 1500.0, 0), 0).unwrap();
        assert!(matches!(rx.try_recv(), Ok(LobbyMsg::SeekAdded { .. })));
        assert!(matches!(
            lobby.take_seek("s1", &who("a")),
            Err(Error::Conflict(_))
        ));
        assert!(matches!(
            lobby.cancel_seek("s1", &who("b")),
            Err(Error::NotYours(_))
        ));
        let taken = lobby.take_seek("s1", &who("b")).unwrap();
        assert_eq!(taken.id, "s1");
        assert!(matches!(
            lobby.take_seek("s1", &who("c")),
            Err(Error::NotFound(_))
        ));
        // a leaves the lobby: the other seek goes too.
        lobby.leave(Some(&who("a")));
        assert!(lobby.seeks(0).is_empty());
        // A seek by someone never present lasts its time.
        lobby.add_seek(seek("s3", "c", None, 1500.0, 0), 0).unwrap();
        assert_eq!(lobby.seeks(SEEK_TTL_MS - 1).len(), 1);
        assert!(lobby.seeks(SEEK_TTL_MS).is_empty());
        for i in 0..MAX_SEEKS_EACH {
            lobby
                .add_seek(seek(&format!("d{i}"), "d", None, 1500.0, 0), 0)
                .unwrap();
        }
        assert!(matches!(
            lobby.add_seek(seek("dx", "d", None, 1500.0, 0), 0),
            Err(Error::TooManyRequests(_))
        ));
    }

    #[test]
    fn quick_pairing_takes_the_closest_rating_of_the_same_preset() {
        let lobby = Lobby::default();
        for (id, by, r) in [
            ("far", "a", 2100.0),
            ("near", "b", 1550.0),
            ("mine", "c", 1500.0),
        ] {
            lobby.join(Some(&who(by)));
            lobby.add_seek(seek(id, by, Some("p"), r, 0), 0).unwrap();
        }
        lobby.join(Some(&who("x")));
        lobby
            .add_seek(seek("other", "x", Some("q"), 1500.0, 0), 0)
            .unwrap();
        let got = lobby.take_pairing("p", &who("c"), 1500.0).unwrap();
        assert_eq!(got.id, "near");
        let got = lobby.take_pairing("p", &who("c"), 1500.0).unwrap();
        assert_eq!(got.id, "far");
        assert!(
            lobby.take_pairing("p", &who("c"), 1500.0).is_none(),
            "never one's own"
        );
    }

    #[test]
    fn challenges_are_for_their_addressee_and_private_messages_stay_private() {
        let lobby = Lobby::default();
        let person = |s: &str| Person {
            id: who(s),
            name: None,
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
        let (_, mut rx) = lobby.join(None);
        lobby.add_challenge(c, 0).unwrap();
        let msg = rx.try_recv().unwrap();
        assert!(msg.is_for(Some(&who("b"))));
        assert!(!msg.is_for(Some(&who("z"))) && !msg.is_for(None));
        assert!(matches!(
            lobby.take_challenge("c1", &who("z")),
            Err(Error::NotYours(_))
        ));
        assert!(matches!(
            lobby.drop_challenge("c1", &who("z")),
            Err(Error::NotYours(_))
        ));
        assert_eq!(lobby.challenges_for(&who("b"), 0).len(), 1);
        lobby.drop_challenge("c1", &who("b")).unwrap();
        assert!(lobby.challenges_for(&who("b"), 0).is_empty());
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
