//! `wuzi judge`: play a move list under a rule and say how the game stands.

use wuzi_rules::{Game, GameConfig, Rule, Size};

use super::{CliError, parse_move_args};

const EXAMPLES: &str = "\
Examples:
  $ wuzi judge --rule renju h8 h9 i8 i9 j8 j9 k8 k9 l8
  black wins: 5 in a row h8-l8
  $ wuzi judge --rule renju h8i9j10
  ongoing
  $ wuzi judge --rule standard --size 20 j10 j11 k10
  ongoing

Prints `ongoing`, or the winner and the reason (five, black's forbidden move under renju,
full board). A move that cannot be played (occupied, off the board, after the end) is an
error naming the move; exit status 2.";

/// Play moves and print the result so far.
#[derive(Debug, clap::Args)]
// The usage is spelled out: in an error, clap writes the arguments given as required ones
// (`<MOVES>...` after `wuzi judge h8`), unlike the help's `[MOVES]...`.
#[command(after_help = EXAMPLES, override_usage = "wuzi judge [OPTIONS] --rule <RULE> [MOVES]...")]
pub struct Args {
    #[arg(long, short, help = concat!("Rule: ", rule_names!()))]
    rule: Rule,
    /// Board size: N (square) or WxH, each side 5..=26.
    #[arg(long, short, default_value = "15")]
    size: Size,
    /// Stones in a row that win (renju: 5 only; other rules 4..=7).
    #[arg(long, short, default_value_t = 5)]
    k: u8,
    /// Moves in renju notation, Black first: `h8 i9 j10`, `h8i9j10` or `"1. h8 2. i9"`.
    #[arg(required = false)]
    moves: Vec<String>,
}

/// Runs `wuzi judge`.
pub fn run(args: Args) -> Result<(), CliError> {
    let mut config = GameConfig::new(args.rule, args.size);
    config.k = args.k;
    let mut game = Game::new(config).map_err(|e| CliError::input(e.to_string()))?;
    let moves = parse_move_args(&args.moves, args.size)?;
    for (i, &pos) in moves.iter().enumerate() {
        game.try_play(pos).map_err(|e| {
            CliError::input(format!(
                "move {} ({}) is illegal: {e}",
                i + 1,
                args.size.notation(pos)
            ))
        })?;
    }
    match game.result() {
        Some(result) => say!("{}", result.describe(args.size)),
        None => say!("ongoing"),
    }
    Ok(())
}
