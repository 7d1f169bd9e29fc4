//! `notation::parse_moves` never panics, and formatting what it read reads back the same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi_rules::{Size, notation};

fuzz_target!(|data: &[u8]| {
    let [w, h, rest @ ..] = data else {
        return;
    };
    let Ok(size) = Size::new(5 + w % 22, 5 + h % 22) else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    if let Ok(moves) = notation::parse_moves(text, size) {
        assert!(moves.iter().all(|&p| size.contains(p)));
        for sep in [" ", "", ","] {
            let written = notation::format_moves(&moves, size, sep);
            assert_eq!(
                notation::parse_moves(&written, size).as_ref(),
                Ok(&moves),
                "{written}"
            );
        }
    }
});
