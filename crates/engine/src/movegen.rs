//! Move generation: candidate points, restricted by threats, and their ordering.
//!
//! - The opponent's five threat must be answered on its point (the search handles it).
//! - Against a sure threat of the opponent (a point giving it an open four or a
//!   four-three) only defences are searched: the threat points, the points on the
//!   lines that make them, our own fours (counter-attacks), and against a four-three
//!   the points that make its block a four of ours ([`counter_block_points`]).
//! - A four-three whose four must be blocked on a point that makes a four of ours is
//!   answered already (we block with a four and keep the move against the three): with
//!   the board's switch on ([`Board::set_defuse`]; off by default, it showed no gain),
//!   when every sure threat is such a one ([`four_three_defused`]) the moves are not
//!   restricted; the defences stay among them.
//! - Otherwise every empty point near a stone. The opponent's double-three points do
//!   not restrict the moves: a three of our own that comes first answers them too
//!   (restricting them as well lost 59 Elo in freestyle, −59 (−92..−26) over 400 games
//!   at 100 ms a move; renju +2 (−31..+34)).

use wuzi_rules::Color;

use crate::board::{Board, DIR, Idx, ThreatScan};
use crate::eval::Threat;
use crate::eval::pattern::Pattern;
use crate::params;

/// The points where `attacker` has a winning threat (legal for it).
pub fn threat_points(board: &mut Board, attacker: Color, out: &mut Vec<Idx>) {
    let kinds = [Threat::Flex4, Threat::Block4Flex3, Threat::Flex3x2];
    let mut scan = ThreatScan::new(board, attacker, &kinds);
    while let Some(i) = scan.next(board) {
        if board.is_legal_for(i, attacker) {
            out.push(i);
        }
    }
}

/// Points that may stop `attacker`'s winning threats at `threats`: the threat points
/// and the empty points on their threatening lines (within four cells).
pub fn defence_points(board: &Board, attacker: Color, threats: &[Idx], out: &mut Vec<Idx>) {
    for &t in threats {
        push_unique(out, t);
        for (d, &off) in DIR.iter().enumerate() {
            if board.pattern(t, attacker, d) < Pattern::Flex3 {
                continue;
            }
            for o in -4..=4isize {
                let j = (t as isize + off * o) as usize;
                if o != 0 && board.is_empty(j) {
                    push_unique(out, j);
                }
            }
        }
    }
}

/// Points where the defender (the side to move) turns the block of one of
/// `attacker`'s four-threes into a four of its own: that block would then threaten
/// five, and the attacker loses the tempo its three needs. Against a four-three these
/// defend from afar, off the threatening lines (h8 h9 h6 g7 i7 j6 j8 g5 i8 k8 i6 i5
/// l10 k9 k10: Black's i10 makes a four and a three; White's g9, j9 or l9 makes i9,
/// where the four must be blocked, a four for White).
pub fn counter_block_points(
    board: &mut Board,
    attacker: Color,
    threats: &[Idx],
    out: &mut Vec<Idx>,
) {
    let me = attacker.opponent();
    let mut blocks = Vec::new();
    for &t in threats {
        if board.threat(t, attacker) != Threat::Block4Flex3 {
            continue;
        }
        board.pass();
        board.play(t);
        board.win_points(attacker, &mut blocks);
        board.undo();
        board.pass();
    }
    for &b in &blocks {
        for (d, &off) in DIR.iter().enumerate() {
            // One more stone of ours can make a four through b only where b now makes
            // a three.
            let p = board.pattern(b, me, d);
            if p < Pattern::Block3 || p.is_four_or_better() {
                continue;
            }
            for o in -4..=4isize {
                let j = (b as isize + off * o) as usize;
                if o == 0 || !board.is_empty(j) || out.contains(&j) {
                    continue;
                }
                board.play(j);
                let four = board.pattern(b, me, d).is_four_or_better();
                board.undo();
                if four {
                    out.push(j);
                }
            }
        }
    }
}

/// Whether `attacker`'s four-three at `t` is answered in advance: the point where its
/// four must be blocked is a legal point of a four (or five) for the defender, who
/// blocks with a four of its own and so keeps the move against the three (h8 h9 f10 g9
/// i9 g7 e9 g8 g10 e10 f7 d8 f9 f11 h11 e8 i12 j13: White's c8 makes a four and a
/// three, and Black's block f8 makes f7 f8 f9 f10). With [`Board::set_defuse`] such a
/// threat does not restrict the defender's moves: a three of its own may answer it.
pub fn four_three_defused(board: &mut Board, attacker: Color, t: Idx) -> bool {
    if board.threat(t, attacker) != Threat::Block4Flex3 {
        return false;
    }
    let me = attacker.opponent();
    let mut blocks = Vec::new();
    board.pass();
    board.play(t);
    board.win_points(attacker, &mut blocks);
    let defused = blocks.len() == 1 && {
        let b = blocks[0];
        (0..4).any(|d| board.pattern(b, me, d).is_four_or_better()) && board.is_legal(b)
    };
    board.undo();
    board.pass();
    defused
}

/// Points where `color` makes a four (or five) on some line.
pub fn four_points(board: &Board, color: Color, out: &mut Vec<Idx>) {
    // A four in any line makes the point's threat one of these ([`crate::eval::combine`]).
    let mut scan = ThreatScan::new(board, color, &FOUR_THREATS);
    while let Some(i) = scan.next(board) {
        if (0..4).any(|d| board.pattern(i, color, d).is_four_or_better()) {
            push_unique(out, i);
        }
    }
}

/// The threats of a point with a four (or five) in one of its lines, and of no other
/// point but Black's overlines under renju.
pub(crate) const FOUR_THREATS: [Threat; 5] = [
    Threat::Block4,
    Threat::Block4Flex3,
    Threat::Flex4,
    Threat::Five,
    Threat::Forbidden,
];

/// Pushes `i` on `v` unless it is there already.
pub(crate) fn push_unique(v: &mut Vec<Idx>, i: Idx) {
    if !v.contains(&i) {
        v.push(i);
    }
}

/// Whether the side to move must answer a winning threat of the opponent.
#[must_use]
pub fn under_threat(board: &Board) -> bool {
    let opp = board.to_move().opponent();
    has_sure_threat(board, opp) || board.threat_count(opp, Threat::Flex3x2) > 0
}

/// [`under_threat`], with the opponent's threat points counted only where it may play
/// them: Black's under renju pass the exact forbidden check when the board asks for it
/// ([`Board::exact_forbidden_for`]). A forbidden double three threatens nothing, and
/// neither does a forbidden four-three-three or open four with two threes (the patterns
/// call those a four-three and an open four, with the exact check still to do).
pub fn under_threat_exact(board: &mut Board) -> bool {
    let opp = board.to_move().opponent();
    if !board.exact_forbidden_for(opp) {
        return under_threat(board);
    }
    let mut scan = ThreatScan::new(
        board,
        opp,
        &[Threat::Flex4, Threat::Block4Flex3, Threat::Flex3x2],
    );
    while let Some(i) = scan.next(board) {
        if board.is_legal_for(i, opp) {
            return true;
        }
    }
    false
}

/// Whether `attacker` has a point of an open four or a four-three: a threat only a
/// block or a four answers (a double three can also be met by a three of one's own).
fn has_sure_threat(board: &Board, attacker: Color) -> bool {
    board.threat_count(attacker, Threat::Flex4) + board.threat_count(attacker, Threat::Block4Flex3)
        > 0
}

/// The ordering score of the empty point `i` for the side to move (before history).
#[must_use]
pub fn order_score(board: &Board, i: Idx) -> i32 {
    let me = board.to_move();
    let opp = me.opponent();
    params::ATTACK_ORDER[board.threat(i, me) as usize]
        + params::DEFENCE_ORDER[board.threat(i, opp) as usize]
        + board.point_value(i, me) / 4
        + board.point_value(i, opp) / 5
}

/// [`order_score`] with the evaluation's shares of the point (the learned table's when
/// it is in use) in place of the hand-set ordering values: what the point is worth to
/// the mover, and what it is worth to the opponent, which a move there takes away.
#[must_use]
pub fn order_score_eval(board: &Board, i: Idx) -> i32 {
    let me = board.to_move();
    let opp = me.opponent();
    params::ATTACK_ORDER[board.threat(i, me) as usize]
        + params::DEFENCE_ORDER[board.threat(i, opp) as usize]
        + (board.point_eval(i, me, crate::eval::ROLE_MOVER)
            - board.point_eval(i, opp, crate::eval::ROLE_WAITER))
            / params::EVAL_ORDER_DIVISOR
}

/// The ordering score of the empty point `i` by the learned policy
/// ([`crate::eval::policy`]): its logit times [`params::POLICY_ORDER_SCALE`], with
/// fives first (ours, then the opponent's).
#[must_use]
pub fn order_score_policy(board: &Board, i: Idx) -> i32 {
    order_score_policy_from(board, i, crate::eval::policy::score(board, i))
}

/// [`order_score_policy`] given the point's policy logit (hundredths).
#[must_use]
pub fn order_score_policy_from(board: &Board, i: Idx, logit: i32) -> i32 {
    let me = board.to_move();
    let five = if board.threat(i, me) == Threat::Five {
        params::ATTACK_ORDER[Threat::Five as usize]
    } else if board.threat(i, me.opponent()) == Threat::Five {
        params::DEFENCE_ORDER[Threat::Five as usize]
    } else {
        0
    };
    five + logit * params::POLICY_ORDER_SCALE / 100
}

/// Generates the moves of the side to move (legal, threat-restricted), unordered.
/// Returns whether the list was restricted to defences.
pub fn generate(board: &mut Board, out: &mut Vec<Idx>) -> bool {
    out.clear();
    let me = board.to_move();
    let opp = me.opponent();
    let mut restricted = false;
    // Defences against threats answered in advance, kept among the unrestricted moves.
    let mut defused = Vec::new();
    if has_sure_threat(board, opp) {
        let mut threats = Vec::new();
        threat_points(board, opp, &mut threats);
        threats.retain(|&t| board.threat(t, opp) != Threat::Flex3x2);
        if !threats.is_empty()
            && board.defuse()
            && threats.iter().all(|&t| four_three_defused(board, opp, t))
        {
            defence_points(board, opp, &threats, &mut defused);
        } else if !threats.is_empty() {
            defence_points(board, opp, &threats, out);
            if board.counter_block() {
                counter_block_points(board, opp, &threats, out);
            }
            four_points(board, me, out);
            restricted = true;
        }
    }
    if !restricted {
        for k in 0..board.points().len() {
            let i = board.points()[k];
            if board.is_empty(i) && board.is_candidate(i) {
                out.push(i);
            }
        }
        for &d in &defused {
            push_unique(out, d);
        }
        if out.is_empty() {
            // Empty board (or only walls): the centre, else any empty point.
            let centre = crate::board::idx(board.size().center());
            if board.is_empty(centre) {
                out.push(centre);
            } else {
                out.extend(
                    board
                        .points()
                        .iter()
                        .copied()
                        .filter(|&i| board.is_empty(i)),
                );
            }
        }
    }
    out.retain(|&i| board.is_empty(i));
    let mut k = 0;
    while k < out.len() {
        if board.is_legal(out[k]) {
            k += 1;
        } else {
            out.swap_remove(k);
        }
    }
    restricted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;
    use crate::board::idx;
    use wuzi_rules::{Game, GameConfig, Rule, Size, notation};

    fn board(moves: &str) -> Board {
        let size = Size::STANDARD;
        let moves = notation::parse_moves(moves, size).unwrap();
        let game = Game::from_moves(GameConfig::new(Rule::Freestyle, size), &moves).unwrap();
        Board::new(&Position::from_game(&game))
    }

    fn at(s: &str) -> Idx {
        idx(Size::STANDARD.parse_pos(s).unwrap())
    }

    /// Black's h8 would make two open threes; White may still make a three of its own
    /// elsewhere (d13), which Black then has to answer first.
    #[test]
    fn a_double_three_point_does_not_restrict_the_moves() {
        let mut b = board("f8 b13 g8 c13 h6 m2 h7");
        assert_eq!(b.threat(at("h8"), Color::Black), Threat::Flex3x2);
        let mut moves = Vec::new();
        assert!(!generate(&mut b, &mut moves));
        assert!(moves.contains(&at("h8")) && moves.contains(&at("d13")));
    }

    /// Black's i10 makes a four (column i, blocked at i9) and a three (row 10): White
    /// may defend by making i9 a four of its own, at g9, j9 or l9 (h9 and k9 are
    /// White's).
    #[test]
    fn a_four_three_s_block_made_a_four_is_a_defence() {
        let mut b = board("h8 h9 h6 g7 i7 j6 j8 g5 i8 k8 i6 i5 l10 k9 k10");
        assert_eq!(b.threat(at("i10"), Color::Black), Threat::Block4Flex3);
        let mut moves = Vec::new();
        b.set_counter_block(false);
        assert!(generate(&mut b, &mut moves));
        assert!(!moves.contains(&at("j9")) && !moves.contains(&at("g9")));
        b.set_counter_block(true);
        assert!(generate(&mut b, &mut moves));
        assert!(moves.contains(&at("j9")) && moves.contains(&at("g9")));
        let mut counter = Vec::new();
        counter_block_points(&mut b, Color::Black, &[at("i10")], &mut counter);
        counter.sort_unstable();
        let mut want = vec![at("g9"), at("j9"), at("l9")];
        want.sort_unstable();
        assert_eq!(counter, want);
    }

    /// White's c8 makes a four (row 8, five at f8) and a three (c8 e10 f11), but Black's
    /// block f8 makes f7 f8 f9 f10 a four: the threat is answered in advance, so Black's
    /// moves are not restricted and i10 (two threes of Black's own) is among them, with
    /// the defences. Without the check only the defences are searched.
    #[test]
    fn a_four_three_whose_block_makes_our_four_does_not_restrict_the_moves() {
        let mut b = board("h8 h9 f10 g9 i9 g7 e9 g8 g10 e10 f7 d8 f9 f11 h11 e8 i12 j13");
        assert_eq!(b.threat(at("c8"), Color::White), Threat::Block4Flex3);
        assert!(four_three_defused(&mut b, Color::White, at("c8")));
        let mut moves = Vec::new();
        b.set_defuse(false);
        assert!(generate(&mut b, &mut moves));
        assert!(!moves.contains(&at("i10")));
        b.set_defuse(true);
        assert!(!generate(&mut b, &mut moves));
        for p in ["i10", "c8", "f8", "d9", "g12"] {
            assert!(moves.contains(&at(p)), "{p}");
        }
        let mut unique = moves.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), moves.len());
        // The four-three of the counter-block test: White's block i9 makes no four of
        // White's, so it stays a threat.
        let mut c = board("h8 h9 h6 g7 i7 j6 j8 g5 i8 k8 i6 i5 l10 k9 k10");
        c.set_defuse(true);
        assert!(!four_three_defused(&mut c, Color::Black, at("i10")));
        assert!(generate(&mut c, &mut moves));
    }

    /// An open three does restrict them: its ends and the points beside, and fours.
    #[test]
    fn an_open_three_restricts_the_moves_to_defences() {
        let mut b = board("f8 b13 g8 c13 h8 m2 a1");
        let mut moves = Vec::new();
        assert!(generate(&mut b, &mut moves));
        assert!(moves.contains(&at("e8")) && moves.contains(&at("i8")));
        assert!(!moves.contains(&at("d13")));
    }
}
