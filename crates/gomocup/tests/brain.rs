//! Drives the real `pbrain-wuzi` binary through the protocol. Every read has a timeout,
//! so a hanging brain fails the test instead of hanging it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use wuzi_rules::{Size, notation};

const PATIENCE: Duration = Duration::from_secs(20);

struct Brain {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Every line read, for failure messages.
    log: Vec<String>,
}

impl Brain {
    fn spawn() -> Brain {
        Self::spawn_with(&[])
    }

    fn spawn_with(args: &[&str]) -> Brain {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("pbrain-wuzi starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Brain {
            child,
            stdin,
            lines,
            log: Vec::new(),
        }
    }

    fn send(&mut self, text: &str) {
        self.send_raw(&format!("{text}\n"));
    }

    fn send_raw(&mut self, text: &str) {
        self.stdin
            .write_all(text.as_bytes())
            .expect("brain reads stdin");
        self.stdin.flush().unwrap();
    }

    /// The next line, MESSAGE/DEBUG lines included.
    fn next_any(&mut self, patience: Duration) -> String {
        match self.lines.recv_timeout(patience) {
            Ok(l) => {
                self.log.push(l.clone());
                l
            }
            Err(RecvTimeoutError::Timeout) => {
                panic!(
                    "no answer within {patience:?}; read so far: {:#?}",
                    self.log
                )
            }
            Err(RecvTimeoutError::Disconnected) => {
                panic!("brain closed its output; read so far: {:#?}", self.log)
            }
        }
    }

    /// The next line that is not MESSAGE or DEBUG.
    fn next(&mut self) -> String {
        loop {
            let l = self.next_any(PATIENCE);
            if !l.starts_with("MESSAGE") && !l.starts_with("DEBUG") {
                return l;
            }
        }
    }

    fn expect(&mut self, command: &str, answer: &str) {
        self.send(command);
        assert_eq!(self.next(), answer, "answer to {command:?}");
    }

    /// Sends a command and reads a move `x,y`.
    fn ask_move(&mut self, command: &str) -> (u32, u32) {
        self.send(command);
        let l = self.next();
        parse_move(&l).unwrap_or_else(|| panic!("{command:?} answered {l:?}"))
    }

    fn ask_board(&mut self, stones: &[(u32, u32, u32)]) -> (u32, u32) {
        self.send("BOARD");
        for (x, y, f) in stones {
            self.send(&format!("{x},{y},{f}"));
        }
        self.ask_move("DONE")
    }

    /// Sends END and waits for the process to exit.
    fn end(mut self) {
        self.send("END");
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "brain exited with {status}");
                return;
            }
            assert!(start.elapsed() < PATIENCE, "brain did not exit after END");
            thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn parse_move(l: &str) -> Option<(u32, u32)> {
    let (x, y) = l.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

#[test]
fn every_command_through_the_real_binary() {
    let mut b = Brain::spawn();
    b.send("ABOUT");
    let about = b.next();
    assert!(about.starts_with("name=\"wuzi\", version=\""), "{about}");
    assert!(
        about.contains("author=") && about.contains("country="),
        "{about}"
    );

    // Settings first, as piskvork sends them.
    for info in [
        "INFO timeout_turn 300",
        "INFO timeout_match 60000",
        "INFO time_left 60000",
        "INFO max_memory 83886080",
        "INFO game_type 1",
        "INFO rule 1",
        "INFO folder /tmp",
        "INFO thread_num 1",
        "INFO hash_size 4096",
        "INFO evaluate 1,1",
        "INFO some_new_key whatever",
    ] {
        b.send(info);
    }
    b.expect("START 15", "OK");
    let first = b.ask_move("BEGIN");
    assert_eq!(first, (7, 7), "the engine opens in the centre");
    let reply = b.ask_move("TURN 8,8");
    assert!(reply != (7, 7) && reply != (8, 8) && reply.0 < 15 && reply.1 < 15);
    b.expect(&format!("TAKEBACK {},{}", reply.0, reply.1), "OK");
    b.expect("TAKEBACK 8,8", "OK");
    let again = b.ask_move("TURN 6,6");
    assert!(again != (7, 7) && again != (6, 6));

    // A whole position: the opponent (2) threatens five at 5,3 / 10,3 ... block it.
    b.expect("RESTART", "OK");
    let block = b.ask_board(&[
        (6, 3, 2),
        (0, 0, 1),
        (7, 3, 2),
        (0, 14, 1),
        (8, 3, 2),
        (14, 0, 1),
        (9, 3, 2),
    ]);
    assert!(
        block == (5, 3) || block == (10, 3),
        "did not block the four: {block:?}"
    );
    // Both sides hold an open four and the brain, Black after RESTART, is White on this
    // board: it must make its own five, not block the other's (it saw the colours the
    // wrong way round on its first move after a BOARD, before session 45).
    b.expect("RESTART", "OK");
    let five = b.ask_board(&[
        (3, 3, 2),
        (10, 10, 1),
        (4, 3, 2),
        (11, 10, 1),
        (5, 3, 2),
        (12, 10, 1),
        (6, 3, 2),
        (13, 10, 1),
        (0, 0, 2),
    ]);
    assert!(
        five == (9, 10) || five == (14, 10),
        "blocked at {five:?} instead of making five"
    );

    // Rectangular boards.
    b.expect("RECTSTART 20,15", "OK");
    let (x, y) = b.ask_move("BEGIN");
    assert!(x < 20 && y < 15);

    // Swap2.
    b.expect("START 15", "OK");
    b.send("SWAP2BOARD");
    b.send("DONE");
    let three = b.next();
    let moves: Vec<_> = three.split(' ').map(|m| parse_move(m).unwrap()).collect();
    assert_eq!(moves.len(), 3, "{three}");
    b.send("SWAP2BOARD");
    for line in ["7,7,1", "8,8,2", "9,7,1"] {
        b.send(line);
    }
    b.send("DONE");
    let answer = b.next();
    assert!(
        answer == "SWAP" || parse_move(&answer).is_some(),
        "{answer}"
    );

    // Renju forbidden points (GomocupJudge's position: g9 = 6,8 is a double three).
    b.send("INFO rule 4");
    b.expect("START 15", "OK");
    b.send("YXBOARD");
    for line in [
        "7,7,1", "7,8,2", "8,6,1", "8,8,2", "7,9,1", "8,5,2", "8,10,1", "8,11,2",
    ] {
        b.send(line);
    }
    b.send("DONE");
    b.send("YXSHOWFORBID");
    let forbid = b.next();
    assert!(
        forbid.starts_with("FORBID ") && forbid.ends_with('.'),
        "{forbid}"
    );
    assert!(forbid.contains("0608"), "{forbid}");

    // N best, with depth and node limits.
    b.send("INFO max_depth 2");
    b.send("INFO max_node 20000");
    b.send("YXNBEST 2");
    let mut saw_nbest = false;
    let best = loop {
        let l = b.next_any(PATIENCE);
        if l.starts_with("MESSAGE nbest") {
            saw_nbest = true;
        } else if !l.starts_with("MESSAGE") {
            break l;
        }
    };
    assert!(saw_nbest, "{:#?}", b.log);
    let best = parse_move(&best).expect("YXNBEST ends with the best move");
    assert_ne!(best, (6, 8), "YXNBEST suggested a forbidden point");

    // Malformed and unexpected input: ERROR/UNKNOWN, and the brain goes on.
    for (bad, prefix) in [
        ("TURN a,b", "ERROR"),
        ("TURN 7,7", "ERROR"), // occupied
        ("TURN 99,1", "ERROR"),
        ("START 4", "ERROR"),
        ("RECTSTART 3", "ERROR"),
        ("DONE", "ERROR"),
        ("1,2,3", "ERROR"),
        ("BEGIN", "ERROR"), // stones on the board
        ("TAKEBACK 0,0", "ERROR"),
        ("YXNBEST 0", "ERROR"),
        ("FLY 1,2", "UNKNOWN"),
        ("\u{1b}[A\u{0}garbage", "UNKNOWN"),
    ] {
        b.send(bad);
        let l = b.next();
        assert!(l.starts_with(prefix), "{bad:?} gave {l:?}");
    }
    // A bad INFO is reported with the next command.
    b.send("INFO timeout_turn never");
    b.send("ABOUT");
    assert!(b.next().starts_with("ERROR INFO timeout_turn"));
    assert!(b.next().starts_with("name="));
    // The position survived all that.
    b.send("YXSHOWFORBID");
    assert_eq!(b.next(), forbid);

    // CR-only and CRLF line endings.
    b.send_raw("INFO rule 0\rSTART 15\r\n");
    assert_eq!(b.next(), "OK");
    b.send_raw("BEGIN\r");
    assert_eq!(parse_move(&b.next()), Some((7, 7)));
    b.end();
}

#[test]
fn stop_interrupts_a_long_search() {
    for stop in ["YXSTOP", "STOP"] {
        let mut b = Brain::spawn();
        b.send("INFO timeout_turn 600000");
        b.send("INFO timeout_match 0");
        b.expect("START 15", "OK");
        b.send("BOARD");
        for line in ["7,7,2", "8,8,1", "8,7,2", "6,7,1", "9,6,2"] {
            b.send(line);
        }
        b.send("DONE");
        // Wait until the search reports progress, then stop it.
        let first = b.next_any(PATIENCE);
        assert!(first.starts_with("MESSAGE depth"), "{first}");
        let asked = Instant::now();
        b.send(stop);
        let answer = b.next();
        assert!(parse_move(&answer).is_some(), "{stop} gave {answer:?}");
        assert!(
            asked.elapsed() < Duration::from_secs(10),
            "{stop} took {:?}",
            asked.elapsed()
        );
        // The brain is still responsive.
        b.send("ABOUT");
        assert!(b.next().starts_with("name="));
        b.end();
    }
}

#[test]
fn end_interrupts_a_search() {
    let mut b = Brain::spawn();
    b.send("INFO timeout_turn 600000");
    b.expect("START 15", "OK");
    b.send("TURN 7,7");
    let first = b.next_any(PATIENCE);
    assert!(first.starts_with("MESSAGE"), "{first}");
    b.end();
}

#[test]
fn eof_ends_the_brain() {
    let mut b = Brain::spawn();
    b.expect("START 15", "OK");
    let stdin = std::mem::replace(&mut b.stdin, {
        // A dummy pipe end to put in its place; closing the real one is the point.
        let mut c = Command::new("true").stdin(Stdio::piped()).spawn().unwrap();
        let s = c.stdin.take().unwrap();
        let _ = c.wait();
        s
    });
    drop(stdin);
    let start = Instant::now();
    while b.child.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < PATIENCE,
            "brain did not exit at end of input"
        );
        thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn classic_players_speak_the_protocol_too() {
    let mut b = Brain::spawn_with(&["--player", "classic-tuple"]);
    b.expect("START 15", "OK");
    assert_eq!(b.ask_move("BEGIN"), (7, 7));
    b.end();
}

/// GomocupJudge's rule checks, answered through the protocol.
#[test]
fn gomocup_judge_rule_checks() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/rule_checks_gomocupjudge.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("testdata present");
    let mut b = Brain::spawn();
    b.send("INFO timeout_turn 1000");
    let mut checked = 0;
    for record in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(record).unwrap();
        let rule = v["gomocup_rule"].as_u64().unwrap();
        let size = v["size"].as_u64().unwrap();
        let moves = v["moves_xy"].as_array().unwrap();
        b.send(&format!("INFO rule {rule}"));
        b.expect(&format!("START {size}"), "OK");
        // Stones in move order; ours are the side to move's.
        let n = moves.len();
        let stones: Vec<(u32, u32, u32)> = moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let own = (n - i).is_multiple_of(2);
                (
                    m[0].as_u64().unwrap() as u32,
                    m[1].as_u64().unwrap() as u32,
                    if own { 1 } else { 2 },
                )
            })
            .collect();
        let answer = b.ask_board(&stones);
        let squares: Vec<(u32, u32)> = v["squares"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["x"].as_u64().unwrap() as u32,
                    s["y"].as_u64().unwrap() as u32,
                )
            })
            .collect();
        match v["check"].as_str().unwrap() {
            "must_play_one_of" => {
                assert!(squares.contains(&answer), "{record}\nanswered {answer:?}")
            }
            "must_not_play" => assert!(!squares.contains(&answer), "{record}\nanswered {answer:?}"),
            other => panic!("unknown check {other}"),
        }
        checked += 1;
    }
    assert_eq!(checked, 8);
    b.end();
}

/// A point in renju notation on 15×15 as Gomocup `x,y`.
fn xy(s: &str) -> (u32, u32) {
    let x = u32::from(s.as_bytes()[0] - b'a');
    let row: u32 = s[1..].parse().unwrap();
    (x, 15 - row)
}

/// Replays a recorded game through the brain as a referee does: the brain plays
/// `brain_black`'s side, gets the opponent's move by `TURN` while the game follows its
/// own answers and the whole position by `BOARD` where the record went another way.
/// Every answer must be an empty point near the stones; at the plies of `never`, none
/// of the points listed.
fn replay(moves: &str, brain_black: bool, turn_ms: u32, never: &[(usize, &[&str])]) {
    let moves: Vec<(u32, u32)> = moves.split_whitespace().map(xy).collect();
    let mut b = Brain::spawn();
    b.send("INFO rule 0");
    b.send("INFO game_type 1");
    b.send("INFO max_memory 367001600");
    b.send(&format!("INFO timeout_turn {turn_ms}"));
    b.expect("START 15", "OK");
    let mut last_answer: Option<(usize, (u32, u32))> = None;
    for n in 3..moves.len() {
        if (n % 2 == 0) != brain_black {
            continue;
        }
        let followed = last_answer.is_some_and(|(k, a)| k + 2 == n && moves[k] == a);
        let (x, y) = if followed {
            let (ox, oy) = moves[n - 1];
            b.ask_move(&format!("TURN {ox},{oy}"))
        } else {
            let stones: Vec<(u32, u32, u32)> = (0..n)
                .map(|k| {
                    let own = (k % 2 == 0) == brain_black;
                    (moves[k].0, moves[k].1, if own { 1 } else { 2 })
                })
                .collect();
            b.ask_board(&stones)
        };
        let stones = &moves[..n];
        assert!(
            x < 15 && y < 15 && !stones.contains(&(x, y)),
            "ply {n}: {x},{y}"
        );
        let near = stones
            .iter()
            .any(|&(sx, sy)| sx.abs_diff(x) <= 4 && sy.abs_diff(y) <= 4);
        assert!(near, "ply {n}: {x},{y} is far from every stone");
        for (ply, points) in never {
            if *ply == n {
                assert!(
                    !points.iter().any(|p| xy(p) == (x, y)),
                    "ply {n}, {turn_ms} ms: {x},{y}; read: {:#?}",
                    b.log
                );
            }
        }
        last_answer = Some((n, (x, y)));
    }
    b.end();
}

/// Issue 24: in this game against the greedy AI (wuzi White, 200 ms a move) the brain
/// answered `TURN 5,5` (f10) with the corner `0,0` although its search chose e11: in a
/// lost position its final safety check refuted e11 and walked on through the refuted
/// replacements to the last point of the threat's line. And in this game against Rapfi
/// (wuzi White), replayed position by position, it answered a11 for d8 the same way.
#[test]
fn whole_games_through_the_binary_play_no_far_end_of_a_threat() {
    replay(
        "h8 h9 f8 g7 g8 i8 e8 d8 g10 f9 g9 e7 g11 g12 f10 e11",
        false,
        200,
        &[(15, &["a15", "b14", "c13"])],
    );
    for turn_ms in [100, 110] {
        replay(
            "h8 h9 h10 g9 f9 i9 j9 g8 g10 i10 f7 e8 j11 j12 i12 k10 i7 k11 f8 f10 g7 h7 h6 \
             i5 g5 f4 f6 f5 e7 d8 i3 h4 j6 k9 k5 l4 i6 g6 l6 k6 j4 m7 h2",
            false,
            turn_ms,
            &[(29, &["a11", "b10", "j2", "k1"])],
        );
    }
}

/// A renju game from issue 24's matches, 224 moves in renju notation run together
/// (Black first; testdata/full_board_renju.txt): the one empty point left, h5, is
/// forbidden for Black.
const FULL_BOARD_RENJU: &str = include_str!("../../../testdata/full_board_renju.txt");

/// The Gomocup protocol has no pass: when every empty point is forbidden for Black,
/// the brain plays one and lets the manager judge it. It used to answer `ERROR`, and
/// a manager that reads that as chatter waited out the move's time (a loss on time
/// in session 68's match, game 15, move 225).
#[test]
fn black_with_only_forbidden_points_still_answers_a_move() {
    let points: Vec<(u32, u32)> = notation::parse_moves(FULL_BOARD_RENJU.trim(), Size::STANDARD)
        .unwrap()
        .iter()
        .map(|p| (u32::from(p.x), u32::from(p.y)))
        .collect();
    assert_eq!(points.len(), 224);
    let h5 = xy("h5");
    assert!(!points.contains(&h5));
    let stones: Vec<(u32, u32, u32)> = points
        .iter()
        .enumerate()
        .map(|(k, &(x, y))| (x, y, if k % 2 == 0 { 1 } else { 2 }))
        .collect();
    let mut b = Brain::spawn();
    b.send("INFO rule 4");
    b.send("INFO timeout_turn 300");
    b.expect("START 15", "OK");
    b.send("YXBOARD");
    for (x, y, f) in &stones {
        b.send(&format!("{x},{y},{f}"));
    }
    b.send("DONE");
    b.expect("YXSHOWFORBID", &format!("FORBID {:02}{:02}.", h5.0, h5.1));
    assert_eq!(b.ask_board(&stones), h5);
    b.end();
}
