//! One module per subcommand, plus the error type they share.

/// `println!` for command output: a closed pipe (`wuzi match … | head`) ends the
/// process quietly instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cmd::say(format_args!($($arg)*))
    };
}

/// The rule names every `--rule` accepts, for its help: all of [`wuzi_rules::Rule`]'s
/// spellings, so nothing the command takes is undocumented.
macro_rules! rule_names {
    () => {
        "freestyle (also free, gomoku), standard (also exact, exact5), renju or caro; or a \
         Gomocup code 0, 1, 4, 8"
    };
}

pub mod analyze;
pub mod bench;
pub mod convert;
pub mod db;
pub mod forbidden;
pub mod judge;
pub mod match_;
pub mod openings;
pub mod progress;
pub mod puzzles;
pub mod selfplay;
pub mod serve;

use std::fmt;
use std::process::ExitCode;

use wuzi_rules::{Pos, Size, notation};

/// The `--hash` argument: MiB, from 1 to the engine's largest table.
pub fn hash_mb() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..=wuzi_engine::MAX_HASH_MB as u64)
}

/// A count that must be 1 or more (`--threads`, `--multipv`, `--depth` …). As a clap
/// value parser it names only the argument that is wrong.
pub fn positive<T>(s: &str) -> Result<T, String>
where
    T: std::str::FromStr + From<u8> + PartialOrd,
{
    let v: T = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a whole number"))?;
    if v < T::from(1) {
        return Err("must be at least 1".to_string());
    }
    Ok(v)
}

/// Writes one line to stdout. On a closed pipe the reader is gone: exit at once, as a
/// command killed by SIGPIPE would; any other write error exits with status 1.
pub fn say(args: fmt::Arguments<'_>) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let written = out
        .write_fmt(args)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
    match written {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => {
            eprintln!("wuzi: cannot write to stdout: {e}");
            std::process::exit(1);
        }
    }
}

/// A failed command: the message goes to stderr, the code becomes the exit status.
#[derive(Debug)]
pub struct CliError {
    code: u8,
    message: String,
}

impl CliError {
    /// Bad usage or bad input (a move that cannot be read or played, a damaged file):
    /// exit status 2.
    pub fn input(message: impl Into<String>) -> CliError {
        CliError {
            code: 2,
            message: message.into(),
        }
    }

    /// Anything else that went wrong (I/O, the environment): exit status 1.
    pub fn failure(message: impl Into<String>) -> CliError {
        CliError {
            code: 1,
            message: message.into(),
        }
    }

    /// The process exit status for this error.
    pub fn exit_code(&self) -> ExitCode {
        ExitCode::from(self.code)
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Reads moves given as one or more arguments (`h8 i9`, `h8i9j10`, `"1. h8 2. i9"`).
pub fn parse_move_args(args: &[String], size: Size) -> Result<Vec<Pos>, CliError> {
    let mut moves = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        let part = notation::parse_moves(arg, size).map_err(|e| {
            CliError::input(format!(
                "cannot read moves in argument {} {arg:?} at character {}: {}",
                i + 1,
                e.offset + 1,
                e.message
            ))
        })?;
        moves.extend(part);
    }
    Ok(moves)
}
