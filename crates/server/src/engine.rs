//! The engine actor: searches run on worker threads that own their engines, never on the
//! async runtime.
//!
//! Callers [`submit`](EngineHandle::submit) a [`Job`] with a class and a budget (the wall
//! time from now within which its answer is due) and get a [`Ticket`]: one channel that
//! says when a worker takes the job, one for the answer. Each job carries its own stop
//! flag, raised by whoever cancels it (undo, restart, a new game, an abandoned game,
//! `stop`).
//!
//! The workers share the machine fairly instead of queueing for minutes:
//! - a worker takes the job whose answer is due first (earliest deadline first);
//! - it searches for at most the job's share of the time left before that deadline: the
//!   time left, times the number of workers, divided by the jobs due no later (this one
//!   included) plus the jobs already running, never less than [`MIN_SLICE`]. Alone a job
//!   gets its whole budget; fifty level-10 moves due at once get a fiftieth of the two
//!   workers' five seconds each, and all of them answer within the budget;
//! - when jobs arrive, the shares of the jobs already running shrink the same way: a
//!   timekeeper thread raises a running job's stop flag once it has had its new share (it
//!   then answers with its best move so far, as `stop` does);
//! - a computer move is never refused: each game has at most one, so their number is
//!   bounded by the games being played. Hints and analyses are refused with
//!   [`Error::Busy`] once `queue` of them wait, and they run on at most `workers - 1`
//!   workers when there are two or more, so a worker is always free for computer moves.
//!
//! This is the only module that calls `wuzi_engine`.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;
use wuzi_engine::{
    Clock, Engine, EngineOptions, PlayerKind, Position, Score, SearchInfo, SearchLimits,
    SearchResult,
};

use crate::error::Error;

/// Who searches: a computer player with its own strength, or the full engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Searcher {
    /// A level or classic AI, as in the game's settings.
    Player(PlayerKind),
    /// The full-strength engine (hints, analysis, opening decisions).
    Full,
    /// The threat solver (the analysis board's "find VCF / VCT") for the side to move.
    /// Its answer: `pv` the winning line (empty when none was found), `score` a win in
    /// that many plies, `nodes` the nodes searched, `depth` the attacker moves the search
    /// covered, 0 when the budget ran out before it finished.
    Threats(ThreatSearch),
}

/// Which threat search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreatSearch {
    /// Victory by continuous fours.
    Vcf,
    /// Victory by continuous threats (fours and open threes).
    Vct,
}

/// What a job is for, which decides how the pool treats it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobClass {
    /// A computer player's move or choice: never refused, never kept from a worker.
    Move,
    /// A hint or an analysis: refused when too many wait, kept off the last worker.
    Analysis,
    /// A post-game review's search: kept off the last worker like an analysis, and
    /// taken only when no move or analysis that may run waits (never refused: each
    /// game has at most one review job at a time, see [`crate::review`]).
    Review,
}

/// A search request.
pub struct Job {
    /// The position.
    pub position: Position,
    /// Who searches.
    pub searcher: Searcher,
    /// How long, at most (the pool may give less, see the module doc).
    pub limits: SearchLimits,
    /// Raised to cancel the search (it then answers with its best so far).
    pub stop: Arc<AtomicBool>,
    /// Progress reports, called on the worker thread.
    pub on_info: Box<dyn FnMut(&SearchInfo) + Send>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job")
            .field("searcher", &self.searcher)
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

/// Said when a worker takes a job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Started {
    /// How long the job waited for a worker.
    pub waited: Duration,
    /// The search time the job was given.
    pub time: Duration,
}

/// A submitted job: when it starts, and its answer.
#[derive(Debug)]
pub struct Ticket {
    /// Jobs that a worker takes before this one (0: it starts at once).
    pub ahead: usize,
    /// Resolves when a worker takes the job (closed if the job is dropped unstarted).
    pub started: oneshot::Receiver<Started>,
    /// The answer (closed if the job was dropped or the engine failed).
    pub answer: oneshot::Receiver<SearchResult>,
}

/// The shortest search a worker gives a job, however loaded the pool is.
pub const MIN_SLICE: Duration = Duration::from_millis(30);
/// What a job's search keeps back from its deadline for the rest of the work (stopping,
/// storing, sending).
const DEADLINE_MARGIN: Duration = Duration::from_millis(60);

struct Pending {
    seq: u64,
    class: JobClass,
    enqueued: Instant,
    deadline: Instant,
    job: Job,
    started: oneshot::Sender<Started>,
    reply: oneshot::Sender<SearchResult>,
}

/// A job being searched.
struct Active {
    seq: u64,
    class: JobClass,
    started: Instant,
    deadline: Instant,
    /// When the timekeeper stops it (its share so far).
    cutoff: Instant,
    stop: Arc<AtomicBool>,
}

#[derive(Default)]
struct Queue {
    pending: Vec<Pending>,
    active: Vec<Active>,
    next_seq: u64,
    closed: bool,
}

impl Queue {
    fn running_analyses(&self) -> usize {
        self.active
            .iter()
            .filter(|a| a.class != JobClass::Move)
            .count()
    }

    /// Jobs waiting that are due no later than `deadline`.
    fn due_by(&self, deadline: Instant) -> usize {
        self.pending
            .iter()
            .filter(|p| p.deadline <= deadline)
            .count()
    }

    /// Shrinks the shares of the running jobs to what is fair now.
    fn reshare(&mut self, workers: usize) {
        let counts: Vec<usize> = self
            .active
            .iter()
            .map(|a| self.due_by(a.deadline) + self.active.len())
            .collect();
        for (a, competing) in self.active.iter_mut().zip(counts) {
            let left = a
                .deadline
                .saturating_duration_since(a.started)
                .saturating_sub(DEADLINE_MARGIN);
            a.cutoff = a.cutoff.min(a.started + slice(left, workers, competing));
        }
    }
}

struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
    /// Wakes the timekeeper when shares change.
    reshared: Condvar,
    workers: usize,
    /// Hints and analyses that may wait.
    analysis_queue: usize,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Workers that hints and analyses may use.
    fn analysis_workers(&self) -> usize {
        if self.workers >= 2 {
            self.workers - 1
        } else {
            1
        }
    }

    /// The next job a worker should take (earliest deadline first, among those it may
    /// run), with the search time it gets. Drops jobs nobody waits for any more.
    fn take(&self, q: &mut Queue, now: Instant) -> Option<(Pending, Duration)> {
        q.pending.retain(|p| !p.reply.is_closed());
        let analyses_allowed = q.running_analyses() < self.analysis_workers();
        let may_run = |p: &Pending| p.class == JobClass::Move || analyses_allowed;
        // Reviews go last: only when nothing else that may run waits.
        let others_wait = q
            .pending
            .iter()
            .any(|p| p.class != JobClass::Review && may_run(p));
        let index = q
            .pending
            .iter()
            .enumerate()
            .filter(|(_, p)| may_run(p) && !(others_wait && p.class == JobClass::Review))
            .min_by_key(|(_, p)| (p.deadline, p.seq))
            .map(|(i, _)| i)?;
        let deadline = q.pending[index].deadline;
        let left = deadline
            .saturating_duration_since(now)
            .saturating_sub(DEADLINE_MARGIN);
        let share = slice(left, self.workers, q.due_by(deadline) + q.active.len());
        let pending = q.pending.swap_remove(index);
        q.active.push(Active {
            seq: pending.seq,
            class: pending.class,
            started: now,
            deadline,
            cutoff: now + share,
            stop: Arc::clone(&pending.job.stop),
        });
        Some((pending, share))
    }
}

/// Raises the stop flag of each running job that has had its share, until the pool
/// closes.
fn timekeeper(shared: &Shared) {
    let mut q = shared.lock();
    loop {
        if q.closed {
            return;
        }
        let now = Instant::now();
        let mut next: Option<Instant> = None;
        for a in &mut q.active {
            if a.cutoff <= now {
                a.stop.store(true, std::sync::atomic::Ordering::Relaxed);
                // Far enough that it is not raised again.
                a.cutoff = now + Duration::from_secs(86_400);
            } else {
                next = Some(next.map_or(a.cutoff, |n| n.min(a.cutoff)));
            }
        }
        q = match next {
            Some(at) => {
                shared
                    .reshared
                    .wait_timeout(q, at.saturating_duration_since(now))
                    .unwrap_or_else(PoisonError::into_inner)
                    .0
            }
            None => shared
                .reshared
                .wait(q)
                .unwrap_or_else(PoisonError::into_inner),
        };
    }
}

/// A job's share of `left`: `workers` searching side by side for `competing` jobs.
#[must_use]
pub fn slice(left: Duration, workers: usize, competing: usize) -> Duration {
    let share = left.mul_f64(workers.max(1) as f64 / competing.max(1) as f64);
    share.min(left).max(MIN_SLICE)
}

/// Sizes of the engine pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Worker threads (each owns one engine and searches one job at a time).
    pub workers: usize,
    /// Hash table per worker, MiB.
    pub hash_mb: usize,
    /// Hints and analyses that may wait (computer moves are never refused).
    pub queue: usize,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            workers: 2,
            hash_mb: 32,
            queue: 32,
        }
    }
}

/// Closes the queue when the last handle is gone, which ends the workers.
struct Closer(Arc<Shared>);

impl Drop for Closer {
    fn drop(&mut self) {
        self.0.lock().closed = true;
        self.0.ready.notify_all();
        self.0.reshared.notify_all();
    }
}

/// The handle to the engine workers; cheap to clone. The workers stop when every handle
/// is gone.
#[derive(Clone)]
pub struct EngineHandle {
    shared: Arc<Shared>,
    _closer: Arc<Closer>,
}

impl std::fmt::Debug for EngineHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineHandle")
            .field("workers", &self.shared.workers)
            .finish_non_exhaustive()
    }
}

impl EngineHandle {
    /// Starts the worker threads.
    pub fn start(config: EngineConfig) -> std::io::Result<EngineHandle> {
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue::default()),
            ready: Condvar::new(),
            reshared: Condvar::new(),
            workers: config.workers.max(1),
            analysis_queue: config.queue.max(1),
        });
        for i in 0..shared.workers {
            let shared = Arc::clone(&shared);
            let options = EngineOptions {
                hash_mb: config.hash_mb,
                threads: 1,
            };
            std::thread::Builder::new()
                .name(format!("wuzi-engine-{i}"))
                .spawn(move || worker(&shared, options))?;
        }
        let keeper = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("wuzi-engine-time".into())
            .spawn(move || timekeeper(&keeper))?;
        Ok(EngineHandle {
            _closer: Arc::new(Closer(Arc::clone(&shared))),
            shared,
        })
    }

    /// Queues a search whose answer is due within `budget`. Only hints and analyses can
    /// be refused ([`Error::Busy`], when too many of them wait).
    pub fn submit(&self, job: Job, class: JobClass, budget: Duration) -> Result<Ticket, Error> {
        let now = Instant::now();
        let (started, started_rx) = oneshot::channel();
        let (reply, answer) = oneshot::channel();
        let mut q = self.shared.lock();
        if q.closed {
            return Err(Error::internal("engine workers stopped"));
        }
        if class == JobClass::Analysis
            && q.pending
                .iter()
                .filter(|p| p.class == JobClass::Analysis)
                .count()
                >= self.shared.analysis_queue
        {
            return Err(Error::Busy);
        }
        let deadline = now + budget;
        let ahead = (q.due_by(deadline) + q.active.len() + 1).saturating_sub(self.shared.workers);
        let seq = q.next_seq;
        q.next_seq += 1;
        q.pending.push(Pending {
            seq,
            class,
            enqueued: now,
            deadline,
            job,
            started,
            reply,
        });
        q.reshare(self.shared.workers);
        drop(q);
        self.shared.ready.notify_one();
        self.shared.reshared.notify_one();
        Ok(Ticket {
            ahead,
            started: started_rx,
            answer,
        })
    }

    /// Queues a hint or analysis due within its time limit and waits for its answer.
    /// `Ok(None)` if the search was dropped (cancelled before it started, or the engine
    /// failed).
    pub async fn search(&self, job: Job) -> Result<Option<SearchResult>, Error> {
        let budget = job.limits.time.unwrap_or(Duration::from_secs(1));
        let ticket = self.submit(job, JobClass::Analysis, budget)?;
        Ok(ticket.answer.await.ok())
    }

    /// Jobs waiting for a worker, and jobs being searched.
    #[must_use]
    pub fn load(&self) -> (usize, usize) {
        let q = self.shared.lock();
        (q.pending.len(), q.active.len())
    }
}

fn worker(shared: &Shared, options: EngineOptions) {
    let mut engine = Engine::new(options);
    loop {
        let (pending, time) = {
            let mut q = shared.lock();
            loop {
                if let Some(next) = shared.take(&mut q, Instant::now()) {
                    break next;
                }
                if q.closed {
                    return;
                }
                q = shared.ready.wait(q).unwrap_or_else(PoisonError::into_inner);
            }
        };
        let seq = pending.seq;
        shared.reshared.notify_one();
        run(&mut engine, options, pending, time);
        shared.lock().active.retain(|a| a.seq != seq);
        // A finished analysis may let another one run.
        shared.ready.notify_all();
    }
}

fn run(engine: &mut Engine, options: EngineOptions, pending: Pending, time: Duration) {
    let Pending {
        enqueued,
        mut job,
        started,
        reply,
        ..
    } = pending;
    // A job raised before it started still runs: the engine then answers at once with
    // its first choice, which is what `stop` ("move now") asks for; a cancelled job's
    // answer is simply ignored by its game.
    let time = job.limits.time.map_or(time, |t| t.min(time));
    job.limits.time = Some(time);
    let _ = started.send(Started {
        waited: enqueued.elapsed(),
        time,
    });
    let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
        let on_info = &mut *job.on_info;
        match job.searcher {
            Searcher::Player(kind) => {
                kind.choose(engine, &job.position, &job.limits, &job.stop, on_info)
            }
            Searcher::Full => engine.search(&job.position, &job.limits, &job.stop, on_info),
            Searcher::Threats(kind) => solve(&job.position, kind, &job.limits, &job.stop),
        }
    }));
    match outcome {
        Ok(result) => {
            let _ = reply.send(result);
        }
        Err(_) => {
            tracing::error!(
                ?job,
                "engine search panicked; the worker gets a fresh engine"
            );
            *engine = Engine::new(options);
        }
    }
}

/// A threat search of `position` for its side to move (see [`Searcher::Threats`]).
fn solve(
    position: &Position,
    kind: ThreatSearch,
    limits: &SearchLimits,
    stop: &AtomicBool,
) -> SearchResult {
    use wuzi_engine::threat::{Solver, VCF_DEFAULT_DEPTH, VCT_DEFAULT_DEPTH};
    let started = Instant::now();
    let mut board = wuzi_engine::board::Board::new(position);
    let mut solver = Solver::new(limits, stop);
    let mut line = Vec::new();
    let depth = match kind {
        ThreatSearch::Vcf => limits.depth.unwrap_or(VCF_DEFAULT_DEPTH),
        ThreatSearch::Vct => limits.depth.unwrap_or(VCT_DEFAULT_DEPTH),
    };
    let found = match kind {
        ThreatSearch::Vcf => solver.vcf(&mut board, depth, &mut line),
        ThreatSearch::Vct => solver.vct(&mut board, depth, &mut line),
    };
    let pv: Vec<wuzi_rules::Pos> = if found {
        line.into_iter().map(wuzi_engine::board::pos_of).collect()
    } else {
        Vec::new()
    };
    SearchResult {
        best: pv.first().copied(),
        score: if found {
            Score::Win(pv.len() as u32)
        } else {
            Score::Eval(0)
        },
        depth: if solver.aborted() && !found { 0 } else { depth },
        pv,
        nodes: solver.nodes,
        time: started.elapsed(),
    }
}

/// Time per move for each level (index = level - 1): quick at the bottom, a few seconds
/// at full strength, always well under the 30 s a player will wait.
const LEVEL_MS: [u64; 10] = [150, 250, 350, 500, 700, 1000, 1500, 2000, 3000, 5000];
/// What the classic AIs get (they answer at once anyway).
const CLASSIC_MS: u64 = 500;
/// Time kept in hand so a move arrives before the flag falls.
const SAFETY_MS: i64 = 150;

/// The limits for a computer move: the player's time per move, cut to what the clock
/// allows (`clock` = own time left and increment, or a per-move limit).
#[must_use]
pub fn move_limits(player: PlayerKind, clock: Option<MoveClock>) -> SearchLimits {
    let mut ms = match player {
        PlayerKind::Level(n) => LEVEL_MS[usize::from(n.clamp(1, 10)) - 1],
        PlayerKind::Classic(_) => CLASSIC_MS,
    } as i64;
    let mut engine_clock = None;
    match clock {
        Some(MoveClock::PerMove { limit_ms }) => {
            ms = ms.min(limit_ms * 8 / 10 - SAFETY_MS);
        }
        Some(MoveClock::Side {
            remaining_ms,
            increment_ms,
        }) => {
            ms = ms.min(remaining_ms / 20 + increment_ms * 8 / 10);
            ms = ms.min(remaining_ms - SAFETY_MS);
            engine_clock = Some(Clock {
                remaining: Duration::from_millis(remaining_ms.max(0) as u64),
                increment: Duration::from_millis(increment_ms.max(0) as u64),
                moves_to_go: None,
            });
        }
        None => {}
    }
    SearchLimits {
        time: Some(Duration::from_millis(ms.max(20) as u64)),
        clock: engine_clock,
        ..SearchLimits::default()
    }
}

/// What the clock allows the computer for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveClock {
    /// A limit per move.
    PerMove {
        /// The limit.
        limit_ms: i64,
    },
    /// Time for the whole game.
    Side {
        /// Own time left.
        remaining_ms: i64,
        /// Increment per move.
        increment_ms: i64,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_rules::{Game, GameConfig, Rule, Size};

    #[test]
    fn a_job_alone_gets_its_budget_and_many_share_it() {
        let ms = Duration::from_millis;
        assert_eq!(slice(ms(5000), 2, 1), ms(5000));
        assert_eq!(slice(ms(5000), 2, 50), ms(200));
        assert_eq!(slice(ms(900), 1, 3), ms(300));
        assert_eq!(slice(Duration::ZERO, 2, 50), MIN_SLICE);
    }

    fn job(stop: &Arc<AtomicBool>, ms: u64) -> Job {
        let mut game = Game::new(GameConfig::new(Rule::Freestyle, Size::STANDARD)).unwrap();
        for m in ["h8", "i9", "j8"] {
            game.try_play(Size::STANDARD.parse_pos(m).unwrap()).unwrap();
        }
        Job {
            position: Position::from_game(&game),
            searcher: Searcher::Full,
            limits: SearchLimits::per_move(Duration::from_millis(ms)),
            stop: Arc::clone(stop),
            on_info: Box::new(|_| {}),
        }
    }

    /// Ten moves due within the same second on one worker: none is refused, and the
    /// search times the pool hands out add up to no more than that second (each job gets
    /// its share of what is left, not its whole budget).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn moves_due_together_share_the_time_and_are_never_refused() {
        let pool = EngineHandle::start(EngineConfig {
            workers: 1,
            hash_mb: 1,
            queue: 2,
        })
        .unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let budget = Duration::from_millis(1000);
        let tickets: Vec<Ticket> = (0..10)
            .map(|_| {
                pool.submit(job(&stop, 1000), JobClass::Move, budget)
                    .unwrap()
            })
            .collect();
        assert_eq!(tickets[0].ahead, 0);
        assert_eq!(tickets[9].ahead, 9);
        let mut searched = Duration::ZERO;
        for t in tickets {
            t.started.await.expect("every job starts");
            let answer = t.answer.await.expect("every job is answered");
            assert!(answer.best.is_some());
            searched += answer.time;
        }
        // Each would search for a second alone; together they share that second (the
        // first one, started alone, is cut short by the timekeeper when the rest come).
        assert!(
            searched < budget.mul_f64(1.5),
            "the jobs searched {searched:?} in all"
        );
        // Hints and analyses are refused once `queue` of them wait; moves never are.
        let blocker = pool
            .submit(job(&stop, 300), JobClass::Move, Duration::from_millis(300))
            .unwrap();
        let waiting: Vec<_> = (0..2)
            .map(|_| pool.submit(job(&stop, 50), JobClass::Analysis, Duration::from_secs(5)))
            .collect();
        assert!(waiting.iter().all(Result::is_ok));
        assert!(matches!(
            pool.submit(job(&stop, 50), JobClass::Analysis, Duration::from_secs(5)),
            Err(Error::Busy)
        ));
        assert!(
            pool.submit(job(&stop, 50), JobClass::Move, Duration::from_secs(5))
                .is_ok()
        );
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        blocker.answer.await.unwrap();
    }

    /// A review search waits while a move waits, even when the review is due first; the
    /// threat solver answers on a worker too.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn reviews_go_after_moves_and_the_solver_runs_on_a_worker() {
        let pool = EngineHandle::start(EngineConfig {
            workers: 1,
            hash_mb: 1,
            queue: 4,
        })
        .unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let ms = Duration::from_millis;
        let blocker = pool
            .submit(job(&stop, 200), JobClass::Move, ms(200))
            .unwrap();
        let mut review = pool
            .submit(job(&stop, 50), JobClass::Review, ms(300))
            .unwrap();
        let after = pool
            .submit(job(&stop, 50), JobClass::Move, Duration::from_secs(5))
            .unwrap();
        after.started.await.expect("the move starts");
        assert!(
            review.started.try_recv().is_err(),
            "the review waited for the move"
        );
        blocker.answer.await.unwrap();
        after.answer.await.unwrap();
        review.answer.await.expect("the review is answered after");
        // h8 a1 i8 a2 j8 a3 k8: Black to move has an open four, a VCF.
        let mut game = Game::new(GameConfig::new(Rule::Freestyle, Size::STANDARD)).unwrap();
        for m in ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4"] {
            game.try_play(Size::STANDARD.parse_pos(m).unwrap()).unwrap();
        }
        let vcf = Job {
            position: Position::from_game(&game),
            searcher: Searcher::Threats(ThreatSearch::Vcf),
            limits: SearchLimits::per_move(ms(500)),
            stop: Arc::clone(&stop),
            on_info: Box::new(|_| {}),
        };
        let r = pool
            .submit(vcf, JobClass::Review, Duration::from_secs(5))
            .unwrap()
            .answer
            .await
            .unwrap();
        assert!(matches!(r.score, Score::Win(1)), "{r:?}");
        let win = Size::STANDARD.notation(r.best.unwrap()).to_string();
        assert!(["g8", "l8"].contains(&win.as_str()), "{win}");
    }

    #[test]
    fn limits_respect_level_and_clock() {
        let t = |l: SearchLimits| l.time.unwrap().as_millis();
        assert_eq!(t(move_limits(PlayerKind::Level(1), None)), 150);
        assert_eq!(t(move_limits(PlayerKind::Level(10), None)), 5000);
        let tight = move_limits(
            PlayerKind::Level(10),
            Some(MoveClock::Side {
                remaining_ms: 2000,
                increment_ms: 0,
            }),
        );
        assert_eq!(t(tight.clone()), 100);
        assert!(tight.clock.is_some());
        let per_move = move_limits(
            PlayerKind::Level(10),
            Some(MoveClock::PerMove { limit_ms: 1000 }),
        );
        assert_eq!(t(per_move), 650);
    }
}
