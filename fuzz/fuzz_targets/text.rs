//! The text reader never panics, and what it reads and replays roundtrips.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi_rules::record::{Format, ReadOptions};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        common::check_roundtrip(Format::Text, text, &ReadOptions::default());
    }
});
