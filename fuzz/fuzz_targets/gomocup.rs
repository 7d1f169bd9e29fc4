//! The Gomocup brain's parser and session never panic, whatever the manager sends; every
//! move the session prints is on its board.
#![no_main]

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use libfuzzer_sys::fuzz_target;
use wuzi_engine::ClassicAi;
use wuzi_gomocup::classic::ClassicThinker;
use wuzi_gomocup::{Reply, Session, Thinker, parse};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut session = Session::new();
    let mut thinker = ClassicThinker(ClassicAi::Greedy);
    for line in text.split(['\n', '\r']).take(200) {
        let _ = parse(line);
        let mut pending = session.handle_line(line, Instant::now());
        while !pending.is_empty() {
            let mut next = Vec::new();
            for reply in pending {
                match reply {
                    Reply::Think(request) => {
                        let thought = thinker.think(&request, &AtomicBool::new(false), &mut |_| {});
                        next.extend(session.finish(&thought));
                    }
                    Reply::Line(l) => {
                        if let (Some((x, y)), Some(size)) = (l.split_once(','), session.size())
                            && let (Ok(x), Ok(y)) = (x.parse::<i32>(), y.parse::<i32>())
                        {
                            assert!(size.contains_xy(x, y), "{l} is off the {size} board");
                        }
                    }
                    _ => {}
                }
            }
            pending = next;
        }
    }
});
