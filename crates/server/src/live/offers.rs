//! Offers between the two people of a game: a draw, a takeback, a rematch, each made by
//! one seat and accepted or declined by the other; and aborting a game before it has
//! really begun.

use serde::{Deserialize, Serialize};
use wuzi_rules::opening::Seat;

use super::{LiveGame, Mode, game_over, illegal};
use crate::error::Error;

/// What can be offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OfferKind {
    /// End the game drawn.
    Draw,
    /// Take back the offerer's last stone (and the reply to it).
    Takeback,
    /// Play again, colours swapped (once the game is over).
    Rematch,
}

/// What a player does about an offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OfferAction {
    /// Make the offer (accepts it if the opponent has made the same one).
    Offer,
    /// Accept the opponent's offer.
    Accept,
    /// Decline the opponent's offer.
    Decline,
    /// Take back one's own offer.
    Withdraw,
}

/// The offers waiting for an answer: the seat that made each.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offers {
    /// A draw (lapses when a stone is played).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<Seat>,
    /// A takeback (lapses when a stone is played).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub takeback: Option<Seat>,
    /// A rematch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch: Option<Seat>,
    /// The rematch's game, once both agreed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch_game: Option<String>,
}

impl Offers {
    fn slot(&mut self, kind: OfferKind) -> &mut Option<Seat> {
        match kind {
            OfferKind::Draw => &mut self.draw,
            OfferKind::Takeback => &mut self.takeback,
            OfferKind::Rematch => &mut self.rematch,
        }
    }

    /// A stone was played: draw and takeback offers lapse.
    pub fn lapse(&mut self) {
        self.draw = None;
        self.takeback = None;
    }
}

/// What an answered offer leaves to do outside the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Offered {
    /// Nothing more (an offer made, declined, withdrawn; a draw or takeback done).
    Done,
    /// Both want a rematch: the caller starts it, colours swapped, and records its id
    /// with [`LiveGame::set_rematch`].
    Rematch,
}

impl LiveGame {
    /// The offers waiting.
    #[must_use]
    pub fn offers(&self) -> &Offers {
        &self.offers
    }

    /// The seat `who` plays in a game between people (403 for anyone else, 409 for a game
    /// of another kind).
    pub fn seat_of_player(&self, who: Option<&crate::identity::IdentityId>) -> Result<Seat, Error> {
        if self.setup.mode != Mode::Online {
            return Err(Error::WrongPhase(
                "offers and aborts are between two people playing online".into(),
            ));
        }
        for seat in [Seat::First, Seat::Second] {
            if self.authorize(who, seat).is_ok() {
                return Ok(seat);
            }
        }
        Err(Error::NotYours(
            "you do not play in this game: you can watch it, not play it".into(),
        ))
    }

    /// `seat` does `action` about an offer of `kind`.
    pub fn offer(
        &mut self,
        seat: Seat,
        kind: OfferKind,
        action: OfferAction,
        now: i64,
    ) -> Result<Offered, Error> {
        let over = self.game.is_over();
        match kind {
            OfferKind::Rematch if !over => {
                return Err(Error::WrongPhase(
                    "a rematch is offered once the game is over".into(),
                ));
            }
            OfferKind::Rematch if self.offers.rematch_game.is_some() => {
                return Err(Error::Conflict("the rematch has started already".into()));
            }
            OfferKind::Draw | OfferKind::Takeback if over => {
                return Err(game_over(&self.game));
            }
            OfferKind::Takeback if !self.setup.takebacks => {
                return Err(Error::Rated(
                    "takebacks are off in this game (its terms said so)".into(),
                ));
            }
            _ => {}
        }
        let pending = *self.offers.slot(kind);
        let mine = pending == Some(seat);
        let theirs = pending == Some(seat.other());
        match action {
            OfferAction::Offer if theirs => self.accept(seat, kind, now),
            OfferAction::Offer if mine => Err(Error::Conflict(format!(
                "you have offered a {} already; wait for the answer",
                name(kind)
            ))),
            OfferAction::Offer => {
                if kind == OfferKind::Takeback && !self.has_stone(seat) {
                    return Err(Error::NothingToUndo(
                        "you have no stone to take back".into(),
                    ));
                }
                *self.offers.slot(kind) = Some(seat);
                Ok(Offered::Done)
            }
            OfferAction::Accept if theirs => self.accept(seat, kind, now),
            OfferAction::Decline if theirs => {
                *self.offers.slot(kind) = None;
                Ok(Offered::Done)
            }
            OfferAction::Withdraw if mine => {
                *self.offers.slot(kind) = None;
                Ok(Offered::Done)
            }
            OfferAction::Accept | OfferAction::Decline => Err(Error::WrongPhase(format!(
                "your opponent has not offered a {}",
                name(kind)
            ))),
            OfferAction::Withdraw => Err(Error::WrongPhase(format!(
                "you have not offered a {}",
                name(kind)
            ))),
        }
    }

    fn accept(&mut self, seat: Seat, kind: OfferKind, now: i64) -> Result<Offered, Error> {
        match kind {
            OfferKind::Draw => {
                self.clock.settle(now);
                self.game.agree_draw().map_err(illegal)?;
                self.sync_clock(now);
                self.offers.lapse();
                Ok(Offered::Done)
            }
            OfferKind::Takeback => {
                // Back to before the offerer's last stone.
                let asker = seat.other();
                let before = self.clone();
                loop {
                    match self.pop_action() {
                        Some((s, true)) if s == asker => break,
                        Some(_) => {}
                        None => {
                            *self = before;
                            return Err(Error::NothingToUndo(
                                "there is no stone of theirs to take back".into(),
                            ));
                        }
                    }
                }
                self.offers.lapse();
                self.clock.settle(now);
                self.sync_clock(now);
                self.turn_started = now;
                Ok(Offered::Done)
            }
            OfferKind::Rematch => {
                self.offers.rematch = None;
                Ok(Offered::Rematch)
            }
        }
    }

    fn has_stone(&self, seat: Seat) -> bool {
        self.game
            .moves()
            .iter()
            .any(|m| self.opening.seat_of(m.color) == Some(seat))
    }

    /// Notes the rematch's game.
    pub fn set_rematch(&mut self, game: String) {
        self.offers.rematch_game = Some(game);
    }

    /// Calls the game off: allowed until each side has played its first stone after the
    /// opening's (no result, no rating change).
    pub fn abort(&mut self, now: i64) -> Result<(), Error> {
        if self.game.is_over() {
            return Err(game_over(&self.game));
        }
        // Each side's first own stone: after the opening's stones, one each.
        if self.game.ply() >= usize::from(self.opening.opening_stones()) + 2 {
            return Err(Error::WrongPhase(
                "the game is under way: resign or offer a draw instead".into(),
            ));
        }
        self.clock.settle(now);
        self.game.abort().map_err(illegal)?;
        self.sync_clock(now);
        self.offers.lapse();
        Ok(())
    }

    /// `seat`'s player claims the game their opponent left: the win, or a draw. The
    /// caller checks that the opponent has been away long enough.
    pub fn claim_left_game(&mut self, seat: Seat, win: bool, now: i64) -> Result<(), Error> {
        if self.game.is_over() {
            return Err(game_over(&self.game));
        }
        let winner = if win {
            Some(self.opening.color_of(seat).ok_or_else(|| {
                Error::WrongPhase("colours are not decided yet: abort the game instead".into())
            })?)
        } else {
            None
        };
        self.clock.settle(now);
        self.game
            .end(winner, wuzi_rules::EndReason::Abandoned)
            .map_err(illegal)?;
        self.sync_clock(now);
        self.offers.lapse();
        Ok(())
    }

    /// The setup of the rematch: the same terms, seats swapped.
    #[must_use]
    pub fn rematch_setup(&self) -> super::Setup {
        let mut s = self.setup.clone();
        std::mem::swap(&mut s.owners.first, &mut s.owners.second);
        s
    }
}

fn name(kind: OfferKind) -> &'static str {
    match kind {
        OfferKind::Draw => "draw",
        OfferKind::Takeback => "takeback",
        OfferKind::Rematch => "rematch",
    }
}
