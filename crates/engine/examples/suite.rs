//! A test of the search's selectivity: positions where a long search chooses another
//! move than a short one, and how often a search of a given size finds the long one.
//!
//! ```text
//! suite make RULE SHORT LONG < GAMES > SUITE
//! suite run RULE NODES SUITE [FEATURES]
//! suite rank RULE SUITE
//! ```
//!
//! `make` reads games (one per line, moves in renju notation, Black first, as `wuzi
//! convert --to pos` writes them) and searches each position from the 7th to the 36th
//! move with `SHORT` and with `LONG` nodes (a fresh table each, one thread); each is
//! written as `MOVES LONG_MOVE LONG_SCORE SHORT_MOVE SHORT_SCORE`. `run` searches every
//! position of a suite with `NODES` nodes (features switched as `WUZI_FEATURES_OFF`
//! does, `WUZI_TUNE` for the search's parameters as `params::Tuning::with` reads them)
//! and prints how many choose the long search's move, and the nodes; the search is
//! deterministic, so the count is too, and a search like the one that made the suite
//! finds exactly the positions where the two agreed. `rank` prints, over the positions
//! where they differ, the long move's place in the root's policy order.
//!
//! As the long search is this engine's, the count favours the search that made it: a
//! change of shape loses some agreements for any gain. What it measures is in
//! `params.rs` (session 41).

use std::io::BufRead;
use std::sync::atomic::AtomicBool;

use wuzi_engine::params::Features;
use wuzi_engine::{Engine, EngineOptions, Position, SearchLimits, SearchResult};
use wuzi_rules::{Game, GameConfig, Rule, Size, notation};

fn search(e: &mut Engine, game: &Game, nodes: u64) -> SearchResult {
    e.clear();
    let limits = SearchLimits {
        nodes: Some(nodes),
        ..SearchLimits::default()
    };
    e.search(
        &Position::from_game(game),
        &limits,
        &AtomicBool::new(false),
        &mut |_| {},
    )
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rule: Rule = args[1].parse().expect("RULE");
    let size = Size::STANDARD;
    let config = GameConfig::new(rule, size);
    let mut e = Engine::new(EngineOptions {
        hash_mb: 16,
        threads: 1,
    });
    match args[0].as_str() {
        "make" => {
            let short: u64 = args[2].parse().expect("SHORT");
            let long: u64 = args[3].parse().expect("LONG");
            for line in std::io::stdin().lock().lines() {
                let line = line.expect("stdin");
                let Ok(moves) = notation::parse_moves(line.trim(), size) else {
                    continue;
                };
                for n in 6..moves.len().min(36) {
                    let game = Game::from_moves(config.clone(), &moves[..n]).expect("game");
                    let s = search(&mut e, &game, short);
                    let l = search(&mut e, &game, long);
                    if let (Some(sb), Some(lb)) = (s.best, l.best) {
                        let text: Vec<String> = moves[..n]
                            .iter()
                            .map(|&p| size.notation(p).to_string())
                            .collect();
                        println!(
                            "{} {} {} {} {}",
                            text.join(""),
                            size.notation(lb),
                            l.score.to_string().replace(' ', "_"),
                            size.notation(sb),
                            s.score.to_string().replace(' ', "_")
                        );
                    }
                }
            }
        }
        "run" => {
            let nodes: u64 = args[2].parse().expect("NODES");
            let text = std::fs::read_to_string(&args[3]).expect("SUITE");
            let mut f = Features::current();
            if let Some(spec) = args.get(4) {
                f = f.switched(spec);
            }
            // `Features::current` has applied `WUZI_TUNE`; a suite run will not go on
            // with a spec it ignored.
            if let Ok(spec) = std::env::var("WUZI_TUNE")
                && let (_, Some(e)) = f.tuned(&spec)
            {
                eprintln!("WUZI_TUNE: {e}");
                std::process::exit(2);
            }
            e.set_features(f);
            let (mut found, mut total, mut all_nodes) = (0u32, 0u32, 0u64);
            for line in text.lines() {
                let fields: Vec<&str> = line.split_whitespace().collect();
                if fields.len() < 2 {
                    continue;
                }
                let moves = notation::parse_moves(fields[0], size).expect("moves");
                let target = notation::parse_moves(fields[1], size).expect("move")[0];
                let game = Game::from_moves(config.clone(), &moves).expect("game");
                let r = search(&mut e, &game, nodes);
                total += 1;
                all_nodes += r.nodes;
                if r.best == Some(target) {
                    found += 1;
                }
            }
            println!("found {found} of {total}, nodes {all_nodes}");
        }
        "rank" => {
            // The long move's place in the root's policy order, over the positions
            // where the short search chose another move.
            let text = std::fs::read_to_string(&args[2]).expect("SUITE");
            let mut hist = [0u32; 12];
            for line in text.lines() {
                let fields: Vec<&str> = line.split_whitespace().collect();
                if fields.len() < 4 || fields[1] == fields[3] {
                    continue;
                }
                let moves = notation::parse_moves(fields[0], size).expect("moves");
                let target = notation::parse_moves(fields[1], size).expect("move")[0];
                let game = Game::from_moves(config.clone(), &moves).expect("game");
                let mut board = wuzi_engine::board::Board::new(&Position::from_game(&game));
                let mut cands = Vec::new();
                wuzi_engine::movegen::generate(&mut board, &mut cands);
                let t = wuzi_engine::board::idx(target);
                let mine = wuzi_engine::movegen::order_score_policy(&board, t);
                let rank = cands
                    .iter()
                    .filter(|&&c| wuzi_engine::movegen::order_score_policy(&board, c) > mine)
                    .count();
                let rank = if cands.contains(&t) { rank.min(10) } else { 11 };
                hist[rank] += 1;
            }
            println!("rank 0..9, 10+, not generated: {hist:?}");
        }
        _ => panic!("make, run or rank"),
    }
}
