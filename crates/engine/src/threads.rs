//! Lazy SMP: helper threads search the same root with the shared transposition table
//! (at staggered depths) while the main thread reports; the deepest completed
//! iteration of any thread decides the move.

use std::sync::atomic::Ordering;

use crate::board::Board;
use crate::search::{Completed, Shared, Worker};

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
                let mut prev = None;
                let mut depth = 1 + (id as i32 % 2);
                while depth <= max_depth && !shared.stop.load(Ordering::Relaxed) {
                    let s = w.iterate(depth, prev);
                    if w.stopped() {
                        break;
                    }
                    prev = Some(s);
                    if let Some(best) = w.root_moves.first() {
                        let mut slot = shared
                            .helper_best
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner);
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
