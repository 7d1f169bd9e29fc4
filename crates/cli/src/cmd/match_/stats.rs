//! Match statistics: score, Elo difference with a 95% interval, and the SPRT.

/// Wins, draws and losses from the first player's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first player won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first player lost.
    pub losses: u32,
}

impl Tally {
    /// Number of games.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Score in `0.0..=1.0` (a draw counts half); `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n))
    }

    /// Per-game variance of the score.
    fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        let n = f64::from(self.games());
        let (w, d, l) = (
            f64::from(self.wins) / n,
            f64::from(self.draws) / n,
            f64::from(self.losses) / n,
        );
        Some(w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2))
    }

    /// The Elo difference and its 95% interval (normal approximation). The estimate is
    /// infinite when one side scored everything; the interval then uses the counts with
    /// half a win and half a loss added, so it still says how sure the result is.
    pub fn elo(&self) -> Option<(f64, f64, f64)> {
        let s = self.score()?;
        let n = f64::from(self.games());
        let var = self.variance()?;
        let se = if var > 1e-12 {
            (var / n).sqrt()
        } else {
            let (w, d, l) = (
                f64::from(self.wins) + 0.5,
                f64::from(self.draws),
                f64::from(self.losses) + 0.5,
            );
            let m = w + d + l;
            let s = (w + 0.5 * d) / m;
            let v = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / m;
            (v / m).sqrt()
        };
        let lo = elo_of(s - 1.96 * se);
        let hi = elo_of(s + 1.96 * se);
        Some((elo_of(s), lo, hi))
    }
}

/// The Elo difference that gives an expected score `s`.
pub fn elo_of(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score at an Elo difference.
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A sequential probability ratio test of H0 "elo = elo0" against H1 "elo = elo1".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtResult {
    /// Log-likelihood ratio.
    pub llr: f64,
    /// Accept H0 at or below this.
    pub lower: f64,
    /// Accept H1 at or above this.
    pub upper: f64,
    /// The verdict.
    pub verdict: Verdict,
}

/// An SPRT verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// H1 accepted: the first player is at least `elo1` stronger.
    H1,
    /// H0 accepted: not stronger than `elo0`.
    H0,
    /// Keep playing.
    Continue,
}

impl std::str::FromStr for Sprt {
    type Err = String;
    /// `elo0,elo1[,alpha,beta]` (alpha and beta default to 0.05).
    fn from_str(s: &str) -> Result<Self, String> {
        let nums: Result<Vec<f64>, _> = s.split(',').map(|p| p.trim().parse::<f64>()).collect();
        let nums = nums.map_err(|_| {
            format!("cannot read SPRT bounds {s:?} (expected elo0,elo1[,alpha,beta])")
        })?;
        let (elo0, elo1, alpha, beta) = match nums.as_slice() {
            [a, b] => (*a, *b, 0.05, 0.05),
            [a, b, c, d] => (*a, *b, *c, *d),
            _ => return Err(format!("SPRT takes 2 or 4 numbers, got {s:?}")),
        };
        if elo0 >= elo1 || !elo0.is_finite() || !elo1.is_finite() {
            return Err(format!("SPRT needs elo0 < elo1, got {elo0} and {elo1}"));
        }
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(format!("SPRT {name} must be in (0, 0.5), got {v}"));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }
}

impl Sprt {
    /// The test on a tally (the generalised SPRT with a normal approximation of the
    /// per-game score, as chess testing frameworks use). Half a win and half a loss are
    /// added to the counts so that a short one-sided run has a finite variance instead of
    /// an infinite likelihood ratio.
    pub fn test(&self, t: &Tally) -> SprtResult {
        let lower = (self.beta / (1.0 - self.alpha)).ln();
        let upper = ((1.0 - self.beta) / self.alpha).ln();
        let (s0, s1) = (score_of(self.elo0), score_of(self.elo1));
        let llr = if t.games() == 0 {
            0.0
        } else {
            let (w, d, l) = (
                f64::from(t.wins) + 0.5,
                f64::from(t.draws),
                f64::from(t.losses) + 0.5,
            );
            let n = w + d + l;
            let s = (w + 0.5 * d) / n;
            let var = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n;
            n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
        };
        let verdict = if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        };
        SprtResult {
            llr,
            lower,
            upper,
            verdict,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_score_are_inverse() {
        for e in [-400.0, -35.0, 0.0, 10.0, 191.0, 800.0] {
            assert!((elo_of(score_of(e)) - e).abs() < 1e-9, "{e}");
        }
        assert_eq!(elo_of(1.0), f64::INFINITY);
        assert_eq!(elo_of(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn elo_interval_brackets_the_estimate() {
        let t = Tally {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert_eq!(t.score(), Some(0.7));
        let (e, lo, hi) = t.elo().unwrap();
        assert!((e - 147.2).abs() < 0.1, "{e}");
        assert!(lo < e && e < hi);
        // More games, same ratio: a narrower interval.
        let t4 = Tally {
            wins: 240,
            draws: 80,
            losses: 80,
        };
        let (_, lo4, hi4) = t4.elo().unwrap();
        assert!(hi4 - lo4 < hi - lo);
        assert_eq!(Tally::default().elo(), None);
        // A clean sweep: infinite estimate, finite lower bound that grows with the games.
        let (e10, lo10, hi10) = Tally {
            wins: 10,
            draws: 0,
            losses: 0,
        }
        .elo()
        .unwrap();
        let (_, lo50, _) = Tally {
            wins: 50,
            draws: 0,
            losses: 0,
        }
        .elo()
        .unwrap();
        assert!(e10.is_infinite() && hi10.is_infinite());
        assert!(
            lo10.is_finite() && lo10 > 0.0 && lo50 > lo10,
            "{lo10} {lo50}"
        );
    }

    #[test]
    fn sprt_verdicts() {
        let sprt: Sprt = "0,10".parse().unwrap();
        assert_eq!(sprt.alpha, 0.05);
        let strong = Tally {
            wins: 700,
            draws: 100,
            losses: 200,
        };
        assert_eq!(sprt.test(&strong).verdict, Verdict::H1);
        let weak = Tally {
            wins: 200,
            draws: 100,
            losses: 700,
        };
        assert_eq!(sprt.test(&weak).verdict, Verdict::H0);
        let few = Tally {
            wins: 3,
            draws: 0,
            losses: 2,
        };
        assert_eq!(sprt.test(&few).verdict, Verdict::Continue);
        let bounds = sprt.test(&few);
        assert!((bounds.upper - 2.944).abs() < 1e-3 && (bounds.lower + 2.944).abs() < 1e-3);
        for bad in ["10,0", "0", "0,10,0.7,0.05", "a,b", "0,10,0.05"] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
    }
}
