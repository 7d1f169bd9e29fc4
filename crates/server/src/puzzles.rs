//! Puzzles: the set the server ships (`puzzles/puzzles.jsonl`, mined by `wuzi puzzles
//! mine` and proven by `wuzi puzzles check`; see `puzzles/README.md`), loaded into the
//! store at start, and their views for the API. The page checks a solution against the
//! puzzle's tree itself (it works offline too); the server rates the first try of each
//! puzzle for each person (Glicko-2, as games are: [`crate::rating`]).

use serde::Serialize;
use wuzi_engine::puzzle::record::PuzzleRecord;

use crate::store::{PuzzlePlayer, PuzzleRow, Store, StoreError};

/// The shipped puzzle file.
pub const BUILTIN: &str = include_str!("../puzzles/puzzles.jsonl");

/// The shipped puzzles, read (a line that does not read is skipped with a warning; the
/// engine's tests prove every line).
#[must_use]
pub fn builtin() -> Vec<PuzzleRecord> {
    BUILTIN
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| match PuzzleRecord::parse(l) {
            Ok(r) => Some(r),
            Err(e) => {
                tracing::warn!(error = %e, "a shipped puzzle does not read");
                None
            }
        })
        .collect()
}

/// Adds the shipped puzzles the store lacks; returns how many were new.
///
/// # Errors
/// The store's.
pub async fn seed(store: &Store) -> Result<u64, StoreError> {
    let rows = builtin()
        .into_iter()
        .map(|r| {
            (
                r.id.clone(),
                r.rule.to_string(),
                r.theme.name().to_string(),
                r.to_json().to_string(),
                f64::from(r.rating),
            )
        })
        .collect();
    store.add_puzzles(rows).await
}

/// A puzzle as the page gets it: the position, the theme, the solution tree and how
/// players have done.
#[derive(Clone, Debug, Serialize)]
pub struct PuzzleView {
    /// Its id.
    pub id: String,
    /// The record (position, `solution` tree, `theme`, `source`, …) as in the file.
    pub record: serde_json::Value,
    /// Its rating now.
    pub rating: i64,
    /// Rated tries.
    pub plays: i64,
    /// Solved tries.
    pub solved: i64,
}

impl PuzzleView {
    /// The view of a stored puzzle.
    ///
    /// # Errors
    /// A stored body that is not JSON.
    pub fn of(row: &PuzzleRow) -> Result<PuzzleView, crate::Error> {
        let record = serde_json::from_str(&row.body)
            .map_err(|e| crate::Error::Internal(format!("puzzle {}: {e}", row.id)))?;
        Ok(PuzzleView {
            id: row.id.clone(),
            record,
            rating: row.rating.rating.round() as i64,
            plays: row.plays,
            solved: row.solved,
        })
    }
}

/// A person's puzzle rating as the page gets it.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerView {
    /// The rating.
    pub rating: i64,
    /// Its deviation.
    pub deviation: i64,
    /// Whether the rating is still uncertain (shown with a `?`).
    pub provisional: bool,
    /// Puzzles solved in a row.
    pub streak: i64,
    /// The longest streak.
    pub best_streak: i64,
    /// Rated tries.
    pub plays: i64,
    /// Solved tries.
    pub solved: i64,
}

impl From<&PuzzlePlayer> for PlayerView {
    fn from(p: &PuzzlePlayer) -> Self {
        PlayerView {
            rating: p.rating.rating.round() as i64,
            deviation: p.rating.deviation.round() as i64,
            provisional: p.rating.deviation > crate::rating::PROVISIONAL_DEVIATION,
            streak: p.streak,
            best_streak: p.best_streak,
            plays: p.plays,
            solved: p.solved,
        }
    }
}
