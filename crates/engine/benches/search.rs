//! Search speed: the benchmark positions to a small fixed depth, and the board's
//! incremental play/undo.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, criterion_group, criterion_main};
use wuzi_engine::board::Board;
use wuzi_engine::{Engine, EngineOptions, SearchLimits, bench};

fn search(c: &mut Criterion) {
    let positions = bench::positions();
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        threads: 1,
    });
    let stop = AtomicBool::new(false);
    for (i, bp) in positions
        .iter()
        .enumerate()
        .filter(|(i, _)| [0, 4, 7].contains(i))
    {
        c.bench_function(
            &format!("search depth 5 #{i} {} {}", bp.rule, bp.moves),
            |b| {
                b.iter(|| {
                    engine.clear();
                    black_box(engine.search(
                        &bp.position,
                        &SearchLimits::depth(5),
                        &stop,
                        &mut |_| {},
                    ))
                });
            },
        );
    }
}

fn play_undo(c: &mut Criterion) {
    let bp = &bench::positions()[8];
    let mut board = Board::new(&bp.position);
    let empties: Vec<usize> = board
        .points()
        .iter()
        .copied()
        .filter(|&i| board.is_empty(i) && board.is_candidate(i))
        .collect();
    c.bench_function("board play+undo (renju, 21 stones)", |b| {
        b.iter(|| {
            for &m in &empties {
                board.play(black_box(m));
                board.undo();
            }
        });
    });
}

criterion_group!(benches, search, play_undo);
criterion_main!(benches);
