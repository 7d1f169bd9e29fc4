//! The pattern-rank scorer.

use wuzi_rules::{Board, Color, GameConfig, Pos};

use super::line::{LineShape, ShapeCache};
use super::{best_by, forbidden_for};

/// The rank of what one stone makes on a point, over all four lines.
///
/// The ladder of the original design, with the steps between its named rungs filled in:
///
/// | rank | shape |
/// |---|---|
/// | 100 | five |
/// | 13 | open four, double four, or four + open three |
/// | 12 | double open three |
/// | 11 | open three + closed three |
/// | 10 | closed four |
/// | 9 | open three |
/// | 8 | double open two |
/// | 7 | closed three + open two |
/// | 6 | closed three |
/// | 5 | open two + closed two |
/// | 4 | open two |
/// | 3 | double closed two |
/// | 2 | closed two |
/// | 1 | nothing |
pub type Rank = u32;

/// Ranks the four line shapes of one stone.
#[must_use]
pub fn rank_of(shapes: &[LineShape; 4]) -> Rank {
    let count = |s: LineShape| shapes.iter().filter(|&&x| x == s).count();
    let fives = count(LineShape::Five);
    let open_fours = count(LineShape::LiveFour);
    let fours = count(LineShape::DeadFour);
    let threes = count(LineShape::LiveThree);
    let dead_threes = count(LineShape::DeadThree);
    let twos = count(LineShape::LiveTwo);
    let dead_twos = count(LineShape::DeadTwo);
    if fives > 0 {
        100
    } else if open_fours > 0 || fours >= 2 || (fours == 1 && threes > 0) {
        13
    } else if threes >= 2 {
        12
    } else if threes == 1 && dead_threes > 0 {
        11
    } else if fours == 1 {
        10
    } else if threes == 1 {
        9
    } else if twos >= 2 {
        8
    } else if dead_threes > 0 && twos > 0 {
        7
    } else if dead_threes > 0 {
        6
    } else if twos > 0 && dead_twos > 0 {
        5
    } else if twos > 0 {
        4
    } else if dead_twos >= 2 {
        3
    } else if dead_twos == 1 {
        2
    } else {
        1
    }
}

/// Attack is what our stone makes on a point, defence what the opponent's stone would
/// make there (nothing if the opponent may not play it). Play the best attack unless the
/// best defence ranks higher; among equal ranks prefer the point that is also better for
/// the other purpose.
pub(super) fn choose(config: &GameConfig, board: &Board, me: Color, legal: &[Pos]) -> Pos {
    let opp = me.opponent();
    let mut mine = ShapeCache::new(config, me);
    let mut theirs = ShapeCache::new(config, opp);
    let scored: Vec<(Pos, Rank, Rank)> = legal
        .iter()
        .map(|&p| {
            let attack = rank_of(&mine.shapes(board, p));
            let defence = if forbidden_for(config, board, opp, p) {
                1
            } else {
                rank_of(&theirs.shapes(board, p))
            };
            (p, attack, defence)
        })
        .collect();
    let best_attack = scored.iter().map(|s| s.1).max().unwrap_or(1);
    let best_defence = scored.iter().map(|s| s.2).max().unwrap_or(1);
    let keyed: Vec<(Pos, (Rank, Rank))> = if best_attack >= best_defence {
        scored.iter().map(|&(p, a, d)| (p, (a, d))).collect()
    } else {
        scored.iter().map(|&(p, a, d)| (p, (d, a))).collect()
    };
    best_by(board, &keyed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use LineShape::*;

    #[test]
    fn the_ladder_is_ordered() {
        let n = Nothing;
        let cases: [([LineShape; 4], Rank); 14] = [
            ([Five, DeadFour, n, n], 100),
            ([LiveFour, n, n, n], 13),
            ([DeadFour, DeadFour, n, n], 13),
            ([DeadFour, LiveThree, n, n], 13),
            ([LiveThree, LiveThree, n, n], 12),
            ([LiveThree, DeadThree, n, n], 11),
            ([DeadFour, DeadTwo, n, n], 10),
            ([LiveThree, LiveTwo, n, n], 9),
            ([LiveTwo, LiveTwo, n, n], 8),
            ([DeadThree, LiveTwo, n, n], 7),
            ([DeadThree, DeadThree, n, n], 6),
            ([LiveTwo, DeadTwo, n, n], 5),
            ([DeadTwo, DeadTwo, n, n], 3),
            ([n, n, n, n], 1),
        ];
        for (shapes, want) in cases {
            assert_eq!(rank_of(&shapes), want, "{shapes:?}");
        }
        assert_eq!(rank_of(&[LiveTwo, n, n, n]), 4);
        assert_eq!(rank_of(&[DeadTwo, n, n, n]), 2);
    }
}
