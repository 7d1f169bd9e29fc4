//! Game records: our own JSON record that holds everything, and the formats other tools
//! use (PSQ, SGF, a text move list, position strings).
//!
//! Reading is in two steps, as in shakmaty's `Setup` / `Position`: a format's `read`
//! gives an unvalidated [`Record`] (it checks syntax and coordinates only), and
//! [`Record::to_game`] replays it under the rules and names the first move that does not
//! fit. Writing a record in a format that cannot hold something that changes the game
//! (walls in PSQ, say) is an error, never a silently wrong file.
//!
//! What each format keeps:
//!
//! | format | keeps | loses |
//! |---|---|---|
//! | [`json`] | everything | nothing |
//! | [`sgf`] | rule, size, k, first mover, variant (custom `WZ*` properties), players' names, opening name, result, date, move times (`WZMS`) | player kinds, clocks, opening metadata, end date |
//! | [`text`] | rule, size, k, first mover, variant, players' names, opening name, result, dates, move times (`# 1250 ms`) | player kinds, clocks, opening metadata |
//! | [`psq`] | size, moves with times, players' names | rule (read as freestyle unless told), result; refuses variants, k ≠ 5, White first |
//! | [`posstr`] | the moves | everything else (the reader is told size, rule and row order); refuses variants and White first |
//!
//! Trees of variations (the analysis board's record) are a [`tree::GameTree`]: SGF holds
//! them with [`sgf::read_tree`] / [`sgf::write_tree`] (variations, setup stones, comments),
//! and RenLib opening libraries are read into one by [`renlib::read`] (read-only). The
//! one-line formats take a tree's main line ([`tree::GameTree::to_record`]).
//!
//! ```
//! use wuzi_rules::record::{Record, RecordMeta, sgf};
//! use wuzi_rules::{Game, GameConfig, Rule, Size, notation};
//!
//! let config = GameConfig::new(Rule::Renju, Size::STANDARD);
//! let moves = notation::parse_moves("h8 h9 i8 i9 j8 j9 k8 k9 l8", Size::STANDARD).unwrap();
//! let game = Game::from_moves(config, &moves).unwrap();
//! let text = sgf::write(&Record::from_game(&game, RecordMeta::default())).unwrap();
//! let again = sgf::read(&text).unwrap().to_game().unwrap();
//! assert_eq!(again.moves(), game.moves());
//! assert_eq!(again.result(), game.result());
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::game::{ConfigError, IllegalMove};
use crate::{Color, EndReason, Game, GameConfig, GameResult, Move, Pos, Rule, Size};

pub mod json;
pub mod posstr;
pub mod psq;
pub mod renlib;
pub mod sgf;
pub mod text;
pub mod tree;

/// The largest input any reader accepts (16 MiB); bigger inputs are refused up front.
pub const MAX_INPUT_BYTES: usize = 16 << 20;

/// A game record: the configuration, who played, the moves and how it ended.
///
/// A record read from a file is not validated; [`Record::to_game`] replays it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Rule, size, k, first mover and variant layout.
    pub config: GameConfig,
    /// The opening rule and whatever it decided (swap choices and so on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<Opening>,
    /// Who played.
    #[serde(default)]
    pub players: Players,
    /// The time control and the time left at the end of the record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clocks>,
    /// The moves, with the colour that played each and its thinking time.
    #[serde(default)]
    pub moves: Vec<Move>,
    /// How the game ended, if it did. Results decided by the moves (five, forbidden,
    /// bubbles, full board) are checked against the moves by [`Record::to_game`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
    /// When the game was played.
    #[serde(default)]
    pub dates: Dates,
    /// Anything else a file carried that has no field here (SGF event, PSQ result code),
    /// kept so a conversion does not drop it silently.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tags: BTreeMap<String, String>,
}

/// The opening rule of a game (`free`, `swap`, `swap2`, a renju opening name ...).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Opening {
    /// The opening's name.
    pub name: String,
    /// Anything the opening decided (who swapped, the offered fifth moves ...), as JSON.
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub data: serde_json::Map<String, serde_json::Value>,
}

impl Opening {
    /// An opening known only by name.
    #[must_use]
    pub fn named(name: impl Into<String>) -> Opening {
        Opening {
            name: name.into(),
            data: serde_json::Map::new(),
        }
    }
}

/// The two players.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Players {
    /// Who played Black.
    #[serde(default)]
    pub black: Player,
    /// Who played White.
    #[serde(default)]
    pub white: Player,
}

impl Players {
    /// The player of `color`.
    #[must_use]
    pub fn get(&self, color: Color) -> &Player {
        match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    /// The player of `color`, mutably.
    pub fn get_mut(&mut self, color: Color) -> &mut Player {
        match color {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }
}

/// One player.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// A display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// What kind of player: `human`, an engine level such as `level5`, a classic AI such
    /// as `classic-rank`, or an external brain's command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

/// A game's time control and the clocks' state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    /// The time control.
    pub control: TimeControl,
    /// Black's time left in milliseconds, when the record ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_ms: Option<u64>,
    /// White's time left in milliseconds, when the record ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_ms: Option<u64>,
}

/// How much time the players have.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum TimeControl {
    /// No clocks.
    None,
    /// A fixed time for each move.
    Move {
        /// Seconds per move.
        seconds: u32,
    },
    /// A clock per side with an increment after each move.
    Side {
        /// Starting time in seconds.
        initial_seconds: u32,
        /// Seconds added after each move.
        increment_seconds: u32,
    },
}

/// When a game was played: free text, by convention ISO 8601 (`2026-11-21T06:40:00Z`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dates {
    /// When the game started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started: Option<String>,
    /// When it ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<String>,
}

/// What a game does not know about itself, for [`Record::from_game`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecordMeta {
    /// The opening rule.
    pub opening: Option<Opening>,
    /// The players.
    pub players: Players,
    /// The clocks.
    pub clock: Option<Clocks>,
    /// The dates.
    pub dates: Dates,
}

impl Record {
    /// An empty record of a game with `config`.
    #[must_use]
    pub fn new(config: GameConfig) -> Record {
        Record {
            config,
            opening: None,
            players: Players::default(),
            clock: None,
            moves: Vec::new(),
            result: None,
            dates: Dates::default(),
            tags: BTreeMap::new(),
        }
    }

    /// The record of `game` as played so far (moves undone and waiting for redo are not
    /// part of it).
    #[must_use]
    pub fn from_game(game: &Game, meta: RecordMeta) -> Record {
        Record {
            config: game.config().clone(),
            opening: meta.opening,
            players: meta.players,
            clock: meta.clock,
            moves: game.moves().to_vec(),
            result: game.result().cloned(),
            dates: meta.dates,
            tags: BTreeMap::new(),
        }
    }

    /// Replays the record under its rules.
    ///
    /// Checks the configuration, that each move is legal and by the side to move, and that
    /// a recorded result agrees with the moves: a result the moves decide (five, forbidden,
    /// bubbles, full board) must agree with the replay in winner and kind (the replay supplies
    /// the details, such as a five's cells); resignation, time and agreement
    /// are applied after the last move.
    pub fn to_game(&self) -> Result<Game, RecordError> {
        let mut game = Game::new(self.config.clone()).map_err(RecordError::Config)?;
        let size = self.config.size;
        for (i, mv) in self.moves.iter().enumerate() {
            let bad = |reason: String| RecordError::Move {
                number: i + 1,
                name: move_name(size, mv.pos),
                reason,
            };
            if !game.is_over() && mv.color != game.side_to_move() {
                return Err(bad(format!(
                    "played by {} but {} is to move",
                    mv.color,
                    game.side_to_move()
                )));
            }
            game.try_play_timed(mv.pos, mv.time_ms)
                .map_err(|e| bad(illegal_reason(&e)))?;
        }
        match (&self.result, game.result().cloned()) {
            (None, _) => {}
            (Some(recorded), Some(played)) => {
                // The winner and the kind of ending must agree; the details (a five's
                // cells, a bubble count) are the replay's own.
                let agrees = recorded.winner == played.winner
                    && std::mem::discriminant(&recorded.reason)
                        == std::mem::discriminant(&played.reason);
                if !agrees {
                    return Err(RecordError::Result(format!(
                        "the record says \"{}\" but the moves give \"{}\"",
                        recorded.describe(size),
                        played.describe(size)
                    )));
                }
            }
            (Some(recorded), None) => match recorded.reason {
                EndReason::Resignation
                | EndReason::Time
                | EndReason::Agreement
                | EndReason::Abandoned
                | EndReason::Aborted => {
                    let possible = match recorded.reason {
                        EndReason::Agreement | EndReason::Aborted => recorded.winner.is_none(),
                        EndReason::Abandoned => true,
                        _ => recorded.winner.is_some(),
                    };
                    if !possible {
                        return Err(RecordError::Result(format!(
                            "\"{}\" is not a possible result",
                            recorded.describe(size)
                        )));
                    }
                    game.end(recorded.winner, recorded.reason.clone())
                        .map_err(|e| RecordError::Result(e.to_string()))?;
                }
                _ => {
                    return Err(RecordError::Result(format!(
                        "the record says \"{}\" but after the moves the game goes on",
                        recorded.describe(size)
                    )));
                }
            },
        }
        Ok(game)
    }

    /// The points played, in order.
    #[must_use]
    pub fn points(&self) -> Vec<Pos> {
        self.moves.iter().map(|m| m.pos).collect()
    }

    /// Builds moves that alternate colours from the configured first mover.
    pub fn push_alternating(&mut self, pos: Pos, time_ms: Option<u64>) {
        let color = self.mover(self.moves.len());
        self.moves.push(Move {
            pos,
            color,
            time_ms,
        });
    }

    /// Whether the moves alternate colours starting with the configured first mover.
    #[must_use]
    pub fn alternates(&self) -> bool {
        self.moves
            .iter()
            .enumerate()
            .all(|(i, m)| m.color == self.mover(i))
    }

    /// Who plays move `index` (0-based) when colours alternate from the first mover.
    #[must_use]
    pub fn mover(&self, index: usize) -> Color {
        if index.is_multiple_of(2) {
            self.config.first
        } else {
            self.config.first.opponent()
        }
    }
}

fn move_name(size: Size, pos: Pos) -> String {
    if size.contains(pos) {
        size.notation(pos).to_string()
    } else {
        format!("({},{})", pos.x, pos.y)
    }
}

fn illegal_reason(e: &IllegalMove) -> String {
    match e {
        IllegalMove::GameOver => "comes after the end of the game".to_string(),
        other => other.to_string(),
    }
}

/// A file format for records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Piskvork's `.psq` (Gomocup archives).
    Psq,
    /// Smart Game Format, `GM[4]`.
    Sgf,
    /// A text move list in renju notation with move numbers and header lines.
    Text,
    /// A position string such as `h8i9j10`.
    PosStr,
    /// wuzi's own JSON record.
    Json,
}

impl Format {
    /// All formats.
    pub const ALL: [Format; 5] = [
        Format::Psq,
        Format::Sgf,
        Format::Text,
        Format::PosStr,
        Format::Json,
    ];

    /// The usual file extension (without the dot).
    #[must_use]
    pub const fn extension(self) -> &'static str {
        match self {
            Format::Psq => "psq",
            Format::Sgf => "sgf",
            Format::Text => "txt",
            Format::PosStr => "pos",
            Format::Json => "json",
        }
    }

    /// The format of a file extension (`psq`, `sgf`, `txt`, `pos`, `json`; any case).
    #[must_use]
    pub fn from_extension(ext: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.extension().eq_ignore_ascii_case(ext))
    }

    /// The format of a file name, from its extension (`game.sgf` → SGF).
    #[must_use]
    pub fn from_file_name(name: &str) -> Option<Format> {
        let (_, ext) = name.rsplit_once('.')?;
        Format::from_extension(ext)
    }

    /// Guesses the format of a record from its first characters: JSON (`{`), SGF (`(`),
    /// PSQ (`Piskvorky`), text (header lines, comments or move numbers) or a position
    /// string (points only). A bare move list such as `h8 i9` reads the same as text or
    /// as a bottom-up position string; it is reported as text.
    #[must_use]
    pub fn detect(text: &str) -> Option<Format> {
        let t = text.trim_start_matches('\u{feff}').trim_start();
        let first_line = t.lines().next().unwrap_or("");
        if t.starts_with('{') {
            Some(Format::Json)
        } else if t.starts_with('(') {
            Some(Format::Sgf)
        } else if t.starts_with("Piskvorky") {
            Some(Format::Psq)
        } else if first_line.starts_with('#')
            || first_line.contains(':')
            || first_line.starts_with(|c: char| c.is_ascii_digit())
        {
            Some(Format::Text)
        } else if !t.is_empty()
            && t.chars().all(|c| {
                c.is_ascii_alphanumeric() || c.is_ascii_whitespace() || c == ',' || c == ';'
            })
        {
            Some(Format::PosStr)
        } else {
            None
        }
    }

    /// Reads a record in this format.
    pub fn read(self, text: &str, options: &ReadOptions) -> Result<Record, RecordError> {
        let mut record = match self {
            Format::Psq => psq::read(text)?,
            Format::Sgf => sgf::read(text)?,
            Format::Text => text::read(text)?,
            Format::PosStr => {
                posstr::read(text, options.size.unwrap_or(Size::STANDARD), options.rows)?
            }
            Format::Json => json::read(text)?,
        };
        if self.lacks_rule()
            && let Some(rule) = options.rule
        {
            record.config.rule = rule;
        }
        Ok(record)
    }

    /// Writes a record in this format; an error if the format cannot hold it.
    pub fn write(self, record: &Record, options: &WriteOptions) -> Result<String, RecordError> {
        match self {
            Format::Psq => psq::write(record),
            Format::Sgf => sgf::write(record),
            Format::Text => text::write(record),
            Format::PosStr => posstr::write(record, options.rows),
            Format::Json => Ok(json::write(record)),
        }
    }

    /// Whether the format does not store the rule (PSQ and position strings), so the
    /// reader takes it from [`ReadOptions::rule`].
    #[must_use]
    pub const fn lacks_rule(self) -> bool {
        matches!(self, Format::Psq | Format::PosStr)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Psq => "PSQ",
            Format::Sgf => "SGF",
            Format::Text => "text",
            Format::PosStr => "position string",
            Format::Json => "JSON",
        })
    }
}

/// A name that is no format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown record format {0:?} (expected psq, sgf, txt, pos or json)")]
pub struct ParseFormatError(pub String);

impl FromStr for Format {
    type Err = ParseFormatError;
    /// A format by extension or name: `psq`, `sgf`, `txt`/`text`, `pos`/`posstr`, `json`.
    fn from_str(s: &str) -> Result<Format, ParseFormatError> {
        let t = s.trim().to_ascii_lowercase();
        match t.as_str() {
            "text" => Ok(Format::Text),
            "posstr" | "position" => Ok(Format::PosStr),
            _ => Format::from_extension(&t).ok_or_else(|| ParseFormatError(s.to_string())),
        }
    }
}

/// Which way row numbers count in a position string.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RowOrder {
    /// Row 1 at the bottom, as in renju notation (Gomoku Calculator, RenLib). The default.
    #[default]
    BottomUp,
    /// Row 1 at the top (Rapfi, GomocupJudge, c-gomoku-cli).
    TopDown,
}

impl FromStr for RowOrder {
    type Err = String;
    fn from_str(s: &str) -> Result<RowOrder, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "bottom-up" | "bottomup" | "bottom" => Ok(RowOrder::BottomUp),
            "top-down" | "topdown" | "top" => Ok(RowOrder::TopDown),
            _ => Err(format!(
                "unknown row order {s:?} (expected bottom-up or top-down)"
            )),
        }
    }
}

impl fmt::Display for RowOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RowOrder::BottomUp => "bottom-up",
            RowOrder::TopDown => "top-down",
        })
    }
}

/// What a reader cannot learn from formats that do not store it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// The board size of a position string (default 15×15).
    pub size: Option<Size>,
    /// The rule of a PSQ file or position string (default freestyle).
    pub rule: Option<Rule>,
    /// The row order of a position string.
    pub rows: RowOrder,
}

/// Choices for writers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteOptions {
    /// The row order of a position string.
    pub rows: RowOrder,
}

/// A record that cannot be read, written or replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The file is damaged: the location is 1-based line and column (in characters).
    #[error("{format}, line {line}, column {column}: {message}")]
    Syntax {
        /// The format being read.
        format: Format,
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The input is larger than [`MAX_INPUT_BYTES`].
    #[error("the input is {len} bytes; records are limited to {MAX_INPUT_BYTES} bytes")]
    TooLarge {
        /// The input's length.
        len: usize,
    },
    /// The format cannot hold something that matters in this record.
    #[error("{format} cannot hold {what}")]
    Unsupported {
        /// The format being written.
        format: Format,
        /// What it cannot hold.
        what: String,
    },
    /// The configuration cannot be played.
    #[error("bad game configuration: {0}")]
    Config(ConfigError),
    /// A move does not fit the game (1-based move number).
    #[error("move {number} ({name}): {reason}")]
    Move {
        /// 1-based move number.
        number: usize,
        /// The point, in renju notation when it is on the board.
        name: String,
        /// Why.
        reason: String,
    },
    /// The recorded result does not fit the moves.
    #[error("result: {0}")]
    Result(String),
}

/// Refuses inputs over [`MAX_INPUT_BYTES`].
fn check_len(text: &str) -> Result<(), RecordError> {
    if text.len() > MAX_INPUT_BYTES {
        Err(RecordError::TooLarge { len: text.len() })
    } else {
        Ok(())
    }
}

/// A syntax error at a byte offset of `text`, located as line and column.
fn syntax_at(format: Format, text: &str, offset: usize, message: impl Into<String>) -> RecordError {
    let offset = offset.min(text.len());
    let mut start = offset;
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let before = &text[..start];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    RecordError::Syntax {
        format,
        line,
        column,
        message: message.into(),
    }
}

/// Lines with their 1-based numbers and byte offsets; accepts LF, CRLF and lone CR, and
/// drops a leading byte-order mark.
fn lines(text: &str) -> impl Iterator<Item = (usize, usize, &str)> {
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut rest = &text[bom..];
    let mut offset = bom;
    let mut number = 0;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        number += 1;
        let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
        let line = &rest[..end];
        let sep = if rest[end..].starts_with("\r\n") {
            2
        } else if end < rest.len() {
            1
        } else {
            0
        };
        let here = offset;
        offset += end + sep;
        rest = &rest[end + sep..];
        Some((number, here, line))
    })
}

/// Writes a record's result where formats want a sentence.
fn describe_result(record: &Record) -> Option<String> {
    record
        .result
        .as_ref()
        .map(|r| r.describe(record.config.size))
}

/// Checks what every move-list format needs: moves that alternate from the first mover.
fn require_alternating(record: &Record, format: Format) -> Result<(), RecordError> {
    if let Some((i, m)) = record
        .moves
        .iter()
        .enumerate()
        .find(|&(i, m)| m.color != record.mover(i))
    {
        return Err(RecordError::Unsupported {
            format,
            what: format!(
                "moves that do not alternate colours (move {} {} is {})",
                i + 1,
                move_name(record.config.size, m.pos),
                m.color
            ),
        });
    }
    Ok(())
}

/// Checks that every point lies on the board (records built by hand may not).
fn require_on_board(record: &Record, format: Format) -> Result<(), RecordError> {
    let size = record.config.size;
    let outside = record
        .moves
        .iter()
        .map(|m| m.pos)
        .chain(record.config.variant.walls().iter().copied())
        .chain(record.config.variant.bubbles().iter().copied())
        .find(|&p| !size.contains(p));
    match outside {
        Some(p) => Err(RecordError::Unsupported {
            format,
            what: format!("the point ({},{}) off the {size} board", p.x, p.y),
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation;

    fn game(rule: Rule, moves: &str) -> Game {
        let size = Size::STANDARD;
        Game::from_moves(
            GameConfig::new(rule, size),
            &notation::parse_moves(moves, size).unwrap(),
        )
        .unwrap()
    }

    #[test]
    fn from_game_and_back() {
        let g = game(Rule::Renju, "g9 a1 h9 c1 i7 o15 i8 o1 i9");
        let r = Record::from_game(&g, RecordMeta::default());
        assert_eq!(r.moves.len(), 9);
        let back = r.to_game().unwrap();
        assert_eq!(back.moves(), g.moves());
        assert_eq!(back.result(), g.result());
        assert_eq!(back.hash(), g.hash());
    }

    #[test]
    fn to_game_names_the_bad_move() {
        let mut r = Record::from_game(&game(Rule::Freestyle, "h8 i9 j10"), RecordMeta::default());
        r.push_alternating(Pos::new_unchecked(8, 6), None); // i9 again
        let err = r.to_game().unwrap_err();
        assert_eq!(err.to_string(), "move 4 (i9): i9 is occupied");

        let mut r = Record::from_game(&game(Rule::Freestyle, "h8 i9"), RecordMeta::default());
        r.moves[1].color = Color::Black;
        let err = r.to_game().unwrap_err();
        assert!(
            err.to_string()
                .starts_with("move 2 (i9): played by black but white is to move"),
            "{err}"
        );

        let mut r = Record::from_game(
            &game(Rule::Freestyle, "h8 h9 i8 i9 j8 j9 k8 k9 l8"),
            RecordMeta::default(),
        );
        r.push_alternating(Pos::new_unchecked(0, 0), None);
        let err = r.to_game().unwrap_err();
        assert_eq!(
            err.to_string(),
            "move 10 (a15): comes after the end of the game"
        );

        let mut r = Record::new(GameConfig::new(Rule::Freestyle, Size::STANDARD));
        r.push_alternating(Pos::new_unchecked(15, 0), None);
        assert_eq!(
            r.to_game().unwrap_err().to_string(),
            "move 1 ((15,0)): (15,0) is off the board"
        );
    }

    #[test]
    fn to_game_checks_the_result() {
        let g = game(Rule::Freestyle, "h8 h9 i8 i9");
        let mut r = Record::from_game(&g, RecordMeta::default());
        r.result = Some(GameResult {
            winner: Some(Color::White),
            reason: EndReason::Resignation,
        });
        let back = r.to_game().unwrap();
        assert_eq!(back.result(), r.result.as_ref());

        r.result = Some(GameResult {
            winner: Some(Color::Black),
            reason: EndReason::Five { cells: vec![] },
        });
        assert!(matches!(r.to_game(), Err(RecordError::Result(_))));

        r.result = Some(GameResult {
            winner: None,
            reason: EndReason::Resignation,
        });
        assert!(matches!(r.to_game(), Err(RecordError::Result(_))));

        let g = game(Rule::Renju, "g9 a1 h9 c1 i7 o15 i8 o1 i9");
        let mut r = Record::from_game(&g, RecordMeta::default());
        r.result.as_mut().unwrap().winner = Some(Color::Black);
        assert!(matches!(r.to_game(), Err(RecordError::Result(_))));
        r.result = Some(GameResult {
            winner: Some(Color::White),
            reason: EndReason::Time,
        });
        assert!(matches!(r.to_game(), Err(RecordError::Result(_))));

        // A five recorded with other cells (another tool's idea of the line) is accepted;
        // the replay's own cells win.
        let g = game(Rule::Freestyle, "h8 h9 i8 i9 j8 j9 k8 k9 l8");
        let mut r = Record::from_game(&g, RecordMeta::default());
        r.result = Some(GameResult {
            winner: Some(Color::Black),
            reason: EndReason::Five { cells: vec![] },
        });
        assert_eq!(r.to_game().unwrap().result(), g.result());
    }

    #[test]
    fn an_aborted_game_keeps_no_result_through_every_format_that_holds_one() {
        let mut g = game(Rule::Freestyle, "h8");
        g.abort().unwrap();
        let r = Record::from_game(&g, RecordMeta::default());
        assert_eq!(r.to_game().unwrap().result(), g.result());
        for format in [Format::Sgf, Format::Text] {
            let text = format.write(&r, &WriteOptions::default()).unwrap();
            let back = format.read(&text, &ReadOptions::default()).unwrap();
            assert_eq!(back.result, r.result, "{format:?}: {text}");
        }
        // A game left by White and claimed by Black, likewise.
        let mut left = game(Rule::Freestyle, "h8 h9");
        left.end(Some(Color::Black), EndReason::Abandoned).unwrap();
        let l = Record::from_game(&left, RecordMeta::default());
        for format in [Format::Sgf, Format::Text] {
            let text = format.write(&l, &WriteOptions::default()).unwrap();
            let back = format.read(&text, &ReadOptions::default()).unwrap();
            assert_eq!(back.result, l.result, "{format:?}: {text}");
        }
        let mut r = r;
        r.result.as_mut().unwrap().winner = Some(Color::Black);
        assert!(
            matches!(r.to_game(), Err(RecordError::Result(_))),
            "aborted has no winner"
        );
    }

    #[test]
    fn bad_config_is_an_error() {
        let mut cfg = GameConfig::new(Rule::Renju, Size::STANDARD);
        cfg.k = 6;
        assert!(matches!(
            Record::new(cfg).to_game(),
            Err(RecordError::Config(_))
        ));
    }

    #[test]
    fn formats_from_names() {
        assert_eq!(Format::from_file_name("a/b.game.SGF"), Some(Format::Sgf));
        assert_eq!(Format::from_file_name("game"), None);
        assert_eq!(Format::from_file_name("x.exe"), None);
        for f in Format::ALL {
            assert_eq!(f.extension().parse::<Format>().unwrap(), f);
        }
        assert_eq!("text".parse::<Format>().unwrap(), Format::Text);
        assert!("doc".parse::<Format>().is_err());
        assert_eq!("top-down".parse::<RowOrder>().unwrap(), RowOrder::TopDown);
        assert!("sideways".parse::<RowOrder>().is_err());
    }

    #[test]
    fn formats_are_detected_from_the_text() {
        let cases = [
            ("\u{feff} {\"format\":1}", Some(Format::Json)),
            ("\n(;GM[4];B[hh])", Some(Format::Sgf)),
            ("Piskvorky 15x15, 11:11, 0\n", Some(Format::Psq)),
            ("# wuzi\nRule: renju\n", Some(Format::Text)),
            ("Rule: renju\n\n1. h8\n", Some(Format::Text)),
            ("1. h8 2. i9", Some(Format::Text)),
            ("h8i9j10\n", Some(Format::PosStr)),
            ("h8, i9; j10", Some(Format::PosStr)),
            ("", None),
            ("<html>", None),
        ];
        for (text, want) in cases {
            assert_eq!(Format::detect(text), want, "{text:?}");
        }
        // What is detected reads in that format.
        for (text, want) in cases {
            if let Some(f) = want
                && f != Format::Json
            {
                assert!(f.read(text, &ReadOptions::default()).is_ok(), "{text:?}");
            }
        }
    }

    #[test]
    fn lines_accept_every_line_ending() {
        let got: Vec<(usize, usize, &str)> = lines("\u{feff}a\r\nb\rc\nd").collect();
        assert_eq!(
            got,
            vec![(1, 3, "a"), (2, 6, "b"), (3, 8, "c"), (4, 10, "d")]
        );
        assert_eq!(lines("").count(), 0);
        assert_eq!(lines("x\n").count(), 1);
    }

    #[test]
    fn syntax_locations() {
        let text = "ab\ncdé\nf";
        let e = syntax_at(Format::Sgf, text, text.find('f').unwrap(), "x");
        assert_eq!(e.to_string(), "SGF, line 3, column 1: x");
        let e = syntax_at(Format::Sgf, text, text.find('é').unwrap() + 1, "x");
        assert!(matches!(
            e,
            RecordError::Syntax {
                line: 2,
                column: 3,
                ..
            }
        ));
    }
}
