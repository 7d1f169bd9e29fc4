//! The hub: live games in memory, loaded lazily from the store, each with a lock, a
//! broadcast channel for its WebSocket subscribers, its engine searches and its clock
//! watcher.
//!
//! Every action goes the same way: lock the game, apply the action to a copy, commit the
//! copy to the database, swap it in, broadcast the new state, then start whatever follows
//! (the computer's reply, the clock's flag watcher). A refused action changes nothing.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use tokio::sync::broadcast;
use wuzi_engine::{PlayerKind, Position, SearchLimits, SearchResult};
use wuzi_rules::opening::{Choice, Seat};
use wuzi_rules::{Color, Pos};

use crate::clock::ClockSetup;
use crate::engine::{EngineHandle, Job, JobClass, MoveClock, Searcher, move_limits};
use crate::error::Error;
use crate::id::GameId;
use crate::identity::IdentityId;
use crate::live::{Action, LiveGame, Owners, Setup, Who};
use crate::store::{Step, Store, StoreError};
use crate::view::{AnalysisView, GameView, Purpose, ThinkingView};

/// Messages from the server to a game's subscribers.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ServerMsg {
    /// The whole game, after every change.
    State {
        /// The game.
        game: Box<GameView>,
    },
    /// Engine progress.
    Thinking(ThinkingView),
    /// The clock, about once a second while it runs.
    Clock {
        /// Black's time left.
        black_ms: i64,
        /// White's time left.
        white_ms: i64,
        /// Whose clock runs.
        running: Option<Color>,
    },
    /// A finished hint or analysis.
    Analysis {
        /// Hint or analysis.
        purpose: Purpose,
        /// The result.
        result: AnalysisView,
    },
    /// A refused client message.
    Error {
        /// Stable code.
        code: &'static str,
        /// For people.
        message: String,
    },
    /// Answer to `ping`.
    Pong,
    /// A move sent with an `id` was played (or had been already: a retry): the stones
    /// after it.
    Ack {
        /// The client's id for the move.
        id: String,
        /// Stones on the board after it.
        ply: usize,
    },
    /// The number of spectators changed (someone who does not play the game opened or
    /// closed a socket on it); sent instead of the whole state, which would cost every
    /// subscriber a full view for each spectator coming or going.
    Crowd {
        /// Sockets open by people who do not play the game.
        spectators: usize,
    },
    /// A chat message (sent to the sockets of its room only).
    Chat {
        /// The message.
        message: crate::store::ChatMessage,
    },
    /// The computer's move waits for a free engine worker; its clock does not run until
    /// the search starts (then a `state` message follows).
    Queued {
        /// Searches that go first.
        ahead: usize,
    },
    /// How far the game's post-game review is (see [`crate::review`]).
    Review(crate::review::ReviewProgress),
}

/// A search in progress for a game.
#[derive(Debug)]
struct Running {
    purpose: Purpose,
    version: u64,
    stop: Arc<AtomicBool>,
    /// Searches that go first while this one waits for a worker (0: searching).
    ahead: usize,
}

/// One game held in memory.
#[derive(Debug)]
pub struct Slot {
    game: tokio::sync::Mutex<LiveGame>,
    tx: broadcast::Sender<ServerMsg>,
    searches: Mutex<Vec<Running>>,
    /// Last request or subscriber activity (Unix ms).
    last_seen: AtomicI64,
    /// The version whose clock is watched, plus one (0: none).
    watched: AtomicU64,
    /// Set when the slot leaves memory: a late task (a search answer, a clock tick) must
    /// not write an old copy over the game that a newer slot has loaded since.
    retired: AtomicBool,
    /// Who has the game open in a socket.
    presence: Mutex<Presence>,
    /// Held across each read of who is there from the store and its assignment, so
    /// reads land in the order they were made: a slow read begun before a player left
    /// must not overwrite a later one that saw them go (the page would then never show
    /// the claim's countdown).
    reloading: tokio::sync::Mutex<()>,
    /// The game's id.
    id: GameId,
}

/// Who has a game open: this node's sockets, and (for a game between people) everyone's
/// on every node as last read from the store.
#[derive(Debug, Default)]
struct Presence {
    /// This node's sockets, by identity.
    sockets: HashMap<Option<IdentityId>, usize>,
    /// Every node's, and who left (games between people only).
    everywhere: crate::store::Presence,
    /// Each player's connection lag.
    lag: HashMap<IdentityId, crate::lag::Lag>,
}

impl Presence {
    /// A socket of `who` opened on the game here.
    fn enter(&mut self, who: Option<&IdentityId>) {
        *self.sockets.entry(who.cloned()).or_default() += 1;
    }

    /// A socket of `who` closed here.
    fn leave(&mut self, who: Option<&IdentityId>) {
        let key = who.cloned();
        match self.sockets.get_mut(&key) {
            Some(n) if *n > 1 => *n -= 1,
            Some(_) => {
                self.sockets.remove(&key);
            }
            None => {}
        }
    }
}

impl Slot {
    fn presence(&self) -> std::sync::MutexGuard<'_, Presence> {
        self.presence
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Notes a round trip (ms) measured on a socket of `who`.
    pub fn note_round_trip(&self, who: &IdentityId, rtt_ms: i64) {
        self.presence()
            .lag
            .entry(who.clone())
            .or_default()
            .observe(rtt_ms);
    }

    /// The lag of `who`'s connection (none measured: no credit).
    pub fn lag_of(&self, who: Option<&IdentityId>) -> crate::lag::Lag {
        who.and_then(|w| self.presence().lag.get(w).copied())
            .unwrap_or_default()
    }

    /// Since when `seat`'s player has had no socket open on the game on any node
    /// (after having one), as last read (a game between people).
    pub fn away_since(&self, owners: &Owners, seat: Seat) -> Option<i64> {
        self.presence().everywhere.away_since(owners.of(seat))
    }

    /// Sockets open on every node by people who do not play the game, as last read (a
    /// game between people).
    pub fn spectators(&self, owners: &Owners) -> usize {
        self.presence()
            .everywhere
            .others([owners.first.as_ref(), owners.second.as_ref()])
    }
    /// Whether the computer is searching for its move (or placing an opening stone).
    pub fn is_thinking(&self) -> bool {
        self.searches().iter().any(|r| r.purpose == Purpose::Move)
    }

    /// Number of WebSocket sessions and long polls watching the game.
    pub fn subscribers(&self) -> usize {
        self.tx.receiver_count()
    }

    /// The game, locked.
    pub async fn game_lock(&self) -> tokio::sync::MutexGuard<'_, LiveGame> {
        self.game.lock().await
    }

    /// A new receiver of the game's messages.
    pub fn subscribe(&self) -> broadcast::Receiver<ServerMsg> {
        self.tx.subscribe()
    }

    fn searches(&self) -> std::sync::MutexGuard<'_, Vec<Running>> {
        self.searches
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn thinking(&self, version: u64) -> bool {
        self.searches()
            .iter()
            .any(|r| r.purpose == Purpose::Move && r.version == version)
    }

    /// Searches ahead of the computer's move while it waits for a worker (0 when it
    /// searches or does not wait).
    fn queued(&self, version: u64) -> usize {
        self.searches()
            .iter()
            .find(|r| r.purpose == Purpose::Move && r.version == version)
            .map_or(0, |r| r.ahead)
    }

    fn set_queued(&self, stop: &Arc<AtomicBool>, ahead: usize) {
        for r in self.searches().iter_mut() {
            if Arc::ptr_eq(&r.stop, stop) {
                r.ahead = ahead;
            }
        }
    }

    /// The view of `game` as this slot sees it (thinking, queued).
    fn view(&self, game: &LiveGame, now: i64) -> GameView {
        let mut view = GameView::new(game, self.thinking(game.version()), now);
        view.queued = self.queued(game.version());
        if game.setup().mode == crate::live::Mode::Online {
            let owners = &game.setup().owners;
            view.spectators = self.spectators(owners);
            view.away = crate::view::AwayView {
                first: self.away_since(owners, Seat::First),
                second: self.away_since(owners, Seat::Second),
            };
        }
        view
    }

    /// Raises the stop flag of every search of this game (all of them, or only those of
    /// one purpose).
    fn cancel(&self, purpose: Option<Purpose>) {
        let mut searches = self.searches();
        searches.retain(|r| {
            let hit = purpose.is_none_or(|p| p == r.purpose);
            if hit {
                r.stop.store(true, Ordering::Relaxed);
            }
            !hit
        });
    }

    /// Stops every search (hints and analyses are answered with their best so far; the
    /// computer moves at once).
    pub fn stop_all(&self) {
        for r in self.searches().iter() {
            r.stop.store(true, Ordering::Relaxed);
        }
    }

    fn touch(&self) {
        self.last_seen.store(now_ms(), Ordering::Relaxed);
    }
}

/// Hub settings.
#[derive(Clone, Copy, Debug)]
pub struct HubConfig {
    /// A game with no subscriber and no request for this long has its searches cancelled
    /// (they resume when it is opened again) and leaves memory.
    pub idle: Duration,
    /// How often the sweeper looks.
    pub sweep_every: Duration,
    /// A game with no stone that nobody has touched for this long is deleted.
    pub untouched: Duration,
    /// Session cookies are marked `Secure` (the site is served over HTTPS).
    pub secure_cookies: bool,
    /// How long a player of a game between people must have been gone before the
    /// other may claim the win or a draw.
    pub claim_after: Duration,
}

impl Default for HubConfig {
    fn default() -> Self {
        HubConfig {
            idle: Duration::from_secs(120),
            sweep_every: Duration::from_secs(15),
            untouched: Duration::from_secs(24 * 3600),
            secure_cookies: false,
            claim_after: Duration::from_secs(30),
        }
    }
}

/// All live games.
#[derive(Debug)]
pub struct Hub {
    games: Mutex<HashMap<GameId, Arc<Slot>>>,
    store: Store,
    engine: EngineHandle,
    config: HubConfig,
    closing: tokio::sync::watch::Sender<bool>,
    /// The last time the server was down, as (last sign of life, start-up) in Unix ms:
    /// clocks do not run through it.
    outage: Option<(i64, i64)>,
    /// Hints and analyses in progress per client address.
    analyses: Mutex<HashMap<IpAddr, usize>>,
    /// Sign-in attempts.
    throttle: crate::api::accounts::Throttle,
    /// Seeks and challenges between people.
    lobby: crate::lobby::Lobby,
    /// Chat messages per identity.
    chat_limiter: governor::DefaultKeyedRateLimiter<IdentityId>,
    /// When this node started (Unix ms).
    started: i64,
    /// Post-game reviews running here.
    reviews: crate::review::Reviews,
    /// Pages opened and closed, on their way to the store (see [`Hub::note_presence`]).
    presence_tx: tokio::sync::mpsc::UnboundedSender<PresenceNote>,
    /// The computer's moves and colour choices this node has started to search (shown by
    /// `GET /api/health`; a computer in the browser adds none).
    computer_searches: AtomicU64,
}

/// A page opened or closed, and who waits to hear whether its person is now gone.
type PresenceNote = (
    crate::store::Change,
    tokio::sync::oneshot::Sender<Result<bool, StoreError>>,
);
/// The store's answer to a [`PresenceNote`].
type PresenceAnswer = tokio::sync::oneshot::Receiver<Result<bool, StoreError>>;

/// Writes the pages opened and closed on this node: whatever queued up while the last
/// batch was written goes in the next one (one commit and a few notices for a crowd
/// leaving at once, no added wait for one alone).
async fn write_presence(store: Store, mut rx: tokio::sync::mpsc::UnboundedReceiver<PresenceNote>) {
    const BATCH: usize = 1000;
    while let Some(first) = rx.recv().await {
        let mut batch = vec![first];
        while batch.len() < BATCH {
            match rx.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        let (changes, replies): (Vec<_>, Vec<_>) = batch.into_iter().unzip();
        match store.presence_changes(changes, now_ms()).await {
            Ok(gone) => {
                for (reply, gone) in replies.into_iter().zip(gone) {
                    let _ = reply.send(Ok(gone));
                }
            }
            Err(e) => {
                let why = e.to_string();
                for reply in replies {
                    let _ = reply.send(Err(StoreError::Task(why.clone())));
                }
            }
        }
    }
}

/// The current time in Unix milliseconds.
#[must_use]
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Default time for a hint or analysis.
const DEFAULT_ANALYSIS_MS: u64 = 1000;
/// Longest hint or analysis.
const MAX_ANALYSIS_MS: u64 = 10_000;
/// Time the computer takes over a colour choice.
const CHOICE_MS: u64 = 400;
/// Hints and analyses one client address may have in progress at once.
pub const ANALYSES_PER_CLIENT: usize = 2;
/// How often the server notes that it is alive (the clock gives back the time it was
/// down, to within this).
pub const HEARTBEAT: Duration = Duration::from_secs(1);

impl Hub {
    /// A hub over a store and an engine pool. `outage` is the time the server was last
    /// down (see [`Store::last_alive`]).
    #[must_use]
    pub fn new(
        store: Store,
        engine: EngineHandle,
        config: HubConfig,
        outage: Option<(i64, i64)>,
    ) -> Arc<Hub> {
        let (presence_tx, presence_rx) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(write_presence(store.clone(), presence_rx));
        Arc::new(Hub {
            games: Mutex::new(HashMap::new()),
            store: store.clone(),
            engine,
            config,
            closing: tokio::sync::watch::Sender::new(false),
            outage,
            analyses: Mutex::new(HashMap::new()),
            throttle: crate::api::accounts::Throttle::default(),
            lobby: crate::lobby::Lobby::new(store.clone()),
            started: now_ms(),
            reviews: crate::review::Reviews::default(),
            presence_tx,
            computer_searches: AtomicU64::new(0),
            chat_limiter: governor::RateLimiter::keyed(
                governor::Quota::per_second(std::num::NonZeroU32::MIN)
                    .allow_burst(std::num::NonZeroU32::new(5).unwrap_or(std::num::NonZeroU32::MIN)),
            ),
        })
    }

    /// Follows the other nodes on the database (PostgreSQL): a game one of them wrote
    /// is read anew here if this node holds it, and its subscribers here are told, so a
    /// move made on one node reaches the sockets on every node. Nothing on SQLite.
    pub fn spawn_follow_store(self: &Arc<Self>) {
        use crate::store::db::Notice;
        let Some(mut notices) = self.store.listen() else {
            return;
        };
        let weak = Arc::downgrade(self);
        tokio::spawn(async move {
            while let Some(notice) = notices.recv().await {
                let Some(hub) = weak.upgrade() else { return };
                let slots: Vec<(Arc<Slot>, i64)> = match notice {
                    Notice::Game { id, revision } => id
                        .parse::<GameId>()
                        .ok()
                        .and_then(|id| hub.map().get(&id).cloned())
                        .map(|slot| (slot, revision))
                        .into_iter()
                        .collect(),
                    Notice::Chat { game, id } => {
                        hub.relay_chat(&game, id).await;
                        continue;
                    }
                    // Off the notice loop: a game's readers must not wait behind who
                    // came and went elsewhere.
                    Notice::Presence { places } => {
                        tokio::spawn(async move {
                            for place in places {
                                hub.presence_changed(&place).await;
                            }
                        });
                        continue;
                    }
                    Notice::Lobby { news } => {
                        match serde_json::from_str(&news) {
                            Ok(news) => hub.lobby.relay(news),
                            Err(e) => tracing::warn!(error = %e, "unreadable lobby news"),
                        }
                        continue;
                    }
                    // Notices were missed: read every game held here anew.
                    Notice::Resync => hub
                        .map()
                        .values()
                        .map(|s| (Arc::clone(s), i64::MAX))
                        .collect(),
                };
                for (slot, revision) in slots {
                    let mut game = slot.game.lock().await;
                    if game.revision() < revision
                        && let Err(e) = hub.refresh(&slot, &mut game).await
                    {
                        tracing::warn!(error = %e, "cannot read a game another node changed");
                    }
                }
            }
        });
    }

    /// Passes a chat message another node kept to this node's sockets on its game.
    async fn relay_chat(&self, game: &str, id: i64) {
        let Some(slot) = game
            .parse::<GameId>()
            .ok()
            .and_then(|g| self.map().get(&g).cloned())
        else {
            return;
        };
        let game = slot.game.lock().await.id().clone();
        match self.store.chat_message(game, id).await {
            Ok(Some(message)) => self.broadcast(&slot, ServerMsg::Chat { message }),
            Ok(None) => {}
            Err(e) => tracing::warn!(error = %e, "cannot read a chat message another node kept"),
        }
    }

    /// Loads the games whose clocks must be watched (see [`Store::watched_games`]), so a
    /// flag falls on time after a restart too.
    pub fn spawn_watch_stored(self: &Arc<Self>) {
        let hub = Arc::clone(self);
        tokio::spawn(async move {
            let ids = match hub.store.watched_games().await {
                Ok(ids) => ids,
                Err(e) => {
                    tracing::error!(error = %e, "cannot list the games to watch");
                    return;
                }
            };
            for id in ids {
                if let Err(e) = hub.slot(&id).await {
                    tracing::warn!(%id, error = %e, "cannot load a game to watch its clock");
                }
            }
        });
    }

    /// The games between people in play now: each one's view (with its spectator count).
    pub async fn live_games(&self) -> Vec<GameView> {
        let slots: Vec<Arc<Slot>> = self.map().values().cloned().collect();
        let mut out = Vec::new();
        let now = now_ms();
        for slot in slots {
            let game = slot.game.lock().await;
            if game.setup().mode == crate::live::Mode::Online && !game.game().is_over() {
                out.push(slot.view(&game, now));
            }
        }
        out
    }

    /// Sends every subscriber the game as it is now (who is there changed).
    pub async fn announce(&self, slot: &Slot) {
        let game = slot.game.lock().await;
        let view = slot.view(&game, now_ms());
        let _ = slot.tx.send(ServerMsg::State {
            game: Box::new(view),
        });
    }

    /// A socket of `who` opened on the game. Between people (`online`), where who is
    /// there is news, it is noted in the store for every node, and the slot's view of
    /// who is there is read anew.
    pub async fn enter(&self, slot: &Slot, who: Option<&IdentityId>, online: bool) {
        let noted = self.count_socket(slot, who, online, Step::Came);
        if let Some(answer) = noted {
            Self::noted(answer).await;
            self.reload_presence(slot).await;
        }
    }

    /// Counts a socket of `who` opened (`Step::Came`) or closed on the game here and,
    /// between people (`online`), queues the change for the store, both under the
    /// slot's lock: when the pages are noted again ([`Hub::note_all_presence`]), a
    /// page is either in that count and noted before it, or after it, never twice.
    fn count_socket(
        &self,
        slot: &Slot,
        who: Option<&IdentityId>,
        online: bool,
        step: Step,
    ) -> Option<PresenceAnswer> {
        let mut p = slot.presence();
        if step == Step::Came {
            p.enter(who);
        } else {
            p.leave(who);
        }
        online.then(|| {
            self.queue_presence(crate::store::Change {
                place: slot.id.to_string(),
                who: who.cloned(),
                step,
            })
        })
    }

    /// Queues a change of the pages open on this node for the store (written in order,
    /// with whatever else queued up, in one transaction).
    fn queue_presence(&self, change: crate::store::Change) -> PresenceAnswer {
        let (reply, answer) = tokio::sync::oneshot::channel();
        // A writer that stopped drops the reply: the wait below reports it.
        let _ = self.presence_tx.send((change, reply));
        answer
    }

    /// Waits for a queued change to be written.
    async fn noted(answer: PresenceAnswer) {
        let noted = answer
            .await
            .unwrap_or_else(|_| Err(StoreError::Task("the presence writer stopped".into())));
        if let Err(e) = noted {
            tracing::warn!(error = %e, "cannot note who has a game open");
        }
    }

    /// A socket of `who` closed on the game (see [`Hub::enter`]). While the server
    /// stops, the store is not told: its people are not away, they wait for a node.
    pub async fn leave(&self, slot: &Slot, who: Option<&IdentityId>, online: bool) {
        let noted = self.count_socket(slot, who, online && !self.is_closing(), Step::Left);
        if let Some(answer) = noted {
            Self::noted(answer).await;
            // Read who is there only for the pages still open here.
            if !slot.presence().sockets.is_empty() {
                self.reload_presence(slot).await;
            }
        }
    }

    /// Reads who has the game open on every node; returns whether a player came or
    /// went (spectators aside).
    pub async fn reload_presence(&self, slot: &Slot) -> bool {
        let _in_order = slot.reloading.lock().await;
        match self.store.presence(slot.id.to_string(), now_ms()).await {
            Ok(now) => {
                let mut p = slot.presence();
                let changed = p.everywhere.away != now.away;
                p.everywhere = now;
                changed
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot read who has a game open");
                false
            }
        }
    }

    /// Someone came to or left game `place` on another node (or their node is gone):
    /// this node's sockets on it are told.
    async fn presence_changed(&self, place: &str) {
        let Some(slot) = place
            .parse::<GameId>()
            .ok()
            .and_then(|g| self.map().get(&g).cloned())
        else {
            return;
        };
        let (owners, online) = {
            let g = slot.game.lock().await;
            (
                g.setup().owners.clone(),
                g.setup().mode == crate::live::Mode::Online,
            )
        };
        // Nobody here to tell (a claim reads the store anew).
        if !online || slot.presence().sockets.is_empty() {
            return;
        }
        let crowd = slot.spectators(&owners);
        if self.reload_presence(&slot).await {
            self.announce(&slot).await;
        } else if slot.spectators(&owners) != crowd {
            self.announce_crowd(&slot, &owners);
        }
    }

    /// Tells every subscriber how many spectators the game has now.
    pub fn announce_crowd(&self, slot: &Slot, owners: &Owners) {
        let _ = slot.tx.send(ServerMsg::Crowd {
            spectators: slot.spectators(owners),
        });
    }

    /// Whether `who` may send a chat message now (one a second, five at once).
    #[must_use]
    pub fn may_chat(&self, who: &IdentityId) -> bool {
        self.chat_limiter.check_key(who).is_ok()
    }

    /// Sends a message to the game's subscribers.
    pub fn broadcast(&self, slot: &Slot, msg: ServerMsg) {
        let _ = slot.tx.send(msg);
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &HubConfig {
        &self.config
    }

    /// The lobby.
    #[must_use]
    pub fn lobby(&self) -> &crate::lobby::Lobby {
        &self.lobby
    }

    /// The sign-in throttle.
    #[must_use]
    pub fn throttle(&self) -> &crate::api::accounts::Throttle {
        &self.throttle
    }

    /// Whether session cookies are marked `Secure`.
    #[must_use]
    pub fn secure_cookies(&self) -> bool {
        self.config.secure_cookies
    }

    /// The outage that clocks skip, if the server was down before this start.
    #[must_use]
    pub fn outage(&self) -> Option<(i64, i64)> {
        self.outage
    }

    /// Notes every [`HEARTBEAT`] that the server is alive, until the hub closes (and
    /// once more then), so that a restart knows how long the server was down.
    pub fn spawn_heartbeat(self: &Arc<Self>) {
        let weak = Arc::downgrade(self);
        let mut closing = self.closing.subscribe();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(HEARTBEAT);
            loop {
                let closed = tokio::select! {
                    _ = tick.tick() => false,
                    _ = closing.wait_for(|&c| c) => true,
                };
                let Some(hub) = weak.upgrade() else { return };
                if let Err(e) = hub.store.note_alive(now_ms()).await {
                    tracing::warn!(error = %e, "cannot note that the server is alive");
                }
                if closed {
                    // Its people are not away: they wait for another node, or this one.
                    if let Err(e) = hub.store.forget_presence().await {
                        tracing::warn!(error = %e, "cannot clear this node's presence");
                    }
                    return;
                }
                hub.node_heartbeat().await;
            }
        });
    }

    /// This node's heartbeat among the nodes: the leases of its searches are renewed,
    /// the jobs (computer moves, reviews) of nodes found gone are taken over, and those
    /// nodes' people are away (their seeks go, their games' sockets here are told).
    async fn node_heartbeat(self: &Arc<Self>) {
        let searching: Vec<GameId> = self
            .map()
            .values()
            .filter(|s| s.searches().iter().any(|r| r.purpose == Purpose::Move))
            .map(|s| s.id.clone())
            .collect();
        if let Err(e) = self.store.renew_jobs(searching, now_ms()).await {
            tracing::warn!(error = %e, "cannot renew the computer's jobs");
        }
        match self.store.take_over_jobs(now_ms()).await {
            Ok(games) => {
                for id in games {
                    self.take_over(&id).await;
                }
            }
            Err(e) => tracing::warn!(error = %e, "cannot look for jobs to take over"),
        }
        crate::review::take_over(self).await;
        let left = match self.store.heartbeat(now_ms(), self.started).await {
            Ok((left, missing)) => {
                if missing {
                    self.note_all_presence().await;
                }
                left
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot note this node's heartbeat");
                return;
            }
        };
        for crate::store::Left { place, who } in left {
            if place == crate::lobby::PLACE {
                self.lobby.gone(&who).await;
            } else {
                self.presence_changed(&place).await;
            }
        }
    }

    /// Notes again every page open on this node's games between people and in its
    /// lobby ([`crate::lobby::Lobby::note_again`]): another node found this one silent
    /// for too long and cleared its rows (a stall), or this node starts and pages opened
    /// before its first heartbeat. Each count is queued under its slot's lock and
    /// written as a count, not an increment (see [`Hub::count_socket`]), so a page
    /// whose own note is on its way is not counted twice (its person would never be
    /// away after closing it).
    async fn note_all_presence(&self) {
        let slots: Vec<Arc<Slot>> = self.map().values().cloned().collect();
        let mut notes = Vec::new();
        for slot in slots {
            if slot.game.lock().await.setup().mode != crate::live::Mode::Online {
                continue;
            }
            let p = slot.presence();
            for (who, &n) in &p.sockets {
                notes.push(self.queue_presence(crate::store::Change {
                    place: slot.id.to_string(),
                    who: who.clone(),
                    step: Step::Holds(i64::try_from(n).unwrap_or(i64::MAX)),
                }));
            }
        }
        if !notes.is_empty() {
            tracing::warn!(
                pages = notes.len(),
                "this node was taken for gone; noting its pages again"
            );
        }
        futures_util::future::join_all(notes.into_iter().map(Self::noted)).await;
        self.lobby.note_again(now_ms()).await;
    }

    /// Searches the computer's move of game `id`, whose job this node took over from a
    /// node that is gone (unless the move was made meanwhile).
    async fn take_over(self: &Arc<Self>, id: &str) {
        let Ok(gid) = id.parse::<GameId>() else {
            return;
        };
        let slot = match self.slot(&gid).await {
            Ok(slot) => slot,
            Err(Error::NotFound(_)) => {
                // The game is gone (deleted): so is its job.
                let _ = self.store.drop_job(gid).await;
                return;
            }
            Err(e) => {
                tracing::warn!(error = %e, id, "cannot load a game to take over its job");
                return;
            }
        };
        tracing::info!(id, "took over the computer's move from a node that is gone");
        let mut game = slot.game.lock().await;
        if let Err(e) = self.refresh(&slot, &mut game).await {
            tracing::warn!(error = %e, "cannot read a game taken over");
        }
        if game.computer_to_act().is_some() {
            self.follow_up(&slot, &game);
        } else {
            drop(game);
            let _ = self.store.drop_job(gid).await;
        }
    }

    /// Tells WebSocket sessions and long polls to end (graceful shutdown) and stops all
    /// searches.
    pub fn close(&self) {
        self.closing.send_replace(true);
        self.cancel_all();
    }

    /// Resolves once [`Hub::close`] has been called.
    pub async fn closed(&self) {
        let mut rx = self.closing.subscribe();
        let _ = rx.wait_for(|&c| c).await;
    }

    /// The store.
    #[must_use]
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The engine workers (reviews and the analysis board search through them too).
    #[must_use]
    pub fn engine(&self) -> &EngineHandle {
        &self.engine
    }

    /// The post-game reviews running on this node.
    #[must_use]
    pub fn reviews(&self) -> &crate::review::Reviews {
        &self.reviews
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<GameId, Arc<Slot>>> {
        self.games
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn insert(&self, live: LiveGame) -> Arc<Slot> {
        let id = live.id().clone();
        let (tx, _) = broadcast::channel(64);
        let slot = Arc::new(Slot {
            game: tokio::sync::Mutex::new(live),
            tx,
            searches: Mutex::new(Vec::new()),
            last_seen: AtomicI64::new(now_ms()),
            watched: AtomicU64::new(0),
            retired: AtomicBool::new(false),
            presence: Mutex::new(Presence::default()),
            reloading: tokio::sync::Mutex::new(()),
            id: id.clone(),
        });
        self.map().entry(id).or_insert(slot).clone()
    }

    /// The game with `id`, from memory or the store.
    pub async fn slot(self: &Arc<Self>, id: &GameId) -> Result<Arc<Slot>, Error> {
        let cached = self.map().get(id).cloned();
        let slot = match cached {
            Some(s) => s,
            None => {
                let stored =
                    self.store.load(id).await?.ok_or_else(|| {
                        Error::NotFound(format!("no game with id {:?}", id.as_str()))
                    })?;
                let mut live = LiveGame::from_stored(stored).map_err(Error::Internal)?;
                // A reloaded game resumes: its clock skips the time the server was down
                // (stored at once, so a second outage cannot charge the first), the
                // flag may have fallen meanwhile, or the computer may be to move.
                if live.resume(self.outage, now_ms()) {
                    match self.store.save(live.to_stored(), live.summary()).await {
                        Ok(revision) => live.set_revision(revision),
                        // Another node wrote it meanwhile: it is running there, take it
                        // as it is now.
                        Err(StoreError::Conflict(_)) => live = self.read(id).await?,
                        Err(e) => return Err(e.into()),
                    }
                }
                let slot = self.insert(live);
                self.act(&slot, |_, _| Ok(())).await.ok();
                tracing::debug!(%id, "game loaded");
                slot
            }
        };
        slot.touch();
        Ok(slot)
    }

    /// Creates and stores a new game.
    pub async fn create(self: &Arc<Self>, setup: Setup) -> Result<GameView, Error> {
        let now = now_ms();
        let live = LiveGame::new(GameId::random(), setup, now)?;
        let live = self.store_new(live).await?;
        let slot = self.insert(live);
        let game = slot.game.lock().await;
        self.follow_up(&slot, &game);
        Ok(slot.view(&game, now))
    }

    /// Stores an imported game that is already built.
    pub async fn adopt(self: &Arc<Self>, live: LiveGame) -> Result<GameView, Error> {
        let live = self.store_new(live).await?;
        let slot = self.insert(live);
        let game = slot.game.lock().await;
        self.follow_up(&slot, &game);
        Ok(slot.view(&game, now_ms()))
    }

    /// Inserts a new game, under a new id if its id is taken (ids are random: a clash
    /// is all but impossible, and it never overwrites a game).
    async fn store_new(&self, mut live: LiveGame) -> Result<LiveGame, Error> {
        for _ in 0..4 {
            match self.store.insert(live.to_stored(), live.summary()).await {
                Ok(()) => return Ok(live),
                Err(StoreError::Taken(id)) => {
                    tracing::warn!(%id, "a new game id was taken already; drawing another");
                    live.set_id(GameId::random());
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(Error::internal("no free game id after four draws"))
    }

    /// The current view (a flag that has fallen is applied first).
    pub async fn view(self: &Arc<Self>, slot: &Arc<Slot>) -> Result<GameView, Error> {
        self.act(slot, |_, _| Ok(())).await
    }

    /// Applies `f` to the game: on a copy, committed to the store before it replaces the
    /// live game, then broadcast. An `f` that fails changes nothing (but a fallen flag
    /// found on the way is still applied).
    pub async fn act<F>(self: &Arc<Self>, slot: &Arc<Slot>, f: F) -> Result<GameView, Error>
    where
        F: FnOnce(&mut LiveGame, i64) -> Result<(), Error>,
    {
        let mut game = slot.game.lock().await;
        if slot.retired.load(Ordering::Acquire) {
            return Err(Error::Stale(
                "the game was put aside meanwhile; reload it".into(),
            ));
        }
        let now = now_ms();
        let mut next = game.clone();
        let flagged = next.check_flag(now);
        let before = next.to_stored().state;
        let outcome = f(&mut next, now);
        let changed = flagged || (outcome.is_ok() && next.to_stored().state != before);
        if outcome.is_err() && flagged {
            // Keep the flag's fall, drop the refused action.
            next = game.clone();
            next.check_flag(now);
        }
        if changed {
            next.touch(now);
            match self.store.save(next.to_stored(), next.summary()).await {
                Ok(revision) => next.set_revision(revision),
                Err(StoreError::Conflict(_)) => {
                    // Another node changed the game first: nothing of ours was written.
                    // Take the game as stored, show it, and refuse the action.
                    self.refresh(slot, &mut game).await?;
                    return Err(Error::Stale(
                        "the game changed meanwhile; it is shown as it is now".into(),
                    ));
                }
                Err(e) => return Err(e.into()),
            }
            *game = next;
            // Whatever was being searched belongs to an older position.
            slot.cancel(None);
        }
        self.follow_up(slot, &game);
        let view = slot.view(&game, now);
        if changed {
            let _ = slot.tx.send(ServerMsg::State {
                game: Box::new(view.clone()),
            });
        }
        outcome.map(|()| view)
    }

    /// A stored game, as a live one.
    async fn read(&self, id: &GameId) -> Result<LiveGame, Error> {
        let stored = self
            .store
            .load(id)
            .await?
            .ok_or_else(|| Error::NotFound(format!("no game with id {:?}", id.as_str())))?;
        LiveGame::from_stored(stored).map_err(Error::Internal)
    }

    /// Replaces `game` (the slot's, locked) by the stored one if that is newer (another
    /// node changed it), stops searches of the old position and tells the subscribers.
    /// Whether it changed.
    async fn refresh(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        game: &mut LiveGame,
    ) -> Result<bool, Error> {
        let mut fresh = self.read(game.id()).await?;
        if fresh.revision() <= game.revision() {
            return Ok(false);
        }
        fresh.succeed(game);
        *game = fresh;
        slot.cancel(None);
        self.follow_up(slot, game);
        let view = slot.view(game, now_ms());
        let _ = slot.tx.send(ServerMsg::State {
            game: Box::new(view),
        });
        Ok(true)
    }

    /// The computer's moves and colour choices this node has started to search since it
    /// started.
    #[must_use]
    pub fn computer_searches(&self) -> u64 {
        self.computer_searches.load(Ordering::Relaxed)
    }

    /// After a change: start the computer if it must act (unless the person's browser
    /// searches its moves), and watch the clock.
    fn follow_up(self: &Arc<Self>, slot: &Arc<Slot>, game: &LiveGame) {
        if let Some(action) = game.computer_to_act()
            && !game.setup().computer_in_browser()
            && !slot.thinking(game.version())
        {
            self.start_computer(slot, game, action);
        }
        self.watch_deadline(slot, game);
    }

    /// Starts the clock watcher for the game's current version, if its clock runs and no
    /// watcher does yet.
    fn watch_deadline(self: &Arc<Self>, slot: &Arc<Slot>, game: &LiveGame) {
        if let Some(deadline) = game.deadline()
            && slot.watched.swap(game.version() + 1, Ordering::Relaxed) != game.version() + 1
        {
            let hub = Arc::clone(self);
            let slot = Arc::clone(slot);
            let version = game.version();
            tokio::spawn(async move { hub.watch_clock(slot, version, deadline).await });
        }
    }

    /// Ticks the clock to subscribers once a second and ends the game when the flag
    /// falls, until the game changes.
    async fn watch_clock(self: Arc<Self>, slot: Arc<Slot>, version: u64, deadline: i64) {
        loop {
            let now = now_ms();
            let wait = (deadline - now).clamp(0, 1000);
            tokio::time::sleep(Duration::from_millis(wait as u64 + 1)).await;
            let game = slot.game.lock().await;
            if game.version() != version || game.game().is_over() {
                return;
            }
            let now = now_ms();
            if now >= deadline {
                drop(game);
                if let Err(e) = self.act(&slot, |_, _| Ok(())).await {
                    tracing::error!(error = %e, "could not end a game on time");
                }
                return;
            }
            let c = game.clock();
            let _ = slot.tx.send(ServerMsg::Clock {
                black_ms: c.remaining(Color::Black, now).max(0),
                white_ms: c.remaining(Color::White, now).max(0),
                running: c.running,
            });
        }
    }

    fn register(&self, slot: &Slot, purpose: Purpose, version: u64) -> Arc<AtomicBool> {
        let stop = Arc::new(AtomicBool::new(false));
        slot.searches().push(Running {
            purpose,
            version,
            stop: Arc::clone(&stop),
            ahead: 0,
        });
        stop
    }

    /// Removes a finished search; `false` if it had been cancelled meanwhile (its answer
    /// must then be dropped).
    fn unregister(slot: &Slot, stop: &Arc<AtomicBool>) -> bool {
        let mut searches = slot.searches();
        let before = searches.len();
        searches.retain(|r| !Arc::ptr_eq(&r.stop, stop));
        searches.len() < before
    }

    fn progress(
        slot: &Slot,
        purpose: Purpose,
        pos: &Position,
    ) -> Box<dyn FnMut(&wuzi_engine::SearchInfo) + Send> {
        let tx = slot.tx.clone();
        let size = pos.size();
        let to_move = pos.to_move();
        Box::new(move |info| {
            if info.multipv <= 1 {
                let _ = tx.send(ServerMsg::Thinking(ThinkingView::new(
                    purpose, info, size, to_move,
                )));
            }
        })
    }

    /// Starts the computer's action for the game's current version.
    fn start_computer(self: &Arc<Self>, slot: &Arc<Slot>, game: &LiveGame, action: Action) {
        let version = game.version();
        let Some(computer) = game.setup().computer else {
            return;
        };
        // Opening stones of a swap opening come from a small book, not a search.
        if action == Action::Move && !game.opening().is_done() {
            if let Some(pos) = game.computer_opening_stone() {
                let hub = Arc::clone(self);
                let slot = Arc::clone(slot);
                let stop = self.register(&slot, Purpose::Move, version);
                tokio::spawn(async move {
                    // A short pause so a person sees the stones arrive one by one.
                    tokio::time::sleep(Duration::from_millis(250)).await;
                    if Hub::unregister(&slot, &stop) {
                        hub.computer_moves(&slot, version, pos).await;
                    }
                });
            }
            return;
        }
        let position = Position::from_game(game.game());
        let (searcher, limits) = match action {
            Action::Choose => (
                Searcher::Full,
                SearchLimits::per_move(Duration::from_millis(CHOICE_MS)),
            ),
            Action::Move => {
                let now = now_ms();
                let color = game.game().side_to_move();
                // The computer's clock stands while its move waits for a worker, so
                // what it has now is what it will have when the search starts.
                let clock = match game.setup().clock {
                    ClockSetup::None => None,
                    ClockSetup::Move { .. } => Some(MoveClock::PerMove {
                        limit_ms: game.setup().clock.initial_ms(),
                    }),
                    ClockSetup::Side { .. } => Some(MoveClock::Side {
                        remaining_ms: game.clock().remaining(color, now),
                        increment_ms: game.setup().clock.increment_ms(),
                    }),
                };
                (
                    Searcher::Player(computer.player.0),
                    move_limits(computer.player.0, clock),
                )
            }
        };
        let stop = self.register(slot, Purpose::Move, version);
        self.computer_searches.fetch_add(1, Ordering::Relaxed);
        let budget = limits.time.unwrap_or(Duration::from_millis(CHOICE_MS));
        let revision = game.revision();
        let job = Job {
            on_info: Hub::progress(slot, Purpose::Move, &position),
            position,
            searcher,
            limits,
            stop: Arc::clone(&stop),
        };
        let hub = Arc::clone(self);
        let slot = Arc::clone(slot);
        tokio::spawn(async move {
            // The caller holds the game's lock until it has sent the state that asks for
            // this move: submitting after it keeps the search's progress from arriving
            // before that state.
            drop(slot.game.lock().await);
            if !slot.searches().iter().any(|r| Arc::ptr_eq(&r.stop, &stop)) {
                return;
            }
            // One node searches each move: the one that holds its job. Another that
            // holds it already will write the move, and this node hears of it.
            match hub
                .store
                .claim_job(slot.id.clone(), revision, now_ms())
                .await
            {
                Ok(true) => {}
                Ok(false) => {
                    Hub::unregister(&slot, &stop);
                    tracing::debug!(id = %slot.id, "another node searches this move");
                    return;
                }
                Err(e) => tracing::warn!(error = %e, "cannot note the computer's job; searching"),
            }
            // A computer move is never refused: it waits its turn, and the players see
            // that it does.
            let ticket = match hub.engine.submit(job, JobClass::Move, budget) {
                Ok(t) => t,
                Err(e) => {
                    Hub::unregister(&slot, &stop);
                    tracing::error!(error = %e, "computer move not searched");
                    return;
                }
            };
            if ticket.ahead > 0 {
                slot.set_queued(&stop, ticket.ahead);
                let _ = slot.tx.send(ServerMsg::Queued {
                    ahead: ticket.ahead,
                });
            }
            if ticket.started.await.is_ok() {
                hub.computer_started(&slot, version, &stop).await;
            }
            let answer = ticket.answer.await;
            if !Hub::unregister(&slot, &stop) {
                // Cancelled (undo, restart, abandoned): the answer belongs to nobody.
                return;
            }
            let Ok(result) = answer else {
                // Only a panic in the engine drops a started job (logged by the worker);
                // the next look at the game searches the move again.
                return;
            };
            match action {
                Action::Move => match result.best {
                    Some(pos) => hub.computer_moves(&slot, version, pos).await,
                    None => tracing::warn!("engine found no move"),
                },
                Action::Choose => hub.computer_chooses(&slot, version, &result).await,
            }
        });
    }

    /// A worker took the computer's move: its clock starts now. This is not stored: a
    /// restart searches the move again with the clock standing until then.
    async fn computer_started(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        version: u64,
        stop: &Arc<AtomicBool>,
    ) {
        let mut game = slot.game.lock().await;
        let cancelled = !slot.searches().iter().any(|r| Arc::ptr_eq(&r.stop, stop));
        if cancelled || game.version() != version || slot.retired.load(Ordering::Acquire) {
            return;
        }
        slot.set_queued(stop, 0);
        let now = now_ms();
        game.start_computer_clock(now);
        let view = slot.view(&game, now);
        self.watch_deadline(slot, &game);
        let _ = slot.tx.send(ServerMsg::State {
            game: Box::new(view),
        });
    }

    /// Whether the server is stopping (see [`Hub::close`]).
    #[must_use]
    pub fn is_closing(&self) -> bool {
        *self.closing.borrow()
    }

    async fn computer_moves(self: &Arc<Self>, slot: &Arc<Slot>, version: u64, pos: Pos) {
        if self.is_closing() {
            return;
        }
        let r = self
            .act(slot, |g, now| {
                if g.version() != version {
                    return Err(Error::Stale("the position changed".into()));
                }
                g.play(Who::Computer, pos, now)
            })
            .await;
        match r {
            Ok(_) | Err(Error::Stale(_)) => {}
            Err(e) => tracing::error!(error = %e, "the computer's move was refused"),
        }
    }

    /// The computer chooses the colour its search prefers: the side to move (White after
    /// three or five stones) if its score is not negative, else Black.
    async fn computer_chooses(self: &Arc<Self>, slot: &Arc<Slot>, version: u64, r: &SearchResult) {
        if self.is_closing() {
            return;
        }
        let white_ok = r.score.win_probability() >= 0.5;
        let choice = if white_ok {
            Choice::White
        } else {
            Choice::Black
        };
        let result = self
            .act(slot, |g, now| {
                if g.version() != version {
                    return Err(Error::Stale("the position changed".into()));
                }
                g.choose(Who::Computer, choice, now)
            })
            .await;
        if let Err(e) = result
            && !matches!(e, Error::Stale(_))
        {
            tracing::error!(error = %e, "the computer's choice was refused");
        }
    }

    /// A hint or an analysis of the current position, at full strength, for `client`
    /// (its address; `None` for callers without one, such as tests). A game has one hint
    /// or analysis at a time (a new request replaces the one in progress), and a client
    /// at most [`ANALYSES_PER_CLIENT`].
    pub async fn analyze(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        purpose: Purpose,
        time_ms: Option<u64>,
        client: Option<IpAddr>,
        who: Option<&IdentityId>,
    ) -> Result<AnalysisView, Error> {
        let (position, version) = {
            let mut game = slot.game.lock().await;
            if game.check_flag(now_ms()) {
                drop(game);
                self.view(slot).await?;
                game = slot.game.lock().await;
            }
            // Only the game's players may ask (spectators may not use its engine time).
            game.authorize_any(who)?;
            game.refuse_if_rated("helped by the engine while it is played")?;
            game.authorize_all(who)?;
            match game.to_act() {
                None => return Err(Error::GameOver("the game is over".into())),
                Some((_, Action::Choose)) => {
                    return Err(Error::WrongPhase(
                        "a colour choice is pending; there is no move to analyse".into(),
                    ));
                }
                Some((seat, Action::Move)) if game.who(seat) == Who::Computer => {
                    return Err(Error::NotYourTurn(
                        "the computer is to move; wait for its move".into(),
                    ));
                }
                Some(_) => {}
            }
            (Position::from_game(game.game()), game.version())
        };
        let ms = time_ms
            .unwrap_or(DEFAULT_ANALYSIS_MS)
            .clamp(10, MAX_ANALYSIS_MS);
        let _client = self.client_analysis(client)?;
        slot.cancel(Some(Purpose::Hint));
        slot.cancel(Some(Purpose::Analysis));
        let stop = self.register(slot, purpose, version);
        let size = position.size();
        let to_move = position.to_move();
        let job = Job {
            on_info: Hub::progress(slot, purpose, &position),
            position,
            searcher: Searcher::Full,
            limits: SearchLimits::per_move(Duration::from_millis(ms)),
            stop: Arc::clone(&stop),
        };
        let answer = self.engine.search(job).await;
        let current = Hub::unregister(slot, &stop);
        match answer? {
            Some(r) if current => Ok(AnalysisView::new(&r, size, to_move)),
            _ => Err(Error::Stale(
                "the position changed, or a newer request replaced this one, while the engine was thinking".into(),
            )),
        }
    }

    /// Counts a hint or analysis for `client` until the guard drops; refused once the
    /// client has [`ANALYSES_PER_CLIENT`] in progress.
    pub(crate) fn client_analysis(
        self: &Arc<Self>,
        client: Option<IpAddr>,
    ) -> Result<ClientAnalysis, Error> {
        if let Some(ip) = client {
            let mut map = self
                .analyses
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let n = map.entry(ip).or_insert(0);
            if *n >= ANALYSES_PER_CLIENT {
                return Err(Error::TooManyRequests(format!(
                    "you already have {ANALYSES_PER_CLIENT} hints or analyses in progress; wait for one to finish"
                )));
            }
            *n += 1;
        }
        Ok(ClientAnalysis {
            hub: Arc::clone(self),
            client,
        })
    }

    /// Nobody watches the game any more: cancel its searches (the computer's move is
    /// searched again when the game is next opened).
    pub async fn abandon(&self, slot: &Slot) {
        // The computer's move it owed stays a job: its lease runs out and a node (this
        // one, or one where the game is still open) makes the move.
        slot.cancel(None);
        // The computer's clock stands until its search starts again.
        slot.game.lock().await.stop_computer_clock(now_ms());
        tracing::debug!("game abandoned: searches cancelled");
    }

    /// Stops hints and analyses at once, and makes a thinking computer move now.
    pub fn stop(&self, slot: &Slot) {
        slot.stop_all();
    }

    /// Cancels the searches of games nobody looks at any more and drops them from memory
    /// (they stay in the store and resume when opened again).
    pub fn sweep(&self) {
        let now = now_ms();
        let idle = self.config.idle.as_millis() as i64;
        let mut map = self.map();
        map.retain(|id, slot| {
            let quiet = slot.tx.receiver_count() == 0
                && now - slot.last_seen.load(Ordering::Relaxed) > idle;
            // Holding the lock, no action is half done while the slot retires.
            let Some(game) = quiet.then(|| slot.game.try_lock().ok()).flatten() else {
                return true;
            };
            // A rated or online game whose clock runs stays, so its flag falls on time:
            // leaving a lost position saves neither the game nor the rating.
            if game.needs_watching() {
                return true;
            }
            slot.retired.store(true, Ordering::Release);
            slot.cancel(None);
            tracing::debug!(%id, "idle game unloaded");
            false
        });
    }

    /// Deletes the stored games nobody played in for [`HubConfig::untouched`] (a game made
    /// by the New game button and left empty), except those in memory.
    pub async fn delete_untouched(&self) {
        let before = now_ms() - self.config.untouched.as_millis() as i64;
        let loaded: std::collections::HashSet<String> =
            self.map().keys().map(|id| id.to_string()).collect();
        match self
            .store
            .delete_untouched(before, move |id| loaded.contains(id))
            .await
        {
            Ok(0) => {}
            Ok(n) => tracing::info!(n, "untouched empty games deleted"),
            Err(e) => tracing::warn!(error = %e, "cannot delete untouched games"),
        }
    }

    /// Runs [`Hub::sweep`] periodically until the hub is dropped.
    pub fn spawn_sweeper(self: &Arc<Self>) {
        let weak = Arc::downgrade(self);
        let every = self.config.sweep_every;
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.tick().await;
            loop {
                tick.tick().await;
                match weak.upgrade() {
                    Some(hub) => {
                        hub.sweep();
                        hub.delete_untouched().await;
                    }
                    None => return,
                }
            }
        });
    }

    /// Stops every search of every game (shutdown).
    pub fn cancel_all(&self) {
        for slot in self.map().values() {
            slot.cancel(None);
        }
    }

    /// Number of games in memory.
    #[must_use]
    pub fn loaded(&self) -> usize {
        self.map().len()
    }
}

/// A client's hint or analysis in progress (see [`Hub::analyze`]).
pub(crate) struct ClientAnalysis {
    hub: Arc<Hub>,
    client: Option<IpAddr>,
}

impl Drop for ClientAnalysis {
    fn drop(&mut self) {
        if let Some(ip) = self.client {
            let mut map = self
                .hub
                .analyses
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Some(n) = map.get_mut(&ip) {
                *n -= 1;
                if *n == 0 {
                    map.remove(&ip);
                }
            }
        }
    }
}

/// Checks that a player name is known (for requests).
pub fn parse_player(name: &str) -> Result<PlayerKind, Error> {
    name.parse::<PlayerKind>()
        .map_err(|e| Error::BadRequest(e.to_string()))
}

/// The seat of the computer for a requested colour: Black is the first seat.
#[must_use]
pub fn seat_for(color: Color) -> Seat {
    match color {
        Color::Black => Seat::First,
        Color::White => Seat::Second,
    }
}
