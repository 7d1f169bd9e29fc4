//! Session tests: commands in, replies out, with searches run in place.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use wuzi_engine::ClassicAi;
use wuzi_gomocup::classic::ClassicThinker;
use wuzi_gomocup::{Eval, Reply, Session, Thinker, Thought};
use wuzi_rules::{Color, Pos, Rule};

/// Feeds lines to the session, running any search at once with `thinker`; returns the
/// printed lines.
fn drive(session: &mut Session, thinker: &mut dyn Thinker, lines: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for text in lines {
        let mut pending = session.handle_line(text, Instant::now());
        while !pending.is_empty() {
            let mut next = Vec::new();
            for reply in pending {
                match reply {
                    Reply::Line(l) => out.push(l),
                    Reply::Think(req) => {
                        assert!(session.is_thinking());
                        let t = thinker.think(&req, &AtomicBool::new(false), &mut |_| {});
                        next.extend(session.finish(&t));
                    }
                    Reply::Configure(s) => thinker.configure(s),
                    Reply::NewGame => thinker.new_game(),
                    Reply::Stop | Reply::Exit => {}
                }
            }
            pending = next;
        }
    }
    out
}

fn rank() -> ClassicThinker {
    ClassicThinker(ClassicAi::Rank)
}

fn xy(line: &str) -> Pos {
    let (x, y) = line
        .split_once(',')
        .unwrap_or_else(|| panic!("not a move: {line:?}"));
    Pos::new_unchecked(x.parse().unwrap(), y.parse().unwrap())
}

#[test]
fn a_short_game() {
    let mut s = Session::new();
    let mut t = rank();
    assert_eq!(drive(&mut s, &mut t, &["START 15"]), ["OK"]);
    let out = drive(&mut s, &mut t, &["BEGIN"]);
    assert_eq!(out, ["7,7"]);
    let out = drive(&mut s, &mut t, &["TURN 8,8"]);
    assert_eq!(out.len(), 1);
    let mine = xy(&out[0]);
    assert!(mine != Pos::new_unchecked(8, 8) && mine != Pos::new_unchecked(7, 7));
    assert_eq!(s.board().unwrap().stone_count(), 3);
    assert_eq!(s.my_color(), Color::Black);
}

#[test]
fn commands_before_start_are_errors() {
    let mut s = Session::new();
    let mut t = rank();
    for cmd in [
        "BEGIN",
        "TURN 1,1",
        "BOARD",
        "TAKEBACK 1,1",
        "RESTART",
        "YXNBEST 2",
        "DONE",
        "1,1,1",
    ] {
        let out = drive(&mut s, &mut t, &[cmd]);
        assert_eq!(out.len(), 1, "{cmd}: {out:?}");
        assert!(out[0].starts_with("ERROR"), "{cmd}: {out:?}");
    }
    assert_eq!(s.size(), None);
}

#[test]
fn bad_sizes_change_nothing() {
    let mut s = Session::new();
    let mut t = rank();
    drive(&mut s, &mut t, &["START 15", "BEGIN"]);
    for cmd in ["START 4", "START 27", "RECTSTART 30,10", "START 0"] {
        let out = drive(&mut s, &mut t, &[cmd]);
        assert!(out[0].starts_with("ERROR"), "{cmd}: {out:?}");
    }
    assert_eq!(s.size().unwrap().width(), 15);
    assert_eq!(s.board().unwrap().stone_count(), 1);
    assert_eq!(drive(&mut s, &mut t, &["RECTSTART 20,10"]), ["OK"]);
    let size = s.size().unwrap();
    assert_eq!((size.width(), size.height()), (20, 10));
    let centre = xy(&drive(&mut s, &mut t, &["BEGIN"])[0]);
    assert!(
        (9..=10).contains(&centre.x) && (4..=5).contains(&centre.y),
        "{centre:?}"
    );
}

#[test]
fn illegal_turns_change_nothing() {
    let mut s = Session::new();
    let mut t = rank();
    drive(&mut s, &mut t, &["START 15", "BEGIN"]);
    let before = s.board().unwrap();
    for cmd in ["TURN 7,7", "TURN 15,3", "TURN 3,99", "TURN x,y", "TURN 1"] {
        let out = drive(&mut s, &mut t, &[cmd]);
        assert_eq!(out.len(), 1);
        assert!(out[0].starts_with("ERROR"), "{cmd}: {out:?}");
        assert_eq!(s.board().unwrap(), before, "{cmd} changed the board");
    }
}

#[test]
fn unknown_commands_get_unknown() {
    let mut s = Session::new();
    let mut t = rank();
    let out = drive(&mut s, &mut t, &["FROBNICATE 3"]);
    assert_eq!(out, ["UNKNOWN unknown command \"FROBNICATE\""]);
}

#[test]
fn info_keys_are_decoded() {
    let mut s = Session::new();
    let mut t = rank();
    for (bits, rule, continuous) in [
        (0, Rule::Freestyle, false),
        (1, Rule::Standard, false),
        (2, Rule::Freestyle, true),
        (4, Rule::Renju, false),
        (5, Rule::Renju, false),
        (8, Rule::Caro, false),
        (9, Rule::Caro, false),
    ] {
        assert!(drive(&mut s, &mut t, &[&format!("INFO rule {bits}")]).is_empty());
        assert_eq!(s.settings().rule(), rule, "rule {bits}");
        assert_eq!(s.settings().continuous(), continuous, "rule {bits}");
    }
    let out = drive(
        &mut s,
        &mut t,
        &[
            "INFO timeout_turn 2000",
            "INFO timeout_match 120000",
            "INFO time_left 60000",
            "INFO max_memory 367001600",
            "INFO game_type 1",
            "INFO evaluate 3,4",
            "INFO folder /tmp/wuzi",
            "INFO max_depth 9",
            "INFO max_node 50000",
            "INFO thread_num 2",
            "INFO some_future_key 7",
        ],
    );
    assert!(out.is_empty(), "{out:?}");
    let st = s.settings();
    assert_eq!(st.timeout_turn, Duration::from_millis(2000));
    assert_eq!(st.timeout_match, Some(Duration::from_secs(120)));
    assert_eq!(st.time_left, Some(Duration::from_secs(60)));
    assert_eq!(st.max_memory, Some(367_001_600));
    assert_eq!(st.game_type, 1);
    assert_eq!(st.evaluate, Some((3, 4)));
    assert_eq!(st.folder.as_deref(), Some("/tmp/wuzi"));
    assert_eq!(st.max_depth, Some(9));
    assert_eq!(st.max_node, Some(50_000));
    assert_eq!(st.engine().threads, 2);
    // A third of 350 MB.
    assert_eq!(st.engine().hash_mb, 116);
    drive(&mut s, &mut t, &["INFO hash_size 8192"]);
    assert_eq!(s.settings().engine().hash_mb, 8);
    drive(
        &mut s,
        &mut t,
        &["INFO time_left 2147483647", "INFO timeout_match 0"],
    );
    assert_eq!(s.settings().time_left, None);
    assert_eq!(s.settings().timeout_match, None);
}

#[test]
fn move_time_keeps_a_margin() {
    let mut s = Session::new();
    let mut t = rank();
    drive(&mut s, &mut t, &["INFO timeout_turn 200"]);
    assert_eq!(s.settings().move_time(), Duration::from_millis(190));
    drive(&mut s, &mut t, &["INFO timeout_turn 1000"]);
    assert_eq!(s.settings().move_time(), Duration::from_micros(984_375));
    drive(&mut s, &mut t, &["INFO timeout_turn 5000"]);
    assert_eq!(s.settings().move_time(), Duration::from_micros(4_921_875));
    // 3 s left in the match: a fifteenth of what is left after the margin.
    drive(
        &mut s,
        &mut t,
        &["INFO timeout_match 120000", "INFO time_left 3000"],
    );
    assert_eq!(s.settings().move_time(), Duration::from_micros(196_875));
    drive(&mut s, &mut t, &["INFO time_left 0"]);
    assert!(s.settings().move_time() <= Duration::from_millis(10));
    drive(
        &mut s,
        &mut t,
        &["INFO timeout_turn 0", "INFO time_left 2147483647"],
    );
    assert!(s.settings().move_time() <= Duration::from_millis(10));
}

#[test]
fn info_problems_are_reported_with_the_next_command() {
    let mut s = Session::new();
    let mut t = rank();
    assert!(drive(&mut s, &mut t, &["INFO timeout_turn soon"]).is_empty());
    assert!(drive(&mut s, &mut t, &["INFO thread_num 0"]).is_empty());
    assert!(drive(&mut s, &mut t, &["INFO hash_size 4096"]).is_empty());
    // More than any machine should give a table: refused, the last size kept.
    assert!(drive(&mut s, &mut t, &["INFO hash_size 999999999999"]).is_empty());
    assert_eq!(s.settings().timeout_turn, Duration::from_secs(5));
    assert_eq!(s.settings().threads, 1);
    assert_eq!(s.settings().engine().hash_mb, 4);
    let out = drive(&mut s, &mut t, &["START 15"]);
    assert_eq!(out.len(), 4, "{out:?}");
    assert!(out[0].starts_with("ERROR INFO timeout_turn"));
    assert!(out[1].starts_with("ERROR INFO thread_num 0"));
    assert!(out[2].starts_with("ERROR INFO hash_size 999999999999"));
    assert_eq!(out[3], "OK");
}

#[test]
fn board_sets_the_position_and_colours() {
    let mut s = Session::new();
    let mut t = rank();
    drive(&mut s, &mut t, &["START 15"]);
    // Opponent has four in a row: any brain must block at the only open end.
    let out = drive(
        &mut s,
        &mut t,
        &[
            "BOARD", "3,3,2", "10,10,1", "4,3,2", "11,10,1", "5,3,2", "0,14,1", "6,3,2", "DONE",
        ],
    );
    assert_eq!(out.len(), 1);
    let p = xy(&out[0]);
    assert!(
        p == Pos::new_unchecked(2, 3) || p == Pos::new_unchecked(7, 3),
        "{p:?}"
    );
    // Seven stones were on the board when we moved: we are White, and stay White.
    assert_eq!(s.my_color(), Color::White);
    assert_eq!(s.board().unwrap().get(p), wuzi_rules::Cell::White);
}

/// Both sides hold an open four and the brain is to move: it must make its own five.
/// A brain that took its own stones for the other colour would block instead.
const BOTH_FOUR: [&str; 11] = [
    "BOARD", "3,3,2", "10,10,1", "4,3,2", "11,10,1", "5,3,2", "12,10,1", "6,3,2", "13,10,1",
    "0,0,2", "DONE",
];

/// The same fours with ten stones: the brain to move is Black.
const BOTH_FOUR_EVEN: [&str; 12] = [
    "BOARD", "0,0,2", "1,1,1", "3,3,2", "10,10,1", "4,3,2", "11,10,1", "5,3,2", "12,10,1", "6,3,2",
    "13,10,1", "DONE",
];

#[test]
fn a_board_makes_a_fresh_brain_white_before_it_thinks() {
    // A fresh game starts the brain as Black; the odd stone count of this BOARD makes it
    // White, and the search must see its own stones as White's.
    for rule in ["INFO rule 0", "INFO rule 4"] {
        let mut s = Session::new();
        let mut t = rank();
        drive(&mut s, &mut t, &[rule, "START 15"]);
        assert_eq!(s.my_color(), Color::Black);
        let out = drive(&mut s, &mut t, &BOTH_FOUR);
        assert_eq!(out.len(), 1, "{out:?}");
        let p = xy(&out[0]);
        assert!(
            p == Pos::new_unchecked(9, 10) || p == Pos::new_unchecked(14, 10),
            "{rule}: blocked at {p:?} instead of making five"
        );
        assert_eq!(s.my_color(), Color::White);
        // A new BOARD with an even count makes the brain that was White the Black player.
        let out = drive(&mut s, &mut t, &BOTH_FOUR_EVEN);
        let p = xy(&out[0]);
        assert!(
            p == Pos::new_unchecked(9, 10) || p == Pos::new_unchecked(14, 10),
            "{rule}, as Black: {p:?}"
        );
        assert_eq!(s.my_color(), Color::Black);
    }
}

#[test]
fn colour_follows_the_stone_count() {
    let mut s = Session::new();
    let mut t = rank();
    drive(&mut s, &mut t, &["START 15", "YXBOARD", "7,7,2", "DONE"]);
    assert_eq!(s.my_color(), Color::White);
    drive(&mut s, &mut t, &["YXBOARD", "7,7,2", "8,8,1", "DONE"]);
    assert_eq!(s.my_color(), Color::Black);
    // Walls (field 3) do not count.
    drive(&mut s, &mut t, &["YXBOARD", "7,7,2", "0,0,3", "DONE"]);
    assert_eq!(s.my_color(), Color::White);
    assert_eq!(
        s.board().unwrap().get(Pos::new_unchecked(0, 0)),
        wuzi_rules::Cell::Wall
    );
}

#[test]
fn bad_board_blocks_change_nothing() {
    let mut s = Session::new();
    let mut t = rank();
    drive(&mut s, &mut t, &["START 15", "BEGIN"]);
    let before = s.board().unwrap();
    let out = drive(&mut s, &mut t, &["BOARD", "1,1,1", "1,1,2", "DONE"]);
    assert!(
        out[0].starts_with("ERROR") && out[0].contains("two stones"),
        "{out:?}"
    );
    let out = drive(&mut s, &mut t, &["BOARD", "1,1,1", "40,1,2", "DONE"]);
    assert!(
        out[0].starts_with("ERROR") && out[0].contains("off"),
        "{out:?}"
    );
    let out = drive(&mut s, &mut t, &["BOARD", "1,1,1", "1,2,7"]);
    assert!(out[0].starts_with("ERROR"), "{out:?}");
    // Interrupted by another command: the block is dropped and the command runs.
    let out = drive(&mut s, &mut t, &["ABOUT"]);
    assert!(
        out[0].starts_with("ERROR BOARD block interrupted"),
        "{out:?}"
    );
    assert!(out[1].starts_with("name=\"wuzi\""), "{out:?}");
    assert_eq!(s.board().unwrap(), before);
}

#[test]
fn takeback_removes_a_stone() {
    let mut s = Session::new();
    let mut t = rank();
    drive(&mut s, &mut t, &["START 15", "BEGIN"]);
    let reply = drive(&mut s, &mut t, &["TURN 0,0"]);
    let mine = xy(&reply[0]);
    assert_eq!(s.board().unwrap().stone_count(), 3);
    assert_eq!(
        drive(
            &mut s,
            &mut t,
            &[&format!("TAKEBACK {},{}", mine.x, mine.y)]
        ),
        ["OK"]
    );
    assert_eq!(drive(&mut s, &mut t, &["TAKEBACK 0,0"]), ["OK"]);
    assert_eq!(s.board().unwrap().stone_count(), 1);
    let out = drive(&mut s, &mut t, &["TAKEBACK 0,0"]);
    assert!(out[0].starts_with("ERROR"), "{out:?}");
    assert_eq!(drive(&mut s, &mut t, &["RESTART"]), ["OK"]);
    assert_eq!(s.board().unwrap().stone_count(), 0);
}

#[test]
fn showforbid_lists_renju_forbidden_points() {
    let mut s = Session::new();
    let mut t = rank();
    // GomocupJudge's renju check: g9 (6,8) is a forbidden double three for Black.
    drive(
        &mut s,
        &mut t,
        &[
            "START 15",
            "INFO rule 4",
            "YXBOARD",
            "7,7,1",
            "7,8,2",
            "8,6,1",
            "8,8,2",
            "7,9,1",
            "8,5,2",
            "8,10,1",
            "8,11,2",
            "DONE",
        ],
    );
    assert_eq!(s.my_color(), Color::Black);
    let out = drive(&mut s, &mut t, &["YXSHOWFORBID"]);
    assert_eq!(out.len(), 1);
    assert!(
        out[0].starts_with("FORBID ") && out[0].ends_with('.'),
        "{out:?}"
    );
    assert!(out[0].contains("0608"), "{out:?}");
    let body = &out[0]["FORBID ".len()..out[0].len() - 1];
    assert_eq!(body.len() % 4, 0);
    drive(&mut s, &mut t, &["INFO rule 0"]);
    assert_eq!(drive(&mut s, &mut t, &["YXSHOWFORBID"]), ["FORBID ."]);
}

#[test]
fn swap2_answers() {
    let mut s = Session::new();
    let mut t = rank();
    drive(&mut s, &mut t, &["START 15"]);
    let out = drive(&mut s, &mut t, &["SWAP2BOARD", "DONE"]);
    let moves: Vec<Pos> = out[0].split(' ').map(xy).collect();
    assert_eq!(moves.len(), 3);
    assert!(moves[0] != moves[1] && moves[1] != moves[2] && moves[0] != moves[2]);
    // With three stones the brain answers SWAP or a fourth move.
    let out = drive(
        &mut s,
        &mut t,
        &["SWAP2BOARD", "7,7,1", "8,8,2", "9,7,1", "DONE"],
    );
    assert!(
        out[0] == "SWAP"
            || ![
                Pos::new_unchecked(7, 7),
                Pos::new_unchecked(8, 8),
                Pos::new_unchecked(9, 7)
            ]
            .contains(&xy(&out[0])),
        "{out:?}"
    );
    let out = drive(&mut s, &mut t, &["SWAP2BOARD", "7,7,1", "DONE"]);
    assert!(out[0].starts_with("ERROR"));
}

/// A thinker whose answer is illegal: the session must not pass it on.
struct Broken;
impl Thinker for Broken {
    fn configure(&mut self, _: wuzi_gomocup::EngineSettings) {}
    fn new_game(&mut self) {}
    fn think(
        &mut self,
        _: &wuzi_gomocup::ThinkRequest,
        _: &AtomicBool,
        _: &mut dyn FnMut(&wuzi_gomocup::Progress),
    ) -> Thought {
        Thought {
            best: Some(Pos::new_unchecked(7, 7)),
            eval: Eval::Value(0),
            lines: vec![],
            depth: 0,
            nodes: 0,
        }
    }
}

#[test]
fn an_illegal_engine_answer_is_replaced() {
    let mut s = Session::new();
    let mut t = Broken;
    assert_eq!(drive(&mut s, &mut t, &["START 15", "BEGIN"])[1], "7,7");
    let out = drive(&mut s, &mut t, &["TURN 8,8"]);
    let p = xy(&out[0]);
    assert!(p != Pos::new_unchecked(7, 7) && p != Pos::new_unchecked(8, 8));
}

#[test]
fn end_exits_and_stop_is_quiet_when_idle() {
    let mut s = Session::new();
    assert!(s.handle_line("STOP", Instant::now()).is_empty());
    assert!(s.handle_line("YXSTOP", Instant::now()).is_empty());
    let r = s.handle_line("END", Instant::now());
    assert!(matches!(r.last(), Some(Reply::Exit)));
}

#[test]
fn busy_while_thinking() {
    let mut s = Session::new();
    s.handle_line("START 15", Instant::now());
    let r = s.handle_line("BEGIN", Instant::now());
    assert!(matches!(r[0], Reply::Think(_)));
    assert!(s.is_thinking());
    assert!(matches!(
        s.handle_line("STOP", Instant::now())[0],
        Reply::Stop
    ));
    let r = s.handle_line("TURN 1,1", Instant::now());
    assert!(matches!(&r[0], Reply::Line(l) if l.starts_with("ERROR busy")));
    let r = s.handle_line("END", Instant::now());
    assert!(matches!(r[0], Reply::Stop));
    assert!(matches!(r[1], Reply::Exit));
}

mod random_input {
    use super::*;
    use proptest::prelude::*;

    /// Lines a manager (or a confused one) might send.
    fn line() -> impl Strategy<Value = String> {
        let n = 0u32..30;
        prop_oneof![
            n.clone().prop_map(|s| format!("START {s}")),
            (n.clone(), n.clone()).prop_map(|(w, h)| format!("RECTSTART {w},{h}")),
            Just("RESTART".to_string()),
            Just("BEGIN".to_string()),
            (n.clone(), n.clone()).prop_map(|(x, y)| format!("TURN {x},{y}")),
            Just("BOARD".to_string()),
            Just("YXBOARD".to_string()),
            Just("SWAP2BOARD".to_string()),
            (n.clone(), n.clone(), 0u32..5).prop_map(|(x, y, f)| format!("{x},{y},{f}")),
            Just("DONE".to_string()),
            (n.clone(), n.clone()).prop_map(|(x, y)| format!("TAKEBACK {x},{y}")),
            (0u32..20).prop_map(|r| format!("INFO rule {r}")),
            (0u32..3000).prop_map(|t| format!("INFO timeout_turn {t}")),
            Just("YXSHOWFORBID".to_string()),
            (0usize..4).prop_map(|k| format!("YXNBEST {k}")),
            Just("ABOUT".to_string()),
            Just("STOP".to_string()),
            "\\PC{0,12}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Whatever arrives, the session answers without panicking, every move it
        /// prints is on the board and was empty, and the board stays consistent.
        #[test]
        fn sessions_survive_any_input(lines in proptest::collection::vec(line(), 1..40)) {
            let mut s = Session::new();
            let mut t = ClassicThinker(ClassicAi::Greedy);
            for l in &lines {
                let before = s.board();
                let out = drive(&mut s, &mut t, &[l.as_str()]);
                for o in &out {
                    let Some((x, y)) = o.split_once(',') else { continue };
                    let (Ok(x), Ok(y)) = (x.parse::<i32>(), y.parse::<i32>()) else { continue };
                    let (Some(size), Some(b)) = (s.size(), before.as_ref()) else {
                        return Err(TestCaseError::fail(format!("a move {o} without a board")));
                    };
                    if b.size() != size {
                        continue; // a new board was started by this line
                    }
                    let p = size.pos(x, y).expect("moves are on the board");
                    if l.trim() != "DONE" {
                        // (After DONE the block's position replaced the old one.)
                        prop_assert!(b.is_empty(p), "{l}: {o} was not empty");
                    }
                    prop_assert!(l.trim() != format!("TURN {x},{y}"), "{l}: answered its own square");
                    if !l.starts_with("YXNBEST") {
                        prop_assert!(!s.board().unwrap().is_empty(p), "{l}: {o} not recorded");
                    }
                }
                if let Some(b) = s.board() {
                    prop_assert!(b.stone_count() <= b.size().cells());
                }
                prop_assert!(!s.is_thinking());
            }
        }
    }
}
