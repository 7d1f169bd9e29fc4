//! `Size` and `Pos` parsing never panic; what parses prints and parses back the same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi_rules::Size;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(size) = text.parse::<Size>() {
        assert_eq!(size.to_string().parse::<Size>(), Ok(size));
    }
    for size in [
        Size::STANDARD,
        Size::new(26, 5).unwrap(),
        Size::new(5, 26).unwrap(),
    ] {
        if let Ok(pos) = size.parse_pos(text) {
            assert!(size.contains(pos));
            assert_eq!(size.parse_pos(&size.notation(pos).to_string()), Ok(pos));
        }
    }
});
