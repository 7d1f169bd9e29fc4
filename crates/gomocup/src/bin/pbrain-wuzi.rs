//! `pbrain-wuzi`: the wuzi engine as a Gomocup brain (stdin/stdout, piskvork protocol).
//!
//! `pbrain-wuzi --player classic-rank` (or classic-tuple, classic-greedy) plays one of the
//! classic one-ply AIs instead of the engine.
#![forbid(unsafe_code)]

use std::io::{self, BufReader};
use std::process::ExitCode;

use wuzi_engine::ClassicAi;
use wuzi_gomocup::classic::ClassicThinker;
use wuzi_gomocup::engine::EngineThinker;
use wuzi_gomocup::{Settings, Thinker};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let thinker: Box<dyn Thinker> = match args.as_slice() {
        [] => default_thinker(),
        [flag, name] if flag == "--player" => match name.parse::<ClassicAi>() {
            Ok(ai) => Box::new(ClassicThinker(ai)),
            Err(e) => {
                eprintln!("pbrain-wuzi: {e}");
                return ExitCode::from(2);
            }
        },
        [flag] if flag == "--help" || flag == "-h" => {
            println!(
                "pbrain-wuzi: the wuzi Gomoku/Renju engine as a Gomocup (piskvork) brain.\n\
                 Speaks the protocol on stdin/stdout.\n\n\
                 Usage: pbrain-wuzi [--player classic-rank|classic-tuple|classic-greedy]"
            );
            return ExitCode::SUCCESS;
        }
        _ => {
            eprintln!("pbrain-wuzi: unexpected arguments {args:?} (see --help)");
            return ExitCode::from(2);
        }
    };
    let stdin = BufReader::new(io::stdin());
    match wuzi_gomocup::run(thinker, stdin, io::stdout()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pbrain-wuzi: {e}");
            ExitCode::FAILURE
        }
    }
}

fn default_thinker() -> Box<dyn Thinker> {
    // Built with the default settings; START/INFO reconfigure it on the search thread.
    Box::new(EngineThinker::new(Settings::default().engine()))
}
