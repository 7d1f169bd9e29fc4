//! The longest-line greedy player.

use wuzi_rules::board::DIRECTIONS;
use wuzi_rules::{Board, Color, GameConfig, Pos, Rule};

use super::best_by;

/// How long the longest line through `p` would be with a `color` stone there. A win under
/// the rule counts above everything; an overline that does not win counts as nothing.
fn line_value(config: &GameConfig, board: &Board, p: Pos, color: Color) -> usize {
    if board
        .winning_line(p, color, config.rule, config.k)
        .is_some()
    {
        return usize::MAX;
    }
    let k = usize::from(config.k);
    let exact = match config.rule {
        Rule::Freestyle => false,
        Rule::Renju => color == Color::Black,
        Rule::Standard | Rule::Caro => true,
    };
    DIRECTIONS
        .iter()
        .map(|&d| {
            let (a, b) = board.run_through(p, d, color);
            let len = a + b + 1;
            if exact && len > k { 0 } else { len.min(k) }
        })
        .max()
        .unwrap_or(0)
}

/// Lengthen our longest line, unless the opponent's would become longer there: then cut
/// it. Equal lengths go to our own line; among equal cells prefer the one that also does
/// the other job.
pub(super) fn choose(config: &GameConfig, board: &Board, me: Color, legal: &[Pos]) -> Pos {
    let opp = me.opponent();
    let values: Vec<(Pos, (usize, usize))> = legal
        .iter()
        .map(|&p| {
            let v = (
                line_value(config, board, p, me),
                line_value(config, board, p, opp),
            );
            (p, v)
        })
        .collect();
    let best_mine = values.iter().map(|v| v.1.0).max().unwrap_or(0);
    let best_theirs = values.iter().map(|v| v.1.1).max().unwrap_or(0);
    if best_mine >= best_theirs {
        best_by(board, &values)
    } else {
        let swapped: Vec<_> = values.iter().map(|&(p, (m, t))| (p, (t, m))).collect();
        best_by(board, &swapped)
    }
}
