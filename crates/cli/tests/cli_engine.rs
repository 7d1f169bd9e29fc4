//! Runs the real `wuzi` binary: `match` (engines, classic AIs and scripted Gomocup brains
//! that crash, cheat or dawdle), `analyze` and `bench`, with short limits.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use wuzi_rules::{Game, GameConfig, Rule, Size, notation};

fn wuzi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wuzi"))
        .args(args)
        .output()
        .expect("the wuzi binary runs")
}

#[track_caller]
fn ok(args: &[&str]) -> String {
    let out = wuzi(args);
    assert!(
        out.status.success(),
        "wuzi {args:?} failed: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[track_caller]
fn input_error(args: &[&str]) -> String {
    let out = wuzi(args);
    assert_eq!(
        out.status.code(),
        Some(2),
        "wuzi {args:?} should fail with status 2"
    );
    String::from_utf8(out.stderr).unwrap()
}

/// A fresh scratch directory.
fn scratch(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "wuzi-cli-test-{}-{name}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A Gomocup brain written as a shell script.
fn script_brain(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path.display().to_string()
}

/// The row of the first player in the match table: (games, wins, draws, losses).
fn table_row(out: &str, name: &str) -> (u32, u32, u32, u32) {
    let line = out
        .lines()
        .find(|l| l.starts_with(name) && !l.starts_with("match"))
        .unwrap_or_else(|| panic!("no row for {name} in\n{out}"));
    let n: Vec<u32> = line[name.len()..]
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    (n[0], n[1], n[2], n[3])
}

#[test]
fn match_between_classic_ais_writes_records() {
    let dir = scratch("records");
    let out = ok(&[
        "match",
        "classic-tuple",
        "classic-greedy",
        "--games",
        "4",
        "--time-per-move",
        "100",
        "--rule",
        "renju",
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
    ]);
    let (games, w, d, l) = table_row(&out, "classic-tuple");
    assert_eq!(games, 4);
    assert_eq!(w + d + l, 4);
    assert!(out.contains("Elo difference"), "{out}");
    assert!(out.contains("slowest move of classic-tuple"), "{out}");
    // Every game was decided on the board.
    assert!(!out.contains("lost by failing"), "{out}");
    for i in 1..=4 {
        let psq = std::fs::read_to_string(dir.join(format!("game-{i:03}.psq"))).unwrap();
        assert!(psq.starts_with("Piskvorky 15x15"), "{psq}");
        let sgf = std::fs::read_to_string(dir.join(format!("game-{i:03}.sgf"))).unwrap();
        assert!(
            sgf.starts_with("(;FF[4]GM[4]") && sgf.contains("RU[renju]"),
            "{sgf}"
        );
        // The PSQ moves replay to a finished renju game.
        let size = Size::STANDARD;
        let moves: Vec<_> = psq
            .lines()
            .skip(1)
            .filter_map(|l| {
                let v: Vec<i32> = l.split(',').filter_map(|x| x.trim().parse().ok()).collect();
                (v.len() == 3).then(|| size.pos(v[0] - 1, v[1] - 1).unwrap())
            })
            .collect();
        let game = Game::from_moves(GameConfig::new(Rule::Renju, size), &moves).unwrap();
        assert!(game.is_over(), "game {i} did not end:\n{psq}");
    }
    // Openings alternate colours: the same opening is played twice.
    let g1 = std::fs::read_to_string(dir.join("game-001.psq")).unwrap();
    let g2 = std::fs::read_to_string(dir.join("game-002.psq")).unwrap();
    let head = |s: &str| {
        s.lines()
            .skip(1)
            .take(3)
            .map(|l| l.rsplit_once(',').unwrap().0.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(head(&g1), head(&g2));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn match_against_an_engine_level_with_sprt_and_openings_file() {
    let dir = scratch("openings");
    let openings = dir.join("open.txt");
    std::fs::write(&openings, "# two openings\n0,0, 1,1, 2,0\nh8 h9 j8\n").unwrap();
    let out = ok(&[
        "match",
        "level1",
        "classic-greedy",
        "--games",
        "4",
        "--time-per-move",
        "150",
        "--openings",
        openings.to_str().unwrap(),
        "--sprt",
        "-20,20",
        "--quiet",
    ]);
    assert_eq!(table_row(&out, "level1").0, 4);
    assert!(
        out.contains("openings: ") && out.contains("2 of 2 used"),
        "{out}"
    );
    assert!(out.contains("SPRT elo0=-20 elo1=20"), "{out}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn brains_that_crash_cheat_or_dawdle_lose() {
    let dir = scratch("brains");
    // Answers OK to START, then dies at its first move.
    let crash = script_brain(
        &dir,
        "pbrain-crash",
        "while read -r line; do case \"$line\" in START*) echo OK;; BEGIN*|TURN*|DONE*) exit 3;; END*) exit 0;; esac; done",
    );
    // Always plays the centre: its second move is illegal (or its first, after the opening).
    let cheat = script_brain(
        &dir,
        "pbrain-cheat",
        "while read -r line; do case \"$line\" in START*) echo OK;; BEGIN*|TURN*|DONE*) echo 7,7;; END*) exit 0;; esac; done",
    );
    // Takes two seconds per move.
    let slow = script_brain(
        &dir,
        "pbrain-slow",
        "while read -r line; do case \"$line\" in START*) echo OK;; BEGIN*|TURN*|DONE*) sleep 2; echo 0,0;; END*) exit 0;; esac; done",
    );
    for (brain, why) in [
        (crash, "crashed"),
        (cheat, "illegal move"),
        (slow, "no move in time"),
    ] {
        let out = ok(&[
            "match",
            "classic-rank",
            &brain,
            "--games",
            "2",
            "--time-per-move",
            "200",
            "--grace",
            "100",
        ]);
        let (games, wins, _, _) = table_row(&out, "classic-rank");
        assert_eq!((games, wins), (2, 2), "{brain}: {out}");
        // The summary says the brain's losses were failures, and which.
        assert!(
            out.contains("lost by failing, not on the board: 2") && out.contains(why),
            "{brain}: expected its two failures ({why:?}) in the summary\n{out}"
        );
        let err = String::from_utf8(
            wuzi(&[
                "match",
                "classic-rank",
                &brain,
                "--games",
                "1",
                "--time-per-move",
                "200",
            ])
            .stderr,
        )
        .unwrap();
        assert!(err.contains(why), "{brain}: expected {why:?} in\n{err}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn match_rejects_bad_arguments() {
    assert!(input_error(&["match", "levle5", "full"]).contains("unknown player"));
    assert!(input_error(&["match", "full", "level5", "--sprt", "10,0"]).contains("elo0 < elo1"));
    assert!(input_error(&["match", "full", "level5", "--tc", "x+1"]).contains("time control"));
    assert!(input_error(&["match", "full", "level5", "--games", "0"]).contains("--games"));
    assert!(
        input_error(&[
            "match",
            "full",
            "level5",
            "--openings",
            "/nonexistent/o.txt"
        ])
        .contains("cannot read openings")
    );
}

#[test]
fn match_with_a_clock() {
    let out = ok(&[
        "match",
        "classic-rank",
        "classic-tuple",
        "--games",
        "2",
        "--tc",
        "5+0.05",
        "--quiet",
    ]);
    assert!(out.contains("5+0.05 s"), "{out}");
    assert_eq!(table_row(&out, "classic-rank").0, 2);
}

#[test]
fn analyze_prints_best_move_pv_and_nbest() {
    let out = ok(&["analyze", "--depth", "2", "--multipv", "2", "h8", "i9"]);
    assert!(out.lines().any(|l| l.starts_with("depth ")), "{out}");
    let best = out
        .lines()
        .find_map(|l| l.strip_prefix("best move: "))
        .expect(&out);
    let size = Size::STANDARD;
    let p = size.parse_pos(best).unwrap();
    assert!(p != size.parse_pos("h8").unwrap() && p != size.parse_pos("i9").unwrap());
    assert!(out.contains("score: ") && out.contains("pv: "), "{out}");
    assert!(out.contains("best 2 moves:"), "{out}");
}

#[test]
fn analyze_solves_a_vcf_and_says_none_otherwise() {
    // Black h8 i8 j8 against scattered white stones: four, block, five.
    let moves = "h8 a1 i8 a2 j8 a4";
    let out = ok(&["analyze", "--solve", "vcf", "--rule", "renju", moves]);
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("vcf: "))
        .expect(&out);
    assert_ne!(line, "none", "{out}");
    let line = line.split(" (").next().unwrap();
    let size = Size::STANDARD;
    let mut all = notation::parse_moves(moves, size).unwrap();
    all.extend(notation::parse_moves(line, size).unwrap());
    let game = Game::from_moves(GameConfig::new(Rule::Renju, size), &all).unwrap();
    assert_eq!(
        game.result().map(|r| r.winner),
        Some(Some(wuzi_rules::Color::Black)),
        "the VCF line {line} does not win"
    );
    assert!(out.contains("time "), "{out}");
    let out = ok(&["analyze", "--solve", "vcf", "h8", "i9"]);
    assert!(out.contains("vcf: none"), "{out}");
    let out = ok(&["analyze", "--solve", "vct", "--time", "300ms", "h8", "i9"]);
    assert!(out.contains("vct: "), "{out}");
}

#[test]
fn analyze_rejects_bad_input() {
    assert!(input_error(&["analyze", "h8", "h8"]).contains("occupied"));
    assert!(input_error(&["analyze", "--time", "soon", "h8"]).contains("duration"));
    assert!(input_error(&["analyze", "--solve", "mate", "h8"]).contains("mate"));
}

#[test]
fn bench_prints_a_deterministic_node_total() {
    let run = || {
        let out = ok(&["bench", "--depth", "2"]);
        assert_eq!(
            out.lines().filter(|l| l.contains(" best ")).count(),
            10,
            "{out}"
        );
        assert!(out.contains("nodes/s "), "{out}");
        out.lines()
            .find_map(|l| l.strip_prefix("total nodes "))
            .expect(&out)
            .parse::<u64>()
            .unwrap()
    };
    let first = run();
    assert!(first > 0);
    assert_eq!(first, run(), "one-thread bench is not deterministic");
}

#[test]
fn analyze_solves_a_vcf_puzzle_from_a_board_diagram() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/renju_vcf_puzzles_mintaka.jsonl"
    );
    let first = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    // The board rows are the only thing taken from the record: pull them out of the JSON.
    let rows_at = first.find("\"board\": [").unwrap() + "\"board\": [".len();
    let rows_end = rows_at + first[rows_at..].find(']').unwrap();
    let rows: Vec<&str> = first[rows_at..rows_end]
        .split(',')
        .map(|r| r.trim().trim_matches('"'))
        .collect();
    assert_eq!(rows.len(), 15);
    let dir = scratch("puzzle");
    let file = dir.join("board.txt");
    std::fs::write(&file, rows.join("\n")).unwrap();
    let out = ok(&[
        "analyze",
        "--rule",
        "renju",
        "--solve",
        "vcf",
        "--board",
        file.to_str().unwrap(),
        "--to-move",
        "black",
    ]);
    assert!(out.contains("position: black to move"), "{out}");
    let check = out
        .lines()
        .find_map(|l| l.strip_prefix("check: "))
        .expect(&out);
    assert!(check.starts_with("replayed, black wins"), "{out}");
    assert!(out.contains("nodes "), "{out}");
    // A bad diagram is an input error.
    std::fs::write(&file, "..X\n..Q\n").unwrap();
    input_error(&["analyze", "--board", file.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_closed_stdout_is_no_panic() {
    for args in [
        &["bench", "--depth", "2"][..],
        &["analyze", "--depth", "2", "h8"][..],
        &[
            "match",
            "classic-rank",
            "classic-greedy",
            "--games",
            "1",
            "-q",
        ][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_wuzi"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take()); // the reader goes away, like `| head -0`
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
    }
}

#[test]
fn concurrent_games_all_get_played_and_recorded() {
    let dir = scratch("concurrency");
    let out = ok(&[
        "match",
        "classic-rank",
        "classic-tuple",
        "--games",
        "6",
        "--concurrency",
        "2",
        "--time-per-move",
        "100",
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
    ]);
    let (games, w, d, l) = table_row(&out, "classic-rank");
    assert_eq!((games, w + d + l), (6, 6), "{out}");
    for i in 1..=6 {
        assert!(
            dir.join(format!("game-{i:03}.psq")).is_file(),
            "game {i} missing"
        );
        assert!(
            dir.join(format!("game-{i:03}.sgf")).is_file(),
            "game {i} missing"
        );
    }
    // The classic AIs are deterministic: the same games come out with one worker.
    let dir1 = scratch("concurrency1");
    ok(&[
        "match",
        "classic-rank",
        "classic-tuple",
        "--games",
        "6",
        "--time-per-move",
        "100",
        "--out",
        dir1.to_str().unwrap(),
        "--quiet",
    ]);
    let moves = |d: &Path, i: usize| -> Vec<String> {
        std::fs::read_to_string(d.join(format!("game-{i:03}.psq")))
            .unwrap()
            .lines()
            .filter(|l| l.matches(',').count() == 2)
            .map(|l| l.rsplit_once(',').unwrap().0.to_string())
            .collect()
    };
    for i in 1..=6 {
        assert_eq!(moves(&dir, i), moves(&dir1, i), "game {i} differs");
    }
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(dir1);
}

#[test]
fn a_ladder_plays_neighbours_and_prints_ratings() {
    let dir = scratch("ladder");
    let out = ok(&[
        "match",
        "classic-greedy",
        "classic-rank",
        "classic-tuple",
        "--games",
        "2",
        "--time-per-move",
        "100",
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(out.matches("match: ").count(), 2, "{out}");
    let ladder = &out[out.find("ladder (2 games a pair):").expect(&out)..];
    assert!(
        ladder.contains("classic-greedy vs classic-rank"),
        "{ladder}"
    );
    assert!(ladder.contains("classic-rank vs classic-tuple"), "{ladder}");
    assert!(
        dir.join("classic-greedy-vs-classic-rank/game-002.psq")
            .is_file()
    );
    assert!(
        dir.join("classic-rank-vs-classic-tuple/game-001.sgf")
            .is_file()
    );
    assert!(
        input_error(&["match", "full", "level5", "level4", "--threads-a", "2"])
            .contains("exactly two")
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_brain_that_cannot_start_is_an_error_not_a_win() {
    let dir = scratch("nostart");
    // Refuses the board it is offered.
    let refuses = script_brain(
        &dir,
        "pbrain-refuse",
        "while read -r line; do case \"$line\" in START*) echo ERROR unsupported size;; END*) exit 0;; esac; done",
    );
    let missing = dir.join("pbrain-missing").display().to_string();
    for brain in ["./nonexistent-brain", &missing, &refuses] {
        let out = wuzi(&[
            "match",
            "level1",
            brain,
            "--games",
            "2",
            "--time-per-move",
            "100",
        ]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{brain}: {stdout}\n{stderr}");
        assert!(stderr.contains("cannot start"), "{brain}: {stderr}");
        assert!(
            !stdout.contains("Elo") && !stdout.contains("100.0%"),
            "{brain}: a brain that never started is no win:\n{stdout}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// A brain that plays the first empty point in reading order, and answers `OK` to the
/// first `START` of its process only (`ERROR busy` to later ones, as a brain still winding
/// down its last game may).
const ONE_GAME_BRAIN: &str = r#"n=0; taken=" "; inboard=0
play() {
  y=0
  while [ $y -lt 15 ]; do
    x=0
    while [ $x -lt 15 ]; do
      case "$taken" in *" $x,$y "*) ;; *) taken="$taken$x,$y "; echo "$x,$y"; return;; esac
      x=$((x+1))
    done
    y=$((y+1))
  done
}
while read -r line; do
  line=$(printf %s "$line" | tr -d '\r')
  case "$line" in
    START*) n=$((n+1)); if [ $n -gt 1 ]; then echo "ERROR busy"; else taken=" "; echo OK; fi;;
    BEGIN*) play;;
    TURN*) taken="$taken${line#TURN } "; play;;
    BOARD*) inboard=1;;
    DONE*) inboard=0; play;;
    END*) exit 0;;
    *) if [ $inboard = 1 ]; then taken="$taken${line%,*} "; fi;;
  esac
done"#;

#[test]
fn a_brain_that_refuses_a_second_game_gets_a_fresh_process() {
    let dir = scratch("fresh");
    let brain = script_brain(&dir, "pbrain-onegame", ONE_GAME_BRAIN);
    let records = dir.join("games");
    let out = ok(&[
        "match",
        "classic-greedy",
        &brain,
        "--games",
        "4",
        "--time-per-move",
        "500",
        "--out",
        records.to_str().unwrap(),
    ]);
    // Every game is played on the board: none is lost by the brain's refusal.
    assert!(!out.contains("lost by failing"), "{out}");
    let (games, wins, draws, losses) = table_row(&out, "classic-greedy");
    assert_eq!((games, wins + draws + losses), (4, 4), "{out}");
    for n in 1..=4 {
        let sgf = std::fs::read_to_string(records.join(format!("game-{n:03}.sgf"))).unwrap();
        assert!(
            !sgf.contains("+R]"),
            "game {n} did not end on the board: {sgf}"
        );
        assert!(
            sgf.matches(";W[").count() >= 3,
            "game {n} has no play: {sgf}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn node_limits_reach_engines_and_brains() {
    // Fixed nodes make a match reproducible: the same games, move for move, twice.
    let dir = scratch("nodes");
    let games = |name: &str| {
        let out_dir = dir.join(name);
        let out = ok(&[
            "match",
            "full",
            "full",
            "--nodes-a",
            "3000",
            "--nodes-b",
            "20000",
            "--games",
            "2",
            "--time-per-move",
            "5000",
            "--out",
            out_dir.to_str().unwrap(),
        ]);
        assert!(out.contains("full-3000n vs full-20000n"), "{out}");
        assert!(out.contains("3000 / 20000 nodes/move"), "{out}");
        (1..=2)
            .map(|n| {
                let sgf =
                    std::fs::read_to_string(out_dir.join(format!("game-{n:03}.sgf"))).unwrap();
                // The moves without their times.
                sgf.split(';')
                    .skip(2)
                    .map(|m| m.split("WZMS").next().unwrap().trim().to_string())
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>()
    };
    let first = games("one");
    assert!(first.iter().all(|g| g.len() > 5), "{first:?}");
    assert_eq!(first, games("two"));
    // A brain is told its limit: this one starts only when it is.
    let brain = script_brain(
        &dir,
        "pbrain-nodes",
        "ok=0; while read -r line; do case \"$line\" in \"INFO max_node 1234\"*) ok=1;; START*) if [ $ok = 1 ]; then echo OK; else echo ERROR no node limit; fi;; BEGIN*|TURN*|DONE*) exit 3;; END*) exit 0;; esac; done",
    );
    let told = ok(&[
        "match",
        "level1",
        &brain,
        "--nodes-b",
        "1234",
        "--games",
        "2",
    ]);
    assert!(
        told.contains("lost by failing, not on the board: 2"),
        "{told}"
    );
    let untold = wuzi(&[
        "match",
        "level1",
        &brain,
        "--nodes-a",
        "1234",
        "--games",
        "2",
    ]);
    assert_eq!(untold.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&untold.stderr).contains("no node limit"));
    assert!(
        input_error(&["match", "level1", "level2", "level3", "--nodes-a", "5"])
            .contains("--nodes-a/--nodes-b need exactly two players")
    );
    assert!(input_error(&["match", "level1", "level2", "--nodes", "0"]).contains("--nodes"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_short_match_says_how_many_openings_it_uses() {
    let out = ok(&[
        "match",
        "classic-rank",
        "classic-greedy",
        "--games",
        "2",
        "--time-per-move",
        "100",
        "--quiet",
    ]);
    let header = out.lines().next().unwrap();
    // Piskvork's 41 openings: one does not fit 15x15; two games play the first opening.
    assert!(
        header.contains("1 of 40 used") && header.contains("1 skipped: does not fit"),
        "{header}"
    );
}

#[test]
fn progress_goes_to_stderr_as_plain_lines_off_a_terminal() {
    let out = wuzi(&[
        "match",
        "classic-rank",
        "classic-greedy",
        "--games",
        "2",
        "--time-per-move",
        "100",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with("game 1/2") && lines[0].contains(" left"),
        "{err}"
    );
    assert!(!err.contains('\r') && !err.contains('\x1b'), "{err:?}");
    let out = wuzi(&["bench", "--depth", "2"]);
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("bench ")).collect();
    assert_eq!(lines.len(), 10, "{err}");
    assert!(
        lines[0].starts_with("bench 1/10") && lines[0].contains(" left"),
        "{err}"
    );
    assert!(!err.contains('\r') && !err.contains('\x1b'), "{err:?}");
    // --quiet: none.
    let out = wuzi(&["bench", "--depth", "2", "--quiet"]);
    assert!(out.status.success() && out.stderr.is_empty());
}

#[test]
fn bench_writes_positions_and_moves_in_renju_notation() {
    let out = ok(&["bench", "--depth", "2"]);
    assert!(
        out.lines().next().unwrap().contains("renju notation"),
        "{out}"
    );
    let mut seen = 0;
    for line in out.lines().filter(|l| l.contains(" best ")) {
        // ` 1 freestyle 15 h8g7f6g8g9 w best f6 nodes …`
        let w: Vec<&str> = line.split_whitespace().collect();
        let rule: Rule = w[1].parse().unwrap();
        let size = Size::square(w[2].parse().unwrap()).unwrap();
        let moves = notation::parse_moves(w[3], size).unwrap();
        let game = Game::from_moves(GameConfig::new(rule, size), &moves)
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        let to_move = if game.side_to_move() == wuzi_rules::Color::Black {
            "b"
        } else {
            "w"
        };
        assert_eq!(w[4], to_move, "{line}");
        let best = size.parse_pos(w[6]).unwrap();
        assert!(
            game.board().get(best) == wuzi_rules::Cell::Empty,
            "{line}: the best move is an occupied point"
        );
        seen += 1;
    }
    assert_eq!(seen, 10, "{out}");
    assert!(ok(&["bench", "--help"]).contains("bottom"));
}

/// The moves of a progress line's `pv …` (without a note in brackets), or of the `pv:` line.
fn pv_of(line: &str) -> &str {
    let pv = line.split_once("pv").map_or("", |(_, pv)| pv);
    let pv = pv.split(" (").next().unwrap_or("");
    pv.trim_start_matches(':').trim()
}

#[test]
fn analyze_ends_on_the_line_it_reports() {
    // Searches cut by time (their answer often comes from the unfinished depth), and a
    // renju position whose VCF settles it before any depth line.
    let vcf = ["--rule", "renju", "h8 i9 i8 g8 j9 g10 j7 k6 h6 g5 k8 l9"];
    for args in [
        &["--time", "700ms", "h8 i9 j10"][..],
        &["--time", "700ms", "h8 h9 i8"],
        &["--time", "700ms", "h8 i9 j10 g8"],
        &vcf,
    ] {
        let out = ok(&[&["analyze"][..], args].concat());
        let lines: Vec<&str> = out.lines().collect();
        let best = lines
            .iter()
            .position(|l| l.starts_with("best move: "))
            .expect(&out);
        let last = lines[best - 1];
        let pv = lines.iter().find(|l| l.starts_with("pv: ")).expect(&out);
        assert_eq!(pv_of(last), pv_of(pv), "{out}");
        assert_eq!(
            lines[best].strip_prefix("best move: ").unwrap(),
            pv_of(pv).split(' ').next().unwrap(),
            "{out}"
        );
    }
}

#[test]
fn analyze_names_exactly_what_is_wrong() {
    let out = ok(&["analyze", "--depth", "1", "h8"]);
    assert!(out.contains(", 1 stone\n"), "{out}");
    let err = input_error(&["analyze", "--depth", "0", "h8"]);
    assert!(err.contains("--depth"), "{err}");
    let err = input_error(&["analyze", "--to-move", "white", "h8"]);
    assert!(
        err.contains("--to-move") && err.contains("--board"),
        "{err}"
    );
    let err = input_error(&["analyze", "--time", "99999999999999999s", "h8"]);
    assert!(err.contains("too long") && err.contains("at most"), "{err}");
    let err = input_error(&["analyze", "--multipv", "0", "h8"]);
    assert!(
        err.contains("--multipv") && !err.contains("--threads"),
        "{err}"
    );
    let err = input_error(&["analyze", "--threads", "0", "h8"]);
    assert!(
        err.contains("--threads") && !err.contains("--multipv"),
        "{err}"
    );
    let err = input_error(&["bench", "--threads", "0"]);
    assert!(
        err.contains("--threads") && !err.contains("--depth"),
        "{err}"
    );
    let err = input_error(&["match", "full", "level1", "--concurrency", "0"]);
    assert!(
        err.contains("--concurrency") && !err.contains("--threads"),
        "{err}"
    );
}

#[test]
fn the_examples_in_analyze_help_show_what_they_promise() {
    let help = ok(&["analyze", "--help"]);
    let vcf = help
        .lines()
        .filter_map(|l| l.trim().strip_prefix("wuzi "))
        .find(|l| l.contains("--solve vcf") && !l.contains("--board"))
        .expect(&help);
    let args: Vec<&str> = vcf.split_whitespace().collect();
    let out = ok(&args);
    assert!(!out.contains("vcf: none"), "{vcf}: {out}");
    assert!(out.contains("check: replayed, black wins"), "{vcf}: {out}");
}

#[test]
fn progress_is_a_bar_with_the_time_left_on_a_terminal() {
    // `script` (util-linux, essential on Debian) runs wuzi on a pseudo-terminal, so
    // stderr is a terminal and both streams come back on its stdout.
    let on_a_terminal = |args: &str| {
        let command = format!("{} {args}", env!("CARGO_BIN_EXE_wuzi"));
        let out = Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .output()
            .expect("script (util-linux) runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "{args}: {text}");
        text
    };
    let text = on_a_terminal("match classic-rank classic-greedy --games 4 --time-per-move 100");
    assert!(
        text.contains("/4 games, ") && text.contains(" left"),
        "{text}"
    );
    assert!(
        text.contains("game 4/4: "),
        "each game is listed above the bar: {text}"
    );
    assert!(text.contains("games lost by"), "{text}");
    let text = on_a_terminal("bench --depth 4");
    assert!(
        text.contains("/10 positions, ") && text.contains(" left"),
        "{text}"
    );
    assert!(text.contains("total nodes "), "{text}");
    let text = on_a_terminal("bench --depth 2 --quiet");
    assert!(!text.contains("positions, "), "{text}");
}

#[test]
fn a_match_paired_with_an_earlier_run_counts_the_changed_results() {
    let dir = scratch("paired");
    let openings = dir.join("open.txt");
    std::fs::write(&openings, ok(&["openings", "--count", "2", "--seed", "3"])).unwrap();
    let first = dir.join("first");
    let run = |nodes_a: &str, extra: &[&str]| {
        let mut args = vec![
            "match",
            "full",
            "full",
            "--nodes-a",
            nodes_a,
            "--nodes-b",
            "300",
            "--time-per-move",
            "5000",
            "--games",
            "4",
            "--openings",
            openings.to_str().unwrap(),
            "--quiet",
        ];
        args.extend_from_slice(extra);
        wuzi(&args)
    };
    let out = run("300", &["--out", first.to_str().unwrap()]);
    assert!(out.status.success());
    // At fixed nodes the same match plays the same games: nothing changes.
    let again =
        String::from_utf8(run("300", &["--paired-with", first.to_str().unwrap()]).stdout).unwrap();
    assert!(again.contains("0 better, 0 worse, 4 the same"), "{again}");
    // Other settings: every game is counted once, one way or another.
    let other =
        String::from_utf8(run("900", &["--paired-with", first.to_str().unwrap()]).stdout).unwrap();
    let line = other
        .lines()
        .find(|l| l.starts_with("paired with"))
        .unwrap_or_else(|| panic!("no pairing line in\n{other}"));
    let counts: Vec<u32> = line
        .rsplit_once(": ")
        .expect("the counts follow the directory")
        .1
        .split(|c: char| !c.is_ascii_digit())
        .filter(|t| !t.is_empty())
        .take(3)
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(counts.iter().sum::<u32>(), 4, "{line}");
    // Records of other openings are not paired with.
    std::fs::write(&openings, "0,0, 1,1, 2,0\n").unwrap();
    let err = run("300", &["--paired-with", first.to_str().unwrap()]);
    assert_eq!(err.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&err.stderr).contains("not the same openings"));
    assert!(
        input_error(&["match", "full", "full", "full", "--paired-with", "x"])
            .contains("exactly two players")
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_thinking_log_keeps_each_moves_last_messages() {
    let dir = scratch("thinking");
    // The one-game brain, printing four MESSAGE lines before each move.
    let body = ONE_GAME_BRAIN.replacen(
        "play() {\n",
        "play() {\n  k=$((k+1)); echo \"MESSAGE old $k\"; echo \"MESSAGE depth 1 at $k\"; \
         echo \"MESSAGE depth 2 at $k\"; echo \"MESSAGE done $k\"\n",
        1,
    );
    assert_ne!(body, ONE_GAME_BRAIN);
    let brain = script_brain(&dir, "pbrain-chatty", &body);
    let records = dir.join("games");
    ok(&[
        "match",
        "level1",
        &brain,
        "--games",
        "1",
        "--time-per-move",
        "300",
        "--out",
        records.to_str().unwrap(),
    ]);
    let log = std::fs::read_to_string(records.join("game-001.txt")).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    let heads: Vec<(usize, &str)> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| !l.starts_with("  "))
        .map(|(i, l)| (i, *l))
        .collect();
    assert!(heads.len() >= 5, "{log}");
    let (mut black, mut white) = (0, 0);
    for (i, head) in &heads {
        let words: Vec<&str> = head.split_whitespace().collect();
        assert_eq!(words.len(), 5, "{head}");
        assert!(
            words[0].parse::<usize>().is_ok() && words[4] == "ms",
            "{head}"
        );
        let said: Vec<&str> = lines[i + 1..]
            .iter()
            .take_while(|l| l.starts_with("  "))
            .map(|l| l.trim())
            .collect();
        match words[1] {
            // level1 is Black in game 1: its search's depth, score and line.
            "black" => {
                black += 1;
                assert_eq!(said.len(), 1, "{head}: {said:?}");
                assert!(
                    said[0].starts_with("depth ") && said[0].contains(" pv "),
                    "{said:?}"
                );
            }
            // The brain: its last three messages of this move, not the first.
            _ => {
                white += 1;
                assert_eq!(said.len(), 3, "{head}: {said:?}");
                let k = said[2]
                    .strip_prefix("done ")
                    .expect("the last message last");
                assert_eq!(said[0], format!("depth 1 at {k}"));
                assert_eq!(said[1], format!("depth 2 at {k}"));
            }
        }
    }
    assert!(black >= 3 && white >= 2, "{log}");
    assert!(!log.contains("old"), "{log}");
    let _ = std::fs::remove_dir_all(dir);
}
