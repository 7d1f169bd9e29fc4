//! Evaluation tuning from self-play (Texel's method): the static evaluation is linear in
//! per-point pattern and threat counts, so its weights are a logistic regression of game
//! results on those counts.
//!
//! ```text
//! cargo run --release -p wuzi-engine --example tune -- gen RULE GAMES NODES SEED > games.txt
//! cargo run --release -p wuzi-engine --example tune -- fit [--shapes-only] games.txt [more.txt ...]
//! ```
//!
//! `gen` plays the full engine against itself at a fixed node budget a move from
//! random openings (2 to 5 stones near the centre) and prints one game a line:
//! `rule result moves` (result `b`, `w` or `d`). `fit` replays the games, keeps the
//! positions a search would score statically (no five on the board for either side, no
//! open four for the side to move), and fits the weights of
//! [`wuzi_engine::eval::features`] to the results, starting from the current ones. It
//! prints the fit (log loss before and after) and the new tables for `params.rs`.

use std::sync::atomic::AtomicBool;

use wuzi_engine::board::Board;
use wuzi_engine::eval;
use wuzi_engine::{Engine, EngineOptions, Position, SearchLimits};
use wuzi_rules::random::SplitMix64;
use wuzi_rules::{Color, Game, GameConfig, Rule, Size, notation};

const USAGE: &str = "usage: tune gen RULE GAMES NODES SEED | tune fit [--shapes-only] FILES...";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let run = || -> Result<(), String> {
        match args.first().map(String::as_str) {
            Some("gen") => generate(
                arg(&args, 1, "RULE")?,
                arg(&args, 2, "GAMES")?,
                arg(&args, 3, "NODES")?,
                arg(&args, 4, "SEED")?,
            ),
            Some("fit") => fit(&args[1..]),
            _ => Err(USAGE.to_string()),
        }
    };
    if let Err(e) = run() {
        eprintln!("tune: {e}");
        std::process::exit(2);
    }
}

/// The argument at `i`, parsed, or an error that names it.
fn arg<T: std::str::FromStr>(args: &[String], i: usize, name: &str) -> Result<T, String> {
    let a = args
        .get(i)
        .ok_or_else(|| format!("missing {name}\n{USAGE}"))?;
    a.parse().map_err(|_| format!("bad {name}: {a:?}\n{USAGE}"))
}

fn generate(rule: Rule, games: usize, nodes: u64, seed: u64) -> Result<(), String> {
    let size = Size::STANDARD;
    let mut rng = SplitMix64::new(seed);
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        threads: 1,
    });
    let limits = SearchLimits {
        nodes: Some(nodes),
        ..SearchLimits::default()
    };
    let stop = AtomicBool::new(false);
    for _ in 0..games {
        let mut game = Game::new(GameConfig::new(rule, size)).expect("config");
        let c = size.center();
        let opening = 2 + rng.below(4);
        while game.ply() < opening {
            let x = i32::from(c.x) + rng.below(7) as i32 - 3;
            let y = i32::from(c.y) + rng.below(7) as i32 - 3;
            if let Ok(p) = size.pos(x, y) {
                let _ = game.try_play(p);
            }
        }
        engine.clear();
        while !game.is_over() {
            let r = engine.search(&Position::from_game(&game), &limits, &stop, &mut |_| {});
            let Some(m) = r.best else { break };
            if game.try_play(m).is_err() {
                break;
            }
        }
        let result = match game.result().and_then(|r| r.winner) {
            Some(Color::Black) => 'b',
            Some(Color::White) => 'w',
            None => 'd',
        };
        let moves: Vec<_> = game.moves().iter().map(|m| m.pos).collect();
        println!(
            "{rule} {result} {}",
            notation::format_moves(&moves, size, "")
        );
    }
    Ok(())
}

/// One training position: its feature vector (side to move's counts, then the
/// opponent's) and the result for the side to move.
struct Sample {
    x: Vec<f32>,
    y: f32,
}

/// The positions of the games in `files`: every tenth game's go to the second list
/// (held out to check the fit).
fn load(files: &[String]) -> Result<(Vec<Sample>, Vec<Sample>), String> {
    let size = Size::STANDARD;
    let (mut train, mut test) = (Vec::new(), Vec::new());
    let mut games = 0;
    for f in files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
        for line in text.lines() {
            games += 1;
            let out = if games % 10 == 0 {
                &mut test
            } else {
                &mut train
            };
            let mut parts = line.split_whitespace();
            let (Some(rule), Some(result), Some(moves)) =
                (parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            let Ok(rule) = rule.parse::<Rule>() else {
                continue;
            };
            let winner = match result {
                "b" => Some(Color::Black),
                "w" => Some(Color::White),
                _ => None,
            };
            let Ok(moves) = notation::parse_moves(moves, size) else {
                continue;
            };
            let game = Game::new(GameConfig::new(rule, size)).expect("config");
            let mut board = Board::new(&Position::from_game(&game));
            for (ply, &m) in moves.iter().enumerate() {
                if ply >= 4 && eval::is_quiet(&board) {
                    let me = board.to_move();
                    let y = match winner {
                        Some(w) if w == me => 1.0,
                        Some(_) => 0.0,
                        None => 0.5,
                    };
                    let mut x: Vec<f32> =
                        eval::features(&board).iter().map(|&v| v as f32).collect();
                    // The first move's edge, by rule: fitted so that it does not bend
                    // the pattern weights, and not used by the engine (a constant at
                    // a given search depth).
                    let black = f32::from(u8::from(me == Color::Black));
                    x.push(if rule == Rule::Renju { 0.0 } else { black });
                    x.push(if rule == Rule::Renju { black } else { 0.0 });
                    out.push(Sample { x, y });
                }
                board.play(wuzi_engine::board::idx(m));
            }
        }
    }
    Ok((train, test))
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Mean log loss of the weights `w` at scale `k` (probability = sigmoid(w·x / k)).
fn loss(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    let mut l = 0.0;
    for s in samples {
        let z: f64 = s.x.iter().zip(w).map(|(&x, &w)| f64::from(x) * w).sum();
        let p = sigmoid(z / k).clamp(1e-9, 1.0 - 1e-9);
        let y = f64::from(s.y);
        l -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
    }
    l / samples.len() as f64
}

fn fit(args: &[String]) -> Result<(), String> {
    // `--shapes-only`: fit the weak shapes (below an open three) only, keep the values
    // of threes, fours, their combinations and the flags.
    let shapes_only = args.iter().any(|a| a == "--shapes-only");
    let files: Vec<String> = args
        .iter()
        .filter(|a| !a.starts_with("--"))
        .cloned()
        .collect();
    let (samples, held_out) = load(&files)?;
    if samples.is_empty() || held_out.is_empty() {
        return Err("no positions to fit (give files of `tune gen` games)".to_string());
    }
    let n = samples.len();
    eprintln!("{n} positions, {} held out", held_out.len());
    // In evaluation units (the engine's weights are in sixteenths).
    let unit = f64::from(wuzi_engine::params::EVAL_SCALE);
    let mut w0: Vec<f64> = eval::feature_weights()
        .iter()
        .map(|&v| f64::from(v) / unit)
        .collect();
    w0.extend([0.0, 0.0]);
    // The scale that fits the current weights best, kept so the new weights stay in
    // the search's units (margins, windows).
    let mut k = 100.0;
    let mut best = loss(&samples, &w0, k);
    for cand in (20..=2000).step_by(10) {
        let l = loss(&samples, &w0, f64::from(cand));
        if l < best {
            best = l;
            k = f64::from(cand);
        }
    }
    eprintln!(
        "scale {k}: log loss of the current weights {best:.5}, held out {:.5}",
        loss(&held_out, &w0, k)
    );
    // Adam on the full batch.
    let m = w0.len();
    let mut w = w0.clone();
    let (mut m1, mut m2) = (vec![0.0; m], vec![0.0; m]);
    let lr = 0.2;
    for step in 1..=3000 {
        let mut g = vec![0.0; m];
        for s in &samples {
            let z: f64 = s.x.iter().zip(&w).map(|(&x, &w)| f64::from(x) * w).sum();
            let e = sigmoid(z / k) - f64::from(s.y);
            for (gi, &x) in g.iter_mut().zip(&s.x) {
                *gi += e * f64::from(x) / k;
            }
        }
        for i in 0..m {
            if shapes_only && !eval::is_shape_feature(i) {
                continue;
            }
            let gi = g[i] / n as f64 + 1e-6 * (w[i] - w0[i]);
            m1[i] = 0.9 * m1[i] + 0.1 * gi;
            m2[i] = 0.999 * m2[i] + 0.001 * gi * gi;
            let mh = m1[i] / (1.0 - 0.9f64.powi(step));
            let vh = m2[i] / (1.0 - 0.999f64.powi(step));
            w[i] -= lr * mh / (vh.sqrt() + 1e-8);
        }
        if step % 500 == 0 {
            eprintln!(
                "step {step}: log loss {:.5}, held out {:.5}",
                loss(&samples, &w, k),
                loss(&held_out, &w, k)
            );
        }
    }
    let mut names = eval::feature_names();
    names.extend([
        "black to move (other rules)".into(),
        "black to move (renju)".into(),
    ]);
    for (i, name) in names.iter().enumerate() {
        println!("{name:>24} {:>8.1} -> {:>8.1}", w0[i], w[i]);
    }
    let sixteenths: Vec<i32> = w.iter().map(|&v| (v * unit).round() as i32).collect();
    println!("{}", eval::format_weights(&sixteenths));
    Ok(())
}
