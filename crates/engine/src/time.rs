//! The time manager: turns limits into a soft deadline (do not start another
//! iteration) and a hard one (stop now). The search only asks "should I stop?".

use std::time::Duration;

use crate::SearchLimits;
use crate::instant::Instant;

/// Kept back from every hard limit for the time between deciding and the move
/// reaching the opponent (unwinding the search, printing): this much, or a
/// sixty-fourth of the limit when that is more (never more than a third). The search
/// stops within a millisecond or two of its hard deadline (at 1 s a move, before
/// session 26, the slowest of wuzi's 1,151 moves in two matches against Rapfi took
/// 844.7 ms as `wuzi match` measured it, pipes included, with a hard deadline of
/// 843.75 ms); front ends that talk to a game manager keep [`turn_margin`] for pipes
/// and process start-up on top. (A sixteenth before session 26, a thirty-second
/// before session 34.)
pub const OVERHEAD: Duration = Duration::from_millis(10);

/// The margin a front end keeps from a game manager's time limit `t` (the Gomocup brain
/// from `timeout_turn` and `time_left`, `wuzi match` from each move's limit) for pipes,
/// scheduling and the manager's own timing: a sixty-fourth, between 10 ms and 250 ms.
/// At 200 ms a move the engine is told 190 ms: in session 38's matches against Rapfi
/// (freestyle, renju) and PentaZen, its median move took 162 ms as `wuzi match`
/// measured it, pipes included, and the slowest of 3,942 moves 187.8 ms. At 1 s it is
/// told 984 ms. (A fortieth and at least 20 ms, as before session 38, told it 180 ms of
/// 200 and 975 ms of 1 s: against Rapfi in session 36 the slowest of its 994 moves at
/// 200 ms took 172 ms as `wuzi match` measured it, pipes included, the median 153 ms,
/// where Rapfi's took 173 ms. An eighth and at least 40 ms, as it once was, left it 150
/// ms of 200: at 100 ms a move, freestyle, a tenth scored +44 (+5..+84) over 300 games
/// against it; the slowest move was 73 ms. A tenth up to 0.5 s, as before session 26,
/// left 156 ms of a 1 s move unused even in the slowest move, and the median move used
/// 759 ms of it. A twentieth, with a thirty-second of the rest for [`OVERHEAD`], as
/// before session 34, stopped the search at 828 ms of a 1 s move: wuzi's median move at
/// 1 s against Rapfi took 828 ms, Rapfi's 912 ms, and wuzi's slowest 864 ms.)
#[must_use]
pub fn turn_margin(t: Duration) -> Duration {
    (t / 64).clamp(Duration::from_millis(10), Duration::from_millis(250))
}

/// Share of the usable time per move after which no new iteration starts. A move's
/// time cannot be saved for later, and an iteration cut short still counts (its best
/// move once one beat alpha, and the table for the next move), so a new one starts
/// until the search deadline. At 65 (of the hard limit) an iteration that ended after
/// 110 ms of a 200 ms move ended the move: wuzi answered in a median 144 ms. At 100,
/// with [`FINAL_CHECK_PERCENT`] 10, the median is 152–156 ms (the hard limit is the
/// same): self-play at 200 ms a move, freestyle, the 26 canonical openings with both
/// colours, 75-11-70, +11 (−42..+64) over 156 games; against PentaZen 32-3-69, −129
/// (−206..−63), where the old limits scored 23-2-79, −209 (−300..−138), 104 games each
/// (a loaded machine, so played with a second of grace).
const MOVE_SOFT_PERCENT: u32 = 100;

/// Share of the hard limit kept back from the search for the final safety check of the
/// move about to be played, at most [`FINAL_CHECK_MAX`]: the search stops this much
/// before the hard limit, so even a search cut short mid-iteration plays a move the
/// opponent's VCT was looked for after (at 200 ms a move 18 ms, 17 before session 38:
/// some 5,000 solver nodes; 15 once, see `MOVE_SOFT_PERCENT` in this module). A search
/// limited by nodes alone keeps back the same share of its nodes (see
/// [`crate::SearchLimits::nodes`]).
pub const FINAL_CHECK_PERCENT: u32 = 10;

/// The most time kept back for the final safety check, whatever the limit. The check
/// usually ends far sooner than its node budget
/// ([`crate::params::FINAL_SAFETY_NODES`], 50,000, about 110 ms of the solver on this
/// machine): at 1 s a move against Rapfi (session 36, a tenth kept back), of wuzi's
/// 861 moves that were not played at once, 690 were played within 2 ms of the search's
/// stop (864 ms), 857 within 36 ms and all within 66 ms, so most of the 96 ms kept
/// back went unused; at 5 s a move the search stopped at 4.36 s of a 4.84 s hard limit
/// and the move was played by 4.40 s. The cap applies from about 0.5 s a move: below it
/// a tenth is kept (at 200 ms 18 ms; of 1,705 such moves in session 36, when it was
/// 17 ms, 246 used it up). (200 ms before session 38.)
pub const FINAL_CHECK_MAX: Duration = Duration::from_millis(50);

/// The part of `t` the search may use.
fn usable(t: Duration) -> Duration {
    t.saturating_sub(OVERHEAD.max(t / 64).min(t / 3))
}
/// Moves assumed left in the game when a clock has no moves-to-go.
pub const MOVES_HORIZON: u32 = 24;

/// Deadlines of one search: soft (no new iteration), search (the search stops) and
/// hard (the move is decided; the time between the search and the hard deadline is
/// the final safety check's).
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    search: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeManager {
    /// Deadlines for `limits`, counted from `start`.
    #[must_use]
    pub fn new(limits: &SearchLimits, start: Instant) -> TimeManager {
        let mut soft: Option<Duration> = None;
        let mut hard: Option<Duration> = None;
        let mut cap = |s: Duration, h: Duration| {
            soft = Some(soft.map_or(s, |x| x.min(s)));
            hard = Some(hard.map_or(h, |x| x.min(h)));
        };
        if let Some(t) = limits.time {
            let h = usable(t);
            cap(h * MOVE_SOFT_PERCENT / 100, h);
        }
        if let Some(c) = limits.clock {
            let left = usable(c.remaining);
            let moves = c
                .moves_to_go
                .unwrap_or(MOVES_HORIZON)
                .clamp(1, MOVES_HORIZON);
            let budget = (left / moves + c.increment * 3 / 4).min(left / 2);
            cap(budget * 6 / 10, (budget * 3).min(left / 3));
        }
        let search = hard.map(|h| h - (h * FINAL_CHECK_PERCENT / 100).min(FINAL_CHECK_MAX));
        TimeManager {
            start,
            soft: soft.zip(search).map(|(s, x)| s.min(x)),
            search,
            hard,
        }
    }

    /// Time since the start.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether another iteration should not be started.
    #[must_use]
    pub fn soft_expired(&self) -> bool {
        self.soft.is_some_and(|s| self.start.elapsed() >= s)
    }

    /// Whether the search must stop now (the final safety check may still run until
    /// the hard deadline).
    #[must_use]
    pub fn search_expired(&self) -> bool {
        self.search.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// The instant of the hard limit, if any.
    #[must_use]
    pub fn hard_deadline(&self) -> Option<Instant> {
        self.hard.map(|h| self.start + h)
    }

    /// Halfway from now to the search deadline, if any: the deadline of the safety
    /// checks during the search, which leave the other half for a search without the
    /// move they refute.
    #[must_use]
    pub fn half_time_left(&self) -> Option<Instant> {
        self.search.map(|s| self.start + s).map(|h| {
            let now = Instant::now();
            now + h.saturating_duration_since(now) / 2
        })
    }

    /// The hard limit, if any.
    #[must_use]
    pub fn hard(&self) -> Option<Duration> {
        self.hard
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Clock;

    #[test]
    fn deadlines_stay_inside_the_limits() {
        let now = Instant::now();
        let tm = TimeManager::new(&SearchLimits::per_move(Duration::from_millis(200)), now);
        assert!(tm.hard.unwrap() < Duration::from_millis(200));
        assert!(tm.soft.unwrap() <= tm.search.unwrap());
        assert!(tm.search.unwrap() < tm.hard.unwrap());
        let clock = SearchLimits {
            clock: Some(Clock {
                remaining: Duration::from_secs(10),
                increment: Duration::ZERO,
                moves_to_go: None,
            }),
            time: Some(Duration::from_secs(5)),
            ..SearchLimits::default()
        };
        let tm = TimeManager::new(&clock, now);
        assert!(tm.hard.unwrap() <= Duration::from_secs(10) / 3);
        // The final check's share: a tenth of a short move, at most FINAL_CHECK_MAX.
        let kept = |t: u64| {
            let tm = TimeManager::new(&SearchLimits::per_move(Duration::from_millis(t)), now);
            tm.hard.unwrap() - tm.search.unwrap()
        };
        assert_eq!(kept(200), usable(Duration::from_millis(200)) / 10);
        assert_eq!(kept(400), usable(Duration::from_millis(400)) / 10);
        assert_eq!(kept(1_000), FINAL_CHECK_MAX);
        assert_eq!(kept(30_000), FINAL_CHECK_MAX);
        // A move of a second is searched for more than nine tenths of it.
        let tm = TimeManager::new(&SearchLimits::per_move(Duration::from_secs(1)), now);
        assert!(tm.search.unwrap() > Duration::from_millis(900));
        let none = TimeManager::new(&SearchLimits::default(), now);
        assert!(!none.search_expired() && !none.soft_expired() && none.hard().is_none());
    }
}
