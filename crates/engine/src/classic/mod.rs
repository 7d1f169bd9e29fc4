//! The original designs' computer opponents, kept as fixed-strength sparring partners.
//!
//! Each is a one-ply scorer: it rates every legal point and plays the best, breaking ties
//! by distance to the centre and then by board order, so the same position always gets
//! the same answer. Under renju Black never plays a forbidden point.
//!
//! - [`ClassicAi::Rank`]: rates the pattern each side's stone would make on a point
//!   (five 100, open four / double four / four-three 13, double three 12, … dead two 2,
//!   nothing 1) and plays the best attack unless the best defence outranks it.
//! - [`ClassicAi::Tuple`]: sums the values of every five-cell window through a point.
//! - [`ClassicAi::Greedy`]: lengthens its own longest line, or cuts the opponent's when
//!   that one is longer.

mod greedy;
pub mod line;
mod rank;
mod tuple;

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use wuzi_rules::{Board, Color, GameConfig, Pos, Rule, forbidden};

pub use rank::{Rank, rank_of};

/// One of the classic one-ply opponents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClassicAi {
    /// The pattern-rank scorer: best attack against best defence, ties to attack.
    Rank,
    /// The five-cell-window tuple scorer.
    Tuple,
    /// The longest-line greedy player.
    Greedy,
}

impl ClassicAi {
    /// All classic AIs.
    pub const ALL: [ClassicAi; 3] = [ClassicAi::Rank, ClassicAi::Tuple, ClassicAi::Greedy];

    /// The player name: `classic-rank`, `classic-tuple`, `classic-greedy`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ClassicAi::Rank => "classic-rank",
            ClassicAi::Tuple => "classic-tuple",
            ClassicAi::Greedy => "classic-greedy",
        }
    }

    /// The move this AI plays for `to_move` on `board`, or `None` when no legal point is
    /// left. Deterministic; never a forbidden point for Black under renju.
    #[must_use]
    pub fn choose_move(self, config: &GameConfig, board: &Board, to_move: Color) -> Option<Pos> {
        let legal = legal_points(config, board, to_move);
        if legal.is_empty() {
            return None;
        }
        let best = match self {
            ClassicAi::Rank => rank::choose(config, board, to_move, &legal),
            ClassicAi::Tuple => tuple::choose(config, board, to_move, &legal),
            ClassicAi::Greedy => greedy::choose(config, board, to_move, &legal),
        };
        Some(best)
    }
}

impl fmt::Display for ClassicAi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A string that names no classic AI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseClassicAiError(pub String);

impl fmt::Display for ParseClassicAiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown classic AI {:?} (expected classic-rank, classic-tuple or classic-greedy)",
            self.0
        )
    }
}

impl std::error::Error for ParseClassicAiError {}

impl FromStr for ClassicAi {
    type Err = ParseClassicAiError;
    /// `classic-rank` or just `rank` (likewise tuple, greedy), any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        let t = t.strip_prefix("classic-").unwrap_or(&t);
        match t {
            "rank" => Ok(ClassicAi::Rank),
            "tuple" => Ok(ClassicAi::Tuple),
            "greedy" => Ok(ClassicAi::Greedy),
            _ => Err(ParseClassicAiError(s.to_string())),
        }
    }
}

/// The empty points `color` may play (for Black under renju, not the forbidden ones).
fn legal_points(config: &GameConfig, board: &Board, color: Color) -> Vec<Pos> {
    let check_forbidden = config.rule == Rule::Renju && color == Color::Black;
    board
        .empty_points()
        .filter(|&p| !check_forbidden || forbidden::forbidden_kind(board, p).is_none())
        .collect()
}

/// Whether `color` would be forbidden to play the empty point `p`.
fn forbidden_for(config: &GameConfig, board: &Board, color: Color, p: Pos) -> bool {
    config.rule == Rule::Renju
        && color == Color::Black
        && forbidden::forbidden_kind(board, p).is_some()
}

/// The reproducible tie-break: nearer the centre first, then top to bottom, left to right.
/// Returns `Greater` when `a` should be preferred.
fn prefer(board: &Board, a: Pos, b: Pos) -> Ordering {
    let size = board.size();
    let dist = |p: Pos| {
        let dx = 2 * i32::from(p.x) - (i32::from(size.width()) - 1);
        let dy = 2 * i32::from(p.y) - (i32::from(size.height()) - 1);
        dx * dx + dy * dy
    };
    dist(b)
        .cmp(&dist(a))
        .then_with(|| (b.y, b.x).cmp(&(a.y, a.x)))
}

/// The point with the greatest key, ties broken by [`prefer`]. `items` must not be empty.
fn best_by<K: Ord + Copy>(board: &Board, items: &[(Pos, K)]) -> Pos {
    let mut best = items[0];
    for &item in &items[1..] {
        if item
            .1
            .cmp(&best.1)
            .then_with(|| prefer(board, item.0, best.0))
            == Ordering::Greater
        {
            best = item;
        }
    }
    best.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_rules::{Game, Size};

    fn setup(rule: Rule, rows: &[&str]) -> (GameConfig, Board) {
        let board = Board::from_rows(rows).unwrap();
        (GameConfig::new(rule, board.size()), board)
    }

    fn check(ai: ClassicAi, rule: Rule, rows: &[&str], to_move: Color, want: &[Pos]) {
        let (config, board) = setup(rule, rows);
        let got = ai.choose_move(&config, &board, to_move).unwrap();
        assert!(
            want.contains(&got),
            "{ai} ({rule}, {to_move} to move) played {} instead of one of {:?}\n{}",
            board.size().notation(got),
            want.iter()
                .map(|&p| board.size().notation(p).to_string())
                .collect::<Vec<_>>(),
            board.diagram_with(|p| (p == got).then_some('*')),
        );
        assert_eq!(
            ai.choose_move(&config, &board, to_move),
            Some(got),
            "{ai} is not deterministic"
        );
    }

    const P: fn(u8, u8) -> Pos = Pos::new_unchecked;

    #[test]
    fn names_roundtrip() {
        for ai in ClassicAi::ALL {
            assert_eq!(ai.name().parse::<ClassicAi>(), Ok(ai));
        }
        assert_eq!("Greedy".parse::<ClassicAi>(), Ok(ClassicAi::Greedy));
        assert!("classic-minimax".parse::<ClassicAi>().is_err());
    }

    #[test]
    fn empty_board_opens_in_the_centre() {
        for ai in ClassicAi::ALL {
            let config = GameConfig::new(Rule::Freestyle, Size::STANDARD);
            let board = Board::new(Size::STANDARD);
            assert_eq!(
                ai.choose_move(&config, &board, Color::Black),
                Some(P(7, 7)),
                "{ai}"
            );
        }
    }

    #[test]
    fn takes_a_win_in_one_over_blocking() {
        // Both sides have four; the side to move (White) must complete its own.
        let rows = [
            ".........",
            ".........",
            ".XXXX....",
            ".........",
            "....OOOO.",
            ".........",
            ".........",
            "X........",
            ".........",
        ];
        for ai in ClassicAi::ALL {
            check(
                ai,
                Rule::Freestyle,
                &rows,
                Color::White,
                &[P(3, 4), P(8, 4)],
            );
        }
    }

    #[test]
    fn blocks_a_four() {
        let rows = [
            ".........",
            ".........",
            "..OXXXX..",
            ".........",
            "....O....",
            ".........",
            ".........",
            ".........",
            ".........",
        ];
        for ai in ClassicAi::ALL {
            check(ai, Rule::Freestyle, &rows, Color::White, &[P(7, 2)]);
        }
    }

    #[test]
    fn blocks_an_open_three_when_it_has_nothing_better() {
        let rows = [
            "...........",
            "...........",
            "...........",
            "...........",
            "....XXX....",
            "...........",
            ".......O...",
            "...........",
            "...........",
            "...........",
            "...........",
        ];
        for ai in [ClassicAi::Rank, ClassicAi::Tuple] {
            check(
                ai,
                Rule::Freestyle,
                &rows,
                Color::White,
                &[P(3, 4), P(7, 4), P(2, 4), P(8, 4)],
            );
        }
    }

    #[test]
    fn black_never_plays_forbidden_under_renju() {
        // e5 (4,6) joins two split threes: the natural attacking point, and forbidden.
        let rows = [
            "...........",
            "...........",
            "...........",
            "....X......",
            "....X......",
            "...........",
            "......XX...",
            "...........",
            "..O........",
            "..O........",
            "...........",
        ];
        let (config, board) = setup(Rule::Renju, &rows);
        let three_three = P(4, 6);
        assert!(forbidden::forbidden_kind(&board, three_three).is_some());
        for ai in ClassicAi::ALL {
            let got = ai.choose_move(&config, &board, Color::Black).unwrap();
            assert_ne!(
                got, three_three,
                "{ai} played Black's forbidden double three"
            );
        }
        let (free, _) = setup(Rule::Freestyle, &rows);
        assert_eq!(
            ClassicAi::Rank.choose_move(&free, &board, Color::Black),
            Some(three_three)
        );
    }

    #[test]
    fn renju_overline_is_no_win_for_black() {
        // XXX.XX: the gap makes six for Black (forbidden); White's block elsewhere matters.
        let rows = [
            "...........",
            "...........",
            ".XXX.XX....",
            "...........",
            "...........",
            "...........",
            "...........",
            "...........",
            "........O..",
            "........O..",
            "...........",
        ];
        let (config, board) = setup(Rule::Renju, &rows);
        for ai in ClassicAi::ALL {
            let got = ai.choose_move(&config, &board, Color::Black).unwrap();
            assert_ne!(got, P(4, 2), "{ai} played the overline");
        }
    }

    #[test]
    fn plays_legal_moves_to_the_end_of_a_game() {
        // Each AI against each other, renju and freestyle: every move legal, never forbidden.
        for rule in [Rule::Renju, Rule::Freestyle] {
            for a in ClassicAi::ALL {
                for b in ClassicAi::ALL {
                    let config = GameConfig::new(rule, Size::square(11).unwrap());
                    let mut game = Game::new(config.clone()).unwrap();
                    while !game.is_over() {
                        let ai = if game.side_to_move() == Color::Black {
                            a
                        } else {
                            b
                        };
                        let mv = ai
                            .choose_move(&config, game.board(), game.side_to_move())
                            .expect("a legal move exists until the board is full");
                        if game.side_to_move() == Color::Black {
                            assert_eq!(game.forbidden_kind(mv), None, "{a} vs {b}: forbidden");
                        }
                        game.try_play(mv).unwrap();
                    }
                }
            }
        }
    }
}
