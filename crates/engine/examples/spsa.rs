//! Tunes the search's numeric parameters ([`wuzi_engine::params::Tuning`]) by SPSA in
//! fixed-node self-play.
//!
//! ```text
//! cargo run --release -p wuzi-engine --example spsa -- RULES NODES PAIRS SEED [FROM [NAMES]]
//! ```
//!
//! `RULES` is comma-separated: pair `k` is played under rule `k` mod their number.
//! Each step perturbs every parameter at once by its step `c` in a random direction
//! (`θ + cΔ` against `θ − cΔ`), plays one random opening (as `wuzi selfplay` makes them)
//! twice with the colours swapped, one thread each and `NODES` nodes a move, and moves
//! every parameter by `a · c · (score⁺ − score⁻) · Δ`: towards the side that scored
//! more. Two games run at a time (one per core). It starts from level 10's values
//! ([`Features::ALL`]), or with `FROM` changes some of them (`name=value,...`, as
//! [`Tuning::with`] reads them; `-` for none). `NAMES` (comma-separated) tunes only
//! those parameters, the rest held. Every 50 pairs it prints the values so far; at
//! the end the values, rounded, as a `FROM` spec.

use std::sync::Mutex;

use wuzi_engine::params::{Features, TUNING_PARAMS, Tuning};
use wuzi_engine::selfplay;
use wuzi_engine::{Engine, EngineOptions, SearchLimits};
use wuzi_rules::random::SplitMix64;
use wuzi_rules::{Color, Rule, Size};

const N: usize = TUNING_PARAMS;
/// Each parameter's perturbation, in the order of [`Tuning::NAMES`].
const STEP: [f64; N] = [
    20.0, 10.0, 2.0, 1.0, 50.0, 25.0, 60.0, 80.0, 2.0, 3.0, 40.0, 1.0, 1.0, 1.0, 1.0, 1.0, 400.0,
    400.0, 16.0, 1.0, 1.0, 1.0, 1.0,
];
/// The learning rate `a`.
const RATE: f64 = 0.02;

/// The tuner's state: the values (unrounded), the pairs started and finished, and
/// θ⁺'s points.
struct State {
    theta: [f64; N],
    pairs: u64,
    finished: u64,
    plus_points: f64,
    rng: SplitMix64,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 {
        eprintln!("usage: spsa RULES NODES PAIRS SEED [FROM [NAMES]]");
        std::process::exit(2);
    }
    let rules: Vec<Rule> = args[0]
        .split(',')
        .map(|r| r.parse().expect("RULES"))
        .collect();
    let nodes: u64 = args[1].parse().expect("NODES");
    let pairs: u64 = args[2].parse().expect("PAIRS");
    let seed: u64 = args[3].parse().expect("SEED");
    let fail = |e: String| -> ! {
        eprintln!("spsa: {e}");
        std::process::exit(2);
    };
    let from = match args.get(4).map(String::as_str) {
        None | Some("-") => Features::ALL.tune,
        Some(spec) => Features::ALL.tune.with(spec).unwrap_or_else(|e| fail(e)),
    };
    // The step of each parameter tuned; 0 holds it.
    let mut steps = STEP;
    if let Some(names) = args.get(5) {
        let names: Vec<&str> = names.split(',').map(str::trim).collect();
        if let Some(bad) = names.iter().find(|n| !Tuning::NAMES.contains(n)) {
            fail(format!("no parameter {bad:?}"));
        }
        for (s, n) in steps.iter_mut().zip(Tuning::NAMES) {
            if !names.contains(&n) {
                *s = 0.0;
            }
        }
    }
    let state = Mutex::new(State {
        theta: from.values().map(f64::from),
        pairs: 0,
        finished: 0,
        plus_points: 0.0,
        rng: SplitMix64::new(seed ^ 0x5b5a),
    });
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| worker(&state, &rules, nodes, pairs, seed, &steps));
        }
    });
    let st = state.lock().expect("no worker panicked");
    println!(
        "{} pairs, θ+ scored {:.1}%: {}",
        st.pairs,
        100.0 * st.plus_points / (2.0 * st.pairs.max(1) as f64),
        spec(&st.theta)
    );
}

/// The values, rounded, as a `FROM` spec.
fn spec(theta: &[f64; N]) -> String {
    Tuning::NAMES
        .iter()
        .zip(theta)
        .map(|(n, v)| format!("{n}={}", v.round()))
        .collect::<Vec<_>>()
        .join(",")
}

/// Plays pairs until `pairs` have been played in all.
fn worker(
    state: &Mutex<State>,
    rules: &[Rule],
    nodes: u64,
    pairs: u64,
    seed: u64,
    steps: &[f64; N],
) {
    let limits = SearchLimits {
        nodes: Some(nodes),
        ..SearchLimits::default()
    };
    let mut engines = [0, 1].map(|_| {
        Engine::new(EngineOptions {
            hash_mb: 16,
            threads: 1,
        })
    });
    loop {
        let (k, delta, sides) = {
            let mut st = state.lock().expect("no worker panicked");
            if st.pairs >= pairs {
                return;
            }
            let k = st.pairs;
            st.pairs += 1;
            let delta: [f64; N] =
                std::array::from_fn(|_| if st.rng.next() & 1 == 0 { 1.0 } else { -1.0 });
            let side = |sign: f64| {
                Tuning::from_values(std::array::from_fn(|i| {
                    (st.theta[i] + sign * steps[i] * delta[i]).round() as i32
                }))
            };
            (k, delta, [side(1.0), side(-1.0)])
        };
        for (e, tune) in engines.iter_mut().zip(sides) {
            e.set_features(Features {
                tune,
                ..Features::ALL
            });
        }
        // θ⁺'s points over the two games.
        let mut plus = 0.0;
        for plus_black in [true, false] {
            let rule = rules[(k % rules.len() as u64) as usize];
            let seed = selfplay::game_seed(seed, k);
            let game = selfplay::duel_game(
                &mut engines,
                plus_black,
                rule,
                Size::STANDARD,
                seed,
                &limits,
            );
            let plus_color = if plus_black {
                Color::Black
            } else {
                Color::White
            };
            plus += selfplay::points(&game, plus_color);
        }
        let mut st = state.lock().expect("no worker panicked");
        let diff = plus - (2.0 - plus);
        for i in 0..N {
            st.theta[i] += RATE * steps[i] * diff * delta[i];
        }
        st.plus_points += plus;
        st.finished += 1;
        let done = st.finished;
        if done.is_multiple_of(50) {
            eprintln!("{done} pairs: {}", spec(&st.theta));
        }
    }
}
