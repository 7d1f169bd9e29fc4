//! Rule speed: forbidden-point checks and play + win detection.
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use wuzi_rules::{Game, GameConfig, Rule, Size, forbidden, notation};

fn bench(c: &mut Criterion) {
    let size = Size::STANDARD;
    // A crowded renju middle game.
    let moves =
        notation::parse_moves("h8h9j9j8f8i7g7i9h6e9f6k7l6i10i6f9g9g11h10i11i8", size).unwrap();
    let game = Game::from_moves(GameConfig::new(Rule::Renju, size), &moves).unwrap();
    let board = game.board().clone();
    let empties: Vec<_> = board.empty_points().collect();
    c.bench_function("forbidden_kind per point (renju middle game)", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % empties.len();
            black_box(forbidden::forbidden_kind(&board, empties[i]))
        })
    });
    c.bench_function("forbidden_points whole board", |b| {
        b.iter(|| black_box(forbidden::forbidden_points(&board)))
    });
    c.bench_function("play + win check per move (freestyle, 40 moves)", |b| {
        let seq: Vec<_> = (0..40u8)
            .map(|i| size.pos_at((usize::from(i) * 37) % size.cells()))
            .collect();
        b.iter(|| {
            let mut g = Game::new(GameConfig::new(Rule::Freestyle, size)).unwrap();
            for &p in &seq {
                if g.try_play(p).is_err() {
                    break;
                }
            }
            black_box(g.hash())
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
