//! Records: download a game in a file format, or start a game from a record or a
//! position string, through `wuzi_rules::record`.

use serde_json::json;
use wuzi_rules::Color;
use wuzi_rules::opening::OpeningRule;
use wuzi_rules::record::{
    Clocks, Dates, Format, Opening, Player, Players, ReadOptions, Record, RecordMeta, RowOrder,
    TimeControl, WriteOptions,
};

use crate::api::games::{ImportRequest, parse_size, players};
use crate::clock::ClockSetup;
use crate::error::Error;
use crate::hub::now_ms;
use crate::id::GameId;
use crate::live::{LiveGame, Mode, Setup, Who};

/// Reads a format name of the API (`psq`, `sgf`, `txt`, `json`, `pos`).
pub fn parse_format(s: &str) -> Result<Format, Error> {
    s.parse::<Format>()
        .map_err(|e| Error::BadRequest(e.to_string()))
}

/// The HTTP content type of a format.
#[must_use]
pub const fn content_type(format: Format) -> &'static str {
    match format {
        Format::Json => "application/json",
        Format::Sgf => "application/x-go-sgf; charset=utf-8",
        _ => "text/plain; charset=utf-8",
    }
}

/// The record of a live game, with what the rules' game does not know: opening, players,
/// clock and dates.
#[must_use]
pub fn record_of(live: &LiveGame) -> Record {
    let setup = live.setup();
    let now = now_ms();
    let player = |color: Color| Player {
        name: None,
        kind: Some(match (live.who_plays(color), setup.computer) {
            (Some(Who::Computer), Some(c)) => c.player.0.to_string(),
            _ => "human".to_string(),
        }),
    };
    let opening = live.opening();
    let mut data = serde_json::Map::new();
    if setup.opening != OpeningRule::Free {
        data.insert("steps".into(), json!(opening.steps()));
        data.insert("black_seat".into(), json!(opening.black_seat()));
    }
    let secs = |ms: u64| u32::try_from(ms.div_ceil(1000)).unwrap_or(u32::MAX);
    let clock = match setup.clock {
        ClockSetup::None => None,
        ClockSetup::Move { seconds } => Some(TimeControl::Move {
            seconds: secs(seconds.ms()),
        }),
        ClockSetup::Side {
            initial_seconds,
            increment_seconds,
        } => Some(TimeControl::Side {
            initial_seconds: secs(initial_seconds.ms()),
            increment_seconds: secs(increment_seconds.ms()),
        }),
    }
    .map(|control| Clocks {
        control,
        black_ms: Some(live.clock().remaining(Color::Black, now).max(0) as u64),
        white_ms: Some(live.clock().remaining(Color::White, now).max(0) as u64),
    });
    let meta = RecordMeta {
        opening: Some(Opening {
            name: setup.opening.name().to_string(),
            data,
        }),
        players: Players {
            black: player(Color::Black),
            white: player(Color::White),
        },
        clock,
        dates: Dates {
            started: Some(iso8601(live.created_at())),
            ended: live.game().is_over().then(|| iso8601(live.updated_at())),
        },
    };
    Record::from_game(live.game(), meta)
}

/// The game written in `format`. A format that cannot hold the game (PSQ with walls,
/// say) is refused with a message that says so.
pub fn export(live: &LiveGame, format: Format) -> Result<String, Error> {
    format
        .write(&record_of(live), &WriteOptions::default())
        .map_err(|e| Error::BadRecord(format!("{e}; download it as json to keep everything")))
}

/// Guesses a format from the text.
fn guess(text: &str) -> Format {
    let t = text.trim_start();
    if t.starts_with('{') {
        Format::Json
    } else if t.starts_with('(') {
        Format::Sgf
    } else if t.to_ascii_lowercase().starts_with("piskvork") {
        Format::Psq
    } else if t.lines().count() > 1 || t.contains('.') || t.starts_with('#') || t.starts_with('[') {
        Format::Text
    } else {
        Format::PosStr
    }
}

/// A new game from an import request: the record's moves up to `ply`, then normal play
/// with a free opening.
pub fn import(req: ImportRequest) -> Result<LiveGame, Error> {
    let format = match req.format.as_deref() {
        Some(f) => parse_format(f)?,
        None => guess(&req.text),
    };
    let rows = match req.row_order.as_deref() {
        Some(r) => r.parse::<RowOrder>().map_err(Error::BadRequest)?,
        None => RowOrder::BottomUp,
    };
    let options = ReadOptions {
        size: Some(parse_size(req.size.as_ref())?),
        rule: req.rule,
        rows,
    };
    let mut record = format
        .read(&req.text, &options)
        .map_err(|e| Error::BadRecord(e.to_string()))?;
    if format == Format::PosStr
        && let Some(k) = req.k
    {
        record.config.k = k;
    }
    // Check the whole record first, so a damaged one is refused even when only a prefix
    // is wanted.
    record
        .to_game()
        .map_err(|e| Error::BadRecord(e.to_string()))?;
    if record.config.first != Color::Black {
        return Err(Error::BadRecord(
            "games where White moves first cannot be continued here".into(),
        ));
    }
    let ply = req.ply.unwrap_or(record.moves.len());
    if ply > record.moves.len() {
        return Err(Error::BadRequest(format!(
            "ply {ply} is beyond the record's {} moves",
            record.moves.len()
        )));
    }
    let (mode, computer) = players(req.mode, req.computer.clone(), Mode::Local)?;
    let clock = req.clock.unwrap_or_default();
    clock.validate().map_err(Error::BadRequest)?;
    let seed = match &record.config.variant {
        wuzi_rules::Variant::Rock { seed, .. } | wuzi_rules::Variant::Ocean { seed, .. } => {
            Some(*seed)
        }
        wuzi_rules::Variant::Wood => None,
    };
    let setup = Setup {
        owners: crate::live::Owners::default(),
        mode,
        seed,
        config: record.config.clone(),
        opening: OpeningRule::Free,
        computer,
        clock,
        forbidden_policy: req.forbidden_policy.unwrap_or_default(),
        // An imported game was not played here: never rated.
        rated: false,
        takebacks: false,
    };
    setup
        .check_in_browser()
        .map_err(|why| Error::BadRequest(format!("computer.in_browser: {why}")))?;
    let mut live = LiveGame::from_moves(
        GameId::random(),
        setup,
        &record.moves[..ply]
            .iter()
            .map(|m| (m.pos, m.time_ms))
            .collect::<Vec<_>>(),
        now_ms(),
    )?;
    // A resignation or loss on time at the end of the record stays part of it.
    if ply == record.moves.len()
        && let Some(r) = &record.result
        && !live.game().is_over()
    {
        live.end(r.winner, r.reason.clone())?;
    }
    Ok(live)
}

/// `2026-11-21T06:40:00Z` from Unix milliseconds.
#[must_use]
pub fn iso8601(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_dates() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601(951_782_400_000), "2000-02-29T00:00:00Z");
        assert_eq!(iso8601(1_795_000_000_000), "2026-11-18T11:06:40Z");
    }

    #[test]
    fn guesses() {
        assert_eq!(guess("h8i9j10"), Format::PosStr);
        assert_eq!(guess("(;FF[4]GM[4])"), Format::Sgf);
        assert_eq!(guess("Piskvorky 15x15, 11:11, 0\n"), Format::Psq);
        assert_eq!(guess(" {\"config\":{}}"), Format::Json);
        assert_eq!(guess("1. h8 i9\n2. j10"), Format::Text);
    }
}
