//! Lag compensation for games between people: each player's round trip is measured
//! with the WebSocket's own ping and pong, and the mover is credited with the estimated
//! one-way delay of their move, up to [`CAP_MS`] a move and never more than the move
//! took. A slow connection then costs its owner little clock time, and a fast one
//! gains nothing.

/// The most a move is credited, in milliseconds.
pub const CAP_MS: i64 = 500;
/// Weight of the newest round trip in the running estimate.
const ALPHA: f64 = 0.3;
/// Round trips longer than this are not taken as lag (a sleeping tab, a stall): ms.
const IGNORE_ABOVE_MS: i64 = 10_000;

/// A running estimate of one connection's round trip.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Lag {
    rtt_ms: Option<f64>,
}

impl Lag {
    /// Takes a measured round trip (ms) into the estimate.
    pub fn observe(&mut self, rtt_ms: i64) {
        if !(0..=IGNORE_ABOVE_MS).contains(&rtt_ms) {
            return;
        }
        let r = rtt_ms as f64;
        self.rtt_ms = Some(match self.rtt_ms {
            None => r,
            Some(old) => old + ALPHA * (r - old),
        });
    }

    /// The estimated round trip (ms), once measured.
    #[must_use]
    pub fn round_trip(&self) -> Option<i64> {
        self.rtt_ms.map(|r| r.round() as i64)
    }

    /// The credit for a move that took `elapsed_ms` on the server's clock: half the
    /// round trip (the move's way in), at most [`CAP_MS`] and at most `elapsed_ms`.
    #[must_use]
    pub fn credit(&self, elapsed_ms: i64) -> i64 {
        let one_way = self.round_trip().map_or(0, |r| r / 2);
        one_way.min(CAP_MS).min(elapsed_ms.max(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_estimate_follows_simulated_latency_and_the_credit_is_capped() {
        let mut lag = Lag::default();
        assert_eq!(lag.credit(1000), 0, "nothing measured, nothing credited");
        // A steady 300 ms round trip with one spike and one stall.
        for rtt in [300, 300, 900, 300, 300, 300, 60_000, 300, 300, 300] {
            lag.observe(rtt);
        }
        let est = lag.round_trip().unwrap();
        assert!((300..=360).contains(&est), "{est}");
        assert_eq!(lag.credit(5000), est / 2);
        assert_eq!(lag.credit(100), 100, "never more than the move took");
        // A very slow line: the cap.
        let mut slow = Lag::default();
        for _ in 0..5 {
            slow.observe(4000);
        }
        assert_eq!(slow.credit(10_000), CAP_MS);
    }
}
