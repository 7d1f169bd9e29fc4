//! Record readers on the real-world strings in `testdata/`: Rapfi's benchmark positions
//! (top-down position strings), c-gomoku-cli openings, mintaka's renju openings and the 26
//! renju openings (renju notation cross-checked against their x,y coordinates).

use std::fs;
use std::path::PathBuf;

use serde_json::Value;
use wuzi_rules::record::{Format, ReadOptions, RowOrder, posstr, sgf, text};
use wuzi_rules::{Pos, Rule, Size};

fn testdata(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(name);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn rapfi_bench_positions_read_top_down() {
    let data = testdata("bench_positions_rapfi.tsv");
    let mut count = 0;
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("rule"))
    {
        let cols: Vec<&str> = line.split('\t').collect();
        let [rule, size, _depth, position] = cols[..] else {
            panic!("bad line {line:?}");
        };
        let rule: Rule = rule.parse().unwrap();
        let size: Size = size.parse().unwrap();
        let options = ReadOptions {
            size: Some(size),
            rule: Some(rule),
            rows: RowOrder::TopDown,
        };
        let record = Format::PosStr.read(position, &options).unwrap();
        assert_eq!(record.config.rule, rule);
        // Top-down: the number is the row from the top, 1-based.
        let first = &position[1..]
            .split(|c: char| c.is_ascii_alphabetic())
            .next()
            .unwrap();
        assert_eq!(
            u32::from(record.moves[0].pos.y) + 1,
            first.parse::<u32>().unwrap()
        );
        let game = record
            .to_game()
            .unwrap_or_else(|e| panic!("{position}: {e}"));
        assert!(!game.is_over(), "{position} is a position still in play");
        assert_eq!(
            posstr::write(&record, RowOrder::TopDown).unwrap(),
            format!("{position}\n")
        );
        count += 1;
    }
    assert_eq!(count, 10);
}

#[test]
fn c_gomoku_cli_openings_read_top_down() {
    let data = testdata("openings/cgomokucli_pos_freestyle_20x20.txt");
    let size = Size::square(20).unwrap();
    let mut count = 0;
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let record = posstr::read(line, size, RowOrder::TopDown).unwrap();
        record.to_game().unwrap_or_else(|e| panic!("{line}: {e}"));
        count += 1;
    }
    assert_eq!(count, 4);
}

#[test]
fn mintaka_renju_openings_read_as_text() {
    let data = testdata("openings/mintaka_arena_openings_renju.csv");
    let mut count = 0;
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let record = text::read(&format!("Rule: renju\n{line}\n")).unwrap();
        assert_eq!(record.moves.len(), line.split(',').count());
        let game = record.to_game().unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!(!game.is_over());
        count += 1;
    }
    assert!(count >= 12);
}

/// Renju notation, position strings and SGF agree with the openings' x,y coordinates, and
/// the opening's name survives SGF.
#[test]
fn the_26_renju_openings_agree_with_their_coordinates() {
    let data: Value = serde_json::from_str(&testdata("openings/renju_26_openings.json")).unwrap();
    let openings = data["openings"].as_array().unwrap();
    assert_eq!(openings.len(), 26);
    for opening in openings {
        let name = opening["name"].as_str().unwrap();
        let moves: Vec<&str> = opening["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let want: Vec<Pos> = opening["moves_xy_top_origin"]
            .as_array()
            .unwrap()
            .iter()
            .map(|xy| {
                let x = xy[0].as_u64().unwrap() as u8;
                let y = xy[1].as_u64().unwrap() as u8;
                Pos::new_unchecked(x, y)
            })
            .collect();
        let mut record = text::read(&format!(
            "Rule: renju\nOpening: {name}\n\n{}\n",
            moves.join(" ")
        ))
        .unwrap();
        assert_eq!(record.points(), want, "{name}");
        let joined = moves.concat();
        let pos = posstr::read(&joined, Size::STANDARD, RowOrder::BottomUp).unwrap();
        assert_eq!(pos.points(), want, "{name}");
        record.result = record.to_game().unwrap().result().cloned();
        let back = sgf::read(&sgf::write(&record).unwrap()).unwrap();
        assert_eq!(back.points(), want, "{name}");
        assert_eq!(back.opening.unwrap().name, name);
    }
}
