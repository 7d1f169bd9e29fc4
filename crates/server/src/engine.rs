//! The engine actor: searches run on worker threads that own their engines, never on the
//! async runtime.
//!
//! Callers send a [`Job`] through a bounded queue and await the answer on a oneshot
//! channel. Each job carries its own stop flag, raised by whoever cancels it (undo,
//! restart, a new game, an abandoned game, `stop`). When the queue is full a job is
//! refused at once ([`Error::Busy`]) rather than piling up. This is the only module that
//! calls `wuzi_engine`.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};
use wuzi_engine::{
    Clock, Engine, EngineOptions, PlayerKind, Position, SearchInfo, SearchLimits, SearchResult,
};

use crate::error::Error;

/// Who searches: a computer player with its own strength, or the full engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Searcher {
    /// A level or classic AI, as in the game's settings.
    Player(PlayerKind),
    /// The full-strength engine (hints, analysis, opening decisions).
    Full,
}

/// A search request.
pub struct Job {
    /// The position.
    pub position: Position,
    /// Who searches.
    pub searcher: Searcher,
    /// How long.
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

struct Envelope {
    job: Job,
    reply: oneshot::Sender<SearchResult>,
}

/// Sizes of the engine pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Worker threads (each owns one engine and searches one job at a time).
    pub workers: usize,
    /// Hash table per worker, MiB.
    pub hash_mb: usize,
    /// Jobs that may wait in the queue.
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

/// The handle to the engine workers; cheap to clone. The workers stop when every handle
/// is gone.
#[derive(Clone, Debug)]
pub struct EngineHandle {
    tx: mpsc::Sender<Envelope>,
}

impl std::fmt::Debug for Envelope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.job.fmt(f)
    }
}

impl EngineHandle {
    /// Starts the worker threads.
    pub fn start(config: EngineConfig) -> std::io::Result<EngineHandle> {
        let (tx, rx) = mpsc::channel::<Envelope>(config.queue.max(1));
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..config.workers.max(1) {
            let rx = Arc::clone(&rx);
            let options = EngineOptions {
                hash_mb: config.hash_mb,
                threads: 1,
            };
            std::thread::Builder::new()
                .name(format!("wuzi-engine-{i}"))
                .spawn(move || worker(&rx, options))?;
        }
        Ok(EngineHandle { tx })
    }

    /// Queues a search and waits for its answer. `Ok(None)` if the search was dropped
    /// (cancelled before it started, or the engine failed).
    pub async fn search(&self, job: Job) -> Result<Option<SearchResult>, Error> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .try_send(Envelope { job, reply })
            .map_err(|e| match e {
                mpsc::error::TrySendError::Full(_) => Error::Busy,
                mpsc::error::TrySendError::Closed(_) => Error::internal("engine workers stopped"),
            })?;
        Ok(answer.await.ok())
    }
}

fn worker(rx: &Mutex<mpsc::Receiver<Envelope>>, options: EngineOptions) {
    let mut engine = Engine::new(options);
    loop {
        // One worker waits on the queue at a time; the others wait for the lock.
        let next = match rx.lock() {
            Ok(mut guard) => guard.blocking_recv(),
            Err(_) => None,
        };
        let Some(Envelope { mut job, reply }) = next else {
            return;
        };
        // A job raised before it started still runs: the engine then answers at once
        // with its first choice, which is what `stop` ("move now") asks for; a cancelled
        // job's answer is simply ignored by its game.
        if reply.is_closed() {
            continue;
        }
        let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
            let on_info = &mut *job.on_info;
            match job.searcher {
                Searcher::Player(kind) => {
                    kind.choose(&mut engine, &job.position, &job.limits, &job.stop, on_info)
                }
                Searcher::Full => engine.search(&job.position, &job.limits, &job.stop, on_info),
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
                engine = Engine::new(options);
            }
        }
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
