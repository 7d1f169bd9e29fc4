//! RenLib libraries (`.lib`), the renju community's opening trees: read-only, into a
//! [`GameTree`] of renju on 15×15.
//!
//! The format, as RenLib (Frank Arkbo's program) writes it:
//!
//! - A 20-byte header: `FF 'R' 'e' 'n' 'L' 'i' 'b' FF`, the major and minor version
//!   (3.0 or 3.4), then ten `FF`. Very old files have no header and start with the centre
//!   move `78`.
//! - Then the nodes in pre-order, two bytes each: the point, `16 * (row - 1) + column`
//!   with both 1-based and rows counted from the **top** (`78` is h8; `00` is no point:
//!   the root, or a pass), and a flag byte:
//!
//!   | bit | meaning |
//!   |---|---|
//!   | `80` | a sibling follows this node's subtree |
//!   | `40` | no child: the next node is the sibling of the latest node marked `80` |
//!   | `20` | an old-style comment follows |
//!   | `10` | marked |
//!   | `08` | a comment follows |
//!   | `04` | the start position |
//!   | `02` | not a move: a board label on that point |
//!   | `01` | two more flag bytes follow (their lowest bit: board text follows) |
//!
//! - A comment is a one-line comment, optionally a byte `08` and a multi-line comment,
//!   ended by a `00` byte and padded with another `00` to an even length. The bytes are in
//!   the writer's Windows code page; [`read`] takes UTF-8 when the bytes are valid
//!   UTF-8 and Windows-1252 otherwise (libraries written in other code pages, such as
//!   Chinese GBK, come out garbled: [`read_with`] takes the caller's decoder). An old-style comment is 7-bit text in which `{ | }`
//!   and `[ \ ]` stand for `ä ö å` and `Ä Ö Å`, ended by a byte with its top bit set.
//! - Board text (the label's letter) is ended like a comment.
//!
//! A node whose point is already a child of its parent is merged with that child, as
//! RenLib does. Colours alternate from Black at the empty board. Board labels and marks
//! are not kept; a pass cannot be a move in a [`GameTree`], so a pass and the nodes
//! after it are skipped and counted ([`Library::skipped`]).

use std::fmt;

use super::MAX_INPUT_BYTES;
use super::tree::{GameTree, NodeId};
use crate::{Color, GameConfig, Move, Pos, Rule, Size};

const MAGIC: &[u8; 8] = b"\xffRenLib\xff";
const HEADER_LEN: usize = 20;
/// The newest version this reader knows (RenLib 3.4 writes 3.4).
const NEWEST: (u8, u8) = (3, 4);
const CENTRE: u8 = 0x78;

const SIBLING: u8 = 0x80;
const NO_CHILD: u8 = 0x40;
const OLD_COMMENT: u8 = 0x20;
const COMMENT: u8 = 0x08;
const NO_MOVE: u8 = 0x02;
const EXTENSION: u8 = 0x01;
/// In the extension's second byte: board text follows.
const BOARD_TEXT: u8 = 0x01;

/// A RenLib library read into a tree.
#[derive(Clone, Debug)]
pub struct Library {
    /// The moves and comments, renju on 15×15, Black first.
    pub tree: GameTree,
    /// The header's version (major, minor); `None` for a file without a header.
    pub version: Option<(u8, u8)>,
    /// How many board labels (nodes that are not moves) were dropped.
    pub labels: usize,
    /// How many nodes were skipped: passes and everything after them.
    pub skipped: usize,
}

/// A library that cannot be read: what is wrong, at which byte.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("RenLib, byte {offset}: {message}")]
pub struct RenLibError {
    /// The offset of the bad byte (or of the end, for a truncated file).
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

/// Whether `bytes` look like a RenLib library (the header, or the centre move of a file
/// without one).
#[must_use]
pub fn is_renlib(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC) || (bytes.first() == Some(&CENTRE) && bytes.len().is_multiple_of(2))
}

/// Reads a RenLib library, decoding comments with [`decode_comment`] (UTF-8 when valid,
/// else Windows-1252). Damaged files (a bad header, a point off the board, a node or
/// comment cut short) give an error naming the byte; nothing panics.
pub fn read(bytes: &[u8]) -> Result<Library, RenLibError> {
    read_with(bytes, &decode_comment)
}

/// [`read`] with the caller's decoder for comment bytes, for libraries written in another
/// Windows code page (GBK for Chinese libraries, say): a caller with an encoding library,
/// or a browser's `TextDecoder`, passes it here. The decoder gets a comment's bytes
/// without the final `00`; the one-line and multi-line parts are split afterwards.
pub fn read_with(bytes: &[u8], decode: &dyn Fn(&[u8]) -> String) -> Result<Library, RenLibError> {
    let err = |offset: usize, message: String| RenLibError { offset, message };
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(err(
            MAX_INPUT_BYTES,
            format!(
                "the file is {} bytes; libraries are limited to {MAX_INPUT_BYTES} bytes",
                bytes.len()
            ),
        ));
    }
    let (version, mut i) = if bytes.starts_with(MAGIC) {
        if bytes.len() < HEADER_LEN {
            return Err(err(bytes.len(), "the header is cut short".into()));
        }
        let version = (bytes[8], bytes[9]);
        if (version.0, version.1) > NEWEST {
            return Err(err(
                8,
                format!(
                    "version {}.{} is newer than this reader knows ({}.{})",
                    version.0, version.1, NEWEST.0, NEWEST.1
                ),
            ));
        }
        (Some(version), HEADER_LEN)
    } else if bytes.first() == Some(&CENTRE) {
        (None, 0)
    } else {
        return Err(err(
            0,
            "not a RenLib library (it does not start with FF 'RenLib' FF)".into(),
        ));
    };

    let mut tree = GameTree::new(GameConfig::new(Rule::Renju, Size::STANDARD));
    // line[d]: the tree node at depth d of the file's current line (`None` below a pass).
    // A label takes a depth of its own, standing for its parent.
    let mut line: Vec<Option<NodeId>> = vec![Some(tree.root())];
    // The depths of nodes marked "a sibling follows".
    let mut branches: Vec<usize> = Vec::new();
    let mut labels = 0;
    let mut skipped = 0;
    let mut first = true;
    while i < bytes.len() {
        let start = i;
        let (point, flags) = pair(bytes, &mut i, "a node")?;
        let mut extended = 0;
        if flags & EXTENSION != 0 {
            let (_, low) = pair(bytes, &mut i, "a node's extension")?;
            extended = low;
        }
        let comment = if flags & COMMENT != 0 {
            Some(comment_text(bytes, &mut i, decode)?)
        } else if flags & OLD_COMMENT != 0 {
            Some(old_comment_text(bytes, &mut i)?)
        } else {
            None
        };
        if extended & BOARD_TEXT != 0 {
            text_bytes(bytes, &mut i, "board text")?;
        }
        let pos = decode_point(point).ok_or_else(|| {
            err(
                start,
                format!("{point:#04x} is no point of the 15x15 board"),
            )
        })?;

        let parent = *line.last().expect("the root is never popped");
        let node = if first && pos.is_none() {
            // The root.
            parent
        } else if flags & NO_MOVE != 0 {
            labels += 1;
            line.push(parent);
            parent
        } else {
            let node = match (parent, pos) {
                (Some(parent), Some(pos)) => {
                    let color = if tree.depth(parent).is_multiple_of(2) {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let mv = Move {
                        pos,
                        color,
                        time_ms: None,
                    };
                    Some(tree.add_unchecked(parent, mv).expect("the parent is live"))
                }
                // A pass, or a node below one.
                _ => {
                    skipped += 1;
                    None
                }
            };
            line.push(node);
            node
        };
        first = false;
        if let (Some(node), Some(text)) = (node, comment)
            && !text.is_empty()
        {
            let joined = match tree.comment(node) {
                Some(before) if before != text => format!("{before}\n{text}"),
                Some(before) => before.to_string(),
                None => text,
            };
            tree.set_comment(node, Some(joined))
                .expect("the node is live");
        }
        if flags & SIBLING != 0 {
            branches.push(line.len() - 1);
        }
        if flags & NO_CHILD != 0
            && let Some(depth) = branches.pop()
        {
            line.truncate(depth.max(1));
        }
    }
    Ok(Library {
        tree,
        version,
        labels,
        skipped,
    })
}

/// The next two bytes.
fn pair(bytes: &[u8], i: &mut usize, what: &str) -> Result<(u8, u8), RenLibError> {
    match bytes.get(*i..*i + 2) {
        Some(&[a, b]) => {
            *i += 2;
            Ok((a, b))
        }
        _ => Err(RenLibError {
            offset: *i,
            message: format!("the file ends in the middle of {what}"),
        }),
    }
}

/// A point byte: `None` inside for `00` (no point), `None` outside for a byte off the
/// board.
fn decode_point(byte: u8) -> Option<Option<Pos>> {
    if byte == 0 {
        return Some(None);
    }
    let column = byte % 16;
    let row = byte / 16; // 0-based from the top
    if column == 0 || row >= 15 {
        return None;
    }
    Some(Some(Pos::new_unchecked(column - 1, row)))
}

/// Text ended by a `00` byte, read in pairs (so padded to an even length).
fn text_bytes(bytes: &[u8], i: &mut usize, what: &str) -> Result<Vec<u8>, RenLibError> {
    let mut out = Vec::new();
    loop {
        let (a, b) = pair(bytes, i, what)?;
        if a == 0 {
            return Ok(out);
        }
        out.push(a);
        if b == 0 {
            return Ok(out);
        }
        out.push(b);
    }
}

/// A comment: the one-line part, then after a byte `08` the multi-line part; joined by a
/// line break, with Windows line breaks made `\n`.
fn comment_text(
    bytes: &[u8],
    i: &mut usize,
    decode: &dyn Fn(&[u8]) -> String,
) -> Result<String, RenLibError> {
    let raw = text_bytes(bytes, i, "a comment")?;
    Ok(join_comment(&decode(&raw)))
}

/// An old-style comment: 7-bit text ended by a byte with its top bit set (which still
/// carries a character), Swedish letters in place of `{|}[\]`.
fn old_comment_text(bytes: &[u8], i: &mut usize) -> Result<String, RenLibError> {
    let mut raw = Vec::new();
    'outer: loop {
        let (a, b) = pair(bytes, i, "an old-style comment")?;
        for byte in [a, b] {
            raw.push(byte & 0x7f);
            if byte & 0x80 != 0 {
                break 'outer;
            }
        }
    }
    let text: String = raw
        .iter()
        .map(|&b| match b {
            b'{' => 'ä',
            b'|' => 'ö',
            b'}' => 'å',
            b'[' => 'Ä',
            b'\\' => 'Ö',
            b']' => 'Å',
            other => char::from(other),
        })
        .collect();
    Ok(join_comment(&text))
}

fn join_comment(text: &str) -> String {
    let text = text.replace("\r\n", "\n");
    let (one, multi) = text.split_once('\u{8}').unwrap_or((&text, ""));
    let (one, multi) = (one.trim_end(), multi.trim_end());
    match (one.is_empty(), multi.is_empty()) {
        (_, true) => one.to_string(),
        (true, false) => multi.to_string(),
        (false, false) => format!("{one}\n{multi}"),
    }
}

/// The default decoder of comment bytes: UTF-8 when valid, else Windows-1252 (the code
/// page of RenLib's Western European users).
#[must_use]
pub fn decode_comment(bytes: &[u8]) -> String {
    if let Ok(s) = std::str::from_utf8(bytes) {
        return s.to_string();
    }
    bytes.iter().map(|&b| windows_1252(b)).collect()
}

fn windows_1252(b: u8) -> char {
    // 0x80..=0x9F differ from Latin-1; the five unassigned bytes keep their C1 code.
    const HIGH: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž',
        '\u{8f}', '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}',
        'ž', 'Ÿ',
    ];
    match b {
        0x80..=0x9f => HIGH[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

impl fmt::Display for Library {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.version {
            Some((major, minor)) => write!(f, "RenLib {major}.{minor} library")?,
            None => f.write_str("RenLib library without a header")?,
        }
        write!(f, ": {} moves", self.tree.len())?;
        if self.labels > 0 {
            write!(f, ", {} board labels dropped", self.labels)?;
        }
        if self.skipped > 0 {
            write!(f, ", {} nodes at or after a pass skipped", self.skipped)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(minor: u8) -> Vec<u8> {
        let mut h = MAGIC.to_vec();
        h.extend([3, minor]);
        h.extend([0xff; 10]);
        h
    }

    fn lines(tree: &GameTree) -> Vec<String> {
        let size = tree.config().size;
        tree.nodes()
            .filter(|&n| tree.children(n).is_empty())
            .map(|n| {
                let v: Vec<String> = tree
                    .line(n)
                    .iter()
                    .map(|m| size.notation(m.pos).to_string())
                    .collect();
                v.join(" ")
            })
            .collect()
    }

    #[test]
    fn reads_siblings_and_leaves() {
        // root; h8; h9 (sibling follows); i10; j11 (leaf) | i9 (leaf), in RenLib 3.4 with
        // the null root node.
        let mut bytes = header(4);
        bytes.extend([
            0x00, 0x00, // root
            0x78, 0x00, // h8
            0x68, 0x80, // h9, a sibling follows its subtree
            0x59, 0x00, // i10
            0x4a, 0x40, // j11, no child: back to h9's parent
            0x69, 0x40, // i9, no child
        ]);
        let lib = read(&bytes).unwrap();
        assert_eq!(lib.version, Some((3, 4)));
        assert_eq!(lines(&lib.tree), ["h8 h9 i10 j11", "h8 i9"]);
        let i9 = lib.tree.node_at(&[0, 1]).unwrap();
        assert_eq!(lib.tree.mv(i9).unwrap().color, Color::White);
        assert_eq!(lib.tree.validate(), Ok(()));
    }

    #[test]
    fn reads_comments_labels_and_old_files() {
        // No header: the first node is h8, with a one-line and a multi-line comment.
        let mut bytes = vec![0x78, 0x08];
        bytes.extend(b"Centre\x08Line one\r\nline two\x00");
        bytes.extend([0x79, 0xc3, 0x00, 0x01]); // a label on i8 with board text "A"
        bytes.extend(b"A\x00");
        bytes.extend([0x68, 0x60]); // h9, old-style comment, no child
        bytes.extend([b'{', b'}' | 0x80]);
        let lib = read(&bytes).unwrap();
        assert_eq!(lib.version, None);
        assert_eq!(lib.labels, 1);
        let t = &lib.tree;
        assert_eq!(lines(t), ["h8 h9"]);
        let h8 = t.node_at(&[0]).unwrap();
        assert_eq!(t.comment(h8), Some("Centre\nLine one\nline two"));
        assert_eq!(t.comment(t.node_at(&[0, 0]).unwrap()), Some("äå"));
        // Windows-1252 when not UTF-8.
        assert_eq!(decode_comment(b"caf\xe9 \x80"), "café €");
        // A caller's decoder sees the comment's bytes, 08 separator included.
        let lib = read_with(&bytes, &|b| format!("{}!", b.len())).unwrap();
        let h8 = lib.tree.node_at(&[0]).unwrap();
        assert_eq!(lib.tree.comment(h8), Some("25!"));
    }

    #[test]
    fn damaged_files_name_the_byte() {
        let mut cut_comment = header(0);
        cut_comment.extend([0x78, 0x08, b'a', b'b']);
        let mut off_board = header(0);
        off_board.extend([0x78, 0x00, 0x70, 0x00]);
        let mut bottom = header(0);
        bottom.extend([0xf1, 0x00]);
        let mut newer = header(0);
        newer[8] = 4;
        let mut odd = header(0);
        odd.extend([0x78, 0x00, 0x79]);
        let mut cut_extension = header(0);
        cut_extension.extend([0x78, 0x01]);
        let cases: [(&[u8], usize, &str); 8] = [
            (b"", 0, "not a RenLib library"),
            (b"PK\x03\x04", 0, "not a RenLib library"),
            (&MAGIC[..], 8, "the header is cut short"),
            (&newer, 8, "version 4.0 is newer"),
            (&cut_comment, 24, "the file ends in the middle of a comment"),
            (&off_board, 22, "0x70 is no point"),
            (&odd, 22, "the file ends in the middle of a node"),
            (
                &cut_extension,
                22,
                "the file ends in the middle of a node's extension",
            ),
        ];
        for (bytes, offset, message) in cases {
            let e = read(bytes).unwrap_err();
            assert_eq!(e.offset, offset, "{e}");
            assert!(e.message.starts_with(message), "{e}");
        }
        assert!(read(&bottom).is_err());
        assert!(
            read(&cut_comment)
                .unwrap_err()
                .to_string()
                .starts_with("RenLib, byte 24: ")
        );
    }

    #[test]
    fn passes_are_skipped_with_what_follows() {
        let mut bytes = header(4);
        bytes.extend([0x00, 0x00, 0x78, 0x80, 0x00, 0x00, 0x68, 0x40, 0x79, 0x40]);
        let lib = read(&bytes).unwrap();
        assert_eq!(lib.skipped, 2);
        assert_eq!(lines(&lib.tree), ["h8", "i8"]);
    }
}
