//! Position strings: never a panic, and a roundtrip in both row orders and on any size.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi_rules::Size;
use wuzi_rules::record::{Format, ReadOptions, RowOrder};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let [w, h, order, rest @ ..] = data else {
        return;
    };
    let Ok(size) = Size::new(5 + w % 22, 5 + h % 22) else {
        return;
    };
    let rows = if order & 1 == 0 {
        RowOrder::BottomUp
    } else {
        RowOrder::TopDown
    };
    if let Ok(text) = std::str::from_utf8(rest) {
        let options = ReadOptions {
            size: Some(size),
            rule: None,
            rows,
        };
        common::check_roundtrip(Format::PosStr, text, &options);
    }
});
