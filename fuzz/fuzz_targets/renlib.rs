//! The RenLib reader never panics on any bytes, and what it reads survives SGF.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi_rules::record::{renlib, sgf};

fuzz_target!(|data: &[u8]| {
    if let Ok(lib) = renlib::read(data) {
        let _ = lib.tree.validate();
        let written = sgf::write_tree(&lib.tree).expect("a library's points are on the board");
        let again = sgf::read_tree(&written)
            .unwrap_or_else(|e| panic!("SGF did not read a library's tree: {e}\n{written}"));
        assert!(
            again == lib.tree,
            "the library changed through SGF:\n{written}"
        );
    }
});
