//! Who plays: an engine level (1 = beginner … 10 = full strength) or a classic AI.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use wuzi_rules::Pos;
use wuzi_rules::random::SplitMix64;

use crate::classic::ClassicAi;
use crate::instant::Instant;
use crate::{Engine, Position, Score, SearchInfo, SearchLimits, SearchResult};

/// A computer player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayerKind {
    /// The engine at a level from 1 (beginner) to 10 (full strength).
    Level(u8),
    /// One of the original designs' AIs.
    Classic(ClassicAi),
}

/// A player string that names no player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePlayerError(pub String);

impl fmt::Display for ParsePlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown player {:?} (expected level1..level10, classic-rank, classic-tuple or classic-greedy)",
            self.0
        )
    }
}

impl std::error::Error for ParsePlayerError {}

impl FromStr for PlayerKind {
    type Err = ParsePlayerError;
    /// `level5` (also `5`, `l5`), `classic-rank`, `classic-tuple`, `classic-greedy`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        let err = || ParsePlayerError(s.to_string());
        if t.starts_with("classic-") {
            return t
                .parse::<ClassicAi>()
                .map(PlayerKind::Classic)
                .map_err(|_| err());
        }
        let digits = t
            .strip_prefix("level")
            .or_else(|| t.strip_prefix('l'))
            .unwrap_or(&t);
        let n: u8 = digits.parse().map_err(|_| err())?;
        if (1..=10).contains(&n) {
            Ok(PlayerKind::Level(n))
        } else {
            Err(err())
        }
    }
}

impl fmt::Display for PlayerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerKind::Level(n) => write!(f, "level{n}"),
            PlayerKind::Classic(ai) => f.write_str(ai.name()),
        }
    }
}

/// What a level may spend and how it errs. See [`LEVELS`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelSpec {
    /// Deepest nominal search depth.
    pub depth: u32,
    /// Node budget per move.
    pub nodes: u64,
    /// Longest think per move.
    pub time: Duration,
    /// How many of the best moves it considers (N-best search).
    pub candidates: usize,
    /// Softmax temperature over their scores (in evaluation units; 0 = always the best).
    pub temperature: f64,
    /// Chance (per mille) of overlooking the opponent's threes and fours-to-be: the
    /// move is then picked from every point near the stones, as a beginner would.
    pub oversight: u32,
}

/// The levels 1..=10 (index 0 = level 1). Lower levels search less and err more:
///
/// | level | depth | nodes | time  | N-best | temperature | oversight |
/// |-------|-------|-------|-------|--------|-------------|-----------|
/// | 1     | 1     | 1k    | 0.1 s | 8      | 400         | 30%       |
/// | 2     | 2     | 3k    | 0.1 s | 8      | 250         | 20%       |
/// | 3     | 2     | 8k    | 0.2 s | 6      | 160         | 12%       |
/// | 4     | 3     | 20k   | 0.3 s | 6      | 100         | 7%        |
/// | 5     | 4     | 50k   | 0.5 s | 5      | 60          | 4%        |
/// | 6     | 5     | 100k  | 0.7 s | 4      | 35          | 2%        |
/// | 7     | 6     | 250k  | 1 s   | 4      | 20          | 1%        |
/// | 8     | 8     | 600k  | 1.5 s | 3      | 10          | 0         |
/// | 9     | 12    | 2M    | 2 s   | 2      | 4           | 0         |
/// | 10    | —     | —     | —     | 1      | 0           | 0         |
///
/// Every level takes a five when it has one, blocks the opponent's five, and never
/// plays a forbidden point. Level 10 is the full engine within the caller's limits.
/// Choices are random but reproducible: seeded by the engine's game seed and the
/// position's hash, so the same game replays the same way and new games differ.
pub const LEVELS: [LevelSpec; 10] = [
    level(1, 1_000, 100, 8, 400.0, 300),
    level(2, 3_000, 100, 8, 250.0, 200),
    level(2, 8_000, 200, 6, 160.0, 120),
    level(3, 20_000, 300, 6, 100.0, 70),
    level(4, 50_000, 500, 5, 60.0, 40),
    level(5, 100_000, 700, 4, 35.0, 20),
    level(6, 250_000, 1_000, 4, 20.0, 10),
    level(8, 600_000, 1_500, 3, 10.0, 0),
    level(12, 2_000_000, 2_000, 2, 4.0, 0),
    level(u32::MAX, u64::MAX, u64::MAX, 1, 0.0, 0),
];

const fn level(
    depth: u32,
    nodes: u64,
    ms: u64,
    candidates: usize,
    temperature: f64,
    oversight: u32,
) -> LevelSpec {
    LevelSpec {
        depth,
        nodes,
        time: Duration::from_millis(ms),
        candidates,
        temperature,
        oversight,
    }
}

impl PlayerKind {
    /// Full strength.
    pub const STRONGEST: PlayerKind = PlayerKind::Level(10);

    /// The player's move in `pos`. Levels below 10 cap the given limits with their own
    /// budget (see [`LEVELS`]); classic AIs ignore the limits.
    pub fn choose(
        &self,
        engine: &mut Engine,
        pos: &Position,
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        match *self {
            PlayerKind::Classic(ai) => {
                let start = Instant::now();
                let best = ai.choose_move(pos.config(), pos.board(), pos.to_move());
                SearchResult {
                    best,
                    score: Score::Eval(0),
                    pv: best.into_iter().collect(),
                    depth: 0,
                    nodes: 0,
                    time: start.elapsed(),
                }
            }
            PlayerKind::Level(level) if level >= 10 => engine.search(pos, limits, stop, on_info),
            PlayerKind::Level(level) => {
                let spec = LEVELS[usize::from(level.clamp(1, 9)) - 1];
                choose_at_level(&spec, engine, pos, limits, stop, on_info)
            }
        }
    }
}

fn choose_at_level(
    spec: &LevelSpec,
    engine: &mut Engine,
    pos: &Position,
    limits: &SearchLimits,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let start = Instant::now();
    let mut l = limits.clone();
    l.depth = Some(l.depth.map_or(spec.depth, |d| d.min(spec.depth)));
    l.nodes = Some(l.nodes.map_or(spec.nodes, |n| n.min(spec.nodes)));
    l.time = Some(l.time.map_or(spec.time, |t| t.min(spec.time)));
    l.multipv = spec.candidates;
    // Levels below full strength search with the hand-set evaluation: their ratings
    // were measured with it, and the learned one's scores are larger (about 1.4 times
    // in self-play), which would cool their choices among the N best. Nor do they use
    // the search changes made since (see [`crate::params::Features::for_levels`]).
    let features = engine.features();
    engine.set_features(features.for_levels());
    // Collect the N best lines of the last completed depth.
    let mut lines: Vec<SearchInfo> = Vec::new();
    let mut result = engine.search(pos, &l, stop, &mut |info| {
        if info.multipv == 1 {
            lines.clear();
        }
        lines.push(info.clone());
        on_info(info);
    });
    engine.set_features(features);
    let mut rng = SplitMix64::new(engine.game_seed() ^ pos.hash().rotate_left(7) ^ 0x1e7e1);
    let forced = result.score == Score::Win(1) || lines.len() <= 1;
    let roll = rng.below(1000) as u32;
    if !forced && roll < spec.oversight && !opponent_has_five(pos) {
        // Overlook threats: any legal point next to the stones.
        let near: Vec<Pos> = pos
            .legal_moves()
            .into_iter()
            .filter(|&p| {
                pos.size()
                    .points()
                    .any(|q| pos.board().get(q).color().is_some() && q.distance(p) <= 1)
            })
            .collect();
        if !near.is_empty() {
            let m = near[rng.below(near.len())];
            result.best = Some(m);
            result.pv = vec![m];
        }
    } else if !forced && spec.temperature > 0.0 {
        let value = |s: Score| match s {
            Score::Win(p) => 10_000.0 - f64::from(p),
            Score::Loss(p) => -10_000.0 + f64::from(p),
            Score::Eval(v) => f64::from(v),
        };
        let top = value(lines[0].score);
        let weights: Vec<f64> = lines
            .iter()
            .map(|i| ((value(i.score) - top) / spec.temperature).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        let mut x = (rng.next() >> 11) as f64 / (1u64 << 53) as f64 * total;
        for (i, w) in lines.iter().zip(&weights) {
            if x < *w {
                if let Some(&m) = i.pv.first() {
                    result.best = Some(m);
                    result.score = i.score;
                    result.pv = i.pv.clone();
                }
                break;
            }
            x -= w;
        }
    }
    result.time = start.elapsed();
    result
}

/// Whether the opponent of the side to move threatens a five (which every level blocks).
fn opponent_has_five(pos: &Position) -> bool {
    let opp = pos.to_move().opponent();
    pos.board().empty_points().any(|p| {
        pos.board()
            .winning_line(p, opp, pos.rule(), pos.k())
            .is_some()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params;

    #[test]
    fn names_roundtrip() {
        for p in (1..=10)
            .map(PlayerKind::Level)
            .chain(ClassicAi::ALL.map(PlayerKind::Classic))
        {
            assert_eq!(p.to_string().parse::<PlayerKind>().unwrap(), p);
        }
        assert_eq!("5".parse::<PlayerKind>().unwrap(), PlayerKind::Level(5));
        for bad in ["level0", "level11", "classic-", "classic-foo", "", "lvl"] {
            assert!(bad.parse::<PlayerKind>().is_err(), "{bad}");
        }
    }

    fn game(moves: &str, rule: wuzi_rules::Rule) -> Position {
        let size = wuzi_rules::Size::STANDARD;
        let g = wuzi_rules::Game::from_moves(
            wuzi_rules::GameConfig::new(rule, size),
            &wuzi_rules::notation::parse_moves(moves, size).unwrap(),
        )
        .unwrap();
        Position::from_game(&g)
    }

    /// A level plays the same moves whichever evaluation and search changes the engine
    /// uses at full strength (its ratings were measured with the hand-set evaluation
    /// and the search of then), and leaves the engine's features as they were.
    #[test]
    fn levels_keep_the_hand_set_evaluation() {
        let pos = game("h8 h9 i7 g9 j6", wuzi_rules::Rule::Freestyle);
        let mut moves = Vec::new();
        let all = params::Features::ALL;
        let every_change = params::Features {
            learned_eval: true,
            deep_futility: true,
            eval_order: true,
            threat_quiet: true,
            exact_forbidden: true,
            policy_order: true,
            policy_prune: true,
            policy_reduce: true,
            policy_sharp: true,
            policy_game_moves: true,
            threat_mask: true,
            net: true,
            counter_block: true,
            defuse: true,
            ..all
        };
        for features in [all, all.for_levels(), every_change] {
            let mut engine = Engine::new(crate::EngineOptions {
                hash_mb: 1,
                threads: 1,
            });
            engine.set_features(features);
            engine.set_game_seed(11);
            let limits = SearchLimits {
                depth: Some(2),
                ..SearchLimits::default()
            };
            let r = PlayerKind::Level(4).choose(
                &mut engine,
                &pos,
                &limits,
                &AtomicBool::new(false),
                &mut |_| {},
            );
            moves.push(r.best);
            assert_eq!(engine.features(), features);
        }
        assert!(moves.iter().all(|&m| m == moves[0]), "{moves:?}");
    }

    #[test]
    fn levels_are_legal_reproducible_and_varied() {
        let positions = [
            game("h8 i9 j8 i8", wuzi_rules::Rule::Renju),
            game("h8 h9 i7 g9", wuzi_rules::Rule::Freestyle),
            game("h8 i7 g9 i9 i8", wuzi_rules::Rule::Standard),
        ];
        let stop = AtomicBool::new(false);
        let mut differ = 0;
        for level in 1..=9u8 {
            let p = PlayerKind::Level(level);
            for pos in &positions {
                let mut moves = Vec::new();
                for seed in [1u64, 1, 2, 3, 4] {
                    let mut e = Engine::new(crate::EngineOptions::default());
                    e.set_game_seed(seed);
                    let limits = SearchLimits {
                        nodes: Some(4_000),
                        ..SearchLimits::default()
                    };
                    let r = p.choose(&mut e, pos, &limits, &stop, &mut |_| {});
                    let m = r.best.unwrap();
                    assert!(pos.is_legal(m), "level {level} played {m:?}");
                    moves.push(m);
                }
                assert_eq!(moves[0], moves[1], "same seed, same move (level {level})");
                if moves[1..].iter().any(|&m| m != moves[1]) {
                    differ += 1;
                }
            }
        }
        assert!(differ >= 5, "levels vary their moves ({differ})");
    }

    #[test]
    fn every_level_blocks_a_four_and_takes_a_five() {
        let stop = AtomicBool::new(false);
        // White (to move) must block black's four at l8 ... or win at once if it can.
        let block = game("h8 h9 i8 i9 j8 j9 k8", wuzi_rules::Rule::Freestyle);
        let five = game("h8 h9 i8 i9 j8 j9 k8 k9", wuzi_rules::Rule::Freestyle);
        for level in 1..=10u8 {
            let mut e = Engine::new(crate::EngineOptions::default());
            let r = PlayerKind::Level(level).choose(
                &mut e,
                &block,
                &SearchLimits::default(),
                &stop,
                &mut |_| {},
            );
            let name = wuzi_rules::Size::STANDARD
                .notation(r.best.unwrap())
                .to_string();
            assert!(name == "g8" || name == "l8", "level {level}: {name}");
            let r = PlayerKind::Level(level).choose(
                &mut e,
                &five,
                &SearchLimits::default(),
                &stop,
                &mut |_| {},
            );
            let name = wuzi_rules::Size::STANDARD
                .notation(r.best.unwrap())
                .to_string();
            assert!(name == "g8" || name == "l8", "level {level}: {name}");
        }
    }
}
