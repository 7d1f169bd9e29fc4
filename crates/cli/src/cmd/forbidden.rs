//! `wuzi forbidden`: the renju forbidden points for Black in a position.

use std::cmp::Reverse;

use wuzi_rules::{Board, Cell, Color, Size, forbidden_points};

use super::{CliError, parse_move_args};

const EXAMPLES: &str = "\
Examples:
  $ wuzi forbidden g9 a1 h9 c1 i7 e1 i8 g1 b13 j1 c13 l1 d13 n1 f13 o3 g13
  e13:6 i9:33
  $ wuzi forbidden h8 a1 i8 a3 j8 a5 k10 a7 k11 a9 k12
  k8:44
  $ wuzi forbidden h8
  (an empty line: nothing is forbidden)

Output: every point where Black may not play under renju, on one line, as `point:kind`
with kind 33 (double-three), 44 (double-four) or 6 (overline). Points are sorted by column
letter, then by row number counted numerically from the bottom (a2 a10 b1 ...).
Moves alternate Black, White, ... from the first; the position need not be a finished
game (moves after a win are placed too).";

/// Print every point forbidden for Black (renju) in a position.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// Board size: N (square) or WxH, each side 5..=26.
    #[arg(long, short, default_value = "15")]
    size: Size,
    /// Moves in renju notation, Black first: `h8 i9 j10`, `h8i9j10` or `"1. h8 2. i9"`.
    #[arg(required = false)]
    moves: Vec<String>,
}

/// Runs `wuzi forbidden`.
pub fn run(args: Args) -> Result<(), CliError> {
    let size = args.size;
    let moves = parse_move_args(&args.moves, size)?;
    let mut board = Board::new(size);
    for (i, &pos) in moves.iter().enumerate() {
        if !board.is_empty(pos) {
            return Err(CliError::input(format!(
                "move {} ({}) is illegal: {} is occupied",
                i + 1,
                size.notation(pos),
                size.notation(pos)
            )));
        }
        let color = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        board.set(pos, Cell::stone(color));
    }
    let mut points = forbidden_points(&board);
    // Column letter first, then the row number from the bottom (so larger y comes first).
    points.sort_by_key(|&(p, _)| (p.x, Reverse(p.y)));
    let line: Vec<String> = points
        .iter()
        .map(|&(p, kind)| format!("{}:{}", size.notation(p), kind.code()))
        .collect();
    say!("{}", line.join(" "));
    Ok(())
}
