//! The Gomocup (piskvork) protocol, brain side: commands as values and a pure parser.
//!
//! [`parse`] reads one line and never looks at any state; whether a command makes sense
//! now is the [`crate::Session`]'s business. Keywords are case-insensitive and the line
//! ending (CRLF, LF or CR) is the reader's business.

use std::fmt;

/// A point in Gomocup coordinates as sent (not yet checked against a board).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Coord {
    /// Column from the left, 0-based.
    pub x: u32,
    /// Row from the top, 0-based.
    pub y: u32,
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// Who a stone in a `BOARD` block belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// `1`: the brain's own stone.
    Own,
    /// `2`: the opponent's stone.
    Opponent,
    /// `3`: a winning-line or wall cell (continuous games): nobody plays there.
    Wall,
}

/// One `INFO key value` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// `timeout_turn` ms per move (0: move at once).
    TimeoutTurn(u64),
    /// `timeout_match` ms for the whole match (0: no limit).
    TimeoutMatch(u64),
    /// `time_left` ms left in the match (2147483647: unlimited).
    TimeLeft(u64),
    /// `max_memory` bytes (0: no limit).
    MaxMemory(u64),
    /// `game_type`: 0 human opponent, 1 brain, 2 tournament, 3 network tournament.
    GameType(u32),
    /// `rule` bit mask: 1 exactly five, 2 continuous game, 4 renju, 8 caro.
    Rule(u32),
    /// `evaluate x,y`: the point under the mouse in the manager (debugging aid).
    Evaluate(i64, i64),
    /// `folder`: a directory the brain may keep files in.
    Folder(String),
    /// `max_depth` (Yixin/Rapfi): search depth limit.
    MaxDepth(u32),
    /// `max_node` (Yixin/Rapfi): node limit per move.
    MaxNode(u64),
    /// `thread_num` (Yixin/Rapfi): search threads.
    ThreadNum(u32),
    /// `hash_size` (Yixin/Rapfi): transposition table size in KiB.
    HashSize(u64),
    /// A key this brain does not know (the protocol says: ignore it).
    Unknown(String),
}

/// One line from the manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n`: new square board.
    Start(u32),
    /// `RECTSTART w,h`: new rectangular board.
    RectStart(u32, u32),
    /// `RESTART`: new game on the same board.
    Restart,
    /// `BEGIN`: the brain plays first.
    Begin,
    /// `TURN x,y`: the opponent played; answer with a move.
    Turn(Coord),
    /// `BOARD`: a position follows, one stone a line, then `DONE`; then answer a move.
    Board,
    /// `YXBOARD`: like `BOARD` but only sets the position (no move is asked for).
    YxBoard,
    /// `SWAP2BOARD`: a swap2 opening position follows, then `DONE`.
    Swap2Board,
    /// `x,y,field`: a stone inside a `BOARD`-like block.
    Stone(Coord, Field),
    /// `DONE`: the end of a `BOARD`-like block.
    Done,
    /// `INFO key value`.
    Info(Info),
    /// `TAKEBACK x,y`: remove that stone.
    Takeback(Coord),
    /// `ABOUT`: name the brain.
    About,
    /// `END`: quit.
    End,
    /// `YXSHOWFORBID`: list Black's forbidden points.
    YxShowForbid,
    /// `YXNBEST n`: search and report the n best moves (the position does not change).
    YxNbest(usize),
    /// `YXSTOP` or `STOP`: stop thinking and answer now.
    Stop,
}

/// A line that is not a well-formed command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// The keyword is not a command this brain knows (answered with `UNKNOWN`).
    #[error("unknown command {0:?}")]
    Unknown(String),
    /// A known command with bad arguments (answered with `ERROR`).
    #[error("{command}: {message}")]
    BadArguments {
        /// The command's keyword.
        command: String,
        /// What is wrong.
        message: String,
    },
}

impl ProtocolError {
    /// The response line: `UNKNOWN …` or `ERROR …`.
    #[must_use]
    pub fn response(&self) -> String {
        match self {
            ProtocolError::Unknown(_) => format!("UNKNOWN {self}"),
            ProtocolError::BadArguments { .. } => format!("ERROR {self}"),
        }
    }
}

fn bad(command: &str, message: impl Into<String>) -> ProtocolError {
    ProtocolError::BadArguments {
        command: command.to_string(),
        message: message.into(),
    }
}

/// Reads an unsigned decimal number (surrounding spaces allowed).
fn number<T: std::str::FromStr>(command: &str, what: &str, text: &str) -> Result<T, ProtocolError> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad(
            command,
            format!("{what} must be a non-negative number, got {t:?}"),
        ));
    }
    t.parse()
        .map_err(|_| bad(command, format!("{what} {t:?} is too large")))
}

/// Splits `a,b[,c…]` into exactly `n` comma-separated parts.
fn parts<'a>(command: &str, text: &'a str, n: usize) -> Result<Vec<&'a str>, ProtocolError> {
    let p: Vec<&str> = text.split(',').collect();
    if p.len() == n {
        Ok(p)
    } else {
        let shape = ["x", "x,y", "x,y,field"][n.clamp(1, 3) - 1];
        Err(bad(
            command,
            format!("expected {shape}, got {:?}", text.trim()),
        ))
    }
}

fn coord(command: &str, text: &str) -> Result<Coord, ProtocolError> {
    let p = parts(command, text, 2)?;
    Ok(Coord {
        x: number(command, "x", p[0])?,
        y: number(command, "y", p[1])?,
    })
}

fn no_arguments(command: &str, rest: &str, value: Command) -> Result<Command, ProtocolError> {
    if rest.is_empty() {
        Ok(value)
    } else {
        Err(bad(command, format!("takes no arguments, got {rest:?}")))
    }
}

/// Reads one line (without its line ending). Returns `Ok(None)` for a blank line.
pub fn parse(line: &str) -> Result<Option<Command>, ProtocolError> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(None);
    }
    // A stone line inside BOARD: `x,y,field`.
    if line.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        let p = parts("BOARD", line, 3)?;
        let at = Coord {
            x: number("BOARD", "x", p[0])?,
            y: number("BOARD", "y", p[1])?,
        };
        let field = match p[2].trim() {
            "1" => Field::Own,
            "2" => Field::Opponent,
            "3" => Field::Wall,
            f => return Err(bad("BOARD", format!("field must be 1, 2 or 3, got {f:?}"))),
        };
        return Ok(Some(Command::Stone(at, field)));
    }
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    let keyword = word.to_ascii_uppercase();
    let k = keyword.as_str();
    let command = match k {
        "START" => Command::Start(number(k, "board size", rest)?),
        "RECTSTART" => {
            let p = parts(k, rest, 2)?;
            Command::RectStart(number(k, "width", p[0])?, number(k, "height", p[1])?)
        }
        "RESTART" => no_arguments(k, rest, Command::Restart)?,
        "BEGIN" => no_arguments(k, rest, Command::Begin)?,
        "TURN" => Command::Turn(coord(k, rest)?),
        "BOARD" => no_arguments(k, rest, Command::Board)?,
        "YXBOARD" => no_arguments(k, rest, Command::YxBoard)?,
        "SWAP2BOARD" => no_arguments(k, rest, Command::Swap2Board)?,
        "DONE" => no_arguments(k, rest, Command::Done)?,
        "TAKEBACK" => Command::Takeback(coord(k, rest)?),
        "ABOUT" => no_arguments(k, rest, Command::About)?,
        "END" => no_arguments(k, rest, Command::End)?,
        "YXSHOWFORBID" => no_arguments(k, rest, Command::YxShowForbid)?,
        "YXSTOP" | "STOP" => no_arguments(k, rest, Command::Stop)?,
        "YXNBEST" => {
            let n: usize = number(k, "n", rest)?;
            if n == 0 {
                return Err(bad(k, "n must be at least 1"));
            }
            Command::YxNbest(n)
        }
        "INFO" => Command::Info(info(rest)?),
        _ => return Err(ProtocolError::Unknown(word.to_string())),
    };
    Ok(Some(command))
}

/// Reads the `key value` part of an INFO line.
fn info(rest: &str) -> Result<Info, ProtocolError> {
    let (key, value) = match rest.split_once(char::is_whitespace) {
        Some((k, v)) => (k, v.trim()),
        None => (rest, ""),
    };
    if key.is_empty() {
        return Err(bad("INFO", "expected INFO key value"));
    }
    let key_lower = key.to_ascii_lowercase();
    let k = key_lower.as_str();
    let cmd = format!("INFO {k}");
    let c = cmd.as_str();
    Ok(match k {
        "timeout_turn" => Info::TimeoutTurn(number(c, "value", value)?),
        "timeout_match" => Info::TimeoutMatch(number(c, "value", value)?),
        "time_left" => Info::TimeLeft(signed_time(c, value)?),
        "max_memory" => Info::MaxMemory(number(c, "value", value)?),
        "game_type" => Info::GameType(number(c, "value", value)?),
        "rule" => Info::Rule(number(c, "value", value)?),
        "evaluate" => {
            let p = parts(c, value, 2)?;
            let num = |s: &str| {
                s.trim()
                    .parse::<i64>()
                    .map_err(|_| bad(c, format!("expected x,y, got {value:?}")))
            };
            Info::Evaluate(num(p[0])?, num(p[1])?)
        }
        "folder" => Info::Folder(value.to_string()),
        "max_depth" => Info::MaxDepth(number(c, "value", value)?),
        "max_node" => Info::MaxNode(number(c, "value", value)?),
        "thread_num" => Info::ThreadNum(number(c, "value", value)?),
        "hash_size" => Info::HashSize(number(c, "value", value)?),
        _ => Info::Unknown(key.to_string()),
    })
}

/// `time_left` may go negative when a brain overran; read that as no time left.
fn signed_time(c: &str, value: &str) -> Result<u64, ProtocolError> {
    let t = value.trim();
    match t.strip_prefix('-') {
        Some(digits) => number::<u64>(c, "value", digits).map(|_| 0),
        None => number(c, "value", t),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ok(line: &str) -> Command {
        parse(line).unwrap().unwrap()
    }

    #[test]
    fn standard_commands() {
        assert_eq!(ok("START 15"), Command::Start(15));
        assert_eq!(ok("start 20"), Command::Start(20));
        assert_eq!(ok("RECTSTART 20,15"), Command::RectStart(20, 15));
        assert_eq!(ok("RESTART"), Command::Restart);
        assert_eq!(ok("BEGIN"), Command::Begin);
        assert_eq!(ok("TURN 7,8"), Command::Turn(Coord { x: 7, y: 8 }));
        assert_eq!(ok("TURN 7, 8"), Command::Turn(Coord { x: 7, y: 8 }));
        assert_eq!(ok("BOARD"), Command::Board);
        assert_eq!(
            ok("10,10,1"),
            Command::Stone(Coord { x: 10, y: 10 }, Field::Own)
        );
        assert_eq!(
            ok("0,1,2"),
            Command::Stone(Coord { x: 0, y: 1 }, Field::Opponent)
        );
        assert_eq!(
            ok("0,1,3"),
            Command::Stone(Coord { x: 0, y: 1 }, Field::Wall)
        );
        assert_eq!(ok("DONE"), Command::Done);
        assert_eq!(ok("TAKEBACK 3,4"), Command::Takeback(Coord { x: 3, y: 4 }));
        assert_eq!(ok("ABOUT"), Command::About);
        assert_eq!(ok("END"), Command::End);
        assert_eq!(ok("SWAP2BOARD"), Command::Swap2Board);
        assert_eq!(ok("YXSHOWFORBID"), Command::YxShowForbid);
        assert_eq!(ok("YXNBEST 3"), Command::YxNbest(3));
        assert_eq!(ok("YXSTOP"), Command::Stop);
        assert_eq!(ok("STOP"), Command::Stop);
        assert_eq!(ok("YXBOARD"), Command::YxBoard);
        assert_eq!(parse("   "), Ok(None));
    }

    #[test]
    fn info_keys() {
        assert_eq!(
            ok("INFO timeout_turn 5000"),
            Command::Info(Info::TimeoutTurn(5000))
        );
        assert_eq!(
            ok("INFO timeout_match 120000"),
            Command::Info(Info::TimeoutMatch(120_000))
        );
        assert_eq!(
            ok("INFO time_left 2147483647"),
            Command::Info(Info::TimeLeft(2_147_483_647))
        );
        assert_eq!(ok("INFO time_left -20"), Command::Info(Info::TimeLeft(0)));
        assert_eq!(
            ok("INFO max_memory 367001600"),
            Command::Info(Info::MaxMemory(367_001_600))
        );
        assert_eq!(ok("INFO game_type 1"), Command::Info(Info::GameType(1)));
        assert_eq!(ok("INFO rule 4"), Command::Info(Info::Rule(4)));
        assert_eq!(
            ok("INFO evaluate 3,-1"),
            Command::Info(Info::Evaluate(3, -1))
        );
        assert_eq!(
            ok("INFO folder C:\\tmp\\my dir"),
            Command::Info(Info::Folder("C:\\tmp\\my dir".into()))
        );
        assert_eq!(ok("INFO MAX_DEPTH 12"), Command::Info(Info::MaxDepth(12)));
        assert_eq!(
            ok("INFO max_node 100000"),
            Command::Info(Info::MaxNode(100_000))
        );
        assert_eq!(ok("INFO thread_num 2"), Command::Info(Info::ThreadNum(2)));
        assert_eq!(
            ok("INFO hash_size 65536"),
            Command::Info(Info::HashSize(65_536))
        );
        assert_eq!(
            ok("INFO caution_factor 3"),
            Command::Info(Info::Unknown("caution_factor".into()))
        );
    }

    #[test]
    fn malformed_lines_are_errors() {
        for line in [
            "START",
            "START x",
            "START -5",
            "START 99999999999999999999",
            "RECTSTART 20",
            "TURN",
            "TURN 3",
            "TURN a,b",
            "TURN 1,2,3",
            "TURN -1,2",
            "BEGIN now",
            "1,2",
            "1,2,4",
            "1,2,",
            "-1,2,1",
            "INFO",
            "INFO timeout_turn",
            "INFO timeout_turn fast",
            "INFO rule -1",
            "YXNBEST 0",
            "YXNBEST",
            "TAKEBACK 1",
            "END please",
        ] {
            match parse(line) {
                Err(e @ ProtocolError::BadArguments { .. }) => {
                    assert!(e.response().starts_with("ERROR "), "{line:?}: {e}");
                }
                other => panic!("{line:?} gave {other:?}"),
            }
        }
        assert_eq!(
            parse("HELLO world").unwrap_err().response(),
            "UNKNOWN unknown command \"HELLO\""
        );
    }

    proptest! {
        #[test]
        fn any_line_parses_or_errs_without_panicking(line in "\\PC{0,40}") {
            let _ = parse(&line);
        }

        #[test]
        fn coordinates_roundtrip(x in 0u32..100_000, y in 0u32..100_000) {
            prop_assert_eq!(ok(&format!("TURN {x},{y}")), Command::Turn(Coord { x, y }));
            prop_assert_eq!(ok(&format!("{x},{y},2")), Command::Stone(Coord { x, y }, Field::Opponent));
            prop_assert_eq!(ok(&format!("takeback {x} , {y}")), Command::Takeback(Coord { x, y }));
        }

        #[test]
        fn keyword_case_does_not_matter(n in 5u32..27, upper in proptest::bool::ANY) {
            let word = if upper { "START" } else { "sTaRt" };
            prop_assert_eq!(ok(&format!("{word} {n}")), Command::Start(n));
        }
    }
}
