//! Solves the renju VCF puzzles of testdata/ and prints time, nodes and line length:
//! `cargo run --release -p wuzi-engine --example puzzles`.
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use wuzi_engine::board::Board;
use wuzi_engine::threat::Solver;
use wuzi_engine::{Position, SearchLimits};
use wuzi_rules::{Color, GameConfig, Rule, Size};

fn main() {
    let _ = wuzi_engine::eval::pattern::PatternTable::get(Rule::Renju, 5);
    for file in [
        "renju_vcf_puzzles_mintaka.jsonl",
        "renju_vcf_puzzles_renzzle.jsonl",
    ] {
        let path = format!("{}/../../testdata/{file}", env!("CARGO_MANIFEST_DIR"));
        for line in std::fs::read_to_string(path).unwrap().lines() {
            let id = field(line, "\"id\": \"");
            let side = field(line, "\"side_to_move\": \"");
            let rows_start = line.find("\"board\": [").unwrap() + 10;
            let rows_end = rows_start + line[rows_start..].find(']').unwrap();
            let rows: Vec<&str> = line[rows_start..rows_end]
                .split(',')
                .map(|r| r.trim().trim_matches('"'))
                .collect();
            let board = wuzi_rules::Board::from_rows(&rows).unwrap();
            let to_move: Color = side.parse().unwrap();
            let pos = Position::from_board(
                &GameConfig::new(Rule::Renju, Size::STANDARD),
                &board,
                to_move,
            );
            let stop = AtomicBool::new(false);
            let limits = SearchLimits {
                time: Some(Duration::from_secs(10)),
                ..SearchLimits::default()
            };
            let t = Instant::now();
            let mut b = Board::new(&pos);
            let mut solver = Solver::new(&limits, &stop);
            let mut l = Vec::new();
            let found = solver.vcf(&mut b, 100, &mut l);
            println!(
                "{id:<36} {:>5} plies  {:>8} nodes  {:>9.2?}",
                if found {
                    l.len().to_string()
                } else {
                    "none".into()
                },
                solver.nodes,
                t.elapsed()
            );
        }
    }
}

fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let s = line.find(key).unwrap() + key.len();
    &line[s..s + line[s..].find('"').unwrap()]
}
