//! The main search: iterative deepening over a principal-variation alpha-beta with
//! aspiration windows, a shared transposition table, threat-restricted move
//! generation ordered by a learned policy ([`crate::eval::policy`]), late-move
//! reductions and pruning (also by the policy), and a quiescence search of fours
//! below the horizon (a win it finds is proven).
//! Threads share the table (Lazy SMP, see [`crate::threads`]).

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};

use wuzi_rules::Color;

use crate::board::{Board, CELLS, DIR, Idx, ThreatScan};
use crate::eval::{self, Threat};
use crate::instant::Instant;
use crate::movegen;
use crate::params;
use crate::threat::Solver;
use crate::time::TimeManager;
use crate::tt::{Bound, Entry, Tt};

/// Score of a win on the spot; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores beyond this are proven wins or losses.
pub const WIN_BOUND: i32 = WIN - 1_000;
/// Deepest ply searched.
pub const MAX_PLY: usize = 120;
/// Static evaluations are kept inside this range.
pub const EVAL_LIMIT: i32 = 20_000;

/// Depth units in a ply: [`Worker::search`] counts depth in quarter plies, so that an
/// extension or a reduction may be a fraction of a ply (the table stores the units).
/// The node's rules that count whole plies see the depth rounded ([`plies`]).
pub const ONE_PLY: i32 = 4;

// The table's depth field (8 bits) holds the deepest iteration's depth in units.
const _: () = assert!(crate::engine::MAX_DEPTH as i32 * ONE_PLY <= 255);

/// A depth in [`ONE_PLY`] units rounded to whole plies (a half ply rounds up).
#[must_use]
pub const fn plies(depth: i32) -> i32 {
    (depth + ONE_PLY / 2).div_euclid(ONE_PLY)
}

/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 256;
/// The largest history bonus of a cut-off (see its use in [`Worker::search`]).
const HISTORY_BONUS_MAX: i32 = 512;

/// What all threads of one search share.
#[derive(Debug)]
pub struct Shared<'a> {
    /// The transposition table.
    pub tt: &'a Tt,
    /// Raised to stop every thread.
    pub stop: &'a AtomicBool,
    /// The caller's stop flag.
    pub user_stop: &'a AtomicBool,
    /// Nodes of all threads.
    pub nodes: AtomicU64,
    /// Node limit of the search.
    pub max_nodes: u64,
    /// Nodes kept back after [`Shared::max_nodes`] for the final safety check of a
    /// search limited by nodes alone (0 for any other search).
    pub final_nodes: u64,
    /// Deadlines.
    pub time: TimeManager,
    /// The deepest iteration a helper thread completed: (depth, best move, score, PV).
    pub helper_best: std::sync::Mutex<Option<Completed>>,
    /// Root moves the opponent's VCT refutes: no thread searches them again.
    pub refuted: std::sync::Mutex<Vec<Idx>>,
    /// The search features in use.
    pub features: params::Features,
    /// A VCT for the side to move found by the threat thread (first move first).
    pub threat_win: std::sync::Mutex<Option<Vec<Idx>>>,
    /// Whether a helper is the safety helper (see [`crate::threads`]).
    pub safety_helper: bool,
    /// The main thread's best root move so far ([`NO_MOVE`] before it has one).
    pub main_best: AtomicUsize,
    /// The depth of the main thread's current iteration: helpers search deeper.
    pub main_depth: AtomicI32,
    /// The main thread's root moves in its last completed iteration's order.
    pub main_order: std::sync::Mutex<Vec<Idx>>,
    /// Root moves after which the safety helper's check, searching every line, found
    /// no opponent VCT.
    pub deep_checked: std::sync::Mutex<Vec<Idx>>,
    /// Root moves the safety helper found an opponent VCT after, with its length in
    /// plies (also those it left searchable, to keep one move unrefuted).
    pub lost_in: std::sync::Mutex<Vec<(Idx, usize)>>,
    /// Raised once the main thread has decided its move.
    pub done: AtomicBool,
    /// Raised when [`Shared::main_best`] changes, and when the main thread has
    /// decided: the safety helper's check of the old best move stops.
    pub best_changed: AtomicBool,
}

impl Shared<'_> {
    /// Publishes the main thread's best move.
    pub fn set_main_best(&self, m: Idx) {
        if self.main_best.swap(m, Ordering::Relaxed) != m {
            self.best_changed.store(true, Ordering::Relaxed);
        }
    }
}

/// The safety helper's verdict on a root move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The opponent has a VCT of this many plies after it.
    Refuted(usize),
    /// The check searched every line without finding one.
    Safe,
    /// The check used its whole budget without finding one.
    Unknown,
    /// The check was cut short.
    Cut,
}

/// No move (in [`Shared::main_best`]).
pub const NO_MOVE: Idx = usize::MAX;

/// An iteration completed by a search thread.
#[derive(Clone, Debug)]
pub struct Completed {
    /// Nominal depth.
    pub depth: i32,
    /// Best root move.
    pub mv: Idx,
    /// Its score.
    pub score: i32,
    /// Principal variation starting with `mv`.
    pub pv: Vec<Idx>,
}

/// One root move with its last score.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The move.
    pub mv: Idx,
    /// Score of the last completed search of this move (or -infinity).
    pub score: i32,
    /// Its principal variation (starting with `mv`).
    pub pv: Vec<Idx>,
}

/// The opponent's five threats at a node.
enum OpponentFive {
    /// None.
    None,
    /// One, blocked on this point.
    Block(Idx),
    /// Two, or one whose block is forbidden: lost.
    Unstoppable,
}

/// A search thread's state.
pub struct Worker<'a> {
    /// The board (owned per thread).
    pub board: Board,
    shared: &'a Shared<'a>,
    /// Thread number (0 = main).
    pub id: usize,
    nodes: u64,
    flushed: u64,
    /// Deepest ply reached.
    pub seldepth: usize,
    killers: Vec<[Idx; 2]>,
    history: Vec<i32>,
    move_buf: Vec<Vec<Scored>>,
    /// Per-ply buffers of the generated moves (no allocation per node).
    gen_buf: Vec<Vec<Idx>>,
    /// The buffer of the five points (no allocation per node).
    win_buf: Vec<Idx>,
    pv: Vec<Vec<Idx>>,
    /// The move a singular-extension search leaves out at each ply ([`NO_MOVE`]: none).
    skip: Vec<Idx>,
    /// Whether the node at each ply is an expected cut node (a null-window child of a
    /// PV or an all node), set by its parent ([`Features::cut_reduction`]).
    cut: Vec<bool>,
    /// The depth of the iteration under way.
    root_depth: i32,
    /// Root moves, best first after each iteration.
    pub root_moves: Vec<RootMove>,
    stopped: bool,
    /// Root moves excluded from this search (multipv: those already reported).
    pub excluded: Vec<Idx>,
    /// The best root move of the iteration under way, once one has beaten alpha: when
    /// time runs out mid-iteration it is better informed than the last completed one.
    pub partial: Option<Completed>,
    /// Whether the last VCT check of [`Worker::own_vct`] and its kin had its whole
    /// node budget (it was not cut by its deadline or a stop): a check that was
    /// cut short is worth repeating.
    check_finished: bool,
    /// Whether the last VCT check searched every line (neither its budget nor a stop
    /// cut it).
    check_exhaustive: bool,
    /// While set, the search stops (this thread only) once the main thread's best move
    /// differs from this one: the safety helper then checks the new one.
    watch_best: Option<Idx>,
    features: params::Features,
}

impl std::fmt::Debug for Worker<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Worker {} ({} nodes)", self.id, self.nodes)
    }
}

/// A move of a node's list with its ordering score and, when the policy orders the
/// moves, its policy logit (hundredths), kept so that pruning and reductions need not
/// score it again.
#[derive(Clone, Copy)]
struct Scored {
    mv: Idx,
    order: i32,
    logit: i32,
}

impl Scored {
    /// Highest ordering score first, ties by point.
    fn by_order(a: &Scored, b: &Scored) -> std::cmp::Ordering {
        b.order.cmp(&a.order).then(a.mv.cmp(&b.mv))
    }
}

/// Moves the loop takes one by one (the best of the rest found by a scan) before it
/// sorts the rest: most cut-offs come from the first few moves, and a node that cuts
/// off there needs no sort.
const PICKED_BEFORE_SORT: usize = 2;

/// Puts the `n`th move of `moves` in its place of the order [`Scored::by_order`],
/// given that the first `n` are in theirs: the best of the rest for the first
/// [`PICKED_BEFORE_SORT`] moves, then the rest sorted at once. The loop sees the moves
/// in the order a full sort gives (a total order: ties go by point).
fn pick(moves: &mut [Scored], n: usize) {
    if n < PICKED_BEFORE_SORT {
        let rest = &mut moves[n..];
        let best = (1..rest.len()).fold(0, |b, k| {
            if Scored::by_order(&rest[k], &rest[b]).is_lt() {
                k
            } else {
                b
            }
        });
        rest.swap(0, best);
    } else if n == PICKED_BEFORE_SORT {
        moves[n..].sort_unstable_by(Scored::by_order);
    }
}

/// Converts a score to the table's node-relative form.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score + ply as i32
    } else if score < -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score - ply as i32
    } else if score < -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl<'a> Worker<'a> {
    /// A worker on its own copy of the board.
    #[must_use]
    pub fn new(board: Board, shared: &'a Shared<'a>, id: usize) -> Self {
        Worker {
            board,
            shared,
            id,
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            killers: vec![[0; 2]; MAX_PLY + 2],
            history: vec![0; 2 * CELLS],
            move_buf: vec![Vec::new(); MAX_PLY + 2],
            gen_buf: vec![Vec::new(); MAX_PLY + 2],
            win_buf: Vec::new(),
            pv: vec![Vec::new(); MAX_PLY + 2],
            skip: vec![NO_MOVE; MAX_PLY + 2],
            cut: vec![false; MAX_PLY + 2],
            root_depth: 0,
            root_moves: Vec::new(),
            stopped: false,
            excluded: Vec::new(),
            partial: None,
            check_finished: false,
            check_exhaustive: false,
            watch_best: None,
            features: shared.features,
        }
    }

    /// Nodes searched by this thread.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether this search was cut short.
    #[must_use]
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    fn flush_nodes(&mut self, n: u64) {
        self.shared.nodes.fetch_add(n, Ordering::Relaxed);
    }

    /// Step 1: count the node and check the limits now and then.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.flushed + CHECK_EVERY {
            self.flush_nodes(self.nodes - self.flushed);
            self.flushed = self.nodes;
            let s = self.shared;
            if s.stop.load(Ordering::Relaxed)
                || s.user_stop.load(Ordering::Relaxed)
                || s.nodes.load(Ordering::Relaxed) >= s.max_nodes
                || s.time.search_expired()
            {
                s.stop.store(true, Ordering::Relaxed);
            }
            if self
                .watch_best
                .is_some_and(|b| s.main_best.load(Ordering::Relaxed) != b)
            {
                self.stopped = true;
            }
        }
        if self.shared.max_nodes != u64::MAX && self.id == 0 {
            // Exact node limits (deterministic single-thread runs).
            let total = self.shared.nodes.load(Ordering::Relaxed) + (self.nodes - self.flushed);
            if total >= self.shared.max_nodes {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        self.stopped
    }

    /// One iteration (see [`Worker::iterate`]) that also stops when the main thread's
    /// best move is no longer `seen`; `None` when stopped, and the worker can search
    /// again unless the whole search stopped.
    pub fn iterate_watching(&mut self, depth: i32, prev: Option<i32>, seen: Idx) -> Option<i32> {
        self.watch_best = Some(seen);
        let score = self.iterate(depth, prev);
        self.watch_best = None;
        if self.stopped {
            self.stopped = self.shared.stop.load(Ordering::Relaxed);
            return None;
        }
        Some(score)
    }

    /// Adds the nodes not yet counted in the shared total.
    pub fn finish(&mut self) {
        self.flush_nodes(self.nodes - self.flushed);
        self.flushed = self.nodes;
    }

    fn history_index(&self, mv: Idx) -> usize {
        self.board.to_move().index() * CELLS + mv
    }

    /// Scores `moves` for the node at `ply` (hash move highest), unordered: the move
    /// loop takes them best first ([`pick`]). Returns the highest policy logit among
    /// them (hundredths; 0 unless the policy orders the moves).
    fn score_moves(&self, moves: &[Idx], tt_move: Idx, ply: usize, out: &mut Vec<Scored>) -> i32 {
        out.clear();
        let mut top_logit = i32::MIN;
        let policy = self
            .features
            .policy_order
            .then(|| eval::policy::Scorer::new(&self.board, self.features.policy_game_moves));
        for &m in moves {
            let mut logit = 0;
            let mut s = if let Some(policy) = &policy {
                logit = policy.score(&self.board, m);
                top_logit = top_logit.max(logit);
                movegen::order_score_policy_from(&self.board, m, logit)
            } else if self.features.eval_order {
                movegen::order_score_eval(&self.board, m)
            } else {
                movegen::order_score(&self.board, m)
            };
            if m == tt_move {
                s += 1 << 28;
            } else if m == self.killers[ply][0] {
                s += self.features.tune.killer1;
            } else if m == self.killers[ply][1] {
                s += self.features.tune.killer2;
            }
            s += self.history[self.history_index(m)] / self.features.tune.history_div;
            out.push(Scored {
                mv: m,
                order: s,
                logit,
            });
        }
        if top_logit == i32::MIN { 0 } else { top_logit }
    }

    /// A point where the side to move makes five: one it may play, or one whose five
    /// wins even where the point is otherwise forbidden.
    fn own_five(&mut self) -> Option<Idx> {
        let me = self.board.to_move();
        if !self.board.has_win(me) {
            return None;
        }
        let mut w = std::mem::take(&mut self.win_buf);
        w.clear();
        self.board.win_points(me, &mut w);
        let five = w
            .iter()
            .copied()
            .find(|&p| self.board.threat(p, me) == Threat::Five || self.board.is_legal(p));
        self.win_buf = w;
        five
    }

    /// The opponent's five threats, from the side to move's view.
    fn opponent_five(&mut self) -> OpponentFive {
        let opp = self.board.to_move().opponent();
        if !self.board.has_win(opp) {
            return OpponentFive::None;
        }
        let mut w = std::mem::take(&mut self.win_buf);
        w.clear();
        self.board.win_points(opp, &mut w);
        let five = if w.len() >= 2 || !self.board.is_legal(w[0]) {
            OpponentFive::Unstoppable
        } else {
            OpponentFive::Block(w[0])
        };
        self.win_buf = w;
        five
    }

    /// A legal point where the side to move makes an open four (or another sure
    /// four-win).
    fn open_four_point(&mut self) -> Option<Idx> {
        let me = self.board.to_move();
        if self.board.threat_count(me, Threat::Flex4) == 0 {
            return None;
        }
        // An open four point of the side to move comes from its own stones, most often
        // its last move or the one before: their lines first, then the whole board.
        let h = self.board.history();
        let recent = [2, 4].map(|back| h.len().checked_sub(back).map(|k| h[k]));
        for m in recent.into_iter().flatten() {
            for off in DIR {
                for o in -4..=4isize {
                    let i = m.wrapping_add_signed(off * o);
                    if o != 0
                        && self.board.is_empty(i)
                        && self.board.threat(i, me) == Threat::Flex4
                        && self.board.is_legal(i)
                    {
                        return Some(i);
                    }
                }
            }
        }
        let mut scan = ThreatScan::new(&self.board, me, &[Threat::Flex4]);
        while let Some(i) = scan.next(&self.board) {
            if self.board.is_legal(i) {
                return Some(i);
            }
        }
        None
    }

    /// Principal-variation alpha-beta. `depth` in [`ONE_PLY`] units (a quarter ply
    /// each); returns the score for the side to move.
    #[allow(clippy::too_many_lines)]
    pub fn search(&mut self, mut alpha: i32, mut beta: i32, depth: i32, ply: usize) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv[ply].clear();
        // Step 1. Limits.
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        // Step 2. A five for the side to move wins now.
        if let Some(p) = self.own_five() {
            self.pv[ply].push(p);
            return WIN - ply as i32 - 1;
        }
        // Mate distance pruning.
        alpha = alpha.max(-WIN + ply as i32);
        beta = beta.min(WIN - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        // Step 3. The opponent's five must be blocked.
        let forced = match self.opponent_five() {
            OpponentFive::Unstoppable => return -(WIN - ply as i32 - 2),
            OpponentFive::Block(b) => Some(b),
            OpponentFive::None => None,
        };

        // Step 4. Our open four (or other sure four-win) wins in three plies.
        if forced.is_none()
            && let Some(i) = self.open_four_point()
        {
            self.pv[ply].push(i);
            return WIN - ply as i32 - 3;
        }
        if self.board.is_full() {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.board.evaluate_exact();
        }

        // Step 5. Transposition table (neither read for a cut nor written in a
        // singular-extension search, which leaves a move out).
        let skip = self.skip[ply];
        let key = self.board.hash();
        let tt_entry = self.shared.tt.probe(key);
        let mut tt_move: Idx = 0;
        if let Some(e) = tt_entry {
            tt_move = usize::from(e.mv);
            if !pv_node && e.depth >= depth && ply > 0 && skip == NO_MOVE {
                let s = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }

        // Step 6. Leaves: the quiescence search of fours, else the static evaluation.
        // With the threat extension a leaf under a winning threat is searched on
        // (defences only), and a forced block at the horizon stays at the horizon.
        // The depth in whole plies, for the rules that count plies.
        let d = plies(depth);
        let depth = if self.features.threat_extension {
            if d <= 0
                && forced.is_none()
                && (d <= -params::THREAT_EXTENSION_PLIES
                    || !movegen::under_threat_exact(&mut self.board))
            {
                return self.leaf(ply, alpha, beta);
            }
            depth
        } else {
            if d <= 0 && forced.is_none() {
                return self.leaf(ply, alpha, beta);
            }
            depth.max(ONE_PLY)
        };

        // Step 6b. Internal iterative reduction: a node the table knows nothing of (no
        // move to try first) is searched a ply shallower.
        let depth = if self.features.iir
            && skip == NO_MOVE
            && d >= params::IIR_MIN_DEPTH
            && tt_entry.is_none()
            && forced.is_none()
            && ply > 0
        {
            depth - ONE_PLY
        } else {
            depth
        };
        // Rounded again: the leaf rule may have raised the depth, IIR lowered it.
        let d = plies(depth);

        let static_eval = match tt_entry {
            Some(e) => e.eval,
            None => self.board.evaluate_exact(),
        };

        // Step 7. Futility pruning: a quiet position far below alpha at low depth.
        let threatened = forced.is_some() || movegen::under_threat_exact(&mut self.board);
        if self.features.futility
            && !pv_node
            && !threatened
            && skip == NO_MOVE
            && d <= if self.features.deep_futility {
                self.features.tune.rfp_depth
            } else {
                2
            }
            && beta.abs() < WIN_BOUND
        {
            let base = self.futility_base(tt_entry, static_eval, ply);
            if base - self.features.tune.futility_margin * d >= beta {
                return base;
            }
        }

        // Step 8. Moves.
        let mut moves_idx = std::mem::take(&mut self.gen_buf[ply]);
        moves_idx.clear();
        let restricted = if let Some(f) = forced {
            moves_idx.push(f);
            true
        } else {
            movegen::generate(&mut self.board, &mut moves_idx)
        };
        if ply == 0 {
            let refuted = crate::threads::lock(&self.shared.refuted);
            moves_idx.retain(|m| !self.excluded.contains(m));
            // Refuted moves are skipped while any other move is left.
            if moves_idx.iter().any(|m| !refuted.contains(m)) {
                moves_idx.retain(|m| !refuted.contains(m));
            }
        }
        if moves_idx.is_empty() {
            self.gen_buf[ply] = moves_idx;
            // Every empty point is forbidden for Black, or nothing defends.
            return if restricted {
                -(WIN - ply as i32 - 4)
            } else {
                -(WIN - ply as i32 - 2)
            };
        }
        let mut moves = std::mem::take(&mut self.move_buf[ply]);
        let top_logit = self.score_moves(&moves_idx, tt_move, ply, &mut moves);
        self.gen_buf[ply] = moves_idx;

        let cut_node = self.cut[ply];
        // On the principal variation now or when the table's entry was stored.
        let tt_pv = pv_node || tt_entry.is_some_and(|e| e.pv);
        // A node likely to fail high: its later moves that make no four are reduced a
        // ply more (`fail_high_reduction`).
        let likely_fail_high = self.features.fail_high_reduction
            && !pv_node
            && !threatened
            && static_eval >= beta + params::FAIL_HIGH_MARGIN * d
            && beta.abs() < WIN_BOUND;
        // Step 9. The move loop: PVS with late-move reductions and pruning.
        let mut best = -WIN;
        let mut best_move: Idx = 0;
        let orig_alpha = alpha;
        let forced_node = forced.is_some() || moves.len() == 1;
        let singular_ok = {
            let tune = &self.features.tune;
            tune.singular_depth > 0
                && d >= tune.singular_depth
                && ply > 0
                && skip == NO_MOVE
                && !forced_node
                && (ply as i32) < 2 * self.root_depth
                && tt_entry.is_some_and(|e| {
                    matches!(e.bound, Bound::Lower | Bound::Exact)
                        && e.depth >= depth - 3 * ONE_PLY
                        && from_tt(e.score, ply).abs() < WIN_BOUND
                })
        };
        for n in 0..moves.len() {
            pick(&mut moves, n);
            let Scored {
                mv: m,
                order,
                logit,
            } = moves[n];
            if m == skip {
                continue;
            }
            // Late-move pruning: at shallow quiet nodes skip the tail.
            let quiet = !restricted
                && if self.features.threat_quiet {
                    let me = self.board.to_move();
                    self.board.threat(m, me) < Threat::Flex3
                        && self.board.threat(m, me.opponent()) < Threat::Flex3
                        && m != tt_move
                } else {
                    order < params::ATTACK_ORDER[Threat::Flex3 as usize]
                };
            if self.features.lmp
                && !pv_node
                && n as i32
                    >= self.features.tune.lmp_base + self.features.tune.lmp_per_ply * d.max(0)
                && quiet
                && best > -WIN_BOUND
            {
                break;
            }
            // How far the move's policy logit lies below the best candidate's.
            let gap = if self.features.policy_order
                && quiet
                && n > 0
                && (self.features.policy_prune || self.features.policy_reduce)
            {
                top_logit - logit
            } else {
                0
            };
            // Policy pruning: at shallow non-PV nodes, once a move does not lose, skip
            // the moves from the `lmr_min_moves`-th on whose logit lies more than the
            // gap below the best candidate's. A move that is not quiet has no gap (0),
            // so where the gap is negative (level 10 at depth 1) every move after the
            // third is skipped, threats and defences too: a move-count pruning, which
            // measured better than skipping quiet moves only (params.rs, session 41).
            if self.features.policy_prune
                && !pv_node
                && d <= self.features.tune.policy_prune_depth
                    + i32::from(self.features.policy_sharp)
                && n as i32 >= self.features.tune.lmr_min_moves
                && gap
                    > if self.features.policy_sharp {
                        self.features.tune.policy_prune_gap
                    } else {
                        params::POLICY_PRUNE_GAP
                    } + self.features.tune.policy_prune_per_ply * d
                && best > -WIN_BOUND
            {
                continue;
            }
            // Singular extension: the table's move, when no other move comes near its
            // score in a search at half the depth, is searched a ply deeper.
            let mut extension = 0;
            if n == 0
                && m == tt_move
                && singular_ok
                && let Some(e) = tt_entry
            {
                let tt_score = from_tt(e.score, ply);
                let singular_beta = tt_score - self.features.tune.singular_margin * d;
                self.skip[ply] = m;
                let v = self.search(singular_beta - 1, singular_beta, (d - 1) / 2 * ONE_PLY, ply);
                self.skip[ply] = NO_MOVE;
                self.pv[ply].clear();
                if self.stopped {
                    self.move_buf[ply] = moves;
                    return 0;
                }
                if v < singular_beta {
                    extension = ONE_PLY;
                } else if singular_beta >= beta {
                    // Multi-cut: other moves reach beta too.
                    self.move_buf[ply] = moves;
                    return singular_beta;
                }
            }
            let fail_high_reduced = likely_fail_high
                && n > 0
                && !matches!(
                    self.board.threat(m, self.board.to_move()),
                    Threat::Block4 | Threat::Block4Flex3 | Threat::Flex4 | Threat::Five
                );
            self.board.play(m);
            self.shared.tt.prefetch(self.board.hash());
            // Forced replies (one legal answer) do not cost depth.
            let new_depth = if forced_node && self.features.forced_extension {
                depth
            } else {
                depth - ONE_PLY + extension
            };
            let mut score;
            if n == 0 {
                self.cut[ply + 1] = !pv_node && !cut_node;
                score = -self.search(-beta, -alpha, new_depth, ply + 1);
            } else {
                let mut r = 0;
                if self.features.lmr
                    && d >= self.features.tune.lmr_min_depth
                    && n as i32 >= self.features.tune.lmr_min_moves
                    && quiet
                {
                    let tune = &self.features.tune;
                    let n = n as i32;
                    r = tune.lmr_base
                        + ONE_PLY * i32::from(n >= tune.lmr_second)
                        + ONE_PLY * i32::from(!pv_node && n >= tune.lmr_third);
                    if self.features.policy_reduce && gap > tune.policy_reduce_gap {
                        r += ONE_PLY;
                    }
                    if self.features.policy_sharp && gap > tune.policy_reduce_gap2 {
                        r += ONE_PLY;
                    }
                    if self.features.cut_reduction && cut_node && !pv_node {
                        r += tune.cut_reduction;
                    }
                    if self.features.pv_history && tt_pv {
                        r -= ONE_PLY;
                    }
                    r = r.min(new_depth - ONE_PLY).max(0);
                }
                let mut extra = 0;
                if fail_high_reduced {
                    extra += ONE_PLY;
                }
                if self.features.raised_reduction
                    && pv_node
                    && ply > 0
                    && params::RAISED_REDUCTION_DEPTHS.contains(&d)
                    && alpha > orig_alpha
                {
                    extra += ONE_PLY;
                }
                if extra > 0 {
                    r = (r + extra).min(new_depth - ONE_PLY).max(0);
                }
                self.cut[ply + 1] = true;
                score = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1);
                if score > alpha && r > 0 {
                    self.cut[ply + 1] = !cut_node;
                    score = -self.search(-alpha - 1, -alpha, new_depth, ply + 1);
                }
                if score > alpha && score < beta {
                    self.cut[ply + 1] = false;
                    score = -self.search(-beta, -alpha, new_depth, ply + 1);
                }
            }
            self.board.undo();
            if self.stopped {
                self.move_buf[ply] = moves;
                return 0;
            }
            if ply == 0
                && let Some(rm) = self.root_moves.iter_mut().find(|r| r.mv == m)
            {
                if n == 0 || score > alpha {
                    rm.score = score;
                    let mut pv = vec![m];
                    pv.extend_from_slice(&self.pv[1]);
                    if score > alpha {
                        if self.id == 0 {
                            self.shared.set_main_best(m);
                        }
                        self.partial = Some(Completed {
                            depth: d,
                            mv: m,
                            score,
                            pv: pv.clone(),
                        });
                    }
                    rm.pv = pv;
                } else {
                    rm.score = -WIN;
                }
            }
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                    if score >= beta {
                        if !restricted {
                            let k = &mut self.killers[ply];
                            if k[0] != m {
                                k[1] = k[0];
                                k[0] = m;
                            }
                        }
                        // At most 512: the update pulls a score towards ±16,384 only while
                        // the bonus is below the 512 it is divided by; beyond that (depths past
                        // 22, reached with extensions) the scores overshot, grew without bound
                        // and overflowed (a panic in debug builds, found by a self-play run).
                        let bonus = (d * d).min(HISTORY_BONUS_MAX);
                        let hi = self.history_index(m);
                        self.history[hi] += bonus * 32 - self.history[hi] * bonus / 512;
                        for q in moves[..n].iter().filter(|q| q.mv != skip) {
                            let hq = self.history_index(q.mv);
                            self.history[hq] -= bonus * 32 + self.history[hq] * bonus / 512;
                        }
                        break;
                    }
                }
            }
        }
        self.move_buf[ply] = moves;

        // Step 10. Store.
        if skip != NO_MOVE {
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            Entry {
                mv: best_move as u16,
                score: to_tt(best, ply),
                eval: static_eval,
                depth,
                bound,
                pv: tt_pv,
            },
        );
        best
    }

    /// The score reverse futility counts from: the static evaluation, or with
    /// [`params::Features::tt_futility`] the table's score where its bound says it is
    /// nearer the truth (exact; a lower bound above the evaluation; an upper bound below
    /// it; not a win or a loss).
    fn futility_base(&self, tt_entry: Option<Entry>, static_eval: i32, ply: usize) -> i32 {
        let Some(e) = tt_entry.filter(|_| self.features.tt_futility) else {
            return static_eval;
        };
        let t = from_tt(e.score, ply);
        let nearer = match e.bound {
            Bound::Exact => true,
            Bound::Lower => t > static_eval,
            Bound::Upper => t < static_eval,
        };
        if nearer && t.abs() < WIN_BOUND {
            t
        } else {
            static_eval
        }
    }

    /// Step 6 in detail: at a leaf the quiescence search of fours, or the static
    /// evaluation (clamped) with a threatened side scored pessimistically.
    fn leaf(&mut self, ply: usize, alpha: i32, beta: i32) -> i32 {
        if self.features.qsearch {
            return self.qsearch(alpha, beta, ply, 0);
        }
        self.stand_pat()
    }

    /// The static evaluation (clamped); the opponent's winning threat (open three and
    /// better) that we cannot meet with a four is worth a lot.
    fn stand_pat(&mut self) -> i32 {
        let mut v = self.board.evaluate_exact().clamp(-EVAL_LIMIT, EVAL_LIMIT);
        if eval::threatened_leaf_exact(&mut self.board) {
            v += self.features.tune.threatened_leaf;
        }
        v
    }

    /// The quiescence search below the horizon: the side to move may stand on the
    /// static evaluation or play a four (any four at first, after that only
    /// four-threes), and a four must be blocked at once; up to
    /// [`params::QSEARCH_PLIES`] plies. A win it finds (a five, an open four, a four
    /// whose block is forbidden) is a proven one.
    ///
    /// It replaced a 60-node VCF run at leaves with a four-three point: +13 (−20..+47)
    /// freestyle over 400 games and +51 (+13..+91) renju over 300, at 100 ms a move.
    /// Four or eight plies, or plain fours for the first two attacker moves, measured
    /// within ±15 Elo of it (300 games each per rule).
    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, qply: u32) -> i32 {
        self.pv[ply].clear();
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let me = self.board.to_move();
        if let Some(p) = self.own_five() {
            self.pv[ply].push(p);
            return WIN - ply as i32 - 1;
        }
        if ply >= MAX_PLY || self.board.is_full() {
            return self.board.evaluate_exact().clamp(-EVAL_LIMIT, EVAL_LIMIT);
        }
        match self.opponent_five() {
            OpponentFive::Unstoppable => return -(WIN - ply as i32 - 2),
            OpponentFive::Block(b) => {
                self.board.play(b);
                let s = -self.qsearch(-beta, -alpha, ply + 1, qply + 1);
                self.board.undo();
                let (head, tail) = self.pv.split_at_mut(ply + 1);
                head[ply].push(b);
                head[ply].extend_from_slice(&tail[0]);
                return s;
            }
            OpponentFive::None => {}
        }
        if let Some(i) = self.open_four_point() {
            self.pv[ply].push(i);
            return WIN - ply as i32 - 3;
        }
        let mut best = self.stand_pat();
        let combos = self.board.threat_count(me, Threat::Block4Flex3);
        let fours = combos + self.board.threat_count(me, Threat::Block4);
        if best >= beta
            || qply as i32 >= self.features.tune.qsearch_plies
            || fours == 0
            || (qply > 0 && combos == 0)
        {
            return best;
        }
        alpha = alpha.max(best);
        let mut moves = std::mem::take(&mut self.move_buf[ply]);
        moves.clear();
        let kinds: &[Threat] = if qply == 0 {
            &[Threat::Block4Flex3, Threat::Block4]
        } else {
            &[Threat::Block4Flex3]
        };
        let mut scan = ThreatScan::new(&self.board, me, kinds);
        while let Some(i) = scan.next(&self.board) {
            if self.board.is_legal(i) {
                moves.push(Scored {
                    mv: i,
                    order: movegen::order_score(&self.board, i),
                    logit: 0,
                });
            }
        }
        moves.sort_unstable_by(Scored::by_order);
        for &Scored { mv: m, .. } in &moves {
            self.board.play(m);
            let s = -self.qsearch(-beta, -alpha, ply + 1, qply + 1);
            self.board.undo();
            if self.stopped {
                break;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        self.move_buf[ply] = moves;
        best
    }

    /// Sets up the root moves.
    pub fn init_root(&mut self, moves: &[Idx]) {
        self.root_moves = moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -WIN,
                pv: vec![mv],
            })
            .collect();
    }

    /// One iteration at the root with an aspiration window around `prev`.
    pub fn iterate(&mut self, depth: i32, prev: Option<i32>) -> i32 {
        let (mut alpha, mut beta) = (-WIN, WIN);
        self.root_depth = depth;
        let mut delta = self.features.tune.aspiration_window;
        if let Some(p) = prev
            && self.features.aspiration
            && depth >= 4
            && p.abs() < WIN_BOUND
        {
            alpha = (p - delta).max(-WIN);
            beta = (p + delta).min(WIN);
        }
        loop {
            self.partial = None;
            let score = self.search(alpha, beta, depth * ONE_PLY, 0);
            if self.stopped {
                return score;
            }
            // The root may be settled before its move loop (a sure win found by the
            // threat checks): credit that move.
            if let Some(&m) = self.pv[0].first()
                && let Some(rm) = self.root_moves.iter_mut().find(|r| r.mv == m)
                && rm.score < score
            {
                rm.score = score;
                rm.pv = self.pv[0].clone();
            }
            self.root_moves
                .sort_by(|a, b| b.score.cmp(&a.score).then(a.mv.cmp(&b.mv)));
            if score <= alpha && alpha > -WIN {
                alpha = (score - delta).max(-WIN);
                delta *= 2;
            } else if score >= beta && beta < WIN {
                beta = (score + delta).min(WIN);
                delta *= 2;
            } else {
                return score;
            }
            if delta > 1000 {
                alpha = -WIN;
                beta = WIN;
            }
        }
    }

    /// What the threads share.
    #[must_use]
    pub fn shared(&self) -> &'a Shared<'a> {
        self.shared
    }

    /// A VCT for the side to move at the root (first move first), searched within
    /// `nodes` and the hard deadline.
    pub fn own_vct(&mut self, nodes: u64) -> Option<Vec<Idx>> {
        self.own_vct_by(
            nodes,
            params::ROOT_SAFETY_VCT_DEPTH,
            self.shared.time.hard_deadline(),
        )
    }

    /// [`Worker::own_vct`] up to `depth` attacker moves, with its own deadline.
    fn own_vct_by(
        &mut self,
        nodes: u64,
        depth: u32,
        deadline: Option<Instant>,
    ) -> Option<Vec<Idx>> {
        self.own_vct_until(nodes, depth, deadline, self.shared.stop)
    }

    /// [`Worker::own_vct_by`] that answers to the flag `stop` instead of the search's.
    fn own_vct_until(
        &mut self,
        nodes: u64,
        depth: u32,
        deadline: Option<Instant>,
        stop: &AtomicBool,
    ) -> Option<Vec<Idx>> {
        let mut solver = Solver::with_nodes(nodes, stop);
        solver.set_deadline(deadline);
        let mut line = Vec::new();
        let found = solver.vct(&mut self.board, depth, &mut line);
        self.nodes += solver.nodes;
        self.check_finished = !solver.aborted() || solver.nodes >= nodes;
        self.check_exhaustive = !solver.aborted();
        (found && !solver.aborted() && !line.is_empty()).then_some(line)
    }

    /// Whether the last VCT check ran to the end (see the field).
    #[must_use]
    pub fn check_finished(&self) -> bool {
        self.check_finished
    }

    /// The opponent's VCT if the side to move passed (first move first), searched
    /// within `nodes` and `deadline` up to the root-safety depth.
    pub fn pass_vct(&mut self, nodes: u64, deadline: Option<Instant>) -> Option<Vec<Idx>> {
        self.board.pass();
        let line = self.own_vct_by(nodes, params::ROOT_SAFETY_VCT_DEPTH, deadline);
        self.board.pass();
        line
    }

    /// Whether the opponent wins by continuous threats (VCT) after the root move `mv`,
    /// searched within `nodes` and the hard deadline. An unfinished search is "no".
    pub fn refutes(&mut self, mv: Idx, nodes: u64) -> bool {
        self.refutes_by(
            mv,
            nodes,
            params::ROOT_SAFETY_VCT_DEPTH,
            self.shared.time.hard_deadline(),
        )
    }

    /// [`Worker::refutes`] up to `depth` attacker moves, with its own deadline.
    pub fn refutes_by(
        &mut self,
        mv: Idx,
        nodes: u64,
        depth: u32,
        deadline: Option<Instant>,
    ) -> bool {
        self.refutes_until(mv, (nodes, depth, deadline), self.shared.stop)
    }

    /// The safety helper's check of `mv`: the opponent's VCT on the helper's budget
    /// and depth, until the hard deadline or [`Shared::best_changed`].
    pub fn helper_check(&mut self, mv: Idx, nodes: u64) -> Verdict {
        let shared = self.shared;
        let limits = (
            nodes,
            params::SAFETY_HELPER_VCT_DEPTH,
            shared.time.hard_deadline(),
        );
        match self.vct_after(mv, limits, &shared.best_changed) {
            Some(line) => Verdict::Refuted(line.len()),
            None if self.check_exhaustive => Verdict::Safe,
            None if self.check_finished => Verdict::Unknown,
            None => Verdict::Cut,
        }
    }

    /// The safety helper's search for the side to move's own VCT at the root.
    pub fn helper_own_vct(&mut self, nodes: u64) -> Option<Vec<Idx>> {
        let shared = self.shared;
        self.own_vct_until(
            nodes,
            params::SAFETY_HELPER_VCT_DEPTH,
            shared.time.hard_deadline(),
            &shared.done,
        )
    }

    /// The final safety check once the search has stopped: [`Worker::refutes_by`] on
    /// the final check's budget and depth, until the hard deadline; the solver stops
    /// only then or on the user's stop, not on the search's. A search limited by nodes
    /// alone has the nodes it kept back for it instead ([`Shared::final_nodes`]);
    /// `None` once they are used up.
    pub fn refutes_after_search(&mut self, mv: Idx) -> Option<bool> {
        let mut nodes = params::FINAL_SAFETY_NODES;
        if self.shared.final_nodes > 0 {
            self.finish();
            let used = self.shared.nodes.load(Ordering::Relaxed);
            let left = (self.shared.max_nodes + self.shared.final_nodes).saturating_sub(used);
            if left == 0 {
                return None;
            }
            nodes = nodes.min(left);
        }
        let limits = (
            nodes,
            params::FINAL_SAFETY_VCT_DEPTH,
            self.shared.time.hard_deadline(),
        );
        Some(self.refutes_until(mv, limits, self.shared.user_stop))
    }

    /// Whether the opponent has a VCT after `mv` within `(nodes, depth, deadline)`,
    /// the solver answering to `stop`.
    fn refutes_until(
        &mut self,
        mv: Idx,
        limits: (u64, u32, Option<Instant>),
        stop: &AtomicBool,
    ) -> bool {
        self.vct_after(mv, limits, stop).is_some()
    }

    /// The opponent's VCT after `mv` within `(nodes, depth, deadline)` (first move
    /// first), the solver answering to `stop`.
    fn vct_after(
        &mut self,
        mv: Idx,
        (nodes, depth, deadline): (u64, u32, Option<Instant>),
        stop: &AtomicBool,
    ) -> Option<Vec<Idx>> {
        self.board.play(mv);
        let line = self.own_vct_until(nodes, depth, deadline, stop);
        self.board.undo();
        line
    }

    /// The side to move.
    #[must_use]
    pub fn to_move(&self) -> Color {
        self.board.to_move()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The move loop's order ([`pick`] at each step) is the full sort's, ties and all,
    /// for lists shorter and longer than [`PICKED_BEFORE_SORT`].
    #[test]
    fn picking_the_moves_one_by_one_gives_the_sorted_order() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for len in 0..40 {
            for _ in 0..20 {
                let mut pts: Vec<Idx> = (0..225).collect();
                let mut moves: Vec<Scored> = (0..len)
                    .map(|_| {
                        let k = (next() % pts.len() as u64) as usize;
                        Scored {
                            mv: pts.swap_remove(k),
                            // Few distinct scores, so that ties are common.
                            order: (next() % 5) as i32 - 2,
                            logit: 0,
                        }
                    })
                    .collect();
                let mut sorted = moves.clone();
                sorted.sort_by(Scored::by_order);
                for n in 0..moves.len() {
                    pick(&mut moves, n);
                }
                let got: Vec<(Idx, i32)> = moves.iter().map(|s| (s.mv, s.order)).collect();
                let want: Vec<(Idx, i32)> = sorted.iter().map(|s| (s.mv, s.order)).collect();
                assert_eq!(got, want, "{len} moves");
            }
        }
    }

    /// Whole plies round to themselves, and a fraction of a ply to the nearest ply (a
    /// half up), below zero as above it: a depth below half a ply is a leaf's.
    #[test]
    fn depth_units_round_to_the_nearest_ply() {
        for p in -5..60 {
            assert_eq!(plies(p * ONE_PLY), p);
            assert_eq!(plies(p * ONE_PLY + ONE_PLY / 2), p + 1);
            assert_eq!(plies(p * ONE_PLY + ONE_PLY / 2 - 1), p);
            assert_eq!(plies(p * ONE_PLY - ONE_PLY / 2), p);
        }
    }
}
