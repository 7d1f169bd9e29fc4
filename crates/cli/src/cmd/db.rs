//! `wuzi db`: the server's database. `wuzi db copy FROM TO` moves an installation from
//! one database to another (SQLite to PostgreSQL, or back), everything included, checked
//! by counting every table.

use clap::Subcommand;
use wuzi_server::{DbLocation, Store};

use super::CliError;

/// The server's database.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Example:
  wuzi db copy sqlite://wuzi.sqlite3 postgres://wuzi:secret@127.0.0.1:5432/wuzi

Stop the server first: the source must not change while it is copied.")]
pub struct Args {
    #[command(subcommand)]
    command: DbCommand,
}

#[derive(Debug, Subcommand)]
enum DbCommand {
    /// Copies everything (games, accounts, sessions, API tokens, ratings, chat) from one
    /// database into another that is new or empty, in one transaction, and checks that
    /// every table holds as many rows as the source's. Each database is a SQLite file
    /// (`sqlite://PATH` or a path) or a PostgreSQL URL; both are migrated first.
    Copy {
        /// Where the installation is now.
        from: DbLocation,
        /// Where it goes (created and migrated if need be; must hold no data).
        to: DbLocation,
    },
}

pub fn run(args: Args) -> Result<(), CliError> {
    match args.command {
        DbCommand::Copy { from, to } => copy(&from, &to),
    }
}

fn copy(from: &DbLocation, to: &DbLocation) -> Result<(), CliError> {
    if from == to {
        return Err(CliError::input(
            "the source and the destination are the same database",
        ));
    }
    if let DbLocation::Sqlite(path) = from
        && !path.exists()
    {
        return Err(CliError::input(format!(
            "no database file {}",
            path.display()
        )));
    }
    let open = |at: &DbLocation| {
        Store::connect(at).map_err(|e| CliError::failure(format!("cannot open {at}: {e}")))
    };
    let (source, destination) = (open(from)?, open(to)?);
    let report = source
        .copy_into(&destination)
        .map_err(|e| CliError::failure(format!("nothing was copied: {e}")))?;
    say!("copied {from} to {to}:");
    for (table, rows, copied) in &report {
        say!("  {table:<15} {rows:>8} rows, {copied:>8} in the destination");
    }
    let total: i64 = report.iter().map(|r| r.1).sum();
    say!("{total} rows in all; every table's count matches");
    Ok(())
}
