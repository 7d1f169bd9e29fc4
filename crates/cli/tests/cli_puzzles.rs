//! Runs the real `wuzi puzzles`: mining the public renju VCF positions and a self-play
//! file, a second run that adds nothing, `check` proving the file and refusing a
//! tampered puzzle, and bad arguments refused.

use std::process::{Command, Output};

use wuzi_engine::puzzle::record::PuzzleRecord;

fn wuzi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wuzi"))
        .args(args)
        .output()
        .expect("the wuzi binary runs")
}

fn testdata(name: &str) -> String {
    format!("{}/../../testdata/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn mine_then_check_then_refuse_a_tampered_puzzle() {
    let dir = std::env::temp_dir().join(format!("wuzi-cli-puzzles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("p.jsonl");
    let _ = std::fs::remove_file(&out);
    let out_s = out.to_str().unwrap();
    let renzzle = testdata("renju_vcf_puzzles_renzzle.jsonl");
    let mine = [
        "puzzles",
        "mine",
        "--quiet",
        "--positions",
        renzzle.as_str(),
        "--rule",
        "renju",
        "--min-length",
        "1",
        "--out",
        out_s,
    ];
    let o = wuzi(&mine);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.contains("from 10 positions"), "{said}");
    let text = std::fs::read_to_string(&out).unwrap();
    let records: Vec<PuzzleRecord> = text
        .lines()
        .map(|l| PuzzleRecord::parse(l).unwrap())
        .collect();
    assert!(!records.is_empty(), "{said}");
    assert!(
        records.iter().all(|r| r.source.contains("renzzle")),
        "each names its source"
    );

    // Again: everything is in the file already.
    let o = wuzi(&mine);
    assert!(o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stdout).starts_with("0 new puzzles"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);

    let o = wuzi(&["puzzles", "check", out_s]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        String::from_utf8_lossy(&o.stdout)
            .starts_with(&format!("{} puzzles proven", records.len()))
    );

    // Another first move: the solver no longer agrees, and says which puzzle.
    let mut bad = records[0].clone();
    let first = bad.solution.moves[0];
    let other = bad
        .position()
        .legal_moves()
        .into_iter()
        .find(|&p| p != first)
        .unwrap();
    bad.solution.moves[0] = other;
    let tampered = dir.join("bad.jsonl");
    std::fs::write(&tampered, format!("{}\n", bad.to_json())).unwrap();
    let o = wuzi(&["puzzles", "check", tampered.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(&bad.id) && err.contains("line 1"), "{err}");

    // A damaged line, and bad arguments: clear errors, nothing written.
    std::fs::write(&tampered, "{\"id\": 1}\n").unwrap();
    let o = wuzi(&["puzzles", "check", tampered.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    for args in [
        vec!["puzzles", "mine", "--out", out_s],
        vec![
            "puzzles",
            "mine",
            "--out",
            out_s,
            "--positions",
            renzzle.as_str(),
            "--max",
            "0",
        ],
        vec![
            "puzzles",
            "mine",
            "--out",
            out_s,
            "--positions",
            renzzle.as_str(),
            "--theme",
            "chess",
        ],
        vec![
            "puzzles",
            "mine",
            "--out",
            out_s,
            "--selfplay",
            tampered.to_str().unwrap(),
        ],
    ] {
        let o = wuzi(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!o.stderr.is_empty());
    }
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn self_play_games_give_puzzles_that_check() {
    let dir = std::env::temp_dir().join(format!("wuzi-cli-puzzles-sp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let games = dir.join("sp.txt");
    let out = dir.join("p.jsonl");
    let _ = std::fs::remove_file(&games);
    let _ = std::fs::remove_file(&out);
    let o = wuzi(&[
        "selfplay",
        "--quiet",
        "--nodes",
        "1500",
        "--rule",
        "freestyle,renju",
        "--games",
        "40",
        "--out",
        games.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let o = wuzi(&[
        "puzzles",
        "mine",
        "--quiet",
        "--selfplay",
        games.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = String::from_utf8_lossy(&o.stdout).to_string();
    let text = std::fs::read_to_string(&out).unwrap_or_default();
    let n = text.lines().count();
    assert!(said.starts_with(&format!("{n} new puzzles")), "{said}");
    assert!(n > 0, "40 games gave no puzzle: {said}");
    let o = wuzi(&["puzzles", "check", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}
