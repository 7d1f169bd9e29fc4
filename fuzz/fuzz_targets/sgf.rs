//! The sgf readers never panic, what the main-line reader reads and replays roundtrips, and
//! a tree of variations survives its own writer.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi_rules::record::{Format, ReadOptions, sgf};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        common::check_roundtrip(Format::Sgf, text, &ReadOptions::default());
        if let Ok(tree) = sgf::read_tree(text) {
            let _ = tree.validate();
            if let Ok(written) = sgf::write_tree(&tree) {
                let again = sgf::read_tree(&written)
                    .unwrap_or_else(|e| panic!("SGF did not read its own tree: {e}\n{written}"));
                assert!(again == tree, "the tree changed through SGF:\n{written}");
            }
        }
    }
});
