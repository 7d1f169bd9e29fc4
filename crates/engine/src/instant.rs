//! The engine's clock: the [`Instant`] its deadlines are measured with.
//!
//! Natively this is [`std::time::Instant`]. On `wasm32` (the engine in a browser,
//! `crates/wasm`) the standard library has no clock (`Instant::now` panics on
//! wasm32-unknown-unknown), so the embedder installs one with `set_time_source`
//! (the page's `performance.now()`); until it does, time stands still there, and only
//! node and depth limits end a search.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub use wasm::{Instant, set_time_source};

/// Entropy for the engine's game seeds: the time of day natively; on wasm32 the
/// installed clock's reading (the seed also mixes a counter, so engines differ).
#[must_use]
pub fn entropy() -> u64 {
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    }
    #[cfg(target_arch = "wasm32")]
    {
        wasm::now_ms().to_bits()
    }
}

#[cfg(target_arch = "wasm32")]
mod wasm {
    use std::ops::{Add, Sub};
    use std::sync::OnceLock;
    use std::time::Duration;

    static SOURCE: OnceLock<fn() -> f64> = OnceLock::new();

    /// Installs the clock: a function giving milliseconds since some fixed origin
    /// (`performance.now()`), never going back. Only the first call counts.
    pub fn set_time_source(now_ms: fn() -> f64) {
        let _ = SOURCE.set(now_ms);
    }

    pub(super) fn now_ms() -> f64 {
        SOURCE.get().map_or(0.0, |f| f())
    }

    /// A reading of the installed clock (the subset of `std::time::Instant` the engine
    /// uses).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct Instant(Duration);

    impl Instant {
        /// Now.
        #[must_use]
        pub fn now() -> Instant {
            Instant(Duration::from_secs_f64(now_ms().max(0.0) / 1000.0))
        }

        /// Time since `self`.
        #[must_use]
        pub fn elapsed(&self) -> Duration {
            Instant::now().saturating_duration_since(*self)
        }

        /// Time from `earlier` to `self`, zero when `earlier` is later.
        #[must_use]
        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            self.0.saturating_sub(earlier.0)
        }

        /// Time from `earlier` to `self`, zero when `earlier` is later.
        #[must_use]
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            self.saturating_duration_since(earlier)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0.saturating_add(d))
        }
    }

    impl Sub<Duration> for Instant {
        type Output = Instant;
        fn sub(self, d: Duration) -> Instant {
            Instant(self.0.saturating_sub(d))
        }
    }

    impl Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.saturating_duration_since(earlier)
        }
    }
}
