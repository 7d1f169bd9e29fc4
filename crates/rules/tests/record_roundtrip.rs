//! Property tests: every record format roundtrips random legal games of random sizes,
//! rules and themes, as far as the format carries; damaged input never panics.

use proptest::prelude::*;
use wuzi_rules::record::{
    Format, Opening, ReadOptions, Record, RecordError, RecordMeta, RowOrder, json, posstr, psq,
    sgf, text,
};
use wuzi_rules::{Cell, Color, Game, GameConfig, Rule, Size, Variant};

#[derive(Clone, Debug)]
struct Spec {
    rule: Rule,
    width: u8,
    height: u8,
    k: u8,
    theme: u8,
    seed: u64,
    first_white: bool,
    picks: Vec<(u16, u32)>,
    ending: u8,
    names: Option<(String, String)>,
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        prop::sample::select(Rule::ALL.to_vec()),
        5u8..=26,
        5u8..=26,
        4u8..=7,
        0u8..3,
        any::<u64>(),
        prop::bool::weighted(0.2),
        prop::collection::vec((any::<u16>(), 0u32..100_000), 0..120),
        0u8..4,
        prop::option::of((
            "[A-Za-z][A-Za-z0-9 ._-]{0,12}[A-Za-z]",
            "[A-Za-z][A-Za-z0-9 ._-]{0,12}[A-Za-z]",
        )),
    )
        .prop_map(
            |(rule, width, height, k, theme, seed, first_white, picks, ending, names)| Spec {
                rule,
                width,
                height,
                k: if rule == Rule::Renju { 5 } else { k },
                theme,
                seed,
                first_white,
                picks,
                ending,
                names,
            },
        )
}

/// A legal game: random empty cells until the picks run out or the game ends, then maybe a
/// resignation, a loss on time or an agreed draw.
fn play(spec: &Spec) -> Record {
    let size = Size::new(spec.width, spec.height).unwrap();
    let mut config = GameConfig::new(spec.rule, size);
    config.k = spec.k;
    config.first = if spec.first_white {
        Color::White
    } else {
        Color::Black
    };
    config.variant = match spec.theme {
        0 => Variant::Wood,
        1 => Variant::rock(size, spec.seed, Variant::default_rock_count(size)),
        _ => Variant::ocean(size, spec.seed),
    };
    let mut game = Game::new(config).unwrap();
    for &(pick, ms) in &spec.picks {
        if game.is_over() {
            break;
        }
        let empty: Vec<_> = size
            .points()
            .filter(|&p| game.board().get(p) == Cell::Empty)
            .collect();
        let p = empty[usize::from(pick) % empty.len()];
        game.try_play_timed(p, Some(u64::from(ms))).unwrap();
    }
    if !game.is_over() {
        let side = game.side_to_move();
        match spec.ending {
            1 => game.resign(side).unwrap(),
            2 => game.lose_on_time(side).unwrap(),
            3 => game.agree_draw().unwrap(),
            _ => {}
        }
    }
    let mut meta = RecordMeta::default();
    if let Some((b, w)) = &spec.names {
        meta.players.black.name = Some(b.clone());
        meta.players.white.name = Some(w.clone());
        meta.opening = Some(Opening::named("swap2"));
        meta.dates.started = Some("2026-11-21T06:40:00Z".into());
    }
    Record::from_game(&game, meta)
}

/// The replayed game of a record that came back from a file agrees with the original.
fn same_game(original: &Record, back: &Record, with_times: bool) {
    let a = original.to_game().unwrap();
    let b = back
        .to_game()
        .unwrap_or_else(|e| panic!("read record does not replay: {e}"));
    assert_eq!(b.config(), a.config());
    assert_eq!(b.hash(), a.hash());
    assert_eq!(b.result(), a.result());
    if with_times {
        assert_eq!(b.moves(), a.moves());
    } else {
        let pts = |g: &Game| {
            g.moves()
                .iter()
                .map(|m| (m.pos, m.color))
                .collect::<Vec<_>>()
        };
        assert_eq!(pts(&b), pts(&a));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn json_keeps_everything(s in spec()) {
        let record = play(&s);
        let back = json::read(&json::write(&record)).unwrap();
        prop_assert_eq!(&back, &record);
        same_game(&record, &back, true);
    }

    #[test]
    fn sgf_keeps_config_moves_times_names_result(s in spec()) {
        let record = play(&s);
        let written = sgf::write(&record).unwrap();
        let back = sgf::read(&written).unwrap();
        prop_assert_eq!(&back.config, &record.config);
        prop_assert_eq!(&back.players, &record.players);
        prop_assert_eq!(&back.dates.started, &record.dates.started);
        prop_assert_eq!(back.opening.as_ref().map(|o| &o.name), record.opening.as_ref().map(|o| &o.name));
        same_game(&record, &back, true);
    }

    #[test]
    fn text_keeps_config_moves_times_names_result(s in spec()) {
        let record = play(&s);
        let written = text::write(&record).unwrap();
        let back = text::read(&written).unwrap();
        prop_assert_eq!(&back.config, &record.config);
        prop_assert_eq!(&back.players, &record.players);
        prop_assert_eq!(&back.dates, &record.dates);
        same_game(&record, &back, true);
    }

    #[test]
    fn psq_keeps_size_moves_and_times_or_refuses(s in spec()) {
        let record = play(&s);
        let fits = record.config.variant == Variant::Wood
            && record.config.k == 5
            && record.config.first == Color::Black;
        match psq::write(&record) {
            Ok(written) => {
                prop_assert!(fits);
                let options = ReadOptions { rule: Some(record.config.rule), ..ReadOptions::default() };
                let mut back = Format::Psq.read(&written, &options).unwrap();
                prop_assert_eq!(back.config.size, record.config.size);
                prop_assert_eq!(&back.players, &record.players);
                // PSQ keeps no result: carry the external one over, as a caller would.
                if back.to_game().map(|g| g.result().is_none()).unwrap_or(false) {
                    back.result = record.result.clone();
                }
                same_game(&record, &back, true);
            }
            Err(e) => {
                prop_assert!(!fits, "PSQ refused a record it can hold: {}", e);
                let unsupported = matches!(e, RecordError::Unsupported { .. });
                prop_assert!(unsupported);
            }
        }
    }

    #[test]
    fn position_strings_keep_the_moves_in_both_row_orders(s in spec(), top_down in any::<bool>()) {
        let record = play(&s);
        let rows = if top_down { RowOrder::TopDown } else { RowOrder::BottomUp };
        match posstr::write(&record, rows) {
            Ok(written) => {
                let back = posstr::read(&written, record.config.size, rows).unwrap();
                prop_assert_eq!(back.points(), record.points());
                prop_assert!(back.alternates());
                let other = if top_down { RowOrder::BottomUp } else { RowOrder::TopDown };
                if let Ok(flipped) = posstr::read(&written, record.config.size, other) {
                    // The other convention mirrors every point top to bottom.
                    let h = record.config.size.height() - 1;
                    let mirrored: Vec<_> = record.points().iter().map(|p| (p.x, h - p.y)).collect();
                    let got: Vec<_> = flipped.points().iter().map(|p| (p.x, p.y)).collect();
                    prop_assert_eq!(got, mirrored);
                }
            }
            Err(e) => {
                prop_assert!(
                    record.config.variant != Variant::Wood || record.config.first == Color::White,
                    "position string refused a plain game: {}", e
                );
            }
        }
    }

    #[test]
    fn readers_never_panic_on_noise(input in ".{0,300}") {
        for f in Format::ALL {
            let _ = f.read(&input, &ReadOptions::default());
        }
    }

    /// Damaged copies of real files: a cut, a deleted span or an inserted character.
    #[test]
    fn readers_never_panic_on_damaged_files(s in spec(), cut in any::<u16>(), len in 0usize..8, c in any::<char>()) {
        let record = play(&s);
        for f in Format::ALL {
            let Ok(written) = f.write(&record, &Default::default()) else { continue };
            let mut chars: Vec<char> = written.chars().collect();
            let at = usize::from(cut) % (chars.len() + 1);
            let end = (at + len).min(chars.len());
            let truncated: String = chars[..at].iter().collect();
            let _ = f.read(&truncated, &ReadOptions::default());
            chars.drain(at..end);
            chars.insert(at.min(chars.len()), c);
            let damaged: String = chars.into_iter().collect();
            if let Ok(r) = f.read(&damaged, &ReadOptions::default()) {
                let _ = r.to_game();
            }
        }
    }
}

#[test]
fn huge_inputs_are_refused_or_read_without_panicking() {
    let big = "8,8,0\n".repeat(3_000_000);
    let too_large = matches!(
        psq::read(&format!("Piskvorky 15x15, 11:11, 0\n{big}")),
        Err(RecordError::TooLarge { .. })
    );
    assert!(too_large, "an 18 MB file is refused up front");
    // 10 MB of moves: read, then refused by the rules at move 2.
    let ten_mb = format!("Piskvorky 15x15, 11:11, 0\n{}", "8,8,0\n".repeat(1_700_000));
    let r = psq::read(&ten_mb).unwrap();
    assert_eq!(r.moves.len(), 1_700_000);
    let e = r.to_game().unwrap_err();
    assert_eq!(e.to_string(), "move 2 (h8): h8 is occupied");
    let e = text::read(&"h8".repeat(5_000_000)).unwrap();
    assert_eq!(e.moves.len(), 5_000_000);
    assert!(sgf::read(&"(;".repeat(5_000_000)).is_err());
    assert!(json::read(&"{\"a\":".repeat(2_000_000)).is_err());
}
