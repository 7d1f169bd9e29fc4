//! `wuzi convert`: read a game record in one format and write it in another; trees of
//! variations (SGF, RenLib libraries) keep their variations when written as SGF.

use std::fmt;
use std::fs;
use std::io::{self, Read, Write};
use std::str::FromStr;

use wuzi_rules::record::tree::GameTree;
use wuzi_rules::record::{
    Format, MAX_INPUT_BYTES, ParseFormatError, ReadOptions, RecordError, RowOrder, WriteOptions,
    renlib, sgf,
};
use wuzi_rules::{Rule, Size};

use super::CliError;

const EXAMPLES: &str = "\
Examples:
  $ wuzi convert game.psq game.sgf
  $ wuzi convert --rule renju game.psq game.json     (PSQ does not store the rule)
  $ echo h8i9j10 | wuzi convert --from pos --to txt - -
  $ wuzi convert --rows top-down rapfi.pos game.sgf  (row 1 at the top, as Rapfi writes)
  $ wuzi convert openings.lib openings.sgf           (a RenLib library as SGF with variations)

Formats, chosen by the file extension or --from/--to (without either, the input's format
is recognised from its first characters):
  psq   Piskvork/Gomocup: size, moves with times, names (no rule, no variants, k=5)
  sgf   SGF GM[4]: everything but player kinds, clocks and opening data
  txt   renju-notation move list: `Key: value` headers, numbered moves, `# 1250 ms` times
  pos   position string such as h8i9j10 (moves only; see --rows and --size)
  json  wuzi's own record: everything
  lib   RenLib library (input only): a tree of renju variations with comments
SGF and RenLib hold trees of variations. Written as SGF they keep the variations, setup
stones (AB/AW/PL) and comments (every line is replayed); written in another format they
give the main line only (the first variation at every branch), and a note on standard
error says what was left.
The record is replayed under its rules before it is written: a move that cannot be
played is an error naming the move. Writing what a format cannot hold (PSQ of a rock
game, say) is an error, never a wrong file. Bad input exits with status 2.";

/// Convert a game record between PSQ, SGF, text, position string and JSON, or a RenLib
/// library to any of them.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The record to read, or `-` for standard input.
    input: String,
    /// Where to write, or `-` for standard output.
    output: String,
    /// Input format (psq, sgf, txt, pos, json, lib); default: from IN's extension.
    #[arg(long)]
    from: Option<Input>,
    /// Output format (psq, sgf, txt, pos, json); default: from OUT's extension.
    #[arg(long)]
    to: Option<Format>,
    /// Row numbering of position strings, read and written: bottom-up (renju notation,
    /// row 1 at the bottom) or top-down (row 1 at the top).
    #[arg(long, default_value = "bottom-up", value_parser = parse_rows)]
    rows: RowOrder,
    /// Board size of a position string: N or WxH (default 15).
    #[arg(long)]
    size: Option<Size>,
    #[arg(
        long,
        help = concat!("Rule for formats that do not store one (psq, pos), default freestyle: ", rule_names!())
    )]
    rule: Option<Rule>,
}

fn parse_rows(s: &str) -> Result<RowOrder, String> {
    s.parse()
}

/// What `--from` names: a record format, or a RenLib library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Input {
    Record(Format),
    RenLib,
}

impl FromStr for Input {
    type Err = ParseFormatError;
    fn from_str(s: &str) -> Result<Input, ParseFormatError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "lib" | "renlib" => Ok(Input::RenLib),
            _ => s.parse().map(Input::Record),
        }
    }
}

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Input::Record(format) => format.fmt(f),
            Input::RenLib => f.write_str("RenLib"),
        }
    }
}

/// Runs `wuzi convert`.
pub fn run(args: Args) -> Result<(), CliError> {
    let bytes = read_input(&args.input)?;
    let is_lib = match args.from {
        Some(from) => from == Input::RenLib,
        None => {
            has_extension(&args.input, "lib")
                || (Format::from_file_name(&args.input).is_none()
                    && bytes.starts_with(b"\xffRenLib\xff"))
        }
    };
    if is_lib {
        let to = match args.to {
            Some(f) => f,
            None => output_format(&args.output).map_err(CliError::input)?,
        };
        let library =
            renlib::read(&bytes).map_err(|e| CliError::input(format!("{}: {e}", args.input)))?;
        if library.labels > 0 || library.skipped > 0 {
            eprintln!("note: {}: {library}", args.input);
        }
        return write_tree(&args, library.tree, to);
    }
    let text = utf8(&args.input, bytes)?;
    // Each side's format is asked for only when it cannot be told; both at once if neither.
    let from = match args.from {
        Some(Input::Record(f)) => Ok(f),
        Some(Input::RenLib) => unreachable!("handled above"),
        None => input_format(&args.input, &text),
    };
    let to = match args.to {
        Some(f) => Ok(f),
        None => output_format(&args.output),
    };
    let (from, to) = match (from, to) {
        (Ok(from), Ok(to)) => (from, to),
        (Err(e), Ok(_)) | (Ok(_), Err(e)) => return Err(CliError::input(e)),
        (Err(a), Err(b)) => return Err(CliError::input(format!("{a}; {b}"))),
    };
    if from == Format::Sgf {
        let tree =
            sgf::read_tree(&text).map_err(|e| CliError::input(format!("{}: {e}", args.input)))?;
        return write_tree(&args, tree, to);
    }
    let options = ReadOptions {
        size: args.size,
        rule: args.rule,
        rows: args.rows,
    };
    let mut record = from
        .read(&text, &options)
        .map_err(|e| CliError::input(format!("{}: {e}", args.input)))?;
    let game = record
        .to_game()
        .map_err(|e| CliError::input(format!("{}: {e}", args.input)))?;
    // Results the moves decide (five, forbidden move ...) are filled in for the writer.
    record.result = game.result().cloned();
    let out = to
        .write(&record, &WriteOptions { rows: args.rows })
        .map_err(|e: RecordError| CliError::input(format!("{}: {e}", args.output)))?;
    write_output(&args.output, &out)
}

/// Writes a tree read from SGF or RenLib: all of it as SGF, else its main line (saying
/// what was left out when there were variations). What is written is replayed first:
/// every line for SGF, the main line otherwise.
fn write_tree(args: &Args, mut tree: GameTree, to: Format) -> Result<(), CliError> {
    let bad_input = |e: &dyn fmt::Display| CliError::input(format!("{}: {e}", args.input));
    if to == Format::Sgf {
        tree.validate().map_err(|e| bad_input(&e))?;
    }
    let end = tree.main_line_end();
    // The main line's game: it checks a recorded result against the moves and supplies
    // the results the moves decide.
    match tree.to_record(end) {
        Ok(record) => {
            let game = record.to_game().map_err(|e| bad_input(&e))?;
            if game.result().is_some() || tree.result.is_none() {
                tree.result = game.result().cloned();
            }
        }
        // A setup that cannot be replayed as moves: judge the position itself.
        Err(_) if to == Format::Sgf => {
            let game = tree.position(end).map_err(|e| bad_input(&e))?;
            if game.result().is_some() {
                tree.result = game.result().cloned();
            }
        }
        Err(e) => {
            return Err(CliError::input(format!(
                "{}: {to} cannot hold this start position: {e}",
                args.output
            )));
        }
    }
    let out = if to == Format::Sgf {
        sgf::write_tree(&tree)
    } else {
        let record = tree
            .to_record(end)
            .map_err(|e| CliError::input(format!("{}: {e}", args.output)))?;
        let main = tree.main_line().len();
        if tree.len() > main {
            eprintln!(
                "note: {to} holds one line: wrote the main line ({main} moves) and left out {} moves of variations",
                tree.len() - main
            );
        }
        to.write(&record, &WriteOptions { rows: args.rows })
    }
    .map_err(|e: RecordError| CliError::input(format!("{}: {e}", args.output)))?;
    write_output(&args.output, &out)
}

fn has_extension(name: &str, ext: &str) -> bool {
    std::path::Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// The input's format: from its extension, else recognised from its text.
fn input_format(name: &str, text: &str) -> Result<Format, String> {
    if name != "-"
        && let Some(f) = Format::from_file_name(name)
    {
        return Ok(f);
    }
    Format::detect(text).ok_or_else(|| {
        if name == "-" {
            "give --from: the text on standard input is in no format wuzi recognises".to_string()
        } else {
            format!(
                "cannot tell the format of {name:?} from its extension or its text (use psq, sgf, txt, pos or json, or give --from)"
            )
        }
    })
}

/// The output's format, from its extension.
fn output_format(name: &str) -> Result<Format, String> {
    if name == "-" {
        return Err(
            "give --to: standard output has no file extension to tell the format from (psq, sgf, txt, pos or json)"
                .to_string(),
        );
    }
    Format::from_file_name(name).ok_or_else(|| {
        format!(
            "cannot tell the format of {name:?} from its extension (use psq, sgf, txt, pos or json, or give --to)"
        )
    })
}

fn read_input(name: &str) -> Result<Vec<u8>, CliError> {
    let limit = MAX_INPUT_BYTES as u64 + 1;
    let mut bytes = Vec::new();
    let result = if name == "-" {
        io::stdin().take(limit).read_to_end(&mut bytes)
    } else {
        fs::File::open(name).and_then(|f| f.take(limit).read_to_end(&mut bytes))
    };
    result.map_err(|e| CliError::input(format!("cannot read {name}: {e}")))?;
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(CliError::input(format!(
            "{name} is larger than {MAX_INPUT_BYTES} bytes; records are not that big"
        )));
    }
    Ok(bytes)
}

fn utf8(name: &str, bytes: Vec<u8>) -> Result<String, CliError> {
    String::from_utf8(bytes).map_err(|e| {
        CliError::input(format!(
            "{name} is not UTF-8 text (bad byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

fn write_output(name: &str, text: &str) -> Result<(), CliError> {
    if name == "-" {
        let mut out = io::stdout().lock();
        out.write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| CliError::failure(format!("cannot write to standard output: {e}")))
    } else {
        fs::write(name, text).map_err(|e| CliError::failure(format!("cannot write {name}: {e}")))
    }
}
