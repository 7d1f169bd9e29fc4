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
//! `SEED`) is played twice, each side once Black ([`selfplay::duel_game`]); one thread
//! each, `NODES` nodes a move. Prints A's W-D-L, score and Elo with its 95% interval.

use wuzi_engine::params::Features;
use wuzi_engine::selfplay;
use wuzi_engine::{Engine, EngineOptions, SearchLimits};
use wuzi_rules::{Color, Rule, Size};

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
    let (mut w, mut d, mut l) = (0u32, 0u32, 0u32);
    for pair in 0..pairs {
        for a_black in [true, false] {
            let seed = selfplay::game_seed(seed, pair);
            let game = selfplay::duel_game(&mut engines, a_black, rule, size, seed, &limits);
            let a_color = if a_black { Color::Black } else { Color::White };
            match game.result().and_then(|r| r.winner) {
                Some(c) if c == a_color => w += 1,
                Some(_) => l += 1,
                None => d += 1,
            }
        }
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
}

/// `W-D-L, score%, Elo (low..high)` with the 95% interval of the mean game score.
fn summary(w: u32, d: u32, l: u32) -> String {
    let n = f64::from(w + d + l);
    let s = (f64::from(w) + 0.5 * f64::from(d)) / n;
    let var = (f64::from(w) * (1.0 - s).powi(2)
        + f64::from(d) * (0.5 - s).powi(2)
        + f64::from(l) * s.powi(2))
        / n;
    let se = (var / n).sqrt();
    let elo = |p: f64| {
        let p = p.clamp(1e-3, 1.0 - 1e-3);
        -400.0 * (1.0 / p - 1.0).log10()
    };
    format!(
        "{w}-{d}-{l}, {:.1}%, {:+.0} ({:+.0}..{:+.0})",
        100.0 * s,
        elo(s),
        elo(s - 1.96 * se),
        elo(s + 1.96 * se)
    )
}
