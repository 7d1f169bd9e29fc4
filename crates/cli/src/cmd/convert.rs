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
    #[arg(
        long,
        help = concat!("Rule for formats that do not store one (psq, pos), default freestyle: ", rule_names!())
    )]
    rule: Option<Rule>,
}

fn parse_rows(s: &str) -> Result<RowOrder, String> {
    s.parse()
}

/// Runs `wuzi convert`.
pub fn run(args: Args) -> Result<(), CliError> {
    let text = read_input(&args.input)?;
    // Each side's format is asked for only when it cannot be told; both at once if neither.
    let from = match args.from {
        Some(f) => Ok(f),
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
