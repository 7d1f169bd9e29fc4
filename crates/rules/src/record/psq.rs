//! Piskvork's PSQ records, as in the Gomocup archives.
//!
//! ```text
//! Piskvorky 15x15, 11:11, 0
//! 8,8,1200
//! 9,7,800
//! pbrain-black.exe
//! pbrain-white.exe
//! -1
//! ```
//!
//! The first line gives the size; each move is `x,y,ms` with **1-based** x and y (y from
//! the top) and the thinking time in milliseconds. Moves are the leading `int,int,int`
//! lines (a missing time is accepted); after them come optional lines naming the brains
//! (first mover first) and a result code, which is kept in the record's tags as
//! `psq-result` (any further lines are kept as `psq-extra`). PSQ does not store the rule (it is read as freestyle; see
//! [`super::ReadOptions::rule`]), k, the variant or who moved first, so writing a record
//! with walls, bubbles, k ≠ 5 or White first is an error.

use super::{
    Format, Record, RecordError, check_len, lines, require_alternating, require_on_board, syntax_at,
};
use crate::{Color, GameConfig, Rule, Size, Variant};

const FORMAT: Format = Format::Psq;

/// Reads a PSQ record.
pub fn read(text: &str) -> Result<Record, RecordError> {
    check_len(text)?;
    let mut lines = lines(text)
        .filter(|(_, _, l)| !l.trim().is_empty())
        .peekable();
    let (_, offset, header) = lines.next().ok_or_else(|| {
        syntax_at(
            FORMAT,
            text,
            0,
            "empty file (expected `Piskvorky WxH, ...`)",
        )
    })?;
    let size = parse_header(header).map_err(|m| syntax_at(FORMAT, text, offset, m))?;
    let mut record = Record::new(GameConfig::new(Rule::Freestyle, size));
    while let Some(&(_, offset, line)) = lines.peek() {
        let Some(fields) = move_fields(line) else {
            break;
        };
        lines.next();
        let at = |m: String| syntax_at(FORMAT, text, offset, m);
        let number = |s: &str, what: &str| {
            s.trim()
                .parse::<u64>()
                .map_err(|_| at(format!("{what} {:?} is not a number in range", s.trim())))
        };
        let x = number(fields[0], "x")?;
        let y = number(fields[1], "y")?;
        let time = match fields.get(2) {
            Some(t) => Some(number(t, "time")?),
            None => None,
        };
        if x < 1 || y < 1 || x > u64::from(size.width()) || y > u64::from(size.height()) {
            return Err(at(format!(
                "move {},{} is off the {size} board (PSQ counts from 1)",
                x, y
            )));
        }
        let pos = size
            .pos(x as i32 - 1, y as i32 - 1)
            .map_err(|e| at(e.to_string()))?;
        record.push_alternating(pos, time);
    }
    let mut names = Vec::new();
    let mut extra = Vec::new();
    for (_, offset, line) in lines {
        let line = line.trim();
        if move_fields(line).is_some() {
            return Err(syntax_at(
                FORMAT,
                text,
                offset,
                format!("move {line:?} after the player names"),
            ));
        } else if line.parse::<i64>().is_ok() {
            record.tags.insert("psq-result".into(), line.to_string());
        } else if names.len() < 2 {
            names.push(line.to_string());
        } else {
            extra.push(line.to_string());
        }
    }
    if !extra.is_empty() {
        record.tags.insert("psq-extra".into(), extra.join(" | "));
    }
    let mut names = names.into_iter();
    record.players.black.name = names.next();
    record.players.white.name = names.next();
    Ok(record)
}

/// `Piskvorky 20x20, 11:11, 0` → 20x20.
fn parse_header(line: &str) -> Result<Size, String> {
    let rest = line
        .trim()
        .strip_prefix("Piskvorky")
        .ok_or("the first line must start with `Piskvorky` (is this a PSQ file?)")?;
    let size_text = rest.split(',').next().unwrap_or("").trim();
    let (w, h) = size_text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("cannot read the board size {size_text:?} (expected WxH)"))?;
    let num = |s: &str| {
        s.trim()
            .parse::<u32>()
            .map_err(|_| format!("cannot read the board size {size_text:?} (expected WxH)"))
    };
    Size::from_u32(num(w)?, num(h)?).map_err(|e| e.to_string())
}

/// The fields of a move line (`x,y,ms` or `x,y`), or `None` if the line is not one.
fn move_fields(line: &str) -> Option<Vec<&str>> {
    let fields: Vec<&str> = line.trim().split(',').collect();
    let numeric = |s: &&str| {
        let t = s.trim();
        !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit() || b == b'-')
    };
    ((2..=3).contains(&fields.len()) && fields.iter().all(numeric)).then_some(fields)
}

/// Writes a PSQ record. Errors when the record has walls or bubbles, k ≠ 5, White moving
/// first or moves that do not alternate.
pub fn write(record: &Record) -> Result<String, RecordError> {
    let cfg = &record.config;
    let unsupported = |what: &str| RecordError::Unsupported {
        format: FORMAT,
        what: what.to_string(),
    };
    if cfg.variant != Variant::Wood {
        return Err(unsupported(&format!(
            "the {} theme's layout (use JSON or SGF)",
            cfg.variant.name()
        )));
    }
    if cfg.k != 5 {
        return Err(unsupported(&format!(
            "{} in a row (use JSON, SGF or text)",
            cfg.k
        )));
    }
    if cfg.first != Color::Black {
        return Err(unsupported("a game where White moves first"));
    }
    require_alternating(record, FORMAT)?;
    require_on_board(record, FORMAT)?;
    let mut out = format!(
        "Piskvorky {}x{}, 11:11, 0\n",
        cfg.size.width(),
        cfg.size.height()
    );
    for m in &record.moves {
        out.push_str(&format!(
            "{},{},{}\n",
            u32::from(m.pos.x) + 1,
            u32::from(m.pos.y) + 1,
            m.time_ms.unwrap_or(0)
        ));
    }
    let (b, w) = (&record.players.black.name, &record.players.white.name);
    if b.is_some() || w.is_some() {
        for (name, fallback) in [(b, "black"), (w, "white")] {
            let name = name.as_deref().map_or(fallback, clean_name);
            out.push_str(if name.is_empty() { fallback } else { name });
            out.push('\n');
        }
    }
    if let Some(code) = record.tags.get("psq-result")
        && code.trim().parse::<i64>().is_ok()
    {
        out.push_str(code.trim());
        out.push('\n');
    }
    Ok(out)
}

/// A name that reads back as a name: one line, not a number or a move.
fn clean_name(name: &str) -> &str {
    let line = name.lines().next().unwrap_or("").trim();
    if line.parse::<i64>().is_ok() || move_fields(line).is_some() {
        ""
    } else {
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Pos, record::RecordMeta};

    const GOMOCUP: &str = "Piskvorky 20x20, 11:11, 0\r\n10,10,0\r\n11,9,1450\r\n9,11,302\r\n\
                           pbrain-a.exe\r\npbrain-b.exe\r\n-1\r\n";

    #[test]
    fn reads_a_gomocup_file() {
        let r = read(GOMOCUP).unwrap();
        assert_eq!(r.config.size, Size::square(20).unwrap());
        assert_eq!(r.moves.len(), 3);
        assert_eq!(r.moves[0].pos, Pos::new_unchecked(9, 9));
        assert_eq!(r.moves[1].pos, Pos::new_unchecked(10, 8));
        assert_eq!(r.moves[1].color, Color::White);
        assert_eq!(r.moves[1].time_ms, Some(1450));
        assert_eq!(r.players.black.name.as_deref(), Some("pbrain-a.exe"));
        assert_eq!(r.players.white.name.as_deref(), Some("pbrain-b.exe"));
        assert_eq!(r.tags.get("psq-result").map(String::as_str), Some("-1"));
        let more = read(&format!("{GOMOCUP}freestyle\r\nround 3\r\n")).unwrap();
        assert_eq!(
            more.tags.get("psq-extra").map(String::as_str),
            Some("freestyle | round 3")
        );
        let again = read(&write(&r).unwrap()).unwrap();
        assert_eq!(again, r);
    }

    #[test]
    fn damaged_files_name_the_line() {
        let cases = [
            ("", 1),
            ("Gomoku 15x15\n", 1),
            ("Piskvorky 15y15, 11:11, 0\n", 1),
            ("Piskvorky 30x30, 11:11, 0\n", 1),
            ("Piskvorky 15x15, 11:11, 0\n8,8,0\n16,1,0\n", 3),
            ("Piskvorky 15x15, 11:11, 0\n8,8,0\n0,1,0\n", 3),
            (
                "Piskvorky 15x15, 11:11, 0\n8,8,0\n99999999999999999999999,1,0\n",
                3,
            ),
            ("Piskvorky 15x15, 11:11, 0\n8,8,-5\n", 2),
            ("Piskvorky 15x15, 11:11, 0\n8,8,0\na\n9,9,0\n", 4),
        ];
        for (text, line) in cases {
            match read(text) {
                Err(RecordError::Syntax { line: l, .. }) => assert_eq!(l, line, "{text:?}"),
                other => panic!("{text:?} gave {other:?}"),
            }
        }
    }

    #[test]
    fn refuses_what_it_cannot_hold() {
        let size = Size::STANDARD;
        let mut cfg = GameConfig::new(Rule::Renju, size);
        cfg.variant = Variant::ocean(size, 3);
        assert!(matches!(
            write(&Record::new(cfg.clone())),
            Err(RecordError::Unsupported { .. })
        ));
        cfg.variant = Variant::Wood;
        cfg.first = Color::White;
        assert!(write(&Record::new(cfg.clone())).is_err());
        cfg.first = Color::Black;
        cfg.rule = Rule::Freestyle;
        cfg.k = 6;
        assert!(write(&Record::new(cfg)).is_err());
        let game = crate::Game::new(GameConfig::new(Rule::Renju, size)).unwrap();
        let mut r = Record::from_game(&game, RecordMeta::default());
        r.moves.push(crate::Move {
            pos: Pos::new_unchecked(1, 1),
            color: Color::White,
            time_ms: None,
        });
        assert!(write(&r).is_err());
    }

    #[test]
    fn names_never_turn_into_moves() {
        let mut r = Record::new(GameConfig::new(Rule::Freestyle, Size::STANDARD));
        r.push_alternating(Pos::new_unchecked(7, 7), None);
        r.players.black.name = Some("1,2,3".into());
        r.players.white.name = Some("42".into());
        let back = read(&write(&r).unwrap()).unwrap();
        assert_eq!(back.moves.len(), 1);
        assert_eq!(back.players.black.name.as_deref(), Some("black"));
        assert_eq!(back.players.white.name.as_deref(), Some("white"));
    }
}
