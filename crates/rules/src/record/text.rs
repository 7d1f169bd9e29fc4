//! A text move list in renju notation, with header lines and move numbers.
//!
//! ```text
//! # wuzi game record (renju notation: a1 is the bottom-left corner)
//! Rule: renju
//! Size: 15x15
//! Black: Ann
//! White: wuzi level5
//! Result: white wins: black resigned
//!
//! 1. h8    # 1200 ms
//! 2. i9    # 850 ms
//! 3. j10
//! ```
//!
//! Header lines are `Key: value` (keys in any case): `Rule`, `Size` (`15` or `20x15`),
//! `K`, `First`, `Theme` (`wood`, `rock`, `ocean`), `Seed`, `Walls` and `Bubbles` (points
//! in renju notation), `Target`, `Black`, `White`, `Opening`, `Date`, `Ended`, `Result`;
//! other keys are kept as tags. Lines starting with `#` are comments. Every other line
//! holds moves, read with [`crate::notation::parse_moves`], so `h8 i9`, `h8i9j10` and
//! `1. h8 2. i9` all work, and a bare move list with no header is a freestyle 15×15 game.
//! `#` starts a comment anywhere; `# 1250 ms` after a line's single move is its thinking
//! time. The text keeps no player kinds, clocks or opening data. `Result` is read
//! back for resignation, time and agreement; other results are decided by the moves.

use super::{
    Format, Opening, Record, RecordError, check_len, describe_result, lines, require_alternating,
    require_on_board, syntax_at,
};
use crate::notation;
use crate::{Color, EndReason, GameConfig, GameResult, Pos, Rule, Size, Variant};

const FORMAT: Format = Format::Text;

const KEYS: &[&str] = &[
    "rule", "size", "k", "first", "theme", "seed", "walls", "bubbles", "target", "black", "white",
    "opening", "date", "ended", "result",
];

/// Reads a text record.
pub fn read(text: &str) -> Result<Record, RecordError> {
    check_len(text)?;
    let mut headers: Vec<(String, String, usize)> = Vec::new();
    let mut move_lines: Vec<(usize, &str)> = Vec::new();
    for (_, offset, line) in lines(text) {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        match header(t) {
            Some((key, value)) => headers.push((key, value, offset)),
            None => move_lines.push((offset, line)),
        }
    }
    let err = |offset: usize, m: String| syntax_at(FORMAT, text, offset, m);
    let find = |key: &str| headers.iter().find(|(k, _, _)| k.eq_ignore_ascii_case(key));

    let size = match find("size") {
        Some((_, v, at)) => v.parse::<Size>().map_err(|e| err(*at, e.to_string()))?,
        None => Size::STANDARD,
    };
    let mut config = GameConfig::new(Rule::Freestyle, size);
    if let Some((_, v, at)) = find("rule") {
        config.rule = v
            .parse()
            .map_err(|e: crate::rule::ParseRuleError| err(*at, e.to_string()))?;
    }
    if let Some((_, v, at)) = find("k") {
        config.k = v
            .parse()
            .map_err(|_| err(*at, format!("K: {v:?} is not a number")))?;
    }
    if let Some((_, v, at)) = find("first") {
        config.first = v
            .parse()
            .map_err(|e: crate::color::ParseColorError| err(*at, e.to_string()))?;
    }
    let number = |key: &str| -> Result<Option<u64>, RecordError> {
        match find(key) {
            Some((k, v, at)) => v
                .parse::<u64>()
                .map(Some)
                .map_err(|_| err(*at, format!("{k}: {v:?} is not a number"))),
            None => Ok(None),
        }
    };
    let points = |key: &str| -> Result<Vec<Pos>, RecordError> {
        match find(key) {
            Some((k, v, at)) => notation::parse_moves(v, size).map_err(|e| {
                err(
                    *at,
                    format!("{k}: character {}: {}", e.offset + 1, e.message),
                )
            }),
            None => Ok(Vec::new()),
        }
    };
    let seed = number("seed")?.unwrap_or(0);
    if let Some((_, v, at)) = find("theme") {
        config.variant = match v.to_ascii_lowercase().as_str() {
            "wood" => Variant::Wood,
            "rock" => Variant::Rock {
                seed,
                walls: points("walls")?,
            },
            "ocean" => {
                let target = number("target")?.unwrap_or(u64::from(crate::variant::OCEAN_TARGET));
                Variant::Ocean {
                    seed,
                    bubbles: points("bubbles")?,
                    target: u8::try_from(target)
                        .map_err(|_| err(*at, format!("target {target} is too large")))?,
                }
            }
            other => {
                return Err(err(
                    *at,
                    format!("unknown theme {other:?} (wood, rock or ocean)"),
                ));
            }
        };
    }
    let mut record = Record::new(config);
    let text_value = |key: &str| find(key).map(|(_, v, _)| v.clone());
    record.players.black.name = text_value("black");
    record.players.white.name = text_value("white");
    record.opening = text_value("opening").map(Opening::named);
    record.dates.started = text_value("date");
    record.dates.ended = text_value("ended");
    if let Some(v) = text_value("result") {
        record.result = parse_result(&v);
    }
    for (k, v, _) in &headers {
        if !KEYS.contains(&k.to_ascii_lowercase().as_str()) {
            record.tags.insert(k.clone(), v.clone());
        }
    }
    for (offset, line) in move_lines {
        // A `#` starts a comment; `# 1250 ms` after a single move is its thinking time.
        let (moves_part, comment) = line.split_once('#').unwrap_or((line, ""));
        let moves = notation::parse_moves(moves_part, size).map_err(|e| {
            let at = offset
                + moves_part
                    .char_indices()
                    .nth(e.offset)
                    .map_or(moves_part.len(), |(b, _)| b);
            err(at, e.message)
        })?;
        let time = match moves.len() {
            1 => parse_time(comment),
            _ => None,
        };
        for p in moves {
            record.push_alternating(p, time);
        }
    }
    Ok(record)
}

/// `1250 ms` (the whole comment) as milliseconds.
fn parse_time(comment: &str) -> Option<u64> {
    comment.trim().strip_suffix("ms")?.trim().parse().ok()
}

/// `Key: value` with a key of letters, digits, spaces, `-` or `_` starting with a letter.
fn header(line: &str) -> Option<(String, String)> {
    let (key, value) = line.split_once(':')?;
    let key = key.trim();
    let ok = key.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '_'));
    // `h8:` is no header; a move line never has a colon, so this only guards odd input.
    ok.then(|| (key.to_string(), value.trim().to_string()))
}

/// Reads what [`GameResult::describe`] wrote, for results the moves cannot decide.
fn parse_result(text: &str) -> Option<GameResult> {
    let t = text.trim().to_ascii_lowercase();
    if t == "draw: agreed" {
        return Some(GameResult {
            winner: None,
            reason: EndReason::Agreement,
        });
    }
    if t == "draw: abandoned" {
        return Some(GameResult {
            winner: None,
            reason: EndReason::Abandoned,
        });
    }
    if t == "aborted" {
        return Some(GameResult {
            winner: None,
            reason: EndReason::Aborted,
        });
    }
    let (head, why) = t.split_once(':')?;
    let winner: Color = head.trim().strip_suffix(" wins")?.parse().ok()?;
    let loser = winner.opponent().name();
    let why = why.trim();
    let reason = if why == format!("{loser} resigned") {
        EndReason::Resignation
    } else if why == format!("{loser} lost on time") {
        EndReason::Time
    } else if why == format!("{loser} left the game") {
        EndReason::Abandoned
    } else {
        return None;
    };
    Some(GameResult {
        winner: Some(winner),
        reason,
    })
}

/// One line, trimmed: values never span lines.
fn one_line(s: &str) -> String {
    s.split(['\n', '\r'])
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Writes a text record. Errors when the moves do not alternate from the first mover
/// (the text gives no colours).
pub fn write(record: &Record) -> Result<String, RecordError> {
    require_alternating(record, FORMAT)?;
    require_on_board(record, FORMAT)?;
    let cfg = &record.config;
    let size = cfg.size;
    let mut out =
        String::from("# wuzi game record (renju notation: a1 is the bottom-left corner)\n");
    out.push_str(&format!("Rule: {}\nSize: {}\n", cfg.rule, size));
    if cfg.k != 5 {
        out.push_str(&format!("K: {}\n", cfg.k));
    }
    if cfg.first != Color::Black {
        out.push_str(&format!("First: {}\n", cfg.first));
    }
    let cells = |cells: &[Pos]| notation::format_moves(cells, size, " ");
    match &cfg.variant {
        Variant::Wood => {}
        Variant::Rock { seed, walls } => {
            out.push_str(&format!(
                "Theme: rock\nSeed: {seed}\nWalls: {}\n",
                cells(walls)
            ));
        }
        Variant::Ocean {
            seed,
            bubbles,
            target,
        } => out.push_str(&format!(
            "Theme: ocean\nSeed: {seed}\nBubbles: {}\nTarget: {target}\n",
            cells(bubbles)
        )),
    }
    let mut line = |key: &str, value: Option<&str>| {
        if let Some(v) = value {
            out.push_str(&format!("{key}: {}\n", one_line(v)));
        }
    };
    line("Black", record.players.black.name.as_deref());
    line("White", record.players.white.name.as_deref());
    line("Opening", record.opening.as_ref().map(|o| o.name.as_str()));
    line("Date", record.dates.started.as_deref());
    line("Ended", record.dates.ended.as_deref());
    line("Result", describe_result(record).as_deref());
    for (k, v) in &record.tags {
        if header(&format!("{k}:")).is_some_and(|(key, _)| key == *k)
            && !KEYS.contains(&k.to_ascii_lowercase().as_str())
        {
            line(k, Some(v));
        }
    }
    out.push('\n');
    for (i, m) in record.moves.iter().enumerate() {
        let point = format!("{}. {}", i + 1, size.notation(m.pos));
        match m.time_ms {
            Some(ms) => out.push_str(&format!("{point:<8} # {ms} ms\n")),
            None => out.push_str(&format!("{point}\n")),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_headers_and_numbered_moves() {
        let r = read(
            "# a game\r\nRule: Renju\r\nSize: 15\r\nBlack: Ann: the first\r\nResult: white wins: black lost on time\r\n\r\n1. h8 2. i9\r\n3. j10\r\n",
        )
        .unwrap();
        assert_eq!(r.config.rule, Rule::Renju);
        assert_eq!(r.players.black.name.as_deref(), Some("Ann: the first"));
        assert_eq!(r.moves.len(), 3);
        let g = r.to_game().unwrap();
        assert_eq!(
            g.result().unwrap().describe(Size::STANDARD),
            "white wins: black lost on time"
        );
        // A bare move list is a freestyle game on 15x15.
        let bare = read("h8i9j10").unwrap();
        assert_eq!(bare.moves, r.moves);
        assert_eq!(bare.config.rule, Rule::Freestyle);
    }

    #[test]
    fn bad_lines_are_named() {
        let cases = [
            ("Size: 40\nh8", 1, 1),
            ("Rule: chess\n", 1, 1),
            ("Size: 15\n\n1. h8\n2. i99\n", 4, 4),
            ("h8\n  h8 %", 2, 6),
            ("h8 # 5 ms\n  h8 % # x", 2, 6),
            ("Theme: rock\nWalls: a1 zz\n", 2, 1),
            ("K: many\n", 1, 1),
            ("Theme: ocean\nTarget: 1000\n", 1, 1),
        ];
        for (text, line, column) in cases {
            match read(text) {
                Err(RecordError::Syntax {
                    line: l, column: c, ..
                }) => assert_eq!((l, c), (line, column), "{text:?}"),
                other => panic!("{text:?} gave {other:?}"),
            }
        }
    }

    #[test]
    fn writes_what_it_reads() {
        let size = Size::new(9, 13).unwrap();
        let mut cfg = GameConfig::new(Rule::Caro, size);
        cfg.variant = Variant::rock(size, 5, 6);
        cfg.first = Color::White;
        cfg.k = 4;
        let mut r = Record::new(cfg);
        r.players.white.name = Some("two\nlines".into());
        r.tags.insert("Event".into(), "club".into());
        r.push_alternating(size.center(), Some(1250));
        r.push_alternating(Pos::new_unchecked(0, 0), None);
        r.result = Some(GameResult {
            winner: Some(Color::White),
            reason: EndReason::Resignation,
        });
        let text = write(&r).unwrap();
        let back = read(&text).unwrap();
        r.players.white.name = Some("two lines".into());
        assert_eq!(back, r, "{text}");
        assert!(text.contains("1. e7    # 1250 ms\n2. a13\n"), "{text}");
    }

    #[test]
    fn comments_and_times() {
        let r = read("1. h8 # 300 ms\n2. i9 # a good reply\n3. j10 k11 # 5 ms\n").unwrap();
        let times: Vec<Option<u64>> = r.moves.iter().map(|m| m.time_ms).collect();
        assert_eq!(times, [Some(300), None, None, None]);
    }
}
