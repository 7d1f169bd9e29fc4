//! wuzi's own JSON record: everything a game has.
//!
//! ```json
//! { "format": "wuzi-record", "version": 1,
//!   "config": { "rule": "renju", "size": { "width": 15, "height": 15 }, "k": 5,
//!               "variant": { "theme": "wood" }, "first": "black" },
//!   "players": { "black": { "name": "Alice", "kind": "human" }, "white": { "kind": "level5" } },
//!   "moves": [ { "pos": { "x": 7, "y": 7 }, "color": "black", "time_ms": 1200 } ],
//!   "result": null, "dates": { "started": "2026-11-21T06:40:00Z" } }
//! ```
//!
//! Points are Gomocup coordinates (0-based, `y` from the top). Readers refuse a file whose
//! `format` is not `wuzi-record` or whose `version` is newer than [`VERSION`].

use serde::{Deserialize, Serialize};

use super::{Format, Record, RecordError, check_len, syntax_at};

/// The `format` field of every wuzi JSON record.
pub const FORMAT_NAME: &str = "wuzi-record";
/// The record version this code writes and the newest it reads.
pub const VERSION: u32 = 1;

#[derive(Serialize)]
struct Out<'a> {
    format: &'static str,
    version: u32,
    #[serde(flatten)]
    record: &'a Record,
}

#[derive(Deserialize)]
struct Header {
    format: Option<String>,
    version: Option<u32>,
}

/// Writes a record as pretty-printed JSON (with a trailing newline).
#[must_use]
pub fn write(record: &Record) -> String {
    let out = Out {
        format: FORMAT_NAME,
        version: VERSION,
        record,
    };
    // Serialising plain structs with string keys cannot fail.
    let mut text = serde_json::to_string_pretty(&out).unwrap_or_default();
    text.push('\n');
    text
}

/// Reads a JSON record. Errors carry serde's line and column.
pub fn read(text: &str) -> Result<Record, RecordError> {
    check_len(text)?;
    let syntax = |e: serde_json::Error| RecordError::Syntax {
        format: Format::Json,
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    };
    let header: Header = serde_json::from_str(text).map_err(syntax)?;
    match header.format.as_deref() {
        Some(FORMAT_NAME) => {}
        Some(other) => {
            return Err(syntax_at(
                Format::Json,
                text,
                0,
                format!("\"format\" is {other:?}, not {FORMAT_NAME:?}"),
            ));
        }
        None => {
            return Err(syntax_at(
                Format::Json,
                text,
                0,
                format!("no \"format\": \"{FORMAT_NAME}\" field; this is not a wuzi record"),
            ));
        }
    }
    match header.version {
        Some(v) if v <= VERSION && v > 0 => {}
        Some(v) => {
            return Err(syntax_at(
                Format::Json,
                text,
                0,
                format!("record version {v} is not supported (this wuzi reads 1..={VERSION})"),
            ));
        }
        None => {
            return Err(syntax_at(Format::Json, text, 0, "no \"version\" field"));
        }
    }
    serde_json::from_str(text).map_err(syntax)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Clocks, Opening, Player, RecordMeta, TimeControl};
    use crate::{Color, Game, GameConfig, Rule, Size, Variant, notation};

    #[test]
    fn everything_survives() {
        let size = Size::new(20, 15).unwrap();
        let mut cfg = GameConfig::new(Rule::Caro, size);
        cfg.k = 6;
        cfg.first = Color::White;
        cfg.variant = Variant::rock(size, 7, 12);
        let mut game = Game::new(cfg).unwrap();
        for p in notation::parse_moves("j8 k9 l10", size).unwrap() {
            if game.check_move(p).is_ok() {
                game.try_play_timed(p, Some(250)).unwrap();
            }
        }
        game.resign(Color::Black).unwrap();
        let mut opening = Opening::named("swap2");
        opening
            .data
            .insert("swapped".into(), serde_json::Value::Bool(true));
        let meta = RecordMeta {
            opening: Some(opening),
            players: crate::record::Players {
                black: Player {
                    name: Some("Ann \"the\" player".into()),
                    kind: Some("human".into()),
                },
                white: Player {
                    name: None,
                    kind: Some("level5".into()),
                },
            },
            clock: Some(Clocks {
                control: TimeControl::Side {
                    initial_seconds: 300,
                    increment_seconds: 5,
                },
                black_ms: Some(1000),
                white_ms: None,
            }),
            dates: crate::record::Dates {
                started: Some("2026-11-21T06:40:00Z".into()),
                ended: None,
            },
        };
        let record = Record::from_game(&game, meta);
        let text = write(&record);
        assert!(text.contains("\"format\": \"wuzi-record\""), "{text}");
        let back = read(&text).unwrap();
        assert_eq!(back, record);
        let replayed = back.to_game().unwrap();
        assert_eq!(replayed.moves(), game.moves());
        assert_eq!(replayed.result(), game.result());
    }

    #[test]
    fn refuses_other_files() {
        let e = read("{\"format\":\"other\",\"version\":1}").unwrap_err();
        assert!(e.to_string().contains("not \"wuzi-record\""), "{e}");
        let e = read("{\"version\":1}").unwrap_err();
        assert!(e.to_string().contains("not a wuzi record"), "{e}");
        let e = read("{\"format\":\"wuzi-record\",\"version\":99}").unwrap_err();
        assert!(e.to_string().contains("version 99"), "{e}");
        let e = read("{\"format\":\"wuzi-record\",\n\"version\":1,\n\"config\": 3}").unwrap_err();
        assert!(matches!(e, RecordError::Syntax { line: 3, .. }), "{e}");
        assert!(read("").is_err());
        assert!(read(&"[".repeat(100_000)).is_err());
        let e = read(
            "{\"format\":\"wuzi-record\",\"version\":1,\"config\":{\"rule\":\"renju\",\
             \"size\":{\"width\":99,\"height\":15},\"k\":5}}",
        )
        .unwrap_err();
        assert!(e.to_string().contains("99x15"), "{e}");
    }
}
