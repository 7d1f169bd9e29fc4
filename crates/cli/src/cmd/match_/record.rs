//! Game records for `wuzi match`, written with `wuzi_rules::record`.

use wuzi_rules::record::{Player, Players, Record, RecordMeta, psq, sgf};
use wuzi_rules::{Color, EndReason, Game};

/// The record of a finished match game. `winner` and `reason` describe the end when the
/// rules did not decide it (a crash, an illegal answer, a timeout): the game is then
/// recorded as lost by the offender, with the reason in a `termination` tag.
pub fn record(game: &Game, names: [&str; 2], winner: Option<Color>, reason: &str) -> Record {
    let player = |name: &str| Player {
        name: Some(name.to_string()),
        kind: Some(name.to_string()),
    };
    let mut game = game.clone();
    if !game.is_over() {
        let _ = game.end(
            winner,
            if winner.is_some() {
                EndReason::Resignation
            } else {
                EndReason::Agreement
            },
        );
    }
    let mut rec = Record::from_game(
        &game,
        RecordMeta {
            players: Players {
                black: player(names[0]),
                white: player(names[1]),
            },
            ..RecordMeta::default()
        },
    );
    rec.tags.insert("termination".into(), reason.to_string());
    rec
}

/// The PSQ and SGF texts of a record.
pub fn texts(rec: &Record) -> Result<(String, String), String> {
    let p = psq::write(rec).map_err(|e| format!("PSQ: {e}"))?;
    let s = sgf::write(rec).map_err(|e| format!("SGF: {e}"))?;
    Ok((p, s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_rules::{GameConfig, Rule, Size, notation};

    #[test]
    fn records_roundtrip_with_the_verdict() {
        let size = Size::STANDARD;
        let moves = notation::parse_moves("h8 i9 h9", size).unwrap();
        let game = Game::from_moves(GameConfig::new(Rule::Renju, size), &moves).unwrap();
        let rec = record(
            &game,
            ["full", "pbrain-x"],
            Some(Color::Black),
            "white loses: crashed",
        );
        let (p, s) = texts(&rec).unwrap();
        assert!(p.starts_with("Piskvorky 15x15"), "{p}");
        let back = sgf::read(&s).unwrap();
        assert_eq!(back.moves.len(), 3);
        assert_eq!(back.result.unwrap().winner, Some(Color::Black));
        assert_eq!(back.players.black.name.as_deref(), Some("full"));
        assert_eq!(psq::read(&p).unwrap().moves.len(), 3);
    }
}
