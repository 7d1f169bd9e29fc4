//! Runs the real `wuzi convert` on files and pipes, including bad input.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use wuzi_rules::record::{Format, ReadOptions, json};
use wuzi_rules::{Color, EndReason, GameConfig, Rule, Size, Variant};

fn wuzi(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wuzi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the wuzi binary runs");
    // wuzi may exit (bad arguments, a file input) before reading its stdin: a closed pipe
    // here is not the test's concern, the exit status and output are.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin) {
        assert_eq!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe,
            "writing wuzi's stdin: {e}"
        );
    }
    child.wait_with_output().unwrap()
}

/// A fresh directory for one test, removed when the test ends.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("wuzi-cli-convert-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

fn path(dir: &std::path::Path, file: &str) -> String {
    dir.join(file).to_str().unwrap().to_string()
}

#[track_caller]
fn ok(args: &[&str], stdin: &str) -> String {
    let out = wuzi(args, stdin.as_bytes());
    assert!(
        out.status.success(),
        "wuzi {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[track_caller]
fn input_error(args: &[&str], stdin: &[u8]) -> String {
    let out = wuzi(args, stdin);
    assert_eq!(out.status.code(), Some(2), "wuzi {args:?} should exit 2");
    String::from_utf8(out.stderr).unwrap()
}

const PSQ: &str = "Piskvorky 15x15, 11:11, 0\n8,8,1000\n9,7,2000\n10,6,500\nAnn\nBob\n";

#[test]
fn a_game_survives_a_tour_of_every_format() {
    let dir = scratch("tour");
    std::fs::write(dir.join("a.psq"), PSQ).unwrap();
    let chain = ["a.psq", "b.sgf", "c.json", "d.txt", "e.sgf", "f.psq"];
    for pair in chain.windows(2) {
        ok(&["convert", &path(&dir, pair[0]), &path(&dir, pair[1])], "");
    }
    let end = std::fs::read_to_string(dir.join("f.psq")).unwrap();
    assert_eq!(end, PSQ);
    let txt = std::fs::read_to_string(dir.join("d.txt")).unwrap();
    assert!(
        txt.ends_with("1. h8    # 1000 ms\n2. i9    # 2000 ms\n3. j10   # 500 ms\n"),
        "{txt}"
    );
    let sgf = std::fs::read_to_string(dir.join("b.sgf")).unwrap();
    assert!(
        sgf.contains(";B[hh]WZMS[1000];W[ig]WZMS[2000];B[jf]"),
        "{sgf}"
    );
    assert!(sgf.contains("PB[Ann]PW[Bob]"), "{sgf}");
    let record = json::read(&std::fs::read_to_string(dir.join("c.json")).unwrap()).unwrap();
    assert_eq!(record.moves[1].time_ms, Some(2000));
    assert_eq!(record.players.white.name.as_deref(), Some("Bob"));
}

#[test]
fn pipes_need_formats_or_recognisable_input() {
    assert_eq!(
        ok(
            &["convert", "--from", "pos", "--to", "txt", "-", "-"],
            "h8i9j10\n"
        ),
        "# wuzi game record (renju notation: a1 is the bottom-left corner)\n\
         Rule: freestyle\nSize: 15x15\n\n1. h8\n2. i9\n3. j10\n"
    );
    // PSQ, SGF and JSON are recognised on standard input.
    assert_eq!(ok(&["convert", "--to", "pos", "-", "-"], PSQ), "h8i9j10\n");
    assert_eq!(
        ok(
            &["convert", "--to", "pos", "-", "-"],
            "(;GM[4]SZ[15];B[hh];W[ig])"
        ),
        "h8i9\n"
    );
    // Text and position strings are recognised too.
    assert_eq!(
        ok(&["convert", "--to", "pos", "-", "-"], "h8 i9\n"),
        "h8i9\n"
    );
    assert_eq!(
        ok(
            &["convert", "--to", "pos", "-", "-"],
            "Rule: renju\n1. h8\n"
        ),
        "h8\n"
    );
    let err = input_error(&["convert", "--to", "sgf", "-", "-"], b"<html>");
    assert!(err.contains("--from"), "{err}");
    let err = input_error(&["convert", "--from", "pos", "-", "-"], b"h8i9");
    assert!(err.contains("--to"), "{err}");
}

#[test]
fn a_pipe_asks_only_for_the_format_it_cannot_tell() {
    // The input is recognised: only the output's format is missing.
    let err = input_error(&["convert", "-", "-"], b"h8\n");
    assert!(
        err.contains("--to") && err.contains("standard output"),
        "{err}"
    );
    assert!(!err.contains("--from") && !err.contains("input"), "{err}");
    assert_eq!(ok(&["convert", "--to", "pos", "-", "-"], "h8\n"), "h8\n");
    // Neither can be told: both are named, once.
    let err = input_error(&["convert", "-", "-"], b"<html>");
    assert!(err.contains("--from") && err.contains("--to"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn row_order_and_size_of_position_strings() {
    let top = ok(
        &[
            "convert", "--from", "pos", "--to", "pos", "--rows", "top-down", "-", "-",
        ],
        "h8i9j10",
    );
    assert_eq!(top, "h8i9j10\n");
    // Read top-down, written as SGF: i9 top-down is column i, ninth row from the top.
    let sgf = ok(
        &[
            "convert", "--from", "pos", "--to", "sgf", "--rows", "top-down", "-", "-",
        ],
        "h8i9",
    );
    assert!(sgf.contains(";B[hh];W[ii]"), "{sgf}");
    let sgf = ok(
        &[
            "convert", "--from", "pos", "--to", "sgf", "--size", "20", "-", "-",
        ],
        "t20",
    );
    assert!(sgf.contains("SZ[20]") && sgf.contains(";B[ta]"), "{sgf}");
    let err = input_error(
        &[
            "convert", "--from", "pos", "--to", "sgf", "--rows", "sideways", "-", "-",
        ],
        b"h8",
    );
    assert!(err.contains("sideways"), "{err}");
}

#[test]
fn the_result_is_judged_under_the_given_rule() {
    // A black double-three at i9: a loss under renju, nothing under freestyle.
    let moves = "g9a1h9c1i7o15i8o1i9";
    let renju = ok(
        &[
            "convert", "--from", "pos", "--to", "json", "--rule", "renju", "-", "-",
        ],
        moves,
    );
    let record = Format::Json.read(&renju, &ReadOptions::default()).unwrap();
    let result = record.result.expect("renju result");
    assert_eq!(result.winner, Some(Color::White));
    assert!(matches!(result.reason, EndReason::Forbidden { .. }));
    let free = ok(
        &["convert", "--from", "pos", "--to", "json", "-", "-"],
        moves,
    );
    assert!(!free.contains("\"result\""), "{free}");
}

#[test]
fn bad_records_name_the_problem_and_write_nothing() {
    let dir = scratch("bad");
    let out = path(&dir, "out.sgf");
    std::fs::write(
        dir.join("dup.psq"),
        "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n8,8,0\n",
    )
    .unwrap();
    let err = input_error(&["convert", &path(&dir, "dup.psq"), &out], b"");
    assert!(
        err.contains("move 3 (h8)") && err.contains("occupied"),
        "{err}"
    );
    std::fs::write(dir.join("cut.sgf"), "(;GM[4]SZ[15]\n;B[hh];W[i").unwrap();
    let err = input_error(&["convert", &path(&dir, "cut.sgf"), &out], b"");
    assert!(err.contains("line 2"), "{err}");
    std::fs::write(dir.join("bin.sgf"), b"(;GM[4]\xff\xfe)").unwrap();
    let err = input_error(&["convert", &path(&dir, "bin.sgf"), &out], b"");
    assert!(
        err.contains("not UTF-8") && err.contains("offset 7"),
        "{err}"
    );
    let err = input_error(&["convert", &path(&dir, "missing.psq"), &out], b"");
    assert!(err.contains("missing.psq"), "{err}");
    let err = input_error(
        &["convert", &path(&dir, "dup.psq"), &path(&dir, "x.doc")],
        b"",
    );
    assert!(err.contains("x.doc"), "{err}");
    assert!(!dir.join("out.sgf").exists());
}

#[test]
fn formats_refuse_what_they_cannot_hold() {
    let dir = scratch("refuse");
    let size = Size::STANDARD;
    let mut config = GameConfig::new(Rule::Freestyle, size);
    config.variant = Variant::rock(size, 11, 10);
    let mut record = wuzi_rules::record::Record::new(config);
    record.push_alternating(size.center(), Some(5));
    std::fs::write(dir.join("rock.json"), json::write(&record)).unwrap();
    let err = input_error(
        &["convert", &path(&dir, "rock.json"), &path(&dir, "rock.psq")],
        b"",
    );
    assert!(err.contains("PSQ cannot hold the rock theme"), "{err}");
    assert!(!dir.join("rock.psq").exists());
    input_error(
        &["convert", &path(&dir, "rock.json"), &path(&dir, "rock.pos")],
        b"",
    );
    // SGF and text keep the walls.
    for file in ["rock.sgf", "rock.txt"] {
        ok(
            &["convert", &path(&dir, "rock.json"), &path(&dir, file)],
            "",
        );
        let back = ok(&["convert", &path(&dir, file), "--to", "json", "-"], "");
        let again = json::read(&back).unwrap();
        assert_eq!(again.config, record.config, "{file}");
    }
}

#[test]
fn help_lists_the_formats() {
    let help = ok(&["convert", "--help"], "");
    for word in ["psq", "sgf", "txt", "pos", "json", "--rows", "Examples"] {
        assert!(help.contains(word), "{word} missing from {help}");
    }
}

#[test]
fn trees_keep_their_variations_in_sgf_and_give_the_main_line_elsewhere() {
    let dir = scratch("tree");
    let lib = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/renlib/D4.lib")
        .to_str()
        .unwrap()
        .to_string();
    // A RenLib library as SGF keeps every variation and comment.
    ok(&["convert", &lib, &path(&dir, "d4.sgf")], "");
    let text = std::fs::read_to_string(dir.join("d4.sgf")).unwrap();
    let tree = wuzi_rules::record::sgf::read_tree(&text).unwrap();
    assert_eq!(tree.len(), 3058);
    assert!(text.contains("C[Transition to opening D7]"), "{text}");
    // In a one-line format: the main line, and a note of what was left out.
    let out = wuzi(&["convert", "--to", "pos", &lib, "-"], b"");
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "h8h9i9g10i8g7i7i10g8f8j6k5h6\n"
    );
    let note = String::from_utf8(out.stderr).unwrap();
    assert!(
        note.contains("main line (13 moves)") && note.contains("left out 3045 moves"),
        "{note}"
    );
    // SGF with variations and a setup position, through a pipe.
    let sgf = ok(
        &["convert", "--to", "sgf", "-", "-"],
        "(;GM[4]SZ[15]AB[aa][bb]AW[cc]PL[W](;W[hh];B[ii])(;W[jj]C[other]))",
    );
    assert!(sgf.contains("AB[aa][bb]AW[cc]"), "{sgf}");
    assert!(
        sgf.contains("(;W[hh];B[ii])") && sgf.contains("(;W[jj]C[other])"),
        "{sgf}"
    );
    // A damaged library names the byte.
    let mut cut = std::fs::read(&lib).unwrap();
    cut.truncate(101);
    std::fs::write(dir.join("cut.lib"), &cut).unwrap();
    let err = input_error(
        &["convert", &path(&dir, "cut.lib"), &path(&dir, "x.sgf")],
        b"",
    );
    assert!(err.contains("RenLib, byte 100"), "{err}");
    assert!(!dir.join("x.sgf").exists());
    // An illegal move in a variation is refused when the variations are written, naming
    // it; the main line alone is still written.
    let bad_variation = "(;GM[4];B[hh](;W[ig])(;W[hh]))";
    let err = input_error(
        &["convert", "--to", "sgf", "-", "-"],
        bad_variation.as_bytes(),
    );
    assert!(err.contains("move 2 (h8)"), "{err}");
    assert_eq!(
        ok(&["convert", "--to", "pos", "-", "-"], bad_variation),
        "h8i9\n"
    );
}
