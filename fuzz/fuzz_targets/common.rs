//! Shared checks: a record that reads and replays must survive its own format.

use wuzi_rules::record::{Format, ReadOptions, Record, WriteOptions};

/// Reads `text` in `format`; if it reads and replays, writes it again and checks that the
/// copy reads back to the same game (same configuration, moves and result).
pub fn check_roundtrip(format: Format, text: &str, options: &ReadOptions) {
    let Ok(record) = format.read(text, options) else {
        return;
    };
    let Ok(game) = record.to_game() else {
        return;
    };
    let mut record: Record = record;
    record.result = game.result().cloned();
    let write_options = WriteOptions { rows: options.rows };
    let Ok(written) = format.write(&record, &write_options) else {
        // Refusing to write is allowed (PSQ of a rock game); panicking is not.
        return;
    };
    let options = ReadOptions {
        size: Some(record.config.size),
        rule: Some(record.config.rule),
        rows: options.rows,
    };
    let again = format
        .read(&written, &options)
        .unwrap_or_else(|e| panic!("{format} did not read its own output: {e}\n{written}"));
    let replayed = again
        .to_game()
        .unwrap_or_else(|e| panic!("{format} output does not replay: {e}\n{written}"));
    assert_eq!(replayed.config(), game.config(), "{written}");
    let points = |g: &wuzi_rules::Game| {
        g.moves()
            .iter()
            .map(|m| (m.pos, m.color))
            .collect::<Vec<_>>()
    };
    assert_eq!(points(&replayed), points(&game), "{written}");
    if format != Format::PosStr && format != Format::Psq {
        assert_eq!(replayed.result(), game.result(), "{written}");
    }
}
