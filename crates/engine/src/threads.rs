//! Helper threads. Helpers run Lazy SMP: they search the same root with the shared
//! transposition table (at staggered depths) while the main thread reports; the
//! deepest completed iteration of any thread decides the move. With three or more
//! threads the last helper is first a threat thread: it looks for the side to move's
//! own VCT at the root, then runs the opponent's VCT after each root move and marks
//! those it refutes, so the main search neither misses a threat win nor plays into one,
//! at no cost to its own nodes; then it joins the Lazy SMP search.
//!
//! With two threads both search (no threat thread): at 200 ms a move (freestyle), two
//! Lazy SMP threads scored +40 (−7..+89) and +38 (−8..+86) Elo against one in two
//! 200-game matches, together 55.6% of 400 games, +39 (+6..+72), and +40 (−7..+89)
//! over 200 games of renju; a threat thread and one searcher scored +17 (−30..+65) over
//! 200 games of freestyle.

use std::sync::atomic::Ordering;

use crate::board::Board;
use crate::search::{Completed, Shared, Worker};
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
                }
                let mut prev = None;
                let mut depth = 1 + (id as i32 % 2);
                while depth <= max_depth && !shared.stop.load(Ordering::Relaxed) {
                    let s = w.iterate(depth, prev);
                    if w.stopped() {
                        break;
                    }
                    prev = Some(s);
                    if let Some(best) = w.root_moves.first() {
                        let mut slot = lock(&shared.helper_best);
                        if slot.as_ref().is_none_or(|c| c.depth < depth) {
                            *slot = Some(Completed {
                                depth,
                                mv: best.mv,
                                score: s,
                                pv: best.pv.clone(),
                            });
                        }
                    }
                    depth += 1;
                }
                w.finish();
            });
        }
        let mut w = Worker::new(board.clone(), shared, 0);
        w.init_root(root);
        let r = main(&mut w);
        w.finish();
        shared.stop.store(true, Ordering::Relaxed);
        r
    })
}

/// The threat thread's work (see the module documentation); returns when done or
/// stopped, and the thread then helps as a Lazy SMP searcher.
fn threat_thread(w: &mut Worker<'_>, root: &[usize]) {
    if let Some(line) = w.own_vct(params::THREAT_THREAD_VCT_NODES) {
        *lock(&w.shared().threat_win) = Some(line);
        return;
    }
    let mut order: Vec<(i32, usize)> = root
        .iter()
        .map(|&m| (movegen::order_score(&w.board, m), m))
        .collect();
    order.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for (_, m) in order {
        if w.shared().stop.load(Ordering::Relaxed) {
            return;
        }
        // Keep one move unrefuted: when every move loses, the main search's choice
        // resists best.
        if lock(&w.shared().refuted).len() + 1 >= root.len() {
            return;
        }
        if w.refutes(m, params::THREAT_THREAD_REFUTE_NODES) {
            let mut refuted = lock(&w.shared().refuted);
            if !refuted.contains(&m) {
                refuted.push(m);
            }
        }
    }
}

/// Locks a mutex, ignoring poisoning (a panicked thread left the data usable).
pub fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
