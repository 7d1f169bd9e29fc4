//! Runs the real `wuzi selfplay`: records with scores, and a run that resumes.

use std::process::Command;

use wuzi_engine::selfplay::Record;
use wuzi_rules::{Game, GameConfig};

fn selfplay(out: &std::path::Path, games: &str) {
    let status = Command::new(env!("CARGO_BIN_EXE_wuzi"))
        .args([
            "selfplay",
            "--quiet",
            "--nodes",
            "300",
            "--rule",
            "freestyle,renju",
        ])
        .args(["--games", games, "--out"])
        .arg(out)
        .status()
        .expect("the wuzi binary runs");
    assert!(status.success());
}

fn records(text: &str) -> Vec<Record> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.parse().unwrap())
        .collect()
}

/// Games are legal and scored, the rules alternate, and a run that resumes (after an
/// interrupted one left half a line) writes the same file as one that did not stop.
#[test]
fn selfplay_records_and_resumes() {
    let dir = std::env::temp_dir().join(format!("wuzi-cli-selfplay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (whole, parts) = (dir.join("whole.txt"), dir.join("parts.txt"));
    let _ = std::fs::remove_file(&whole);
    let _ = std::fs::remove_file(&parts);
    selfplay(&whole, "4");
    selfplay(&parts, "2");
    let mut text = std::fs::read_to_string(&parts).unwrap();
    text.push_str("renju 15 b 3 h8 i9");
    std::fs::write(&parts, text).unwrap();
    selfplay(&parts, "4");
    let (a, b) = (
        std::fs::read_to_string(&whole).unwrap(),
        std::fs::read_to_string(&parts).unwrap(),
    );
    assert_eq!(a, b);
    let games = records(&a);
    assert_eq!(games.len(), 4);
    for (n, r) in games.iter().enumerate() {
        assert_eq!(
            r.rule,
            [wuzi_rules::Rule::Freestyle, wuzi_rules::Rule::Renju][n % 2]
        );
        let game = Game::from_moves(GameConfig::new(r.rule, r.size), &r.moves).unwrap();
        assert_eq!(game.result().and_then(|x| x.winner), r.winner, "{r}");
        assert!(r.scores[r.opening..].iter().all(Option::is_some));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--white-nodes` gives White its own budget: the file's first line says so and the
/// games differ from those of one budget; a zero budget, or one beside a time limit, is
/// refused before the file is touched.
#[test]
fn white_may_search_deeper() {
    let dir = std::env::temp_dir().join(format!("wuzi-cli-selfplay-w-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |out: &std::path::Path, extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_wuzi"))
            .args(["selfplay", "--quiet", "--rule", "renju"])
            .args(["--games", "3", "--out"])
            .arg(out)
            .args(extra)
            .output()
            .expect("the wuzi binary runs")
    };
    let (even, deeper) = (dir.join("even.txt"), dir.join("deeper.txt"));
    let _ = std::fs::remove_file(&even);
    let _ = std::fs::remove_file(&deeper);
    assert!(run(&even, &["--nodes", "300"]).status.success());
    assert!(
        run(&deeper, &["--nodes", "300", "--white-nodes", "3000"])
            .status
            .success()
    );
    let text = std::fs::read_to_string(&deeper).unwrap();
    assert!(
        text.lines()
            .next()
            .unwrap()
            .contains("300 nodes (White 3000)")
    );
    assert_ne!(
        records(&text),
        records(&std::fs::read_to_string(&even).unwrap())
    );

    let refused = dir.join("refused.txt");
    let _ = std::fs::remove_file(&refused);
    for extra in [
        &["--nodes", "300", "--white-nodes", "0"][..],
        &["--white-nodes", "x"],
        &["--white-nodes", "500", "--time-per-move", "50"],
    ] {
        let out = run(&refused, extra);
        assert!(!out.status.success(), "{extra:?}");
        assert!(!out.stderr.is_empty(), "{extra:?}");
        assert!(!refused.exists(), "{extra:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
