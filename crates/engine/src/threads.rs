//! Helper threads. Helpers run Lazy SMP: they search the same root with the shared
//! transposition table while the main thread reports, each one iteration deeper than
//! the main thread's current one (every other helper two), so what they store is what
//! the main thread's next iteration needs; the deepest completed iteration of any
//! thread decides the move. (Helpers that started at depth 1 or 2 and went on at their
//! own pace searched alongside the main thread: `wuzi bench` on two threads took 7.1,
//! 7.1 and 6.1 s against 8.0 s on one; one iteration ahead 5.2, 5.7 and 6.5 s.)
//!
//! With three or more threads the last helper is first a threat thread: it looks for
//! the side to move's own VCT at the root, then runs the opponent's VCT after each root
//! move and marks those it refutes, so the main search neither misses a threat win nor
//! plays into one, at no cost to its own nodes; then it joins the Lazy SMP search.
//!
//! With two threads the helper is the safety helper. It first looks for the side to
//! move's own VCT, then checks the main thread's best move, as it changes, for the
//! opponent's VCT deeper than the main thread's own checks can afford (10 attacker
//! moves, 30,000 nodes); a check is dropped when the best move changes. A refuted move
//! is dropped from the search; a move whose check searched every line needs no check
//! by the main thread.
//! Between checks it searches (Lazy SMP, its iteration stopped when the main thread's
//! best move changes), and once the search is over it checks the other root moves in
//! the main thread's order until the move is decided. It keeps one move searchable;
//! when every move loses, the one whose refutation it found longest is played.
//!
//! Measured at 200 ms a move, two threads against one (`wuzi match full full
//! --threads-a 2 --threads-b 1`), with the helper one iteration ahead: renju 120-6-74,
//! +81 (+34..+132), freestyle 96-12-92, +7 (−40..+54), pooled over the 400 games
//! 216-18-166, +44 (+10..+78). With the helper at its own pace, after later changes
//! to the main thread's checks had gained more on one thread than on two: −24
//! (−72..+22) freestyle and +17 (−30..+66) renju (200 games each); as pure Lazy SMP
//! +10 (−57..+79) and +24 (−43..+94) (100 games each). Before those changes, 200 games
//! each: with the safety helper as kept +26
//! (−21..+74) and +58 (+11..+107) freestyle, +37 (−11..+86) renju, pooled over the
//! 600 games 325-19-256, +40 (+13..+68); as first written +33 (−13..+81) freestyle
//! and +17 (−30..+66) renju; with a helper that only checked (no search
//! between checks, checks never dropped) +16 (−31..+63) and −9 (−57..+39); two Lazy
//! SMP threads, 100 games each at the build before, +10 (−57..+79) and −3 (−72..+64)
//! (earlier builds +39 and +40 over 400 and 200 games). Against the classic AIs (six
//! matches of 50 games, two threads) the safety helper as kept lost 4, 0 and 2 games of
//! 300 (as first written 3 and 5), Lazy SMP 4 and 4, the checking-only helper 9 and 7.
//!
//! In 89 freestyle positions from the classic matches at 200 ms a move (the table warm
//! from the positions before) the main thread's last completed depth averaged 7.20 on
//! one thread, 6.71 with the safety helper and 7.38 with a Lazy SMP helper. The safety
//! helper's figure is lower because 32 of its 89 searches ended early (the helper had
//! found a win, or the move was decided), against 11 on one thread; the main thread is
//! not slowed: in its iterations it searched 1,231 k nodes/s beside the safety helper,
//! 1,217 k beside a Lazy SMP helper and 1,255 k alone. With a fresh table it was: two
//! threads searched 666 k nodes/s together against 903 k for one (`wuzi analyze`, 200
//! ms), their page faults on the new table contending. Now a clear makes the table
//! and writes every page of it, and a front end clears before each game, off the
//! clock (see [`crate::Engine::clear`]): after a clear two threads searched that
//! position at 2.38 to 2.49 M nodes/s, reaching depth 9 (three runs); with the table
//! made at the search, 0.75 to 0.78 M, depth 7. Tried and not kept: the helper searching
//! the main thread's last root moves, last first, against the alpha of its first
//! move (root splitting): time to depth 9 over 60 positions 20.5 s, 20.0 s without.
//! Two threads against one, balanced openings, freestyle at 200 ms, with the table
//! cleared in place between games (then on huge pages, since dropped, see
//! [`crate::tt`]): +42 (+15..+70) over 600 games, +23 and +19 over
//! two runs of 200; pooled over the 1,000 games 528-40-432, +33 (+12..+55); renju
//! +26 (−22..+75) over 200. On ordinary pages, the table made and written at the
//! clear: 315-20-265, +29 (+2..+57) over 600 games; renju 114-8-78, +63 (+16..+113)
//! over 200. Before that change: freestyle +14 (−34..+62) at 200 ms
//! over 200 games and +7 (−41..+55) at 100 ms over 200, renju +10 (−56..+78) at
//! 200 ms over 100. The ceiling, one thread with 1.66 times the time against one, is
//! +53 (+14..+93) over 300 games at 100 ms. Tried with two threads against two, 400
//! games each at 100 ms, freestyle: Lazy SMP instead of the safety helper +3
//! (−30..+37); putting last a move another thread is searching (a light ABDADA) +4
//! (−29..+38). Neither is kept.

use std::sync::atomic::Ordering;

use crate::board::Board;
use crate::search::{Completed, NO_MOVE, Shared, Verdict, Worker};
use crate::{movegen, params};

/// Runs `main` on the current thread and `helpers` helper threads that iterate
/// independently until the main thread is done; returns `main`'s result.
pub fn run<R>(
    board: &Board,
    shared: &Shared<'_>,
    root: &[usize],
    helpers: usize,
    max_depth: i32,
    main: impl FnOnce(&mut Worker<'_>) -> R,
) -> R {
    std::thread::scope(|scope| {
        for id in 1..=helpers {
            let board = board.clone();
            scope.spawn(move || {
                let mut w = Worker::new(board, shared, id);
                w.init_root(root);
                if id == helpers && helpers >= 2 && shared.features.threat_thread {
                    threat_thread(&mut w, root);
                } else if helpers == 1 && shared.safety_helper {
                    safety_helper(&mut w, root, max_depth);
                    w.finish();
                    return;
                }
                let mut prev = None;
                let mut depth = 1 + (id as i32 % 2);
                while depth <= max_depth && !shared.stop.load(Ordering::Relaxed) {
                    depth = depth.max(ahead_of_main(shared, id)).min(max_depth);
                    let s = w.iterate(depth, prev);
                    if w.stopped() {
                        break;
                    }
                    prev = Some(s);
                    publish(&w, depth, s);
                    depth += 1;
                }
                w.finish();
            });
        }
        let mut w = Worker::new(board.clone(), shared, 0);
        w.init_root(root);
        let r = main(&mut w);
        w.finish();
        shared.done.store(true, Ordering::Relaxed);
        shared.best_changed.store(true, Ordering::Relaxed);
        shared.stop.store(true, Ordering::Relaxed);
        r
    })
}

/// The depth a helper searches at least: one more than the main thread's current
/// iteration (two for every other helper), so the helpers fill the table for the main
/// thread's next iterations instead of searching its current one alongside it.
fn ahead_of_main(shared: &Shared<'_>, id: usize) -> i32 {
    shared.main_depth.load(Ordering::Relaxed) + 1 + ((id as i32 - 1) % 2)
}

/// The root moves in move-ordering order, best first.
fn by_order(w: &Worker<'_>, root: &[usize]) -> Vec<usize> {
    let mut order: Vec<(i32, usize)> = root
        .iter()
        .map(|&m| (movegen::order_score(&w.board, m), m))
        .collect();
    order.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    order.into_iter().map(|(_, m)| m).collect()
}

/// The threat thread's work (see the module documentation); returns when done or
/// stopped, and the thread then helps as a Lazy SMP searcher.
fn threat_thread(w: &mut Worker<'_>, root: &[usize]) {
    if let Some(line) = w.own_vct(params::THREAT_THREAD_VCT_NODES) {
        *lock(&w.shared().threat_win) = Some(line);
        return;
    }
    for m in by_order(w, root) {
        if w.shared().stop.load(Ordering::Relaxed) {
            return;
        }
        // Keep one move unrefuted: when every move loses, the main search's choice
        // resists best.
        if lock(&w.shared().refuted).len() + 1 >= root.len() {
            return;
        }
        if w.refutes(m, params::THREAT_THREAD_REFUTE_NODES) {
            movegen::push_unique(&mut lock(&w.shared().refuted), m);
        }
    }
}

/// A helper's completed iteration: it decides the move when it is deeper than the
/// main thread's.
fn publish(w: &Worker<'_>, depth: i32, score: i32) {
    if let Some(best) = w.root_moves.first() {
        let mut slot = lock(&w.shared().helper_best);
        if slot.as_ref().is_none_or(|c| c.depth < depth) {
            *slot = Some(Completed {
                depth,
                mv: best.mv,
                score,
                pv: best.pv.clone(),
            });
        }
    }
}

/// The safety helper's work (see the module documentation), until the main thread
/// has decided.
fn safety_helper(w: &mut Worker<'_>, root: &[usize], max_depth: i32) {
    let shared = w.shared();
    if let Some(line) = w.helper_own_vct(params::SAFETY_HELPER_VCT_NODES) {
        *lock(&shared.threat_win) = Some(line);
        return;
    }
    let fallback = by_order(w, root);
    let mut tried: Vec<usize> = Vec::new();
    let (mut depth, mut prev) = (2, None);
    while !shared.done.load(Ordering::Relaxed) {
        shared.best_changed.store(false, Ordering::Relaxed);
        let best = shared.main_best.load(Ordering::Relaxed);
        let next = if best != NO_MOVE && !tried.contains(&best) {
            Some(best)
        } else if !shared.stop.load(Ordering::Relaxed) && depth <= max_depth {
            // Lazy SMP until the main thread's best move changes.
            depth = depth.max(ahead_of_main(shared, 1)).min(max_depth);
            if let Some(score) = w.iterate_watching(depth, prev, best) {
                publish(w, depth, score);
                prev = Some(score);
                depth += 1;
            }
            continue;
        } else {
            // The search is over: the main thread's other moves, in its order.
            let order = lock(&shared.main_order).clone();
            let refuted = lock(&shared.refuted).clone();
            order
                .iter()
                .copied()
                .chain(fallback.iter().copied())
                .find(|m| !tried.contains(m) && !refuted.contains(m))
        };
        let Some(m) = next else { return };
        tried.push(m);
        match w.helper_check(m, params::SAFETY_HELPER_NODES) {
            Verdict::Refuted(plies) => {
                lock(&shared.lost_in).push((m, plies));
                // Keep one move searchable: when every move loses, the main thread
                // plays the one whose refutation is longest.
                let mut refuted = lock(&shared.refuted);
                if refuted.len() + 1 < root.len() {
                    movegen::push_unique(&mut refuted, m);
                }
            }
            Verdict::Safe => lock(&shared.deep_checked).push(m),
            Verdict::Unknown => {}
            // Cut by a new best move (or the main thread's decision): checked again
            // when it is the best once more.
            Verdict::Cut => {
                tried.pop();
            }
        }
    }
}

/// Locks a mutex, ignoring poisoning (a panicked thread left the data usable).
pub fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
