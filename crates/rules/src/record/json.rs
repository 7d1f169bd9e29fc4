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

/// The order of the top-level fields in written files (nested objects are sorted).
const FIELD_ORDER: &[&str] = &[
    "format", "version", "config", "opening", "players", "clock", "moves", "result", "dates",
    "tags",
];

/// Writes a record as indented JSON with one move per line (and a trailing newline).
#[must_use]
pub fn write(record: &Record) -> String {
    let out = Out {
        format: FORMAT_NAME,
        version: VERSION,
        record,
    };
    // Serialising plain structs with string keys cannot fail.
    let value = serde_json::to_value(&out).unwrap_or_default();
    let serde_json::Value::Object(fields) = value else {
        return String::new();
    };
    let mut keys: Vec<&String> = fields.keys().collect();
    keys.sort_by_key(|k| {
        FIELD_ORDER
            .iter()
            .position(|f| f == k)
            .unwrap_or(usize::MAX)
    });
    let mut text = String::from("{\n");
    for (i, key) in keys.iter().enumerate() {
        let value = &fields[key.as_str()];
        let key = serde_json::Value::String((*key).clone());
        text.push_str(&format!("  {key}: "));
        match value {
            serde_json::Value::Array(items) if !items.is_empty() => {
                text.push_str("[\n");
                for (j, item) in items.iter().enumerate() {
                    let comma = if j + 1 < items.len() { "," } else { "" };
                    text.push_str(&format!("    {item}{comma}\n"));
                }
                text.push_str("  ]");
            }
            other => {
                let pretty = serde_json::to_string_pretty(other).unwrap_or_default();
                text.push_str(&pretty.replace('\n', "\n  "));
            }
        }
        text.push_str(if i + 1 < keys.len() { ",\n" } else { "\n" });
    }
    text.push_str("}\n");
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
