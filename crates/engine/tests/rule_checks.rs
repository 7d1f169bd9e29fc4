//! The Gomocup referee's rule checks (testdata/rule_checks_gomocupjudge.jsonl), answered
//! through `Engine::search`.

use std::sync::atomic::AtomicBool;

use serde_json::Value;
use wuzi_engine::{Engine, EngineOptions, Position, SearchLimits};
use wuzi_rules::{Board, Color, GameConfig, Pos, Rule, Size};

fn records(name: &str) -> Vec<Value> {
    let path = format!("{}/../../testdata/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn gomocup_judge_rule_checks() {
    let recs = records("rule_checks_gomocupjudge.jsonl");
    assert_eq!(recs.len(), 8);
    for r in recs {
        let rows: Vec<&str> = r["board"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let board = Board::from_rows(&rows).unwrap();
        let rule = Rule::from_gomocup_code(r["gomocup_rule"].as_u64().unwrap() as u32);
        let size = Size::square(r["size"].as_u64().unwrap() as u8).unwrap();
        let config = GameConfig::new(rule, size);
        let to_move: Color = r["side_to_move"].as_str().unwrap().parse().unwrap();
        let pos = Position::from_board(&config, &board, to_move);
        let mut engine = Engine::new(EngineOptions::default());
        let res = engine.search(
            &pos,
            &SearchLimits::depth(4),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        let best = res.best.expect("a move");
        let name = size.notation(best).to_string();
        // The records' x, y are authoritative (their names assume 15 rows).
        let squares: Vec<Pos> = r["squares"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                Pos::new_unchecked(
                    s["x"].as_u64().unwrap() as u8,
                    s["y"].as_u64().unwrap() as u8,
                )
            })
            .collect();
        let ok = match r["check"].as_str().unwrap() {
            "must_play_one_of" => squares.contains(&best),
            "must_not_play" => !squares.contains(&best),
            other => panic!("unknown check {other}"),
        };
        assert!(
            ok,
            "{} {rule}: played {name}, expected {} {squares:?}\n{board}",
            r["format"], r["check"]
        );
    }
}
