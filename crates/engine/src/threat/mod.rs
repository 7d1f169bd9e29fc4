//! Threat-space search: VCF (victory by continuous fours) and VCT (victory by
//! continuous threats: fours and open threes), on the pattern board.
//!
//! Both are proofs, not guesses: every defence the rules allow is considered (for VCF
//! the defender's only move is the five point; against a three the defender may block
//! anywhere on the threatening lines, counter with its own fours, or, against a
//! four-three, make the point where its four would be blocked a four of its own,
//! [`movegen::counter_block_points`]: until session 27 that defence was missing, and a
//! "proof" could fall to it). Under renju a
//! four whose only block is forbidden for Black wins, and Black never attacks from a
//! forbidden point. Positions already refuted, and attacker positions already proven
//! won, are remembered by hash; after a defence is refuted, the attacker move that
//! refuted it is tried first against the next defence (most defences leave that
//! attack standing). Over 585 positions from games lost to the classic AIs (VCT to
//! depth 10) the last two cut the nodes from 18.4 M to 10.8 M with the same answers.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};

use wuzi_rules::Pos;

use crate::board::{Board, Idx, pos_of};
use crate::eval::Threat;
use crate::eval::pattern::Pattern;
use crate::instant::Instant;
use crate::movegen;
use crate::{Position, SearchLimits};

/// Default limit of attacker moves for [`vcf`].
pub const VCF_DEFAULT_DEPTH: u32 = 100;
/// Default limit of attacker moves for [`vct`].
pub const VCT_DEFAULT_DEPTH: u32 = 8;
/// The narrowed VCT's reach: points on one of the lines through the attacker's
/// previous threat, within this many cells of it.
const ZONE_REACH: u8 = 4;
/// Mixed into the position key of a refutation found by the narrowed VCT search.
const NARROWED_KEY: u64 = 0x9e37_79b9_7f4a_7c15;

/// A winning line of continuous fours for the side to move: attacker and defender
/// moves alternate and the attacker's last move wins. `None` when none was found within
/// the limits (`depth` counts attacker moves, default 100; `nodes`, `time`).
#[must_use]
pub fn vcf(pos: &Position, limits: &SearchLimits) -> Option<Vec<Pos>> {
    let stop = AtomicBool::new(false);
    let mut board = Board::new(pos);
    let mut s = Solver::new(limits, &stop);
    let mut line = Vec::new();
    s.vcf(
        &mut board,
        limits.depth.unwrap_or(VCF_DEFAULT_DEPTH),
        &mut line,
    )
    .then(|| line.into_iter().map(pos_of).collect())
}

/// A winning line of continuous threats (fours and open threes) for the side to move:
/// the main line of a proof that the attacker wins against every defence. `None` when
/// none was found within the limits (`depth` counts attacker moves, default 8).
#[must_use]
pub fn vct(pos: &Position, limits: &SearchLimits) -> Option<Vec<Pos>> {
    let stop = AtomicBool::new(false);
    let mut board = Board::new(pos);
    let mut s = Solver::new(limits, &stop);
    let mut line = Vec::new();
    s.vct(
        &mut board,
        limits.depth.unwrap_or(VCT_DEFAULT_DEPTH),
        &mut line,
    )
    .then(|| line.into_iter().map(pos_of).collect())
}

/// A map keyed by position hashes. The keys are already well mixed (Zobrist), so the
/// hasher passes them through instead of hashing them again.
type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;

/// The hasher of [`KeyMap`]: the key itself.
#[derive(Debug, Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A threat-space solver with its budget and refutation memory.
pub struct Solver<'a> {
    deadline: Option<Instant>,
    max_nodes: u64,
    /// Nodes visited.
    pub nodes: u64,
    stop: &'a AtomicBool,
    aborted: bool,
    vcf_failed: KeyMap<u32>,
    vct_failed: KeyMap<u32>,
    /// Attacker positions of the VCT search already proven won: the depth the proof
    /// needed and its main line.
    vct_won: KeyMap<(u32, Vec<Idx>)>,
    /// By remaining depth, the attacker move that last won a VCT node.
    killers: [Option<Idx>; 128],
    /// Whether [`Solver::vct`] first searches the narrowed tree.
    narrowing: bool,
    /// Whether the VCT search running now is the narrowed one.
    narrowed: bool,
    /// The attacker's latest threat on the current line of the VCT search.
    last_threat: Option<Idx>,
}

impl std::fmt::Debug for Solver<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Solver {{ nodes: {} }}", self.nodes)
    }
}

impl<'a> Solver<'a> {
    /// A solver bounded by `limits` (time, nodes) and the stop flag.
    #[must_use]
    pub fn new(limits: &SearchLimits, stop: &'a AtomicBool) -> Self {
        Solver {
            deadline: limits.time.map(|t| Instant::now() + t),
            max_nodes: limits.nodes.unwrap_or(u64::MAX),
            nodes: 0,
            stop,
            aborted: false,
            vcf_failed: KeyMap::default(),
            vct_failed: KeyMap::default(),
            vct_won: KeyMap::default(),
            killers: [None; 128],
            narrowing: true,
            narrowed: false,
            last_threat: None,
        }
    }

    /// A solver with a node budget only (used inside the main search).
    #[must_use]
    pub fn with_nodes(max_nodes: u64, stop: &'a AtomicBool) -> Self {
        Self::new(
            &SearchLimits {
                nodes: Some(max_nodes),
                ..SearchLimits::default()
            },
            stop,
        )
    }

    /// Whether [`Solver::vct`] searches the narrowed tree first (the default); without
    /// it only the full search runs. The answer is the same either way.
    pub fn set_narrowing(&mut self, on: bool) {
        self.narrowing = on;
    }

    /// Also stops at `deadline`.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Whether the budget ran out (results after that are "not found").
    #[must_use]
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.max_nodes {
            self.aborted = true;
        }
        if self.nodes.is_multiple_of(128)
            && (self.stop.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// The attacker's (side to move's) four moves, best first: open fours, four-threes,
    /// then the rest, nearer the last moves first.
    fn four_moves(board: &mut Board, out: &mut Vec<Idx>) {
        let me = board.to_move();
        let mut scored: Vec<(i32, Idx)> = Vec::new();
        let last = board.last_move();
        for k in 0..board.points().len() {
            let i = board.points()[k];
            if !board.is_empty(i) {
                continue;
            }
            if !(0..4).any(|d| board.pattern(i, me, d).is_four_or_better()) {
                continue;
            }
            let t = board.threat(i, me);
            let mut s = match t {
                Threat::Five => 1000,
                Threat::Flex4 => 500,
                Threat::Block4Flex3 => 300,
                _ => 100,
            };
            s += board.point_value(i, me) / 8;
            if let Some(l) = last {
                s -= i32::from(pos_of(i).distance(pos_of(l)));
            }
            scored.push((s, i));
        }
        scored.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        out.clear();
        for (_, i) in scored {
            if board.is_legal(i) {
                out.push(i);
            }
        }
    }

    /// Whether the side to move wins with one stone; if so the stone is pushed on `line`.
    fn win_now(board: &mut Board, line: &mut Vec<Idx>) -> bool {
        let me = board.to_move();
        let mut wins = Vec::new();
        board.win_points(me, &mut wins);
        match wins
            .into_iter()
            .find(|&w| board.threat(w, me) == Threat::Five || board.is_legal(w))
        {
            Some(w) => {
                line.push(w);
                true
            }
            None => false,
        }
    }

    /// VCF for the side to move. On success `line` holds the winning sequence.
    pub fn vcf(&mut self, board: &mut Board, depth: u32, line: &mut Vec<Idx>) -> bool {
        let was = board.freeze_net(true);
        let found = self.vcf_node(board, depth, line);
        board.freeze_net(was);
        found
    }

    /// [`Solver::vcf`] below its root: the network's sums are not kept (the threat
    /// search never evaluates).
    fn vcf_node(&mut self, board: &mut Board, depth: u32, line: &mut Vec<Idx>) -> bool {
        if self.tick() {
            return false;
        }
        let me = board.to_move();
        let opp = me.opponent();
        if Self::win_now(board, line) {
            return true;
        }
        if depth == 0 {
            return false;
        }
        let key = board.hash();
        if self.vcf_failed.get(&key).is_some_and(|&d| d >= depth) {
            return false;
        }
        let mut opp_wins = Vec::new();
        board.win_points(opp, &mut opp_wins);
        let mut moves = Vec::new();
        if opp_wins.len() >= 2 {
            return false;
        } else if let Some(&block) = opp_wins.first() {
            // We must block; it only continues the VCF if the block is itself a four.
            if (0..4).any(|d| board.pattern(block, me, d).is_four_or_better())
                && board.is_legal(block)
            {
                moves.push(block);
            }
        } else {
            Self::four_moves(board, &mut moves);
        }
        for m in moves {
            board.play(m);
            let mut fives = Vec::new();
            board.win_points(me, &mut fives);
            let won = match fives.len() {
                0 => false,
                1 => {
                    let block = fives[0];
                    if !board.is_legal(block) {
                        // The only defence is forbidden for Black: White wins.
                        line.extend_from_slice(&[m, block]);
                        board.undo();
                        return true;
                    }
                    board.play(block);
                    line.extend_from_slice(&[m, block]);
                    let ok = self.vcf_node(board, depth - 1, line);
                    board.undo();
                    if !ok {
                        line.truncate(line.len() - 2);
                    }
                    ok
                }
                _ => {
                    // Two five points: whichever the defender blocks, the other wins.
                    // (The defender has no five of its own: it would have been blocked.)
                    let block = fives[0];
                    let win = fives[1];
                    line.extend_from_slice(&[m, block, win]);
                    true
                }
            };
            board.undo();
            if won {
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        if !self.aborted {
            self.vcf_failed.insert(key, depth);
        }
        false
    }

    /// VCT for the side to move. On success `line` holds the main line of the proof.
    ///
    /// Searched in two stages. First each attacker three after the first must lie on
    /// one of the lines through the attacker's previous threat, within four cells: most
    /// real VCTs are built that way, and the narrow tree finds them several times
    /// faster. Only when that search is exhausted without a win comes the full
    /// search over every three, so the answer stays exact.
    pub fn vct(&mut self, board: &mut Board, depth: u32, line: &mut Vec<Idx>) -> bool {
        let was = board.freeze_net(true);
        let found = self.vct_stages(board, depth, line);
        board.freeze_net(was);
        found
    }

    /// [`Solver::vct`]'s two stages, with the network's sums not kept.
    fn vct_stages(&mut self, board: &mut Board, depth: u32, line: &mut Vec<Idx>) -> bool {
        if self.narrowing {
            let mark = line.len();
            self.narrowed = true;
            let found = self.vct_node(board, depth, line, None);
            self.narrowed = false;
            if found || self.aborted {
                return found;
            }
            line.truncate(mark);
        }
        self.vct_node(board, depth, line, None)
    }

    /// Whether the attacker's three at `i` may be searched: anywhere at the root, else
    /// on a line through the attacker's previous threat while the search is narrowed.
    fn in_zone(&self, i: Idx) -> bool {
        let Some(prev) = self.last_threat.filter(|_| self.narrowed) else {
            return true;
        };
        let (a, b) = (pos_of(i), pos_of(prev));
        let dx = a.x.abs_diff(b.x);
        let dy = a.y.abs_diff(b.y);
        (dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= ZONE_REACH
    }

    /// One attacker node of the VCT search. `hint` is the attacker move that won after
    /// the defender's previous answer: most defences leave that attack intact, so it is
    /// tried first.
    fn vct_node(
        &mut self,
        board: &mut Board,
        depth: u32,
        line: &mut Vec<Idx>,
        hint: Option<Idx>,
    ) -> bool {
        if self.tick() {
            return false;
        }
        let me = board.to_move();
        let opp = me.opponent();
        if Self::win_now(board, line) {
            return true;
        }
        if depth == 0 {
            return false;
        }
        let key = board.hash();
        // Refutations found in the narrowed tree do not hold in the full one: they are
        // kept apart, under another key.
        let fkey = if self.narrowed {
            key ^ NARROWED_KEY
        } else {
            key
        };
        if self.vct_failed.get(&fkey).is_some_and(|&d| d >= depth) {
            return false;
        }
        // A win holds in the narrowed and the full search alike, at any greater depth.
        if let Some((_, won)) = self.vct_won.get(&key).filter(|(d, _)| *d <= depth) {
            line.extend_from_slice(won);
            return true;
        }
        // A VCF is a VCT; it is cheap, so try it first.
        let mark = line.len();
        if self.vcf_node(board, depth, line) {
            return true;
        }
        line.truncate(mark);
        let mut opp_wins = Vec::new();
        board.win_points(opp, &mut opp_wins);
        let mut moves: Vec<Idx> = Vec::new();
        let forced = !opp_wins.is_empty();
        if opp_wins.len() >= 2 {
            return false;
        } else if let Some(&block) = opp_wins.first() {
            if board.is_legal(block) {
                moves.push(block);
            }
        } else {
            // Threes (and fours) that threaten to win; most dangerous first.
            let mut scored: Vec<(i32, Idx)> = Vec::new();
            for k in 0..board.points().len() {
                let i = board.points()[k];
                if !board.is_empty(i) {
                    continue;
                }
                let makes = (0..4).any(|d| board.pattern(i, me, d) >= Pattern::Flex3);
                if makes && self.in_zone(i) {
                    let s = crate::params::ATTACK_ORDER[board.threat(i, me) as usize] * 4
                        + crate::params::DEFENCE_ORDER[board.threat(i, opp) as usize]
                        + board.point_value(i, me);
                    scored.push((s, i));
                }
            }
            scored.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            for (_, i) in scored {
                if board.is_legal(i) {
                    moves.push(i);
                }
            }
            let killer = self.killers.get(depth as usize).copied().flatten();
            for h in [killer, hint].into_iter().flatten() {
                if let Some(k) = moves.iter().position(|&m| m == h) {
                    moves[..=k].rotate_right(1);
                }
            }
        }
        for m in moves {
            board.play(m);
            line.push(m);
            // A forced block is no threat of ours: the zone stays where it was.
            let outer = self.last_threat;
            if !forced {
                self.last_threat = Some(m);
            }
            let ok = self.vct_defend(board, depth - 1, line);
            self.last_threat = outer;
            board.undo();
            if ok {
                self.vct_won.insert(key, (depth, line[mark..].to_vec()));
                if let Some(k) = self.killers.get_mut(depth as usize) {
                    *k = Some(m);
                }
                return true;
            }
            line.truncate(mark);
            if self.aborted {
                return false;
            }
        }
        if !self.aborted {
            self.vct_failed.insert(fkey, depth);
        }
        false
    }

    /// The defender (side to move) answers the attacker's threat; true when every
    /// defence loses. `line` gets the first refuted defence's continuation.
    fn vct_defend(&mut self, board: &mut Board, depth: u32, line: &mut Vec<Idx>) -> bool {
        if self.tick() {
            return false;
        }
        let me = board.to_move(); // defender
        let att = me.opponent();
        let mut own = Vec::new();
        board.win_points(me, &mut own);
        if own
            .iter()
            .any(|&w| board.threat(w, me) == Threat::Five || board.is_legal(w))
        {
            return false;
        }
        let mut fives = Vec::new();
        board.win_points(att, &mut fives);
        let mut defences: Vec<Idx> = Vec::new();
        if fives.len() >= 2 {
            line.push(fives[0]);
            line.push(fives[1]);
            return true;
        } else if let Some(&b) = fives.first() {
            if !board.is_legal(b) {
                line.push(b);
                return true;
            }
            defences.push(b);
        } else {
            let mut threats = Vec::new();
            movegen::threat_points(board, att, &mut threats);
            if threats.is_empty() {
                return false; // no threat left: the attack fizzled
            }
            movegen::defence_points(board, att, &threats, &mut defences);
            if board.counter_block() {
                movegen::counter_block_points(board, att, &threats, &mut defences);
            }
            movegen::four_points(board, me, &mut defences);
            defences.retain(|&d| board.is_empty(d));
            let mut k = 0;
            while k < defences.len() {
                if board.is_legal(defences[k]) {
                    k += 1;
                } else {
                    defences.swap_remove(k);
                }
            }
            // Direct blocks first: they refute most often.
            defences.sort_by_key(|&d| {
                std::cmp::Reverse(
                    crate::params::DEFENCE_ORDER[board.threat(d, att) as usize]
                        + crate::params::ATTACK_ORDER[board.threat(d, me) as usize],
                )
            });
        }
        let mut first = true;
        let mut hint = None;
        for d in defences {
            board.play(d);
            let mut sub = Vec::new();
            let ok = self.vct_node(board, depth, &mut sub, hint);
            board.undo();
            if !ok {
                return false;
            }
            hint = sub.first().copied();
            if first {
                line.push(d);
                line.extend(sub);
                first = false;
            }
        }
        true
    }
}
