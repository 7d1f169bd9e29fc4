//! A fixed-node match between two feature sets of this engine, for changes whose cost
//! in time is nil or measured apart (an evaluation table, a pruning rule): the result
//! does not depend on the machine's load.
//!
//! ```text
//! cargo run --release -p wuzi-engine --example nodeduel -- RULE NODES PAIRS A B [SEED]
//! ```
//!
//! `A` and `B` switch features as `WUZI_FEATURES_OFF` does (`+learned`, `lmr,+rootvct`;
//! `-` for the defaults). Two fits meet with `+altweights` (the evaluation table of
//! `WUZI_EVAL_WEIGHTS_ALT`) or `+altpolicy` (the policy table of
//! `WUZI_POLICY_WEIGHTS_ALT`) on one side; `WUZI_TUNE_A` gives A other values of the
//! search's parameters (`name=value,...`, see `params::Tuning::with`). Each of `PAIRS`
//! random openings (3 to 6 stones near the centre, as `wuzi selfplay` makes them, from
//! `SEED`) is played twice, each side once Black ([`selfplay::duel_from`]); one thread
//! each, `NODES` nodes a move. Prints A's W-D-L, score and Elo with its 95% interval,
//! then the pairs by A's points in them (0, ½, 1, 1½, 2) and the interval from the
//! pairs' spread. A pair whose two games the same colour wins (A once, B once) says
//! nothing of A against B, and on random openings most pairs go so; the two games of a
//! pair are not independent, and the pairs' interval, the narrower, is the true one.
//!
//! With `WUZI_DUEL_BALANCED=N,M` each opening is kept only when a search of the
//! defaults on `N` nodes scores it within `M` evaluation units of even (candidates
//! drawn from other seeds until one is, at most 4,096 a pair): balanced openings leave
//! more pairs to the play (see `params.rs`, session 44).

use std::sync::atomic::AtomicBool;

use wuzi_engine::params::Features;
use wuzi_engine::selfplay;
use wuzi_engine::{Engine, EngineOptions, Position, Score, SearchLimits};
use wuzi_rules::{Color, Game, Rule, Size};

/// The `WUZI_DUEL_BALANCED` filter: nodes of the judging search, and the largest
/// score it may give the opening.
fn balance() -> Option<(u64, i32)> {
    let spec = std::env::var("WUZI_DUEL_BALANCED").ok()?;
    let parsed = spec
        .split_once(',')
        .and_then(|(n, m)| Some((n.trim().parse().ok()?, m.trim().parse().ok()?)));
    if parsed.is_none() {
        eprintln!("WUZI_DUEL_BALANCED: expected NODES,MAX, got {spec:?}");
        std::process::exit(2);
    }
    parsed
}

/// The opening of pair `pair`: the random opening of its seed, or with a filter the
/// first of the pair's candidate openings the judge scores within its bound.
fn opening(
    rule: Rule,
    size: Size,
    seed: u64,
    pair: u64,
    judge: &mut Option<(Engine, u64, i32)>,
) -> Game {
    let Some((engine, nodes, max)) = judge else {
        return selfplay::random_opening(rule, size, selfplay::game_seed(seed, pair));
    };
    let limits = SearchLimits {
        nodes: Some(*nodes),
        ..SearchLimits::default()
    };
    let stop = AtomicBool::new(false);
    let mut k = 0;
    loop {
        let candidate = selfplay::game_seed(seed ^ 0xBA1A_0CED, pair * 4096 + k);
        let game = selfplay::random_opening(rule, size, candidate);
        k += 1;
        if game.is_over() {
            continue;
        }
        engine.clear();
        let r = engine.search(&Position::from_game(&game), &limits, &stop, &mut |_| {});
        if matches!(r.score, Score::Eval(v) if v.abs() <= *max) || k >= 4096 {
            return game;
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 5 {
        eprintln!("usage: nodeduel RULE NODES PAIRS A B [SEED]");
        std::process::exit(2);
    }
    let rule: Rule = args[0].parse().expect("RULE");
    let nodes: u64 = args[1].parse().expect("NODES");
    let pairs: u64 = args[2].parse().expect("PAIRS");
    let mut features = [&args[3], &args[4]].map(|a| Features::ALL.switched(a));
    if let Ok(spec) = std::env::var("WUZI_TUNE_A") {
        features[0].tune = features[0].tune.with(&spec).unwrap_or_else(|e| {
            eprintln!("WUZI_TUNE_A: {e}");
            std::process::exit(2);
        });
    }
    let seed: u64 = args.get(5).map_or(1000, |s| s.parse().expect("SEED"));
    let size = Size::STANDARD;
    let limits = SearchLimits {
        nodes: Some(nodes),
        ..SearchLimits::default()
    };
    let mut engines = features.map(|f| {
        let mut e = Engine::new(EngineOptions {
            hash_mb: 16,
            threads: 1,
        });
        e.set_features(f);
        e
    });
    let mut judge = balance().map(|(n, m)| {
        let e = Engine::new(EngineOptions {
            hash_mb: 16,
            threads: 1,
        });
        (e, n, m)
    });
    let (mut w, mut d, mut l) = (0u32, 0u32, 0u32);
    // Pairs by A's score in them, in half points (0 to 4).
    let mut penta = [0u32; 5];
    for pair in 0..pairs {
        let before = 2 * w + d;
        let start = opening(rule, size, seed, pair, &mut judge);
        for a_black in [true, false] {
            let game = selfplay::duel_from(&mut engines, a_black, start.clone(), &limits);
            let a_color = if a_black { Color::Black } else { Color::White };
            match game.result().and_then(|r| r.winner) {
                Some(c) if c == a_color => w += 1,
                Some(_) => l += 1,
                None => d += 1,
            }
        }
        penta[(2 * w + d - before) as usize] += 1;
        if (pair + 1) % 10 == 0 {
            eprintln!("{} pairs: {}", pair + 1, summary(w, d, l));
        }
    }
    println!(
        "{rule} {nodes} nodes, A [{}] vs B [{}], {pairs} pairs seed {seed}: {}",
        args[3],
        args[4],
        summary(w, d, l)
    );
    println!(
        "pairs by A's points 0, ½, 1, 1½, 2: {penta:?}; by the pairs: {}",
        pair_summary(&penta)
    );
}

/// Score and Elo with the 95% interval of the mean pair score.
fn pair_summary(penta: &[u32; 5]) -> String {
    let outcomes: Vec<(f64, u32)> = (0..5).map(|k| (k as f64 / 4.0, penta[k])).collect();
    score_and_elo(&outcomes)
}

/// `W-D-L, score%, Elo (low..high)` with the 95% interval of the mean game score.
fn summary(w: u32, d: u32, l: u32) -> String {
    format!(
        "{w}-{d}-{l}, {}",
        score_and_elo(&[(1.0, w), (0.5, d), (0.0, l)])
    )
}

/// `score%, Elo (low..high)` of outcomes given as (score, how many), with the 95%
/// interval of their mean.
fn score_and_elo(outcomes: &[(f64, u32)]) -> String {
    let n = f64::from(outcomes.iter().map(|&(_, c)| c).sum::<u32>());
    let mean = outcomes.iter().map(|&(x, c)| x * f64::from(c)).sum::<f64>() / n;
    let var = outcomes
        .iter()
        .map(|&(x, c)| (x - mean).powi(2) * f64::from(c))
        .sum::<f64>()
        / n;
    let se = (var / n).sqrt();
    format!(
        "{:.1}%, {:+.0} ({:+.0}..{:+.0})",
        100.0 * mean,
        elo(mean),
        elo(mean - 1.96 * se),
        elo(mean + 1.96 * se)
    )
}

fn elo(p: f64) -> f64 {
    let p = p.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / p - 1.0).log10()
}
