//! `wuzi convert`: read a game record in one format and write it in another.

use std::fs;
use std::io::{self, Read, Write};

use wuzi_rules::record::{
    Format, MAX_INPUT_BYTES, ReadOptions, RecordError, RowOrder, WriteOptions,
};
use wuzi_rules::{Rule, Size};

use super::CliError;

const EXAMPLES: &str = "\
Examples:
  $ wuzi convert game.psq game.sgf
  $ wuzi convert --rule renju game.psq game.json     (PSQ does not store the rule)
  $ echo h8i9j10 | wuzi convert --from pos --to txt - -
  $ wuzi convert --rows top-down rapfi.pos game.sgf  (row 1 at the top, as Rapfi writes)

Formats, chosen by the file extension or --from/--to (without either, the input's format
is recognised from its first characters):
  psq   Piskvork/Gomocup: size, moves with times, names (no rule, no variants, k=5)
  sgf   SGF GM[4]: everything but player kinds, clocks and opening data
  txt   renju-notation move list: `Key: value` headers, numbered moves, `# 1250 ms` times
  pos   position string such as h8i9j10 (moves only; see --rows and --size)
  json  wuzi's own record: everything
The record is replayed under its rules before it is written: a move that cannot be
played is an error naming the move. Writing what a format cannot hold (PSQ of a rock
game, say) is an error, never a wrong file. Bad input exits with status 2.";

/// Convert a game record between PSQ, SGF, text, position string and JSON.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The record to read, or `-` for standard input.
    input: String,
    /// Where to write, or `-` for standard output.
    output: String,
    /// Input format (psq, sgf, txt, pos, json); default: from IN's extension.
    #[arg(long)]
    from: Option<Format>,
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
    /// Rule for formats that do not store one (psq, pos); default freestyle.
    #[arg(long)]
    rule: Option<Rule>,
}

fn parse_rows(s: &str) -> Result<RowOrder, String> {
    s.parse()
}

/// Runs `wuzi convert`.
pub fn run(args: Args) -> Result<(), CliError> {
    let text = read_input(&args.input)?;
    let from = match args.from {
        Some(f) => f,
        None => format_of(&args.input, "--from").or_else(|e| Format::detect(&text).ok_or(e))?,
    };
    let to = match args.to {
        Some(f) => f,
        None => format_of(&args.output, "--to")?,
    };
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

fn format_of(name: &str, flag: &str) -> Result<Format, CliError> {
    if name == "-" {
        return Err(CliError::input(format!(
            "give {flag} when reading or writing standard input/output"
        )));
    }
    Format::from_file_name(name).ok_or_else(|| {
        CliError::input(format!(
            "cannot tell the format of {name:?} from its extension (use psq, sgf, txt, pos or json, or give {flag})"
        ))
    })
}

fn read_input(name: &str) -> Result<String, CliError> {
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
