//! Position strings: the moves run together in renju notation, `h8i9j10`.
//!
//! Two row conventions are in use and cannot be told apart from the text, so the caller
//! chooses: [`RowOrder::BottomUp`] (renju notation: row 1 at the bottom; Gomoku
//! Calculator, RenLib) or [`RowOrder::TopDown`] (row 1 at the top; Rapfi, GomocupJudge).
//! The string holds only the moves, alternating from Black: size and rule come from the
//! caller, and a record with walls, bubbles or White first cannot be written.
//! Reading accepts spaces, commas and semicolons between points and either letter case.

use super::{
    Format, Record, RecordError, RowOrder, check_len, require_alternating, require_on_board,
    syntax_at,
};
use crate::{Color, GameConfig, Pos, Rule, Size, Variant};

const FORMAT: Format = Format::PosStr;

/// Reads a position string for a board of `size` (the rule is freestyle; set it after).
pub fn read(text: &str, size: Size, rows: RowOrder) -> Result<Record, RecordError> {
    check_len(text)?;
    let mut record = Record::new(GameConfig::new(Rule::Freestyle, size));
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_whitespace() || b == b',' || b == b';' {
            i += 1;
            continue;
        }
        let start = i;
        if !b.is_ascii_alphabetic() {
            let c = text[i..].chars().next().unwrap_or('?');
            return Err(syntax_at(
                FORMAT,
                text,
                i,
                format!("unexpected {c:?} (expected a point like h8)"),
            ));
        }
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let pos = parse_point(&text[start..i], size, rows)
            .map_err(|m| syntax_at(FORMAT, text, start, m))?;
        record.push_alternating(pos, None);
    }
    Ok(record)
}

fn parse_point(token: &str, size: Size, rows: RowOrder) -> Result<Pos, String> {
    let col = i64::from(token.as_bytes()[0].to_ascii_lowercase() - b'a');
    let digits = &token[1..];
    if digits.is_empty() {
        return Err(format!("{token:?} has no row number"));
    }
    let row: i64 = if digits.len() > 3 {
        i64::MAX
    } else {
        digits.parse().unwrap_or(i64::MAX)
    };
    let height = i64::from(size.height());
    let y = match rows {
        RowOrder::BottomUp => height - row,
        RowOrder::TopDown => row - 1,
    };
    if col >= i64::from(size.width()) || row < 1 || row > height {
        return Err(format!(
            "{token} is off the {size} board (rows counted {rows})"
        ));
    }
    size.pos(col as i32, y as i32).map_err(|e| e.to_string())
}

/// Writes the moves as one string without separators.
pub fn write(record: &Record, rows: RowOrder) -> Result<String, RecordError> {
    let cfg = &record.config;
    if cfg.variant != Variant::Wood {
        return Err(RecordError::Unsupported {
            format: FORMAT,
            what: format!(
                "the {} theme's layout (use JSON or SGF)",
                cfg.variant.name()
            ),
        });
    }
    if cfg.first != Color::Black {
        return Err(RecordError::Unsupported {
            format: FORMAT,
            what: "a game where White moves first".into(),
        });
    }
    require_alternating(record, FORMAT)?;
    require_on_board(record, FORMAT)?;
    let height = u32::from(cfg.size.height());
    let mut out = String::new();
    for m in &record.moves {
        let row = match rows {
            RowOrder::BottomUp => height - u32::from(m.pos.y),
            RowOrder::TopDown => u32::from(m.pos.y) + 1,
        };
        out.push((b'a' + m.pos.x) as char);
        out.push_str(&row.to_string());
    }
    out.push('\n');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(r: &Record) -> Vec<(u8, u8)> {
        r.moves.iter().map(|m| (m.pos.x, m.pos.y)).collect()
    }

    #[test]
    fn both_row_orders() {
        let s = Size::STANDARD;
        let up = read("h8i9j10", s, RowOrder::BottomUp).unwrap();
        assert_eq!(pts(&up), [(7, 7), (8, 6), (9, 5)]);
        let down = read("h8i9j10", s, RowOrder::TopDown).unwrap();
        assert_eq!(pts(&down), [(7, 7), (8, 8), (9, 9)]);
        assert_eq!(write(&down, RowOrder::TopDown).unwrap(), "h8i9j10\n");
        assert_eq!(write(&down, RowOrder::BottomUp).unwrap(), "h8i7j6\n");
        assert_eq!(up.moves[1].color, Color::White);
        let spaced = read(" H8, i9;\nj10 ", s, RowOrder::BottomUp).unwrap();
        assert_eq!(pts(&spaced), pts(&up));
    }

    #[test]
    fn bad_strings_name_the_column() {
        let s = Size::STANDARD;
        for (text, column) in [
            ("h8i16", 3),
            ("h8 p1", 4),
            ("h8 9", 4),
            ("h8i", 3),
            ("h8i0", 3),
            ("h8i99999999999999999999", 3),
            ("h8 é", 4),
        ] {
            match read(text, s, RowOrder::BottomUp) {
                Err(RecordError::Syntax { column: c, .. }) => assert_eq!(c, column, "{text}"),
                other => panic!("{text:?} gave {other:?}"),
            }
        }
    }
}
