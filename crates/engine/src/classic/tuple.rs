//! The five-cell-window tuple scorer.

use wuzi_rules::board::DIRECTIONS;
use wuzi_rules::{Board, Cell, Color, GameConfig, Pos};

use super::best_by;

/// Value of a window holding no stones.
const EMPTY: u64 = 7;
/// Value of a window holding only our stones, by how many stones short of k it is
/// (index 0: k-1 stones, a four for k = 5).
const OWN: [u64; 4] = [800_000, 15_000, 800, 35];
/// Value of a window holding only the opponent's stones, likewise.
const THEIRS: [u64; 4] = [100_000, 1_800, 400, 15];

/// The value of one window holding `mine` and `theirs` stones (the point itself empty).
fn window_value(mine: usize, theirs: usize, k: usize) -> u64 {
    let by_shortfall = |table: &[u64; 4], n: usize| table[(k - 1 - n).min(3)];
    match (mine, theirs) {
        (0, 0) => EMPTY,
        (m, 0) => by_shortfall(&OWN, m),
        (0, t) => by_shortfall(&THEIRS, t),
        _ => 0,
    }
}

/// The sum over every k-cell window through `p` that lies on the board and holds no wall.
fn score(board: &Board, p: Pos, me: Color, k: usize) -> u64 {
    let own = Cell::stone(me);
    let mut total = 0;
    for (dx, dy) in DIRECTIONS {
        for start in -(k as i32 - 1)..=0 {
            let (mut mine, mut theirs, mut ok) = (0, 0, true);
            for i in start..start + k as i32 {
                match board.get_xy(i32::from(p.x) + dx * i, i32::from(p.y) + dy * i) {
                    Some(Cell::Empty) => {}
                    Some(c) if c == own => mine += 1,
                    Some(Cell::Black | Cell::White) => theirs += 1,
                    _ => ok = false,
                }
            }
            if ok {
                total += window_value(mine, theirs, k);
            }
        }
    }
    total
}

/// Plays the legal point with the greatest window sum.
pub(super) fn choose(config: &GameConfig, board: &Board, me: Color, legal: &[Pos]) -> Pos {
    let k = usize::from(config.k);
    let scored: Vec<(Pos, u64)> = legal.iter().map(|&p| (p, score(board, p, me, k))).collect();
    best_by(board, &scored)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_values_follow_the_design() {
        assert_eq!(window_value(0, 0, 5), 7);
        assert_eq!(
            [1, 2, 3, 4].map(|m| window_value(m, 0, 5)),
            [35, 800, 15_000, 800_000]
        );
        assert_eq!(
            [1, 2, 3, 4].map(|t| window_value(0, t, 5)),
            [15, 400, 1_800, 100_000]
        );
        assert_eq!(window_value(2, 1, 5), 0);
        // k = 6: five own stones are one short of a win, like four for k = 5.
        assert_eq!(window_value(5, 0, 6), 800_000);
    }

    #[test]
    fn corner_point_sums_its_windows() {
        // On an empty 15x15 board the corner has one window per direction except the
        // anti-diagonal that leaves the board: 3 windows of 7.
        let board = Board::new(wuzi_rules::Size::STANDARD);
        assert_eq!(score(&board, Pos::new_unchecked(0, 0), Color::Black, 5), 21);
        // The centre has 5 windows in each of 4 directions.
        assert_eq!(
            score(&board, Pos::new_unchecked(7, 7), Color::Black, 5),
            140
        );
    }
}
