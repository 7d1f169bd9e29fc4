//! `--paired-with DIR`: a match compared game by game with an earlier run's records on
//! the same openings. At fixed nodes most games repeat move for move, so the games whose
//! result changed say more about a change than two scores apart do.

use std::path::Path;

use wuzi_rules::record::sgf;
use wuzi_rules::{Color, Pos};

/// The first player's result in a game, in half points (0 lost, 1 drawn, 2 won).
pub type HalfPoints = u8;

/// The first player's results in the earlier run, by game index (`None`: no record).
#[derive(Debug)]
pub struct Baseline {
    results: Vec<Option<HalfPoints>>,
}

/// How the results of the games both runs played compare.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pairing {
    /// Games the first player did better in this time.
    pub better: u32,
    /// Games it did worse in.
    pub worse: u32,
    /// Games with the same result.
    pub same: u32,
    /// Games the earlier run has no record of.
    pub unpaired: u32,
}

/// The first player's half points when `winner` (a player index, `None` a draw) won.
#[must_use]
pub fn half_points(winner: Option<usize>) -> HalfPoints {
    match winner {
        Some(0) => 2,
        Some(_) => 0,
        None => 1,
    }
}

impl Baseline {
    /// Reads `dir/game-NNN.sgf` for the first `games` games of a match whose game `i`
    /// starts with `openings[(i / 2) % len]`, the first player Black in even games (as
    /// `wuzi match` plays and writes them). A missing record leaves its game unpaired; a
    /// record that cannot be read, has no result, or starts with another opening is an
    /// error: the runs are not comparable.
    pub fn load(dir: &Path, games: usize, openings: &[Vec<Pos>]) -> Result<Baseline, String> {
        if !dir.is_dir() {
            return Err(format!(
                "--paired-with: {} is not a directory",
                dir.display()
            ));
        }
        let mut results = Vec::with_capacity(games);
        for index in 0..games {
            let path = dir.join(format!("game-{:03}.sgf", index + 1));
            let Ok(text) = std::fs::read_to_string(&path) else {
                results.push(None);
                continue;
            };
            let name = path.display();
            let rec = sgf::read(&text).map_err(|e| format!("cannot read {name}: {e}"))?;
            let opening = &openings[(index / 2) % openings.len()];
            let start: Vec<Pos> = rec
                .moves
                .iter()
                .take(opening.len())
                .map(|m| m.pos)
                .collect();
            if &start != opening {
                return Err(format!(
                    "{name} does not start with this match's opening {}: not the same \
                     openings (or not the same order of players)",
                    (index / 2) % openings.len() + 1
                ));
            }
            // A result the moves decide (a five, a full board) is not written as one.
            let result = match rec.result {
                Some(r) => r,
                None => rec
                    .to_game()
                    .map_err(|e| format!("cannot replay {name}: {e}"))?
                    .result()
                    .cloned()
                    .ok_or_else(|| format!("{name} has no result"))?,
            };
            let first = if index % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            results.push(Some(half_points(
                result.winner.map(|c| usize::from(c != first)),
            )));
        }
        if results.iter().all(Option::is_none) {
            return Err(format!(
                "--paired-with: no game records (game-001.sgf, …) in {}",
                dir.display()
            ));
        }
        Ok(Baseline { results })
    }

    /// Counts game `index`, where the first player now scored `now`.
    pub fn count(&self, pairing: &mut Pairing, index: usize, now: HalfPoints) {
        match self.results.get(index).copied().flatten() {
            None => pairing.unpaired += 1,
            Some(then) if now > then => pairing.better += 1,
            Some(then) if now < then => pairing.worse += 1,
            Some(_) => pairing.same += 1,
        }
    }
}

impl Pairing {
    /// The sign test's z of better against worse (`None` when no result changed).
    #[must_use]
    pub fn z(&self) -> Option<f64> {
        let changed = self.better + self.worse;
        (changed > 0)
            .then(|| (f64::from(self.better) - f64::from(self.worse)) / f64::from(changed).sqrt())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_rules::{Game, GameConfig, Rule, Size, notation};

    use super::super::record;

    /// Writes game `index` of a two-opening match as `wuzi match` would: `winner` a
    /// player index or `None`.
    fn write(dir: &Path, index: usize, moves: &str, winner: Option<usize>) {
        let size = Size::STANDARD;
        let moves = notation::parse_moves(moves, size).unwrap();
        let game = Game::from_moves(GameConfig::new(Rule::Freestyle, size), &moves).unwrap();
        let black = index % 2;
        let colour = winner.map(|w| {
            if w == black {
                Color::Black
            } else {
                Color::White
            }
        });
        let rec = record::record(&game, ["a", "b"], colour, "test");
        let (_, text) = record::texts(&rec).unwrap();
        std::fs::write(dir.join(format!("game-{:03}.sgf", index + 1)), text).unwrap();
    }

    fn openings() -> Vec<Vec<Pos>> {
        ["h8 h9 j10", "h8 i9 h10"]
            .iter()
            .map(|m| notation::parse_moves(m, Size::STANDARD).unwrap())
            .collect()
    }

    #[test]
    fn results_are_the_first_players_by_colour_and_compare_game_by_game() {
        let dir = std::env::temp_dir().join(format!("wuzi-paired-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // Game 1: the first player Black wins; game 2: the first player (White) loses;
        // game 3: a draw; game 4: no record.
        write(&dir, 0, "h8 h9 j10 a1", Some(0));
        write(&dir, 1, "h8 h9 j10 a1", Some(1));
        write(&dir, 2, "h8 i9 h10 a1", None);
        let base = Baseline::load(&dir, 4, &openings()).unwrap();
        assert_eq!(base.results, vec![Some(2), Some(0), Some(1), None]);
        let mut p = Pairing::default();
        base.count(&mut p, 0, half_points(Some(1)));
        base.count(&mut p, 1, half_points(Some(0)));
        base.count(&mut p, 2, half_points(None));
        base.count(&mut p, 3, half_points(Some(0)));
        assert_eq!(
            p,
            Pairing {
                better: 1,
                worse: 1,
                same: 1,
                unpaired: 1
            }
        );
        assert_eq!(p.z(), Some(0.0));
        assert_eq!(Pairing::default().z(), None);

        // Records of other openings are refused, not paired.
        write(&dir, 2, "h8 h9 j10 a1", None);
        let err = Baseline::load(&dir, 4, &openings()).unwrap_err();
        assert!(
            err.contains("game-003.sgf") && err.contains("opening 2"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();

        let empty = std::env::temp_dir().join(format!("wuzi-paired-empty-{}", std::process::id()));
        std::fs::create_dir_all(&empty).unwrap();
        assert!(
            Baseline::load(&empty, 4, &openings())
                .unwrap_err()
                .contains("no game records")
        );
        std::fs::remove_dir_all(&empty).unwrap();
        assert!(
            Baseline::load(&empty, 4, &openings())
                .unwrap_err()
                .contains("not a directory")
        );
    }
}
