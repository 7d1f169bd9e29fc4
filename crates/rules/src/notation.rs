//! Move lists in renju notation: `h8 i9 j10`, `h8,i9,j10`, `h8i9j10`, `1. h8 2. i9`.

use crate::{Pos, Size};

/// A move list that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move list, character {offset}: {message}")]
pub struct NotationError {
    /// 0-based character offset of the problem.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads a move list: points in renju notation, separated by nothing, spaces, commas or
/// semicolons; move numbers such as `1.` or `12)` are skipped.
pub fn parse_moves(text: &str, size: Size) -> Result<Vec<Pos>, NotationError> {
    let chars: Vec<char> = text.chars().collect();
    let mut moves = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() || c == ',' || c == ';' {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            if i < chars.len() && (chars[i] == '.' || chars[i] == ')') {
                i += 1;
            } else {
                return Err(NotationError {
                    offset: start,
                    message: "a number must follow a column letter (or be a move number like 1.)"
                        .into(),
                });
            }
        } else if c.is_ascii_alphabetic() {
            let start = i;
            i += 1;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let token: String = chars[start..i].iter().collect();
            let pos = size.parse_pos(&token).map_err(|e| NotationError {
                offset: start,
                message: e.to_string(),
            })?;
            moves.push(pos);
        } else {
            return Err(NotationError {
                offset: i,
                message: format!("unexpected character {c:?}"),
            });
        }
    }
    Ok(moves)
}

/// Writes points in renju notation joined by `sep`.
#[must_use]
pub fn format_moves(moves: &[Pos], size: Size, sep: &str) -> String {
    moves
        .iter()
        .map(|&p| size.notation(p).to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        let s = Size::STANDARD;
        let want = vec![
            s.parse_pos("h8").unwrap(),
            s.parse_pos("i9").unwrap(),
            s.parse_pos("j10").unwrap(),
        ];
        for text in [
            "h8i9j10",
            "h8 i9 j10",
            "h8, i9, j10",
            "1. h8 2. i9 3. j10",
            " H8I9J10 ",
        ] {
            assert_eq!(parse_moves(text, s).unwrap(), want, "{text}");
        }
        assert_eq!(format_moves(&want, s, " "), "h8 i9 j10");
    }

    #[test]
    fn errors_name_the_offset() {
        let s = Size::STANDARD;
        assert_eq!(parse_moves("h8 z9", s).unwrap_err().offset, 3);
        assert_eq!(parse_moves("h8 i16", s).unwrap_err().offset, 3);
        assert_eq!(parse_moves("h8 9", s).unwrap_err().offset, 3);
        assert_eq!(parse_moves("h8 ?", s).unwrap_err().offset, 3);
        assert!(parse_moves("", s).unwrap().is_empty());
    }
}
