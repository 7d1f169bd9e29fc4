//! The engine object: owns the transposition table and the search threads.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize};
use std::time::Duration;

use wuzi_rules::Pos;

use crate::board::{Board, Idx, pos_of};
use crate::eval::Threat;
use crate::instant::Instant;
use crate::search::{NO_MOVE, RootMove, Shared, WIN, WIN_BOUND, Worker};
use crate::threads::lock;
use crate::threat::Solver;
use crate::time::TimeManager;
use crate::tt::Tt;
use crate::{Position, Score, SearchLimits, movegen, params, threads};

/// How the engine is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Transposition table size in MiB (memory is taken lazily, so a large table does
    /// not slow the first move).
    pub hash_mb: usize,
    /// Search threads (Lazy SMP). 1 gives a deterministic search.
    pub threads: usize,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: 64,
            threads: 1,
        }
    }
}

/// Progress of a search, reported after every completed iteration (and for each of the
/// N best lines when `multipv > 1`).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    /// Nominal depth completed.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score of this line for the side to move.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation, first move first.
    pub pv: Vec<Pos>,
    /// Which of the N best lines this is (1 = best).
    pub multipv: usize,
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play; `None` when the board has no empty point.
    pub best: Option<Pos>,
    /// Score of the best move for the side to move.
    pub score: Score,
    /// Principal variation starting with `best`.
    pub pv: Vec<Pos>,
    /// Nominal depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
}

/// Deepest nominal depth of an iterative deepening.
pub const MAX_DEPTH: u32 = 60;
/// Share of the node budget (or nodes, without one) given to the root VCF.
const ROOT_VCF_NODES: u64 = 40_000;
/// Node budget of the root VCT.
const ROOT_VCT_NODES: u64 = 30_000;

/// A search engine: create once, search many positions.
#[derive(Debug)]
pub struct Engine {
    options: EngineOptions,
    tt: Option<Tt>,
    seed: u64,
    features: params::Features,
}

/// A fresh seed per engine and per game (time and a counter), so games differ.
fn fresh_seed() -> u64 {
    use std::sync::atomic::Ordering;
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let t = crate::instant::entropy();
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    wuzi_rules::random::SplitMix64::new(t ^ n.rotate_left(32)).next()
}

/// The score type of a search score.
#[must_use]
pub fn to_score(v: i32) -> Score {
    if v > WIN_BOUND {
        Score::Win((WIN - v).max(1) as u32)
    } else if v < -WIN_BOUND {
        Score::Loss((WIN + v).max(1) as u32)
    } else {
        Score::Eval(v)
    }
}

impl Engine {
    /// A new engine. Its hash table is made at the first [`Engine::clear`] or search;
    /// clear it before the first search when that search is on a clock.
    #[must_use]
    pub fn new(options: EngineOptions) -> Engine {
        crate::eval::pattern::PatternTable::prewarm();
        Engine {
            options,
            tt: None,
            seed: fresh_seed(),
            features: params::Features::current(),
        }
    }

    /// The options the engine was built with.
    #[must_use]
    pub fn options(&self) -> EngineOptions {
        self.options
    }

    /// Changes the thread count and hash size (the table is rebuilt if its size changes).
    pub fn set_options(&mut self, options: EngineOptions) {
        if options.hash_mb != self.options.hash_mb {
            self.tt = None;
        }
        self.options = options;
    }

    /// Forgets everything learned (hash table): for a new game, and for reproducible
    /// node counts. An engine that has no table yet makes it here and writes every page
    /// of it, so the searches after a clear take no page faults on the table: a front
    /// end clears between games, off the clock, and its first move is as fast as the
    /// others.
    pub fn clear(&mut self) {
        self.tt
            .get_or_insert_with(|| Tt::new(self.options.hash_mb))
            .clear();
        self.seed = fresh_seed();
    }

    /// Switches search features (strength tests compare the same engine with and
    /// without one). The default is [`params::Features::current`].
    pub fn set_features(&mut self, features: params::Features) {
        self.features = features;
    }

    /// The search features in use.
    #[must_use]
    pub fn features(&self) -> params::Features {
        self.features
    }

    /// The seed of the levels' random choices for the current game (a new one after
    /// every [`Engine::clear`]).
    #[must_use]
    pub fn game_seed(&self) -> u64 {
        self.seed
    }

    /// Fixes the levels' random seed (reproducible games and tests).
    pub fn set_game_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    /// Searches `pos` within `limits` (or until `stop` is raised), calling `on_info` with
    /// progress, and returns the best move. Black never gets a forbidden point under
    /// renju (unless every empty point is forbidden); a forced move is answered at once.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        let tm = TimeManager::new(limits, start);
        let mut board = Board::with_tables(
            pos,
            crate::eval::Source::of(&self.features),
            self.features.alt_policy,
        );
        board.set_exact_forbidden(self.features.exact_forbidden);
        board.set_counter_block(self.features.counter_block);
        board.set_defuse(self.features.defuse);
        board.set_threat_mask(self.features.threat_mask);
        // The network was fitted beside the learned tables, so it goes with them.
        board.set_net(self.features.net && self.features.learned_eval);
        let me = board.to_move();
        let opp = me.opponent();
        let done = |best: Idx, score: Score, pv: Vec<Idx>, nodes: u64| SearchResult {
            best: Some(pos_of(best)),
            score,
            pv: pv.into_iter().map(pos_of).collect(),
            depth: 0,
            nodes,
            time: start.elapsed(),
        };

        // A win on the spot.
        let mut wins = Vec::new();
        board.win_points(me, &mut wins);
        if let Some(&w) = wins
            .iter()
            .find(|&&w| board.threat(w, me) == Threat::Five || board.is_legal(w))
        {
            return done(w, Score::Win(1), vec![w], 0);
        }
        // Root moves (threat-restricted); the opponent's five is blocked at once.
        let mut root: Vec<Idx> = Vec::new();
        let mut opp_wins = Vec::new();
        board.win_points(opp, &mut opp_wins);
        if !opp_wins.is_empty() {
            // Block the five (a legal point of it); with two fives or only forbidden
            // blocks the game is lost, but the move is still a legal one.
            let legal_block = opp_wins.iter().copied().find(|&b| board.is_legal(b));
            let lost = opp_wins.len() >= 2 || legal_block.is_none();
            let score = if lost {
                Score::Loss(2)
            } else {
                Score::Eval(board.evaluate())
            };
            let m = legal_block
                .or_else(|| most_promising(&mut board, true))
                .or_else(|| most_promising(&mut board, false))
                .unwrap_or(opp_wins[0]);
            return done(m, score, vec![m], 0);
        }
        movegen::generate(&mut board, &mut root);
        if root.is_empty() {
            // Nothing legal: every empty point is forbidden (or no defence exists). The
            // most promising legal point near the stones, else anywhere (never simply
            // the first point of the board, the corner).
            let any = board.points().iter().copied().find(|&i| board.is_empty(i));
            let legal =
                most_promising(&mut board, true).or_else(|| most_promising(&mut board, false));
            return match legal.or(any) {
                Some(m) => done(m, Score::Loss(2), vec![m], 0),
                None => SearchResult {
                    best: None,
                    score: Score::Eval(0),
                    pv: Vec::new(),
                    depth: 0,
                    nodes: 0,
                    time: start.elapsed(),
                },
            };
        }
        if root.len() == 1 && limits.multipv <= 1 {
            return done(root[0], Score::Eval(board.evaluate()), vec![root[0]], 0);
        }

        // A VCF at the root settles the game.
        let vcf_nodes;
        {
            let budget = limits
                .nodes
                .map_or(ROOT_VCF_NODES, |n| (n / 10).min(ROOT_VCF_NODES));
            let mut solver = Solver::with_nodes(budget, stop);
            solver.set_deadline(tm.hard().map(|h| start + h / 4));
            let mut line = Vec::new();
            let found = solver.vcf(&mut board, 60, &mut line);
            if found && limits.multipv <= 1 {
                let n = line.len() as u32;
                return done(line[0], Score::Win(n), line, solver.nodes);
            }
            // Then a short VCT (threes and fours), on a smaller budget.
            let vct_budget = limits
                .nodes
                .map_or(ROOT_VCT_NODES, |n| (n / 10).min(ROOT_VCT_NODES));
            let mut vct_solver = Solver::with_nodes(vct_budget, stop);
            vct_solver.set_deadline(tm.hard().map(|h| start + h / 8));
            line.clear();
            let found = self.features.root_vct
                && vct_solver.vct(&mut board, params::ROOT_VCT_DEPTH, &mut line);
            vcf_nodes = solver.nodes + vct_solver.nodes;
            if found && limits.multipv <= 1 && !line.is_empty() && self.features.root_vct {
                let n = line.len() as u32;
                return done(line[0], Score::Win(n), line, vcf_nodes);
            }
        }

        let tt = self.tt.get_or_insert_with(|| Tt::new(self.options.hash_mb));
        tt.new_search();
        let internal_stop = AtomicBool::new(false);
        // A search limited by nodes alone plays as a timed one does: it keeps back a
        // share of its nodes for the final safety check of the move it is to play.
        let node_limited = limits.time.is_none() && limits.clock.is_none();
        let final_nodes = match limits.nodes {
            Some(n) if node_limited && self.features.final_safety && limits.multipv <= 1 => {
                n * u64::from(crate::time::FINAL_CHECK_PERCENT) / 100
            }
            _ => 0,
        };
        let shared = Shared {
            tt,
            stop: &internal_stop,
            user_stop: stop,
            nodes: AtomicU64::new(vcf_nodes),
            max_nodes: limits.nodes.map_or(u64::MAX, |n| n - final_nodes),
            final_nodes,
            time: tm,
            helper_best: std::sync::Mutex::new(None),
            refuted: std::sync::Mutex::new(Vec::new()),
            features: self.features,
            threat_win: std::sync::Mutex::new(None),
            safety_helper: self.features.safety_helper && limits.multipv <= 1,
            main_best: AtomicUsize::new(NO_MOVE),
            main_depth: AtomicI32::new(0),
            main_order: std::sync::Mutex::new(Vec::new()),
            deep_checked: std::sync::Mutex::new(Vec::new()),
            lost_in: std::sync::Mutex::new(Vec::new()),
            done: AtomicBool::new(false),
            best_changed: AtomicBool::new(false),
        };
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH) as i32;
        let multipv = limits.multipv.clamp(1, root.len());
        let helpers = self.options.threads.max(1) - 1;
        let result = threads::run(&board, &shared, &root, helpers, max_depth, |w| {
            main_loop(w, &shared, max_depth, multipv, on_info)
        });
        let nodes = shared.nodes.load(std::sync::atomic::Ordering::Relaxed);
        let (best, score, pv, depth) = result;
        // The move played is one the search considered: a root move (or the first move
        // of a threat win the threat thread proved), on an empty legal point.
        assert!(
            (root.contains(&best) || score > WIN_BOUND)
                && board.is_empty(best)
                && board.is_legal(best),
            "the search chose {:?}, which is none of its {} root moves",
            pos_of(best),
            root.len()
        );
        SearchResult {
            best: Some(pos_of(best)),
            score: to_score(score),
            pv: pv.into_iter().map(pos_of).collect(),
            depth,
            nodes,
            time: start.elapsed(),
        }
    }
}

/// The legal empty point with the best move-ordering score (only points near the
/// stones when `near`), for the side to move: the fallback when no search decides.
fn most_promising(board: &mut Board, near: bool) -> Option<Idx> {
    let mut best: Option<(i32, Idx)> = None;
    for k in 0..board.points().len() {
        let i = board.points()[k];
        if board.is_empty(i) && (!near || board.is_candidate(i)) && board.is_legal(i) {
            let s = movegen::order_score(board, i);
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, i));
            }
        }
    }
    best.map(|(_, i)| i)
}

/// Root defence, run when a safety check has refuted a best move: the opponent's VCT as
/// if the side to move passed. When there is one, many root moves may lose to it (in
/// positions from games lost to the classic AIs often all but one or two), more than
/// root safety drops one by one. So the root moves not yet refuted are checked in the
/// search's order (last score, then the points of that VCT, then move ordering), each
/// within a node budget, until [`params::ROOT_DEFENCE_KEEP`] of them survive or half the
/// time left is gone, and the refuted ones are dropped. When every move is refuted none
/// is: the position is lost and the search's choice resists best.
fn root_defence(w: &mut Worker<'_>, shared: &Shared<'_>) {
    let budget = |full: u64| {
        if shared.max_nodes == u64::MAX {
            full
        } else {
            (shared.max_nodes / 20).min(full)
        }
    };
    let deadline = shared.time.half_time_left();
    let Some(line) = w.pass_vct(budget(params::ROOT_DEFENCE_PASS_NODES), deadline) else {
        return;
    };
    let refuted = lock(&shared.refuted).clone();
    let mut order: Vec<(i32, bool, i32, Idx)> = w
        .root_moves
        .iter()
        .filter(|r| !refuted.contains(&r.mv))
        .map(|r| {
            let m = r.mv;
            (
                r.score,
                line.contains(&m),
                movegen::order_score(&w.board, m),
                m,
            )
        })
        .collect();
    order.sort_by(|a, b| b.cmp(a));
    let mut lost = Vec::new();
    let mut kept = 0;
    for &(_, _, _, m) in &order {
        if kept == params::ROOT_DEFENCE_KEEP
            || shared.stop.load(std::sync::atomic::Ordering::Relaxed)
            || deadline.is_some_and(|d| Instant::now() >= d)
        {
            break;
        }
        if w.refutes_by(
            m,
            budget(params::ROOT_DEFENCE_MOVE_NODES),
            params::ROOT_SAFETY_VCT_DEPTH,
            deadline,
        ) {
            lost.push(m);
        } else {
            kept += 1;
        }
    }
    if lost.len() < order.len() {
        for m in lost {
            drop_refuted(w, shared, m);
        }
    }
}

/// Marks a root move the opponent's VCT refutes: no thread searches it again.
fn drop_refuted(w: &mut Worker<'_>, shared: &Shared<'_>, mv: Idx) {
    movegen::push_unique(&mut lock(&shared.refuted), mv);
    if let Some(rm) = w.root_moves.iter_mut().find(|r| r.mv == mv) {
        rm.score = -WIN;
    }
}

/// A safety check refuted the root move `mv`: it is dropped, and the first time in a
/// search (`defended` not yet set) the root defence runs.
fn safety_drop(w: &mut Worker<'_>, shared: &Shared<'_>, mv: Idx, defended: &mut bool) {
    drop_refuted(w, shared, mv);
    if !*defended && shared.features.root_defence {
        *defended = true;
        root_defence(w, shared);
    }
}

/// The main thread's iterative deepening: returns (best, score, pv, depth).
fn main_loop(
    w: &mut Worker<'_>,
    shared: &Shared<'_>,
    max_depth: i32,
    multipv: usize,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> (Idx, i32, Vec<Idx>, u32) {
    let first = w.root_moves[0].mv;
    let mut best: (Idx, i32, Vec<Idx>, u32) = (first, 0, vec![first], 0);
    let mut prev: Vec<Option<i32>> = vec![None; multipv];
    let mut verified: Vec<Idx> = Vec::new();
    let mut final_checks = 0;
    // The move whose final safety check time cut short (a passed check ends the loop).
    let mut final_cut: Option<Idx> = None;
    let mut safety_drops = 0;
    let mut defended = false;
    // The N best lines last reported, with the depth of each.
    let mut last_report: Vec<(RootMove, i32)> = Vec::new();
    let mut depth = 0;
    while depth < max_depth {
        depth += 1;
        let mut lines: Vec<RootMove> = Vec::new();
        shared
            .main_depth
            .store(depth, std::sync::atomic::Ordering::Relaxed);
        for p in prev.iter_mut() {
            w.excluded = lines.iter().map(|l| l.mv).collect();
            let score = w.iterate(depth, *p);
            if w.stopped() {
                break;
            }
            *p = Some(score);
            let top = w
                .root_moves
                .iter()
                .find(|r| !w.excluded.contains(&r.mv))
                .cloned()
                .unwrap_or_else(|| w.root_moves[0].clone());
            lines.push(RootMove { score, ..top });
        }
        w.excluded.clear();
        // A later line can beat an earlier one: each is searched with the moves before it
        // excluded, and the earlier search may have reduced or pruned the better move.
        // The lines are reported best first, and the best of them is the answer.
        lines.sort_by_key(|l| std::cmp::Reverse(l.score));
        if w.stopped() && lines.is_empty() {
            // Cut short: a root move that beat alpha in the unfinished iteration is
            // better informed than the last completed answer.
            if let Some(p) = w.partial.take()
                && multipv == 1
                && shared.features.partial_iteration
                && !lock(&shared.refuted).contains(&p.mv)
            {
                best = (p.mv, p.score, p.pv, best.3);
            }
            break;
        }
        if let Some(l) = lines.first()
            && shared.safety_helper
        {
            // The safety helper checks the new best move, then the others in order;
            // a move it refuted during the iteration is dropped at no cost.
            shared.set_main_best(l.mv);
            *lock(&shared.main_order) = w.root_moves.iter().map(|r| r.mv).collect();
            let refuted = lock(&shared.refuted).clone();
            if refuted.contains(&l.mv)
                && l.score.abs() < WIN_BOUND
                && w.root_moves.iter().any(|r| !refuted.contains(&r.mv))
            {
                safety_drop(w, shared, l.mv, &mut defended);
                depth -= 1;
                prev = vec![None; multipv];
                continue;
            }
            if lock(&shared.deep_checked).contains(&l.mv) {
                verified.push(l.mv);
            }
        }
        // Root safety: the new best move must not lose to the opponent's VCT.
        if let Some(l) = lines.first()
            && shared.features.root_safety
            && multipv == 1
            && !w.stopped()
            && l.score.abs() < WIN_BOUND
            && !verified.contains(&l.mv)
        {
            if safety_drops < params::ROOT_SAFETY_MAX_DROPS
                && w.root_moves.len() > lock(&shared.refuted).len() + 1
                && w.refutes(l.mv, params::ROOT_SAFETY_NODES)
            {
                safety_drops += 1;
                safety_drop(w, shared, l.mv, &mut defended);
                // Search this depth again without it.
                depth -= 1;
                prev = vec![None; multipv];
                continue;
            }
            verified.push(l.mv);
        }
        let elapsed = shared.time.elapsed();
        w.finish();
        let nodes = shared.nodes.load(std::sync::atomic::Ordering::Relaxed);
        // Stopped part way through the N best lines: the lines of this depth, then the
        // previous depth's lines for the other moves, so no move is reported twice.
        let mut report: Vec<(RootMove, i32)> = lines.iter().map(|l| (l.clone(), depth)).collect();
        for (l, d) in &last_report {
            if report.len() < multipv && report.iter().all(|(r, _)| r.mv != l.mv) {
                report.push((l.clone(), *d));
            }
        }
        for (k, (l, d)) in report.iter().enumerate() {
            on_info(&SearchInfo {
                depth: *d as u32,
                seldepth: w.seldepth as u32,
                score: to_score(l.score),
                nodes,
                nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
                time: elapsed,
                pv: l.pv.iter().map(|&i| pos_of(i)).collect(),
                multipv: k + 1,
            });
        }
        last_report = report;
        if let Some(l) = lines.first() {
            best = (l.mv, l.score, l.pv.clone(), depth as u32);
        }
        if w.stopped() || shared.time.soft_expired() || depth >= max_depth {
            // Final safety: the move about to be played gets the opponent's VCT on a
            // larger budget than the per-iteration check (up to half the time left);
            // a refuted move is dropped and the depth searched again without it.
            if final_checks < params::FINAL_SAFETY_CHECKS
                && !w.stopped()
                && !lock(&shared.deep_checked).contains(&best.0)
                && shared.features.final_safety
                && multipv == 1
                && best.1.abs() < WIN_BOUND
                && lock(&shared.refuted).len() + 1 < w.root_moves.len()
            {
                final_checks += 1;
                if w.refutes_by(
                    best.0,
                    params::FINAL_SAFETY_NODES,
                    params::FINAL_SAFETY_VCT_DEPTH,
                    shared.time.half_time_left(),
                ) {
                    safety_drops += 1;
                    safety_drop(w, shared, best.0, &mut defended);
                    depth -= 1;
                    prev = vec![None; multipv];
                    continue;
                }
                if !w.check_finished() {
                    final_cut = Some(best.0);
                }
            }
            break;
        }
        if multipv == 1 && lock(&shared.threat_win).is_some() {
            break;
        }
        // A proven result does not change with more depth.
        if best.1.abs() > WIN_BOUND && depth as i64 > i64::from(WIN - best.1.abs()) + 2 {
            break;
        }
    }
    // The threat thread's findings: a VCT of our own wins; a move the opponent's VCT
    // refutes is replaced by the best one it did not refute.
    if let Some(line) = lock(&shared.threat_win).clone()
        && multipv == 1
    {
        let n = line.len() as i32;
        return (line[0], WIN - n, line, best.3);
    }
    if multipv == 1 {
        let adopted = adopt_helper(shared, &mut best);
        // The search's choice: what is played unless a check shows a better move.
        let choice = best.clone();
        let replaced = replace_refuted(w, shared, &mut best);
        // Time cut the last iteration short, or the final safety check of the move
        // about to be played, or a helper's deeper move or an unsearched one replaced
        // the checked one: the check runs now, in the time kept back for it; a refuted
        // move is replaced by the next one, checked in turn while time is left (see
        // [`safety_walk`]); a search limited by nodes alone has its kept-back nodes
        // for it. Searches limited by nodes and time (the weaker levels) or stopped by
        // the user, and searches that used up their final checks, are left as they are
        // (in a lost position the search's own choice resists best: with checks after
        // those too, two runs of the six classic matches lost 10 and 6 games of 300
        // instead of 4 and 4).
        let cut_by_time = (w.stopped() || final_cut == Some(best.0) || adopted || replaced)
            && ((shared.time.hard().is_some() && shared.max_nodes == u64::MAX)
                || shared.final_nodes > 0)
            && !shared.user_stop.load(std::sync::atomic::Ordering::Relaxed);
        if cut_by_time && shared.features.final_safety {
            let deadline = shared.time.hard_deadline();
            let start = best.clone();
            let mut walk = FinalChecks {
                w: &mut *w,
                shared,
                deadline,
            };
            best = safety_walk(choice.clone(), start, usize::from(replaced), &mut walk);
        }
        resist(w, shared, &mut best);
        debug_assert!(
            best.0 == choice.0
                || !lock(&shared.refuted).contains(&best.0)
                || lock(&shared.lost_in).iter().any(|&(m, _)| m == best.0),
            "the move played is the search's choice, an unrefuted replacement, or the \
             longest-resisting lost move"
        );
    }
    best
}

/// The checks and replacements of [`safety_walk`].
trait Walk<T> {
    /// `Some(true)` refuted, `Some(false)` not refuted, `None` no check possible.
    fn check(&mut self, m: &T) -> Option<bool>;
    /// Drops the refuted `m`; its replacement, if any.
    fn replace(&mut self, m: &T) -> Option<T>;
}

/// The post-search walk of the main thread: its final safety checks, until the hard
/// deadline.
struct FinalChecks<'w, 'a, 's> {
    w: &'w mut Worker<'a>,
    shared: &'w Shared<'s>,
    deadline: Option<Instant>,
}

impl Walk<(Idx, i32, Vec<Idx>, u32)> for FinalChecks<'_, '_, '_> {
    fn check(&mut self, m: &(Idx, i32, Vec<Idx>, u32)) -> Option<bool> {
        if lock(&self.shared.deep_checked).contains(&m.0) {
            return Some(false);
        }
        let checkable = m.1.abs() < WIN_BOUND
            && lock(&self.shared.refuted).len() + 1 < self.w.root_moves.len()
            && self.deadline.is_none_or(|d| Instant::now() < d);
        if checkable {
            self.w.refutes_after_search(m.0)
        } else {
            None
        }
    }

    fn replace(&mut self, m: &(Idx, i32, Vec<Idx>, u32)) -> Option<(Idx, i32, Vec<Idx>, u32)> {
        drop_refuted(self.w, self.shared, m.0);
        let mut next = m.clone();
        replace_refuted(self.w, self.shared, &mut next).then_some(next)
    }
}

/// Most replacements the post-search walk checks after the search's choice was refuted.
const FINAL_REPLACEMENTS: usize = 2;

/// The post-search safety walk. `current` is checked (`check`: `Some(true)` refuted,
/// `Some(false)` not refuted, `None` no check possible: no time left, a proven score,
/// or it is the last move not refuted); a refuted move is dropped and replaced by the
/// next most promising one (`replace`, `None` when there is none), which is checked in
/// turn, at most [`FINAL_REPLACEMENTS`] of them. `refuted` counts the moves already
/// refuted before the walk (the search's choice, when `current` replaces it).
///
/// A replacement is played when its check passed, or when it is unchecked and only the
/// search's `choice` was refuted before it. When the choice and a replacement are
/// refuted, the position is most likely lost, and the search's choice, which resists
/// longest, is played. (Walking on to the end of the list played the least promising
/// move of all: in a game against the greedy AI the corner a15 after e11 was refuted,
/// `0,0` on the protocol; in 1,300 positions replayed from the Rapfi games a11 for d8
/// and a13 for j9, the last defence points on the lines of the threat.)
fn safety_walk<T: Clone>(
    choice: T,
    mut current: T,
    mut refuted: usize,
    walk: &mut impl Walk<T>,
) -> T {
    loop {
        match walk.check(&current) {
            None => break,
            Some(false) => return current,
            Some(true) => {
                refuted += 1;
                if refuted > FINAL_REPLACEMENTS {
                    return choice;
                }
                match walk.replace(&current) {
                    Some(next) => current = next,
                    None => return choice,
                }
            }
        }
    }
    if refuted >= 2 { choice } else { current }
}

/// Every root move loses, to a VCT the safety helper found, to the main thread's checks
/// or in the search: the move played is the one with the longest known refutation (a
/// weaker opponent may miss it): the helper's VCT lines, and the search's own loss
/// distance for its choice.
fn resist(w: &Worker<'_>, shared: &Shared<'_>, best: &mut (Idx, i32, Vec<Idx>, u32)) {
    let lost_in = lock(&shared.lost_in).clone();
    let refuted = lock(&shared.refuted).clone();
    let plies = |m: Idx| lost_in.iter().find(|&&(x, _)| x == m).map(|&(_, n)| n);
    // A proven loss of the search (-WIN itself only marks a move not searched).
    let proven = best.1 < -WIN_BOUND && best.1 > -WIN;
    let lost = |m: Idx| proven || refuted.contains(&m) || plies(m).is_some();
    if best.1 > WIN_BOUND || !w.root_moves.iter().all(|r| lost(r.mv)) {
        return;
    }
    let Some(mine) = plies(best.0).or(proven.then(|| (WIN + best.1) as usize)) else {
        return;
    };
    if let Some(&(m, n)) = lost_in
        .iter()
        .max_by_key(|&&(m, n)| (n, std::cmp::Reverse(m)))
        && n > mine
    {
        *best = (m, -(WIN - n as i32), vec![m], best.3);
    }
}

/// A helper that completed a deeper iteration than the main thread decides; returns
/// whether the move changed.
fn adopt_helper(shared: &Shared<'_>, best: &mut (Idx, i32, Vec<Idx>, u32)) -> bool {
    let helper = lock(&shared.helper_best).clone();
    if let Some(c) = helper
        && best.1.abs() < WIN_BOUND
        && c.depth > best.3 as i32
        && !lock(&shared.refuted).contains(&c.mv)
    {
        let changed = c.mv != best.0;
        *best = (c.mv, c.score, c.pv, c.depth as u32);
        return changed;
    }
    false
}

/// A refuted best move left without a searched replacement: the most promising
/// unrefuted move, a move the safety helper's check passed first, then by its last
/// score, then by the move ordering. Returns whether the move changed. A move the
/// search only failed low on has the placeholder score -WIN, which is no proven loss:
/// it takes the refuted move's score, so the post-search check still looks at it and
/// no "loss in 1" is reported. (When that score is a proven loss every move loses,
/// the replacement too; a refuted "win" gives a neutral score.)
fn replace_refuted(
    w: &Worker<'_>,
    shared: &Shared<'_>,
    best: &mut (Idx, i32, Vec<Idx>, u32),
) -> bool {
    let refuted = lock(&shared.refuted).clone();
    let passed = lock(&shared.deep_checked).clone();
    if refuted.contains(&best.0)
        && let Some(rm) = w
            .root_moves
            .iter()
            .filter(|r| !refuted.contains(&r.mv))
            .max_by_key(|r| {
                (
                    passed.contains(&r.mv),
                    r.score,
                    movegen::order_score(&w.board, r.mv),
                )
            })
    {
        let score = if rm.score > -WIN {
            rm.score
        } else if best.1 < WIN_BOUND {
            best.1
        } else {
            0
        };
        *best = (rm.mv, score, rm.pv.clone(), best.3);
        return true;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scripted walk: moves are numbers, `verdicts[m]` is the check of `m` (the
    /// search's choice is 0), the replacement of `m` is `m + 1` while there is one.
    struct Script {
        verdicts: Vec<Option<bool>>,
        checked: Vec<usize>,
    }

    impl Walk<usize> for Script {
        fn check(&mut self, m: &usize) -> Option<bool> {
            self.checked.push(*m);
            self.verdicts[*m]
        }
        fn replace(&mut self, m: &usize) -> Option<usize> {
            (m + 1 < self.verdicts.len()).then_some(m + 1)
        }
    }

    fn walk(verdicts: &[Option<bool>], start: usize, refuted: usize) -> (usize, Vec<usize>) {
        let mut s = Script {
            verdicts: verdicts.to_vec(),
            checked: Vec::new(),
        };
        let played = safety_walk(0, start, refuted, &mut s);
        (played, s.checked)
    }

    const REFUTED: Option<bool> = Some(true);
    const PASSED: Option<bool> = Some(false);
    const NO_CHECK: Option<bool> = None;

    #[test]
    fn the_walk_plays_the_first_move_that_passes() {
        assert_eq!(walk(&[PASSED, PASSED], 0, 0), (0, vec![0]));
        assert_eq!(walk(&[REFUTED, PASSED, PASSED], 0, 0), (1, vec![0, 1]));
        assert_eq!(walk(&[REFUTED, REFUTED, PASSED], 0, 0), (2, vec![0, 1, 2]));
        // No time to check the search's choice: it is played.
        assert_eq!(walk(&[NO_CHECK, PASSED], 0, 0), (0, vec![0]));
        // Only the choice was refuted: an unchecked replacement beats a refuted move.
        assert_eq!(walk(&[REFUTED, NO_CHECK], 0, 0), (1, vec![0, 1]));
    }

    /// The wrong move of issue 24: every move checked was refuted, and the walk went on
    /// to the last move of the list (the corner a15, a11, a13: the far ends of the
    /// threat's line). Now the search's own choice is played.
    #[test]
    fn a_walk_that_finds_only_refuted_moves_plays_the_search_s_choice() {
        let lost = [REFUTED; 8];
        let (played, checked) = walk(&lost, 0, 0);
        assert_eq!(played, 0);
        assert_eq!(checked.len(), FINAL_REPLACEMENTS + 1, "the walk is bounded");
        // Refuted, refuted, then no check possible (time, or the last move left).
        assert_eq!(walk(&[REFUTED, REFUTED, NO_CHECK, PASSED], 0, 0).0, 0);
        // The list ends after a refutation.
        assert_eq!(walk(&[REFUTED], 0, 0), (0, vec![0]));
        // The choice was refuted during the search and replaced before the walk.
        assert_eq!(walk(&[REFUTED, REFUTED, PASSED], 1, 1), (2, vec![1, 2]));
        assert_eq!(walk(&[REFUTED, REFUTED, NO_CHECK], 1, 1), (0, vec![1, 2]));
        assert_eq!(walk(&[REFUTED, REFUTED, REFUTED, PASSED], 1, 1).0, 0);
    }

    #[test]
    fn a_clear_makes_the_table_and_a_new_size_drops_it() {
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 1,
            threads: 1,
        });
        assert!(engine.tt.is_none(), "a new engine makes no table");
        engine.clear();
        let slots = engine.tt.as_ref().map(Tt::capacity);
        assert_eq!(slots, Some(Tt::new(1).capacity()));
        engine.set_options(EngineOptions {
            hash_mb: 1,
            threads: 2,
        });
        assert_eq!(
            engine.tt.as_ref().map(Tt::capacity),
            slots,
            "same size: kept"
        );
        engine.set_options(EngineOptions {
            hash_mb: 2,
            threads: 2,
        });
        assert!(engine.tt.is_none(), "a new size drops the old table");
        engine.clear();
        assert_eq!(
            engine.tt.as_ref().map(Tt::capacity),
            Some(Tt::new(2).capacity())
        );
        assert!(Tt::new(2).capacity() > Tt::new(1).capacity());
    }
}
