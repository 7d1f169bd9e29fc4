//! Search scores.

use std::fmt;

/// Scale of [`Score::Eval`] in the logistic win-probability model: an evaluation of
/// `EVAL_SCALE` is about a 73% winning chance.
pub const EVAL_SCALE: f32 = 400.0;

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// A heuristic evaluation (positive favours the side to move).
    Eval(i32),
    /// A forced win in this many plies (1 = the side to move wins with its next stone).
    Win(u32),
    /// A forced loss in this many plies.
    Loss(u32),
}

/// Scores order by how good they are for the side to move: a loss, later losses above
/// sooner ones; then evaluations; then wins, sooner wins above later ones.
impl Ord for Score {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        fn key(s: &Score) -> (i8, i64) {
            match *s {
                Score::Loss(p) => (-1, i64::from(p)),
                Score::Eval(v) => (0, i64::from(v)),
                Score::Win(p) => (1, -i64::from(p)),
            }
        }
        key(self).cmp(&key(other))
    }
}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Score {
    /// The estimated probability that the side to move wins, in `0.0..=1.0`.
    #[must_use]
    pub fn win_probability(&self) -> f32 {
        match *self {
            Score::Win(_) => 1.0,
            Score::Loss(_) => 0.0,
            Score::Eval(v) => 1.0 / (1.0 + (-(v as f32) / EVAL_SCALE).exp()),
        }
    }

    /// "Mate in N": the number of own moves to a forced win (positive) or loss (negative).
    #[must_use]
    pub fn mate_in(&self) -> Option<i32> {
        match *self {
            Score::Win(p) => Some(p.div_ceil(2) as i32),
            Score::Loss(p) => Some(-(p.div_ceil(2) as i32)),
            Score::Eval(_) => None,
        }
    }

    /// Whether this is a proven result.
    #[must_use]
    pub fn is_decisive(&self) -> bool {
        !matches!(self, Score::Eval(_))
    }
}

impl fmt::Display for Score {
    /// `+35`, `-120`, `win in 3` (own moves), `loss in 2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Eval(v) => write!(f, "{v:+}"),
            Score::Win(p) => write!(f, "win in {}", p.div_ceil(2)),
            Score::Loss(p) => write!(f, "loss in {}", p.div_ceil(2)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_order_by_what_they_promise() {
        let ascending = [
            Score::Loss(1),
            Score::Loss(9),
            Score::Eval(-500),
            Score::Eval(0),
            Score::Eval(30),
            Score::Win(11),
            Score::Win(3),
        ];
        for (i, a) in ascending.iter().enumerate() {
            for (j, b) in ascending.iter().enumerate() {
                assert_eq!(a.cmp(b), i.cmp(&j), "{a:?} against {b:?}");
            }
        }
    }

    #[test]
    fn probabilities_are_monotone_and_bounded() {
        let mut last = -1.0;
        for v in (-3000..=3000).step_by(100) {
            let p = Score::Eval(v).win_probability();
            assert!((0.0..=1.0).contains(&p));
            assert!(p > last, "not increasing at {v}");
            last = p;
        }
        assert!((Score::Eval(0).win_probability() - 0.5).abs() < 1e-6);
        assert_eq!(Score::Win(3).win_probability(), 1.0);
        assert_eq!(Score::Loss(2).win_probability(), 0.0);
    }

    #[test]
    fn mate_counts_own_moves() {
        assert_eq!(Score::Win(1).mate_in(), Some(1));
        assert_eq!(Score::Win(3).mate_in(), Some(2));
        assert_eq!(Score::Loss(2).mate_in(), Some(-1));
        assert_eq!(Score::Eval(5).mate_in(), None);
        assert_eq!(Score::Win(5).to_string(), "win in 3");
    }
}
