//! Runs the real `wuzi` binary: `judge`, `forbidden`, `openings`, help and bad input.

use std::process::{Command, Output};

use wuzi_rules::{Board, Cell, Color, Size, forbidden_points, notation};

fn wuzi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wuzi"))
        .args(args)
        .output()
        .expect("the wuzi binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("utf-8 stdout")
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("utf-8 stderr")
}

#[track_caller]
fn ok(args: &[&str]) -> String {
    let out = wuzi(args);
    assert!(
        out.status.success(),
        "wuzi {args:?} failed: {}",
        stderr(&out)
    );
    stdout(&out)
}

#[track_caller]
fn input_error(args: &[&str]) -> String {
    let out = wuzi(args);
    assert_eq!(
        out.status.code(),
        Some(2),
        "wuzi {args:?} should fail with status 2; stdout {:?}",
        stdout(&out)
    );
    assert!(out.stdout.is_empty(), "nothing on stdout after an error");
    stderr(&out)
}

#[test]
fn judge_reports_a_five() {
    let out = ok(&[
        "judge", "--rule", "renju", "h8", "h9", "i8", "i9", "j8", "j9", "k8", "k9", "l8",
    ]);
    assert_eq!(out, "black wins: 5 in a row h8-l8\n");
}

#[test]
fn judge_accepts_concatenated_and_numbered_moves() {
    assert_eq!(ok(&["judge", "-r", "freestyle", "h8i9j10"]), "ongoing\n");
    assert_eq!(
        ok(&[
            "judge",
            "-r",
            "freestyle",
            "1. h8 2. h9 3. i8",
            "i9j8j9k8k9l8"
        ]),
        "black wins: 5 in a row h8-l8\n"
    );
    assert_eq!(ok(&["judge", "-r", "renju"]), "ongoing\n");
}

#[test]
fn judge_reports_black_forbidden_move() {
    let out = ok(&[
        "judge", "--rule", "renju", "g9", "a1", "h9", "c1", "i7", "o15", "i8", "o1", "i9",
    ]);
    assert_eq!(out, "white wins: black forbidden double-three at i9\n");
    // The same moves under freestyle are just a game going on.
    let out = ok(&[
        "judge",
        "--rule",
        "freestyle",
        "g9",
        "a1",
        "h9",
        "c1",
        "i7",
        "o15",
        "i8",
        "o1",
        "i9",
    ]);
    assert_eq!(out, "ongoing\n");
}

#[test]
fn judge_respects_rule_size_and_k() {
    // An overline: a win in freestyle, nothing in standard.
    let six = [
        "a1", "a2", "b1", "b2", "c1", "c2", "e1", "e2", "f1", "f2", "d1",
    ];
    let mut args = vec!["judge", "-r", "freestyle"];
    args.extend(six);
    assert_eq!(ok(&args), "black wins: 6 in a row a1-f1\n");
    args[2] = "standard";
    assert_eq!(ok(&args), "ongoing\n");
    // Four in a row with k = 4.
    assert_eq!(
        ok(&["judge", "-r", "freestyle", "-k", "4", "a1a2b1b2c1c2d1"]),
        "black wins: 4 in a row a1-d1\n"
    );
    // t20 exists only on a 20x20 board.
    assert_eq!(
        ok(&["judge", "-r", "standard", "-s", "20", "t20"]),
        "ongoing\n"
    );
    let err = input_error(&["judge", "-r", "standard", "t20"]);
    assert!(err.contains("t20"), "{err}");
}

#[test]
fn judge_names_the_illegal_move() {
    let err = input_error(&["judge", "--rule", "renju", "h8", "i9", "h8"]);
    assert!(
        err.contains("move 3 (h8)") && err.contains("occupied"),
        "{err}"
    );
    let err = input_error(&["judge", "-r", "freestyle", "a1a2b1b2c1c2d1d2e1", "o15"]);
    assert!(
        err.contains("move 10 (o15)") && err.contains("over"),
        "{err}"
    );
    let err = input_error(&["judge", "-r", "renju", "h8 ?"]);
    assert!(err.contains("\"h8 ?\" at character 4"), "{err}");
}

#[test]
fn judge_rejects_bad_options() {
    let err = input_error(&["judge", "--rule", "chess", "h8"]);
    assert!(err.contains("chess"), "{err}");
    let err = input_error(&["judge", "--rule", "renju", "-k", "6", "h8"]);
    assert!(err.contains("renju"), "{err}");
    let err = input_error(&["judge", "--rule", "renju", "--size", "30", "h8"]);
    assert!(err.contains("30"), "{err}");
    input_error(&["judge", "h8"]); // --rule is required
    input_error(&["no-such-command"]);
}

#[test]
fn forbidden_lists_kinds() {
    let out = ok(&[
        "forbidden",
        "g9",
        "a1",
        "h9",
        "c1",
        "i7",
        "e1",
        "i8",
        "g1",
        "b13",
        "j1",
        "c13",
        "l1",
        "d13",
        "n1",
        "f13",
        "o3",
        "g13",
    ]);
    assert_eq!(out, "e13:6 i9:33\n");
    assert_eq!(
        ok(&["forbidden", "h8 a1 i8 a3 j8 a5 k10 a7 k11 a9 k12"]),
        "k8:44\n"
    );
    assert_eq!(ok(&["forbidden", "h8"]), "\n");
    assert_eq!(ok(&["forbidden"]), "\n");
}

/// Rows sort numerically: i9 before i10 (a plain string sort would put i10 first).
#[test]
fn forbidden_sorts_by_column_then_row_number() {
    let moves = "g9 a1 h9 c1 i7 e1 i8 g1 j12 a5 k12 a7 i13 a9 i14";
    assert_eq!(ok(&["forbidden", moves]), "i9:33 i10:33 i11:33 i12:33\n");
}

/// The command agrees with the library on the set, and its order is the documented one.
#[test]
fn forbidden_matches_the_library_on_several_positions() {
    let positions = [
        (
            "15",
            "g9 a1 h9 c1 i7 e1 i8 g1 b13 j1 c13 l1 d13 n1 f13 o3 g13 o5 m4 o7 m5 o9 m6 o11 l7",
        ),
        ("15", "h8 h9 i8 i9 j7 j9 g9 k10 i6 f6 h6"),
        ("20x13", "j7 a1 k7 a3 l8 a5 l9 a7 c10 a9 d10 a11 f10 t1 g10"),
    ];
    for (size_text, moves) in positions {
        let size: Size = size_text.parse().unwrap();
        let pts = notation::parse_moves(moves, size).unwrap();
        let mut board = Board::new(size);
        for (i, &p) in pts.iter().enumerate() {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            board.set(p, Cell::stone(c));
        }
        let mut want: Vec<(u8, u32, String)> = forbidden_points(&board)
            .into_iter()
            .map(|(p, k)| {
                let row = u32::from(size.height()) - u32::from(p.y);
                (p.x, row, format!("{}:{}", size.notation(p), k.code()))
            })
            .collect();
        want.sort();
        let want: Vec<String> = want.into_iter().map(|(_, _, s)| s).collect();
        let out = ok(&["forbidden", "--size", size_text, moves]);
        assert_eq!(out, format!("{}\n", want.join(" ")), "{moves}");
    }
}

#[test]
fn forbidden_rejects_bad_input() {
    let err = input_error(&["forbidden", "h8", "h8"]);
    assert!(err.contains("move 2 (h8)"), "{err}");
    let err = input_error(&["forbidden", "h8", "p8"]);
    assert!(err.contains("p8"), "{err}");
    input_error(&["forbidden", "--size", "4x4", "a1"]);
}

#[test]
fn help_explains_every_command() {
    let top = ok(&["--help"]);
    for word in ["judge", "forbidden", "convert", "Examples"] {
        assert!(top.contains(word), "top help lacks {word}: {top}");
    }
    let judge = ok(&["judge", "--help"]);
    assert!(
        judge.contains("--rule") && judge.contains("Examples"),
        "{judge}"
    );
    let forbidden = ok(&["forbidden", "--help"]);
    assert!(forbidden.contains("sorted by column"), "{forbidden}");
}

#[test]
fn judge_without_a_rule_shows_the_usage_its_help_shows() {
    let err = input_error(&["judge", "h8"]);
    assert!(err.contains("--rule"), "{err}");
    assert!(
        err.contains("[MOVES]...") && !err.contains("<MOVES>"),
        "{err}"
    );
    let help = ok(&["judge", "--help"]);
    assert!(help.contains("[MOVES]..."), "{help}");
}

#[test]
fn every_rule_name_the_commands_accept_is_in_their_help() {
    // `gomoku` and `free` are names of freestyle, `exact5` of standard, the numbers
    // Gomocup's codes: all accepted, so all documented.
    for name in ["gomoku", "free", "exact5", "4"] {
        ok(&["judge", "--rule", name, "h8"]);
    }
    for cmd in ["judge", "convert", "match", "analyze"] {
        let help = ok(&[cmd, "--help"]);
        for word in [
            "freestyle",
            "gomoku",
            "standard",
            "exact5",
            "renju",
            "caro",
            "0, 1, 4, 8",
        ] {
            assert!(
                help.contains(word),
                "`wuzi {cmd} --help` lacks {word:?}:\n{help}"
            );
        }
    }
}

#[test]
fn every_help_puts_each_option_on_one_line() {
    // The compact layout of clap: `  -r, --rule <RULE>  Rule: …` on one line. A long
    // help (a documented value list, a second paragraph) moves every description under its
    // option; no command should look unlike the others.
    for cmd in [
        "judge",
        "forbidden",
        "convert",
        "match",
        "analyze",
        "bench",
        "serve",
    ] {
        let help = ok(&[cmd, "--help"]);
        let options = help
            .lines()
            .skip_while(|l| *l != "Options:")
            .skip(1)
            .take_while(|l| !l.is_empty());
        for line in options {
            let beside = line
                .trim_start()
                .split("  ")
                .filter(|part| !part.trim().is_empty())
                .count();
            assert!(
                beside >= 2,
                "`wuzi {cmd} --help`: {line:?} has no help beside it:\n{help}"
            );
        }
        assert!(
            !help.contains("Possible values:"),
            "`wuzi {cmd} --help`:\n{help}"
        );
    }
}

#[test]
fn openings_prints_the_count_asked_for_the_same_for_the_same_seed() {
    let a = ok(&["openings", "--count", "40", "--seed", "7"]);
    let lines: Vec<&str> = a.lines().collect();
    assert_eq!(lines.len(), 40);
    for line in &lines {
        let v: Vec<i32> = line
            .split(',')
            .map(|t| t.trim().parse().expect("an offset"))
            .collect();
        assert_eq!(v.len(), 10, "{line}");
        assert_eq!(
            (v[0], v[1]),
            (0, 0),
            "Black's first stone in the centre: {line}"
        );
        assert!(v.iter().all(|d| d.abs() <= 3), "{line}");
    }
    assert_eq!(a, ok(&["openings", "--count", "40", "--seed", "7"]));
    assert_ne!(a, ok(&["openings", "--count", "40", "--seed", "8"]));
    // The first of a longer draw are the shorter draw.
    assert!(ok(&["openings", "--count", "60", "--seed", "7"]).starts_with(&a));
}

#[test]
fn openings_refuses_a_count_or_seed_it_cannot_use() {
    for args in [
        &["openings", "--count", "0"][..],
        &["openings", "--count", "10001"],
        &["openings", "--count", "many"],
        &["openings", "--seed=-1"],
        &["openings", "--seed", "x"],
    ] {
        let err = input_error(args);
        assert!(
            err.contains("--count") || err.contains("--seed"),
            "{args:?}: {err}"
        );
    }
}
