//! Threat-space search: VCF (victory by continuous fours) and VCT (victory by
//! continuous threats: fours and threes).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use wuzi_rules::{Color, Pos};

use crate::{Position, SearchLimits};

/// A winning line of continuous fours for the side to move: attacker and defender
/// moves alternate, the last move makes five. `None` when none was found within the
/// limits (depth counts attacker moves; default 40).
#[must_use]
pub fn vcf(pos: &Position, limits: &SearchLimits) -> Option<Vec<Pos>> {
    let stop = AtomicBool::new(false);
    let mut s = Solver::new(limits, &stop);
    let mut line = Vec::new();
    let max = limits.depth.unwrap_or(40);
    s.vcf(&mut pos.clone(), max, &mut line).then_some(line)
}

/// A winning line of continuous threats (fours and open threes) for the side to move.
/// `None` when none was found within the limits.
#[must_use]
pub fn vct(pos: &Position, limits: &SearchLimits) -> Option<Vec<Pos>> {
    // Until the pattern-based VCT lands this proves VCF wins only.
    vcf(pos, limits)
}

struct Solver<'a> {
    deadline: Option<Instant>,
    max_nodes: u64,
    nodes: u64,
    _stop: &'a AtomicBool,
}

impl<'a> Solver<'a> {
    fn new(limits: &SearchLimits, stop: &'a AtomicBool) -> Self {
        Solver {
            deadline: limits.time.map(|t| Instant::now() + t),
            max_nodes: limits.nodes.unwrap_or(u64::MAX),
            nodes: 0,
            _stop: stop,
        }
    }

    fn exhausted(&self) -> bool {
        self.nodes >= self.max_nodes || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The points where `color` would win with one stone.
    fn wins(pos: &Position, color: Color) -> Vec<Pos> {
        pos.size()
            .points()
            .filter(|&p| {
                pos.board().is_empty(p)
                    && pos
                        .board()
                        .winning_line(p, color, pos.rule(), pos.k())
                        .is_some()
            })
            .collect()
    }

    fn vcf(&mut self, pos: &mut Position, depth: u32, line: &mut Vec<Pos>) -> bool {
        self.nodes += 1;
        if self.exhausted() {
            return false;
        }
        let me = pos.to_move();
        if let Some(w) = pos.legal_moves().into_iter().find(|&p| pos.is_win(p)) {
            line.push(w);
            return true;
        }
        if depth == 0 || !Self::wins(pos, me.opponent()).is_empty() {
            return false;
        }
        for m in pos.legal_moves() {
            let mut next = pos.clone();
            let _ = next.play(m);
            let threats = Self::wins(&next, me);
            if threats.is_empty() {
                continue;
            }
            line.push(m);
            if threats.len() >= 2 {
                // Two fives at once: whatever the defender blocks, the other one wins.
                line.extend_from_slice(&[threats[0], threats[1]]);
                return true;
            }
            if !next.is_legal(threats[0]) {
                // The only block is forbidden for the defender (Black under renju).
                return true;
            } else {
                let block = threats[0];
                let mut after = next;
                let _ = after.play(block);
                line.push(block);
                if self.vcf(&mut after, depth - 1, line) {
                    return true;
                }
                line.pop();
            }
            line.pop();
        }
        false
    }
}
