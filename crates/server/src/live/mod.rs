//! A game as the server keeps it: the rules' [`Game`], the opening, the players, the clock.
//!
//! Pure logic (no I/O, no engine): every action takes `now` in Unix milliseconds and
//! either changes the game or returns an [`Error`] and changes nothing. The hub persists
//! and broadcasts what this module decides.

use serde::{Deserialize, Serialize};
use wuzi_engine::PlayerKind;
use wuzi_rules::opening::{Choice, Opening, OpeningRule, Phase, Seat, Step};
use wuzi_rules::{Color, EndReason, Game, GameConfig, GameResult, IllegalMove, Pos};

use crate::clock::{ClockSetup, ClockState};
use crate::error::Error;
use crate::id::GameId;
use crate::identity::IdentityId;

/// Who plays: two people at one screen, or a person against the computer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Two people at one screen: every action is the person's at the board.
    Local,
    /// A person against the computer.
    #[default]
    Computer,
    /// Two people, each at their own screen (started from the lobby or a challenge).
    Online,
}

/// What happens when Black clicks a forbidden point under renju.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ForbiddenPolicy {
    /// The click is refused (422), nothing changes.
    #[default]
    Refuse,
    /// The stone is played and Black loses, as the rules say.
    Lose,
}

/// A computer player's kind, kept as its name (`level5`, `classic-rank`) in JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Player(pub PlayerKind);

impl TryFrom<String> for Player {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        s.parse::<PlayerKind>()
            .map(Player)
            .map_err(|e| e.to_string())
    }
}

impl From<Player> for String {
    fn from(p: Player) -> String {
        p.0.to_string()
    }
}

/// The computer's part in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComputerSetup {
    /// Which computer player.
    pub player: Player,
    /// Its seat (in a free opening, the first seat is Black).
    pub seat: Seat,
    /// Its moves are searched in the person's browser (the engine compiled to WebAssembly)
    /// and sent by the person's page: the server checks and records them and searches
    /// none itself. Only in unrated games with a free opening and no clock (see
    /// [`Setup::check_in_browser`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub in_browser: bool,
}

/// Everything fixed when a game is created.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    /// Local or against the computer.
    pub mode: Mode,
    /// Rule, size, k, layout.
    pub config: GameConfig,
    /// Opening rule.
    pub opening: OpeningRule,
    /// The computer, in computer mode.
    pub computer: Option<ComputerSetup>,
    /// Time control.
    pub clock: ClockSetup,
    /// Renju forbidden-click policy.
    pub forbidden_policy: ForbiddenPolicy,
    /// The seed the layout came from (rock and ocean).
    pub seed: Option<u64>,
    /// Who owns each human seat. Games from before identities have none: anyone may act
    /// for them.
    #[serde(default)]
    pub owners: Owners,
    /// Rated: the result changes the players' ratings (see [`crate::rating`]); no
    /// takebacks, restarts or engine help.
    #[serde(default)]
    pub rated: bool,
    /// Between people: takebacks may be asked for (and granted by the opponent).
    #[serde(default)]
    pub takebacks: bool,
}

impl Setup {
    /// Whether the computer's moves come from the person's browser.
    #[must_use]
    pub fn computer_in_browser(&self) -> bool {
        self.mode == Mode::Computer && self.computer.is_some_and(|c| c.in_browser)
    }

    /// Refuses a computer in the browser where the server's engine is needed: a rated
    /// game (the server judges and plays it), a clock (the computer's clock runs while the
    /// server's search does), a swap opening (the computer's colour choices and book
    /// stones are the server's).
    pub fn check_in_browser(&self) -> Result<(), String> {
        if !self.computer.is_some_and(|c| c.in_browser) {
            return Ok(());
        }
        if self.mode != Mode::Computer {
            return Err(
                "a computer in the browser plays only in a game against the computer".into(),
            );
        }
        if self.rated {
            return Err("a rated game's computer plays on the server".into());
        }
        if self.clock != ClockSetup::None {
            return Err("a game with a clock has the computer play on the server".into());
        }
        if self.opening != OpeningRule::Free {
            return Err("a game with an opening rule has the computer play on the server".into());
        }
        Ok(())
    }

    /// Gives `who` every seat a person plays: both at one screen, the one facing the
    /// computer.
    pub fn claim(&mut self, who: IdentityId) {
        let computer = self
            .computer
            .filter(|_| self.mode == Mode::Computer)
            .map(|c| c.seat);
        for seat in [Seat::First, Seat::Second] {
            if computer != Some(seat) {
                match seat {
                    Seat::First => self.owners.first = Some(who.clone()),
                    Seat::Second => self.owners.second = Some(who.clone()),
                }
            }
        }
    }
}

impl Owners {
    /// Whether `who` owns a seat.
    #[must_use]
    pub fn has(&self, who: Option<&IdentityId>) -> bool {
        who.is_some() && (self.first.as_ref() == who || self.second.as_ref() == who)
    }
}

/// The identities that own a game's seats (`None`: the computer's seat, or a game from
/// before identities).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Owners {
    /// The first seat's owner.
    pub first: Option<IdentityId>,
    /// The second seat's owner.
    pub second: Option<IdentityId>,
}

impl Owners {
    /// The owner of `seat`.
    #[must_use]
    pub fn of(&self, seat: Seat) -> Option<&IdentityId> {
        match seat {
            Seat::First => self.first.as_ref(),
            Seat::Second => self.second.as_ref(),
        }
    }
}

/// Who is acting: the person at the board, or the computer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Who {
    /// A person.
    Human,
    /// The engine.
    Computer,
}

/// What the acting seat must do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// Put a stone on the board.
    Move,
    /// Choose a colour (swap openings).
    Choose,
}

/// One stone as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredMove {
    /// Column.
    pub x: u8,
    /// Row from the top.
    pub y: u8,
    /// Thinking time in ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub t: Option<u64>,
}

/// What changes during a game, as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredState {
    /// The stones in order.
    pub moves: Vec<StoredMove>,
    /// The opening's steps (stones and choices made while the opening was not done).
    pub opening: Vec<Step>,
    /// A result decided off the board (resignation, time, agreement).
    pub verdict: Option<GameResult>,
    /// The clock.
    pub clock: ClockState,
    /// When the current turn began (Unix ms), for move times.
    pub turn_started: i64,
    /// Offers waiting for an answer, and the rematch's game.
    #[serde(default)]
    pub offers: Offers,
}

/// A game as the database keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredGame {
    /// The id.
    pub id: GameId,
    /// Fixed settings.
    pub setup: Setup,
    /// The history.
    pub state: StoredState,
    /// Creation time (Unix ms).
    pub created_at: i64,
    /// Last change (Unix ms).
    pub updated_at: i64,
    /// How many times it was written after its creation: a write states the revision it
    /// builds on, and the store refuses it if another node wrote in between.
    #[serde(default)]
    pub revision: i64,
}

mod offers;
pub use offers::{OfferAction, OfferKind, Offered, Offers};

/// A live game: the rules' game plus opening, players and clock.
#[derive(Clone, Debug)]
pub struct LiveGame {
    id: GameId,
    setup: Setup,
    game: Game,
    opening: Opening,
    clock: ClockState,
    turn_started: i64,
    created_at: i64,
    updated_at: i64,
    /// Bumped on every change; a computer search started at one version is stale at the
    /// next.
    version: u64,
    /// The stored revision this game is (see [`StoredGame::revision`]).
    revision: i64,
    /// Offers waiting for an answer (games between people).
    offers: Offers,
}

/// Offsets from the centre of a few quiet three-stone openings (Black, White, Black) the
/// computer places when it is the first seat of a swap opening.
const OPENINGS: [[(i8, i8); 3]; 6] = [
    [(0, 0), (1, -1), (2, 1)],
    [(0, 0), (1, 0), (-1, 2)],
    [(0, 0), (0, -1), (2, 0)],
    [(0, 0), (1, 1), (-1, 2)],
    [(0, 0), (2, -1), (1, 2)],
    [(0, 0), (-1, -1), (2, 1)],
];

impl LiveGame {
    /// A new game at the start.
    pub fn new(id: GameId, setup: Setup, now: i64) -> Result<LiveGame, Error> {
        setup.clock.validate().map_err(Error::BadRequest)?;
        if setup.mode == Mode::Computer && setup.computer.is_none() {
            return Err(Error::BadRequest(
                "a computer game needs a computer player".into(),
            ));
        }
        let game = Game::new(setup.config.clone()).map_err(|e| Error::BadRequest(e.to_string()))?;
        Ok(LiveGame {
            id,
            opening: Opening::new(setup.opening),
            clock: ClockState::new(&setup.clock, now),
            setup,
            game,
            turn_started: now,
            created_at: now,
            updated_at: now,
            version: 0,
            revision: 0,
            offers: Offers::default(),
        })
    }

    /// A game that continues from `moves` (an imported record) with a free opening.
    /// An illegal move gives [`Error::BadRecord`] naming it; moves after a finished game
    /// are refused the same way.
    pub fn from_moves(
        id: GameId,
        setup: Setup,
        moves: &[(Pos, Option<u64>)],
        now: i64,
    ) -> Result<LiveGame, Error> {
        let mut live = LiveGame::new(id, setup, now)?;
        let size = live.game.size();
        for (i, &(pos, t)) in moves.iter().enumerate() {
            live.game.try_play_timed(pos, t).map_err(|e| {
                let name = if size.contains(pos) {
                    size.notation(pos).to_string()
                } else {
                    format!("({},{})", pos.x, pos.y)
                };
                Error::BadRecord(format!("move {} ({name}) cannot be played: {e}", i + 1))
            })?;
        }
        live.sync_clock(now);
        Ok(live)
    }

    /// Rebuilds a stored game by replaying it.
    pub fn from_stored(s: StoredGame) -> Result<LiveGame, String> {
        let mut game = Game::new(s.setup.config.clone()).map_err(|e| e.to_string())?;
        for (i, m) in s.state.moves.iter().enumerate() {
            game.try_play_timed(Pos::new_unchecked(m.x, m.y), m.t)
                .map_err(|e| format!("stored move {} is illegal: {e}", i + 1))?;
        }
        let opening = Opening::replay(s.setup.opening, &s.state.opening)
            .map_err(|(i, e)| format!("stored opening step {} is invalid: {e}", i + 1))?;
        if let Some(v) = s.state.verdict {
            if game.is_over() {
                return Err("stored verdict on a game already over".into());
            }
            game.end(v.winner, v.reason).map_err(|e| e.to_string())?;
        }
        Ok(LiveGame {
            id: s.id,
            setup: s.setup,
            game,
            opening,
            clock: s.state.clock,
            turn_started: s.state.turn_started,
            created_at: s.created_at,
            updated_at: s.updated_at,
            version: 0,
            revision: s.revision,
            offers: s.state.offers,
        })
    }

    /// The stored form.
    #[must_use]
    pub fn to_stored(&self) -> StoredGame {
        let verdict = self
            .game
            .result()
            .filter(|r| is_verdict(&r.reason))
            .cloned();
        StoredGame {
            id: self.id.clone(),
            setup: self.setup.clone(),
            state: StoredState {
                moves: self
                    .game
                    .moves()
                    .iter()
                    .map(|m| StoredMove {
                        x: m.pos.x,
                        y: m.pos.y,
                        t: m.time_ms,
                    })
                    .collect(),
                opening: self.opening.steps().to_vec(),
                verdict,
                clock: self.clock,
                turn_started: self.turn_started,
                offers: self.offers.clone(),
            },
            created_at: self.created_at,
            updated_at: self.updated_at,
            revision: self.revision,
        }
    }

    /// The stored revision this game is.
    #[must_use]
    pub fn revision(&self) -> i64 {
        self.revision
    }

    /// Makes this game (read anew from the store) the successor of `older`, the one in
    /// memory: a later version, so that searches started for `older` are stale.
    pub fn succeed(&mut self, older: &LiveGame) {
        self.version = older.version + 1;
    }

    /// Notes that it was stored as `revision`.
    pub fn set_revision(&mut self, revision: i64) {
        self.revision = revision;
    }

    /// The id.
    #[must_use]
    pub fn id(&self) -> &GameId {
        &self.id
    }

    /// What the store keeps beside the game for histories and statistics.
    #[must_use]
    pub fn summary(&self) -> crate::store::GameSummary {
        let owner = |c: Color| {
            self.opening
                .seat_of(c)
                .filter(|&s| self.who(s) == Who::Human)
                .and_then(|s| self.setup.owners.of(s).cloned())
        };
        let result = self.game.result();
        crate::store::GameSummary {
            black_owner: owner(Color::Black),
            white_owner: owner(Color::White),
            opponent: match self
                .setup
                .computer
                .filter(|_| self.setup.mode == Mode::Computer)
            {
                Some(c) => format!("computer:{}", String::from(c.player)),
                None if self.setup.mode == Mode::Online => "people".to_string(),
                None => "local".to_string(),
            },
            winner: result.map(|r| match r.winner {
                Some(Color::Black) => "black",
                Some(Color::White) => "white",
                None if r.reason == EndReason::Aborted => "aborted",
                None => "draw",
            }),
            reason: result.map(|r| crate::view::reason_code(&r.reason)),
            ply: self.game.ply() as i64,
            rated: self.setup.rated,
            rating: self.rated_result(),
            // A computer in the browser owes nothing to the server's nodes: the person's
            // page searches its move.
            computer_owes: self.computer_to_act().is_some() && !self.setup.computer_in_browser(),
        }
    }

    /// What a rated game that is over changes in ratings: each person's score against
    /// the other side (the computer at its published rating). `None` for an unrated
    /// game, one still playing, or one whose seats have no owners.
    fn rated_result(&self) -> Option<crate::store::RatedResult> {
        use crate::store::{RatedOpponent, RatedResult, RatedSeat};
        if !self.setup.rated {
            return None;
        }
        let pool = crate::rating::pool_of(&self.setup).ok()?;
        let result = self.game.result()?;
        if result.reason == EndReason::Aborted {
            return None;
        }
        let computer = self
            .setup
            .computer
            .filter(|_| self.setup.mode == Mode::Computer)
            .map(|c| c.player.0);
        let mut seats = Vec::new();
        for color in [Color::Black, Color::White] {
            let Some(seat) = self.opening.seat_of(color) else {
                continue;
            };
            if self.who(seat) != Who::Human {
                continue;
            }
            let who = self.setup.owners.of(seat)?.clone();
            let opponent = match computer {
                Some(p) => RatedOpponent::Computer(p),
                None => {
                    let other = self.opening.seat_of(color.opponent())?;
                    RatedOpponent::Person(self.setup.owners.of(other)?.clone())
                }
            };
            let half_points = match result.winner {
                Some(w) if w == color => 2,
                Some(_) => 0,
                None => 1,
            };
            seats.push(RatedSeat {
                who,
                half_points,
                opponent,
            });
        }
        (!seats.is_empty()).then_some(RatedResult { pool, seats })
    }

    /// Gives `who` the game's human seats (a new game, before it is stored).
    pub fn claim(&mut self, who: IdentityId) {
        self.setup.claim(who);
    }

    /// Gives a game that is not stored yet another id.
    pub fn set_id(&mut self, id: GameId) {
        self.id = id;
    }

    /// Brings a game read from the store up to `now`: its running clock does not count
    /// the `outage` (the last sign of life of the previous run, and this run's start,
    /// Unix ms), and the computer's clock stands until its search starts again. Returns
    /// whether anything changed.
    pub fn resume(&mut self, outage: Option<(i64, i64)>, now: i64) -> bool {
        let before = (self.clock, self.turn_started);
        if let Some((down, up)) = outage {
            // Skip the part of [down, up] after `t`.
            let skip = |t: i64| (up - t.max(down)).max(0);
            if self.computer_to_act().is_some() && self.clock.running.is_some() {
                // The computer was searching: charge it up to the crash, then its clock
                // stands until the search starts again.
                let at = down.clamp(self.clock.since, now.max(self.clock.since));
                self.clock.set_running(&self.setup.clock, None, at);
            } else if self.clock.running.is_some() {
                self.clock.since += skip(self.clock.since);
            }
            self.turn_started += skip(self.turn_started);
        }
        (self.clock, self.turn_started) != before
    }

    /// The computer's search was cancelled (nobody watches the game): its clock stands.
    pub fn stop_computer_clock(&mut self, now: i64) {
        if self.computer_to_act().is_some() && self.clock.running.is_some() {
            self.clock.set_running(&self.setup.clock, None, now);
        }
    }

    /// The computer's search has started: its clock runs from `now` (it stands while the
    /// move waits for an engine worker). Returns whether the clock started.
    pub fn start_computer_clock(&mut self, now: i64) -> bool {
        if self.computer_to_act() != Some(Action::Move)
            || !self.opening.is_done()
            || self.game.ply() == 0
        {
            return false;
        }
        let color = self.game.side_to_move();
        self.clock.set_running(&self.setup.clock, Some(color), now);
        self.turn_started = now;
        true
    }

    /// The settings.
    #[must_use]
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The rules' game.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The opening.
    #[must_use]
    pub fn opening(&self) -> &Opening {
        &self.opening
    }

    /// The clock.
    #[must_use]
    pub fn clock(&self) -> &ClockState {
        &self.clock
    }

    /// Creation time.
    #[must_use]
    pub fn created_at(&self) -> i64 {
        self.created_at
    }

    /// Last change.
    #[must_use]
    pub fn updated_at(&self) -> i64 {
        self.updated_at
    }

    /// The change counter.
    #[must_use]
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Marks a change made at `now`.
    pub fn touch(&mut self, now: i64) {
        self.version += 1;
        self.updated_at = now;
    }

    /// Whether `who` may act for `seat`: it owns it, or the game is from before seats had
    /// owners. A refusal is [`Error::NotYours`] and names why.
    pub fn authorize(&self, who: Option<&IdentityId>, seat: Seat) -> Result<(), Error> {
        if self.who(seat) == Who::Computer {
            return Err(Error::NotYours(format!(
                "the {seat} seat is the computer's; nobody acts for it"
            )));
        }
        let owners = &self.setup.owners;
        if owners.first.is_none() && owners.second.is_none() {
            return Ok(());
        }
        match (owners.of(seat), who) {
            (Some(owner), Some(who)) if owner == who => Ok(()),
            _ => Err(Error::NotYours(format!(
                "you are not the {seat} player of this game: you can watch it, not play it"
            ))),
        }
    }

    /// Whether `who` plays in the game at all (owns one of its people's seats).
    pub fn authorize_any(&self, who: Option<&IdentityId>) -> Result<(), Error> {
        let mut refusal = None;
        for seat in [Seat::First, Seat::Second] {
            if self.who(seat) == Who::Human {
                match self.authorize(who, seat) {
                    Ok(()) => return Ok(()),
                    Err(e) => refusal = Some(e),
                }
            }
        }
        refusal.map_or(Ok(()), Err)
    }

    /// Whether `who` may act for every person's seat of the game (undo, restart: the
    /// person at the board, or the person playing the computer).
    pub fn authorize_all(&self, who: Option<&IdentityId>) -> Result<(), Error> {
        for seat in [Seat::First, Seat::Second] {
            if self.who(seat) == Who::Human {
                self.authorize(who, seat)?;
            }
        }
        Ok(())
    }

    /// The colour `who` resigns: `color` if given, else the one colour of theirs (the side
    /// to move when they hold both). The computer cannot be resigned for.
    pub fn resigning_color(
        &self,
        who: Option<&IdentityId>,
        color: Option<Color>,
    ) -> Result<Option<Color>, Error> {
        if let Some(c) = color {
            match self.opening.seat_of(c) {
                Some(seat) => self.authorize(who, seat)?,
                None => self.authorize_all(who)?,
            }
            return Ok(Some(c));
        }
        let mine: Vec<Color> = [Color::Black, Color::White]
            .into_iter()
            .filter(|&c| {
                self.opening
                    .seat_of(c)
                    .is_some_and(|s| self.authorize(who, s).is_ok())
            })
            .collect();
        match mine.as_slice() {
            [] => {
                self.authorize_all(who)?;
                Ok(None)
            }
            [one] => Ok(Some(*one)),
            _ => Ok(None),
        }
    }

    /// Who sits in `seat`.
    #[must_use]
    pub fn who(&self, seat: Seat) -> Who {
        match self.setup.computer {
            Some(c) if self.setup.mode == Mode::Computer && c.seat == seat => Who::Computer,
            _ => Who::Human,
        }
    }

    /// Who holds `color` (`None` while a swap opening has not assigned colours).
    #[must_use]
    pub fn who_plays(&self, color: Color) -> Option<Who> {
        self.opening.seat_of(color).map(|s| self.who(s))
    }

    /// The computer's colour, once assigned.
    #[must_use]
    pub fn computer_color(&self) -> Option<Color> {
        let c = self
            .setup
            .computer
            .filter(|_| self.setup.mode == Mode::Computer)?;
        self.opening.color_of(c.seat)
    }

    /// The human's colour in a computer game, once assigned.
    #[must_use]
    pub fn human_color(&self) -> Option<Color> {
        self.computer_color().map(Color::opponent)
    }

    /// The seat that must act and what it must do; `None` once the game is over.
    #[must_use]
    pub fn to_act(&self) -> Option<(Seat, Action)> {
        if self.game.is_over() {
            return None;
        }
        let seat = self.opening.seat_to_act(self.game.ply());
        let action = if self.opening.choice_pending() {
            Action::Choose
        } else {
            Action::Move
        };
        Some((seat, action))
    }

    /// What the computer must do now, if it is its turn.
    #[must_use]
    pub fn computer_to_act(&self) -> Option<Action> {
        let (seat, action) = self.to_act()?;
        (self.who(seat) == Who::Computer).then_some(action)
    }

    /// Whether the clock should be running, and for whom. The computer's clock waits
    /// for its search to start ([`LiveGame::start_computer_clock`]).
    fn clock_should_run(&self) -> Option<Color> {
        (self.opening.is_done() && self.game.ply() > 0 && !self.game.is_over())
            .then(|| self.game.side_to_move())
            .filter(|&c| self.who_plays(c) != Some(Who::Computer))
    }

    /// Brings the clock in line with the position.
    fn sync_clock(&mut self, now: i64) {
        let who = self.clock_should_run();
        self.clock.set_running(&self.setup.clock, who, now);
    }

    /// Ends the game on time if a flag has fallen by `now`. Returns whether it did.
    pub fn check_flag(&mut self, now: i64) -> bool {
        if self.game.is_over() {
            return false;
        }
        let Some(color) = self.clock.flagged(now) else {
            return false;
        };
        self.clock.settle(now);
        if self.game.lose_on_time(color).is_err() {
            return false;
        }
        self.clock.set_running(&self.setup.clock, None, now);
        true
    }

    /// When the running clock's flag falls, if one runs.
    #[must_use]
    pub fn deadline(&self) -> Option<i64> {
        if self.game.is_over() {
            None
        } else {
            self.clock.deadline()
        }
    }

    fn check_turn(&self, actor: Who, wanted: Action) -> Result<Seat, Error> {
        let Some((seat, action)) = self.to_act() else {
            return Err(game_over(&self.game));
        };
        if self.who(seat) != actor {
            return Err(Error::NotYourTurn(match actor {
                Who::Human => "it is the computer's turn".into(),
                Who::Computer => "it is the human's turn".into(),
            }));
        }
        if action != wanted {
            return Err(Error::WrongPhase(match action {
                Action::Choose => format!(
                    "the {} player must first choose a colour ({})",
                    seat,
                    options_text(&self.opening)
                ),
                Action::Move => "no colour choice is pending: place a stone".into(),
            }));
        }
        Ok(seat)
    }

    /// Plays a stone for the side to move, by `actor`.
    pub fn play(&mut self, actor: Who, pos: Pos, now: i64) -> Result<(), Error> {
        self.play_with_lag(actor, pos, now, &crate::lag::Lag::default())
    }

    /// Plays like [`LiveGame::play`], crediting the mover's clock with the lag of their
    /// connection (see [`crate::lag`]).
    pub fn play_with_lag(
        &mut self,
        actor: Who,
        pos: Pos,
        now: i64,
        lag: &crate::lag::Lag,
    ) -> Result<(), Error> {
        let seat = self.check_turn(actor, Action::Move)?;
        self.game.check_move(pos).map_err(illegal)?;
        let color = self.game.side_to_move();
        if color == Color::Black
            && actor == Who::Human
            && self.setup.forbidden_policy == ForbiddenPolicy::Refuse
            && let Some(kind) = self.game.forbidden_kind(pos)
            // With nothing else left, refusing would leave Black without a move.
            && !self.game.only_forbidden_left()
        {
            return Err(Error::Forbidden(format!(
                "{} is forbidden for Black ({kind})",
                self.game.size().notation(pos)
            )));
        }
        let mut opening = self.opening.clone();
        opening
            .place(seat)
            .map_err(|e| Error::WrongPhase(e.to_string()))?;
        let elapsed = (now - self.turn_started).max(0) as u64;
        self.game
            .try_play_timed(pos, Some(elapsed))
            .map_err(illegal)?;
        self.opening = opening;
        // A stone answers every draw or takeback offer: they lapse.
        self.offers.lapse();
        self.clock.after_move(&self.setup.clock, color, now);
        self.clock
            .credit(&self.setup.clock, color, lag.credit(elapsed as i64));
        self.sync_clock(now);
        self.turn_started = now;
        Ok(())
    }

    /// Plays the computer's move `pos` searched in the browser of `who`, who must own the
    /// game's human seat, for the position of `ply` stones. Refused, changing nothing:
    /// a game whose computer plays on the server (every rated game among them) or whose
    /// person's seat has no owner ([`Error::NotYours`]), anyone but that person
    /// ([`Error::NotYours`]), the person's turn or a colour choice ([`Error::NotYourTurn`],
    /// [`Error::WrongPhase`]), another position than `ply` ([`Error::Stale`]), an illegal
    /// point ([`Error::IllegalMove`]) or a point forbidden for Black ([`Error::Forbidden`]).
    pub fn play_from_browser(
        &mut self,
        who: Option<&IdentityId>,
        pos: Pos,
        ply: usize,
        now: i64,
    ) -> Result<(), Error> {
        let computer = self
            .setup
            .computer
            .filter(|_| self.setup.computer_in_browser() && !self.setup.rated)
            .ok_or_else(|| {
                Error::NotYours(
                    "this game's computer plays on the server: nobody sends its moves".into(),
                )
            })?;
        let person = computer.seat.other();
        if self.setup.owners.of(person).is_none() {
            return Err(Error::NotYours(
                "this game's seat has no owner: nobody may send the computer's moves".into(),
            ));
        }
        self.authorize(who, person)?;
        // A move for another position (sent twice, or answering a position taken back) is
        // stale whoever's turn it is now.
        if ply != self.game.ply() && !self.game.is_over() {
            return Err(Error::Stale(format!(
                "ply: the game has {} stones, not {ply}; reload it",
                self.game.ply()
            )));
        }
        self.check_turn(Who::Computer, Action::Move)?;
        self.game.check_move(pos).map_err(illegal)?;
        if self.game.side_to_move() == Color::Black
            && let Some(kind) = self.game.forbidden_kind(pos)
        {
            return Err(Error::Forbidden(format!(
                "{} is forbidden for Black ({kind})",
                self.game.size().notation(pos)
            )));
        }
        self.play(Who::Computer, pos, now)
    }

    /// Makes `actor`'s opening choice.
    pub fn choose(&mut self, actor: Who, choice: Choice, now: i64) -> Result<(), Error> {
        let seat = self.check_turn(actor, Action::Choose)?;
        self.opening
            .choose(seat, choice)
            .map_err(|e| Error::WrongPhase(e.to_string()))?;
        self.sync_clock(now);
        self.turn_started = now;
        Ok(())
    }

    /// Resigns for `color` (default: the human in a computer game, else the side to move).
    pub fn resign(&mut self, color: Option<Color>, now: i64) -> Result<(), Error> {
        if self.game.is_over() {
            return Err(game_over(&self.game));
        }
        let color = color
            .or_else(|| self.human_color())
            .unwrap_or_else(|| self.game.side_to_move());
        self.clock.settle(now);
        self.game.resign(color).map_err(illegal)?;
        self.sync_clock(now);
        Ok(())
    }

    /// Ends the game with an outside verdict (a record's resignation or loss on time).
    pub fn end(&mut self, winner: Option<Color>, reason: EndReason) -> Result<(), Error> {
        self.game.end(winner, reason).map_err(illegal)?;
        self.clock
            .set_running(&self.setup.clock, None, self.turn_started);
        Ok(())
    }

    /// A rated game's moves stand, and so do those of a game between two people (one
    /// cannot take back or restart alone, nor ask the engine): `what` cannot be done.
    pub fn refuse_if_rated(&self, what: &str) -> Result<(), Error> {
        if self.setup.rated {
            return Err(Error::Rated(format!(
                "this game is rated: it cannot be {what} (start a new game, or play unrated)"
            )));
        }
        if self.setup.mode == Mode::Online {
            return Err(Error::Rated(format!(
                "this game is between two people: it cannot be {what}"
            )));
        }
        Ok(())
    }

    /// Whether the server must keep the game in memory so its flag falls on time even
    /// when nobody watches: a rated game or one between people, with a clock running.
    #[must_use]
    pub fn needs_watching(&self) -> bool {
        (self.setup.rated || self.setup.mode == Mode::Online)
            && !self.game.is_over()
            && self.clock.running.is_some()
    }

    /// Back to the empty board with the same settings and layout.
    pub fn restart(&mut self, now: i64) -> Result<(), Error> {
        self.refuse_if_rated("restarted")?;
        let game = Game::new(self.setup.config.clone()).map_err(Error::internal)?;
        self.game = game;
        self.opening = Opening::new(self.setup.opening);
        self.clock = ClockState::new(&self.setup.clock, now);
        self.turn_started = now;
        Ok(())
    }

    /// The last action (a stone or an opening choice), who made it, and takes it back.
    fn pop_action(&mut self) -> Option<(Seat, bool)> {
        let ply = self.game.ply();
        let opening_stones = usize::from(self.opening.opening_stones());
        if ply > opening_stones {
            let color = self.game.moves().last()?.color;
            let seat = self.opening.seat_of(color)?;
            self.game.undo();
            return Some((seat, true));
        }
        let step = self.opening.undo()?;
        let seat = self.opening.seat_to_act(ply);
        match step {
            Step::Stone => {
                self.game.undo();
                Some((seat, true))
            }
            Step::Choice { .. } => Some((seat, false)),
        }
    }

    /// Takes back: in local mode the last action (or down to `to_ply` stones); against
    /// the computer, back to the human's last stone (and at most `to_ply` stones).
    pub fn undo(&mut self, to_ply: Option<usize>, now: i64) -> Result<(), Error> {
        self.refuse_if_rated("taken back")?;
        if let Some(r) = self.game.result()
            && is_verdict(&r.reason)
        {
            return Err(Error::GameOver(format!(
                "the game ended by {}; it cannot be taken back",
                match r.reason {
                    EndReason::Time => "time",
                    EndReason::Agreement => "agreement",
                    EndReason::Aborted => "abort",
                    EndReason::Abandoned => "abandonment",
                    _ => "resignation",
                }
            )));
        }
        if let Some(t) = to_ply
            && t >= self.game.ply()
        {
            return Err(Error::NothingToUndo(format!(
                "to_ply: the game has {}; give a number below it",
                crate::api::games::stones(self.game.ply())
            )));
        }
        let before = self.clone();
        let computer = self.setup.mode == Mode::Computer && self.setup.computer.is_some();
        let target = to_ply.unwrap_or(usize::MAX);
        let mut popped_any = false;
        let mut popped_human_stone = false;
        loop {
            let at_target = self.game.ply() <= target;
            let done = if computer {
                popped_human_stone
                    && at_target
                    && self.who(self.opening.seat_to_act(self.game.ply())) == Who::Human
            } else if to_ply.is_some() {
                at_target
            } else {
                popped_any
            };
            if done {
                break;
            }
            match self.pop_action() {
                Some((seat, stone)) => {
                    popped_any = true;
                    if stone && self.who(seat) == Who::Human {
                        popped_human_stone = true;
                    }
                }
                None => break,
            }
        }
        if !popped_any || (computer && !popped_human_stone) {
            *self = before;
            return Err(Error::NothingToUndo(
                "there is no move of yours to take back".into(),
            ));
        }
        self.clock.settle(now);
        self.sync_clock(now);
        self.turn_started = now;
        Ok(())
    }

    /// The stone the computer places as the first seat of a swap opening: a quiet pattern
    /// around the centre, turned by the game's seed; the nearest free point if the
    /// pattern's point is taken.
    #[must_use]
    pub fn computer_opening_stone(&self) -> Option<Pos> {
        let size = self.game.size();
        let seed = self.setup.seed.unwrap_or(0) ^ self.created_at as u64;
        let pattern = OPENINGS[(seed % OPENINGS.len() as u64) as usize];
        let flip = (seed / 7) % 8;
        let index = usize::from(self.opening.opening_stones()).min(2);
        let (mut dx, mut dy) = (i32::from(pattern[index].0), i32::from(pattern[index].1));
        if flip & 1 != 0 {
            dx = -dx;
        }
        if flip & 2 != 0 {
            dy = -dy;
        }
        if flip & 4 != 0 {
            std::mem::swap(&mut dx, &mut dy);
        }
        let c = size.center();
        let wanted = c.offset(dx, dy, size).unwrap_or(c);
        let free = |p: Pos| self.game.check_move(p).is_ok();
        if free(wanted) {
            return Some(wanted);
        }
        size.points()
            .filter(|&p| free(p))
            .min_by_key(|&p| (p.distance(wanted), p.distance(c), p))
    }

    /// A sentence on the state: whose turn, or how it ended.
    #[must_use]
    pub fn status_text(&self) -> String {
        if let Some(r) = self.game.result() {
            return r.describe(self.game.size());
        }
        match self.opening.phase() {
            Phase::Place { seat } => format!(
                "the {seat} player places opening stone {}",
                self.game.ply() + 1
            ),
            Phase::Choose { seat } => {
                format!("the {seat} player chooses: {}", options_text(&self.opening))
            }
            Phase::Done => format!("{} to move", self.game.side_to_move()),
        }
    }
}

/// Whether a result was decided off the board (and so must be stored to be replayed).
fn is_verdict(reason: &EndReason) -> bool {
    matches!(
        reason,
        EndReason::Resignation
            | EndReason::Time
            | EndReason::Agreement
            | EndReason::Aborted
            | EndReason::Abandoned
    )
}

fn options_text(o: &Opening) -> String {
    o.options()
        .iter()
        .map(|c| c.name())
        .collect::<Vec<_>>()
        .join(", ")
}

fn game_over(game: &Game) -> Error {
    Error::GameOver(match game.result() {
        Some(r) => format!("the game is over ({})", r.describe(game.size())),
        None => "the game is over".into(),
    })
}

fn illegal(e: IllegalMove) -> Error {
    match e {
        IllegalMove::GameOver => Error::GameOver("the game is over".into()),
        other => Error::IllegalMove(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_rules::{Rule, Size};

    fn setup(mode: Mode, opening: OpeningRule, computer_seat: Seat) -> Setup {
        Setup {
            mode,
            config: GameConfig::new(Rule::Renju, Size::STANDARD),
            opening,
            computer: Some(ComputerSetup {
                player: Player(PlayerKind::Level(1)),
                seat: computer_seat,
                in_browser: false,
            }),
            clock: ClockSetup::None,
            forbidden_policy: ForbiddenPolicy::Refuse,
            seed: None,
            owners: Owners::default(),
            rated: false,
            takebacks: false,
        }
    }

    #[test]
    fn a_move_is_credited_with_its_players_lag_on_a_side_clock() {
        let mut s = setup(Mode::Online, OpeningRule::Free, Seat::Second);
        s.computer = None;
        s.clock = ClockSetup::Side {
            initial_seconds: 60.0.try_into().unwrap(),
            increment_seconds: 0.0.try_into().unwrap(),
        };
        let h = |n: &str| match n {
            "h8" => Pos::new_unchecked(7, 7),
            "i9" => Pos::new_unchecked(8, 6),
            _ => Pos::new_unchecked(7, 6),
        };
        let mut g = LiveGame::new(GameId::random(), s.clone(), 0).unwrap();
        g.play(Who::Human, h("h8"), 0).unwrap();
        // White's move reaches the server 2 s later over a 600 ms round trip: 300 ms back.
        let mut lag = crate::lag::Lag::default();
        lag.observe(600);
        g.play_with_lag(Who::Human, h("i9"), 2000, &lag).unwrap();
        assert_eq!(g.clock().remaining(Color::White, 2000), 60_000 - 2000 + 300);
        // Without a measured lag, no credit; a tiny move gets at most its own time.
        let mut g = LiveGame::new(GameId::random(), s, 0).unwrap();
        g.play(Who::Human, h("h8"), 0).unwrap();
        g.play(Who::Human, h("i9"), 2000).unwrap();
        assert_eq!(g.clock().remaining(Color::White, 2000), 58_000);
        // Black's 100 ms move is credited its 100 ms, not the 300 ms of lag.
        let before = g.clock().remaining(Color::Black, 2000);
        g.play_with_lag(Who::Human, h("h9"), 2100, &lag).unwrap();
        assert_eq!(g.clock().remaining(Color::Black, 2100), before);
    }

    #[test]
    fn seats_belong_to_their_owners() {
        let (a, b) = (IdentityId::random(), IdentityId::random());
        // Against the computer (second seat): the person owns the first seat only.
        let mut s = setup(Mode::Computer, OpeningRule::Free, Seat::Second);
        s.claim(a.clone());
        let g = LiveGame::new(GameId::random(), s, 0).unwrap();
        assert!(g.authorize(Some(&a), Seat::First).is_ok());
        assert!(matches!(
            g.authorize(Some(&a), Seat::Second),
            Err(Error::NotYours(_))
        ));
        assert!(matches!(
            g.authorize(Some(&b), Seat::First),
            Err(Error::NotYours(_))
        ));
        assert!(matches!(
            g.authorize(None, Seat::First),
            Err(Error::NotYours(_))
        ));
        assert!(g.authorize_all(Some(&a)).is_ok());
        assert!(g.authorize_all(Some(&b)).is_err());
        // Nobody resigns for the computer; the person resigns their own colour.
        assert!(g.resigning_color(Some(&a), Some(Color::White)).is_err());
        assert_eq!(
            g.resigning_color(Some(&a), None).unwrap(),
            Some(Color::Black)
        );
        assert!(g.resigning_color(Some(&b), None).is_err());
        // Two people at one screen: the creator owns both seats.
        let mut s = setup(Mode::Local, OpeningRule::Free, Seat::Second);
        s.claim(a.clone());
        let g = LiveGame::new(GameId::random(), s, 0).unwrap();
        assert!(g.authorize(Some(&a), Seat::Second).is_ok());
        assert!(g.authorize(Some(&b), Seat::Second).is_err());
        // A game from before seats had owners is anyone's.
        let g = LiveGame::new(
            GameId::random(),
            setup(Mode::Local, OpeningRule::Free, Seat::Second),
            0,
        )
        .unwrap();
        assert!(g.authorize(Some(&b), Seat::First).is_ok());
        assert!(g.authorize(None, Seat::Second).is_ok());
    }

    fn p(s: &str) -> Pos {
        Size::STANDARD.parse_pos(s).unwrap()
    }

    #[test]
    fn computer_game_turns_and_undo_to_human_move() {
        let mut g = LiveGame::new(
            GameId::random(),
            setup(Mode::Computer, OpeningRule::Free, Seat::Second),
            0,
        )
        .unwrap();
        g.play(Who::Human, p("h8"), 10).unwrap();
        assert!(matches!(
            g.play(Who::Human, p("h9"), 20),
            Err(Error::NotYourTurn(_))
        ));
        assert_eq!(g.computer_to_act(), Some(Action::Move));
        g.play(Who::Computer, p("i9"), 30).unwrap();
        g.play(Who::Human, p("h7"), 40).unwrap();
        g.play(Who::Computer, p("h6"), 50).unwrap();
        g.undo(None, 60).unwrap();
        assert_eq!(g.game().ply(), 2);
        assert_eq!(g.computer_to_act(), None);
        // Undo while the computer is to move takes back only the human's stone.
        g.play(Who::Human, p("h7"), 70).unwrap();
        g.undo(None, 80).unwrap();
        assert_eq!(g.game().ply(), 2);
        g.undo(None, 90).unwrap();
        assert_eq!(g.game().ply(), 0);
        let before = g.to_stored();
        assert!(matches!(g.undo(None, 100), Err(Error::NothingToUndo(_))));
        assert_eq!(g.to_stored(), before);
    }

    #[test]
    fn refuse_policy_keeps_the_state() {
        let mut g = LiveGame::new(
            GameId::random(),
            setup(Mode::Local, OpeningRule::Free, Seat::Second),
            0,
        )
        .unwrap();
        // Black h8 i8 (row) and j10 j11 (column): j8 makes two threes.
        for m in ["h8", "a1", "i8", "a3", "j10", "a5", "j11", "a7"] {
            g.play(Who::Human, p(m), 0).unwrap();
        }
        assert!(
            g.game()
                .forbidden_points()
                .contains(&(p("j8"), wuzi_rules::ForbiddenKind::DoubleThree))
        );
        let before = g.to_stored();
        assert!(matches!(
            g.play(Who::Human, p("j8"), 0),
            Err(Error::Forbidden(_))
        ));
        assert_eq!(g.to_stored(), before);
        // With the lose policy the stone is played and White wins.
        g.setup.forbidden_policy = ForbiddenPolicy::Lose;
        g.play(Who::Human, p("j8"), 0).unwrap();
        assert_eq!(g.game().result().unwrap().winner, Some(Color::White));
    }

    #[test]
    fn refuse_policy_lets_black_play_when_every_point_is_forbidden() {
        // 224 moves: the one empty point left, h5, is forbidden for Black.
        let record = include_str!("../../../../testdata/full_board_renju.txt");
        let moves = wuzi_rules::notation::parse_moves(record.trim(), Size::STANDARD).unwrap();
        let mut s = setup(Mode::Local, OpeningRule::Free, Seat::Second);
        s.computer = None;
        let mut g = LiveGame::new(GameId::random(), s, 0).unwrap();
        for &m in &moves {
            g.play(Who::Human, m, 0).unwrap();
        }
        assert_eq!(g.game().forbidden_points().len(), 1);
        g.play(Who::Human, p("h5"), 0).unwrap();
        assert_eq!(g.game().result().unwrap().winner, Some(Color::White));
    }

    #[test]
    fn swap2_with_computer_first_seat() {
        let mut g = LiveGame::new(
            GameId::random(),
            setup(Mode::Computer, OpeningRule::Swap2, Seat::First),
            0,
        )
        .unwrap();
        for _ in 0..3 {
            assert_eq!(g.computer_to_act(), Some(Action::Move));
            let s = g.computer_opening_stone().unwrap();
            g.play(Who::Computer, s, 0).unwrap();
        }
        assert_eq!(g.to_act(), Some((Seat::Second, Action::Choose)));
        assert!(matches!(
            g.play(Who::Human, p("a1"), 0),
            Err(Error::WrongPhase(_))
        ));
        g.choose(Who::Human, Choice::Place2, 0).unwrap();
        g.play(Who::Human, p("a1"), 0).unwrap();
        g.play(Who::Human, p("a2"), 0).unwrap();
        assert_eq!(g.computer_to_act(), Some(Action::Choose));
        g.choose(Who::Computer, Choice::Black, 0).unwrap();
        assert_eq!(g.computer_color(), Some(Color::Black));
        // White (the human) plays move 6.
        assert_eq!(g.to_act(), Some((Seat::Second, Action::Move)));
        // Stored and replayed, the game is the same.
        let back = LiveGame::from_stored(g.to_stored()).unwrap();
        assert_eq!(back.to_stored(), g.to_stored());
        assert_eq!(back.to_act(), g.to_act());
        // Undo takes back to the human's last stone (move 5), through the choice.
        g.undo(None, 0).unwrap();
        assert_eq!(g.game().ply(), 4);
        assert_eq!(g.to_act(), Some((Seat::Second, Action::Move)));
    }

    #[test]
    fn resign_and_time_cannot_be_undone() {
        let mut g = LiveGame::new(
            GameId::random(),
            setup(Mode::Local, OpeningRule::Free, Seat::Second),
            0,
        )
        .unwrap();
        g.play(Who::Human, p("h8"), 0).unwrap();
        g.resign(None, 0).unwrap();
        assert_eq!(g.game().result().unwrap().winner, Some(Color::Black));
        assert!(matches!(g.undo(None, 0), Err(Error::GameOver(_))));
        let back = LiveGame::from_stored(g.to_stored()).unwrap();
        assert_eq!(back.game().result(), g.game().result());
    }

    proptest::proptest! {
        /// Random sessions (moves anywhere, undos, colour choices, resignations) on every
        /// opening, local and against the computer: a refused action changes nothing, and
        /// after every action the game survives storage (JSON and back) unchanged.
        #[test]
        fn random_sessions_roundtrip_through_storage(
            ops in proptest::collection::vec((0u8..10, 0u8..15, 0u8..15), 0..80),
            opening in 0usize..3,
            computer in proptest::option::of(proptest::bool::ANY),
        ) {
            let mode = if computer.is_some() { Mode::Computer } else { Mode::Local };
            let seat = if computer == Some(true) { Seat::First } else { Seat::Second };
            let mut g = LiveGame::new(
                GameId::random(),
                setup(mode, OpeningRule::ALL[opening], seat),
                0,
            )
            .unwrap();
            for (i, (kind, x, y)) in ops.into_iter().enumerate() {
                let now = i as i64 * 10;
                let before = g.to_stored();
                let who = g.to_act().map_or(Who::Human, |(s, _)| g.who(s));
                let result = match kind {
                    0..=5 => g.play(who, Pos::new_unchecked(x, y), now),
                    6 | 7 => g.undo(None, now),
                    8 => {
                        let options = g.opening().options();
                        if options.is_empty() {
                            g.choose(who, Choice::Black, now)
                        } else {
                            g.choose(who, options[usize::from(x) % options.len()], now)
                        }
                    }
                    _ => if y == 0 { g.resign(None, now) } else { g.restart(now) },
                };
                if result.is_err() {
                    proptest::prop_assert_eq!(&g.to_stored(), &before);
                }
                let json = serde_json::to_string(&g.to_stored()).unwrap();
                let back: StoredGame = serde_json::from_str(&json).unwrap();
                let live = LiveGame::from_stored(back).unwrap();
                proptest::prop_assert_eq!(live.to_stored(), g.to_stored());
                proptest::prop_assert_eq!(live.to_act(), g.to_act());
                proptest::prop_assert_eq!(live.game().result(), g.game().result());
            }
        }
    }
}
