//! A small match harness for strength checks until `wuzi match` exists:
//! `cargo run --release -p wuzi-engine --example duel -- RULE A B MS GAMES [THREADS_A THREADS_B]`
//! where A and B are player strings (`level10`, `level5`, `classic-rank`, …). Plays the
//! Piskvork openings (testdata/openings/piskvork_openings.txt) with both colours, judges
//! with wuzi-rules and prints the score of A and the slowest move of each side.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use wuzi_engine::{Engine, EngineOptions, PlayerKind, Position, SearchLimits};
use wuzi_rules::{Color, Game, GameConfig, Rule, Size};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rule: Rule = args
        .first()
        .map_or("freestyle", String::as_str)
        .parse()
        .unwrap();
    let a: PlayerKind = args
        .get(1)
        .map_or("level10", String::as_str)
        .parse()
        .unwrap();
    let b: PlayerKind = args
        .get(2)
        .map_or("classic-rank", String::as_str)
        .parse()
        .unwrap();
    let ms: u64 = args.get(3).map_or(Ok(200), |s| s.parse()).unwrap();
    let games: usize = args.get(4).map_or(Ok(10), |s| s.parse()).unwrap();
    let ta: usize = args.get(5).map_or(Ok(1), |s| s.parse()).unwrap();
    let tb: usize = args.get(6).map_or(Ok(1), |s| s.parse()).unwrap();
    let size = Size::STANDARD;
    let openings: Vec<Vec<(i32, i32)>> = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/openings/piskvork_openings.txt"
    ))
    .unwrap()
    .lines()
    .filter(|l| !l.trim().is_empty())
    .map(|l| {
        let n: Vec<i32> = l.split(',').map(|t| t.trim().parse().unwrap()).collect();
        n.chunks(2).map(|c| (c[0], c[1])).collect()
    })
    .collect();
    let mut engines = [
        Engine::new(EngineOptions {
            hash_mb: 32,
            threads: ta,
        }),
        Engine::new(EngineOptions {
            hash_mb: 32,
            threads: tb,
        }),
    ];
    let players = [a, b];
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    let mut slowest = [Duration::ZERO; 2];
    for g in 0..games {
        let opening = &openings[(g / 2) % openings.len()];
        let a_is_black = g % 2 == 0;
        let mut game = Game::new(GameConfig::new(rule, size)).unwrap();
        let c = size.center();
        for &(dx, dy) in opening {
            let p = size.pos(i32::from(c.x) + dx, i32::from(c.y) + dy).unwrap();
            game.try_play(p).unwrap();
        }
        for e in &mut engines {
            e.clear();
        }
        while game.result().is_none() && game.ply() < 200 {
            let side = game.side_to_move();
            let who = usize::from((side == Color::Black) != a_is_black);
            let pos = Position::from_game(&game);
            let t = Instant::now();
            let r = players[who].choose(
                &mut engines[who],
                &pos,
                &SearchLimits::per_move(Duration::from_millis(ms)),
                &AtomicBool::new(false),
                &mut |_| {},
            );
            slowest[who] = slowest[who].max(t.elapsed());
            let Some(m) = r.best else { break };
            if game.try_play(m).is_err() {
                eprintln!("illegal move by {}", players[who]);
                break;
            }
        }
        let winner = game.result().and_then(|r| r.winner);
        let a_color = if a_is_black {
            Color::Black
        } else {
            Color::White
        };
        match winner {
            Some(w) if w == a_color => wins += 1,
            Some(_) => {
                losses += 1;
                eprintln!(
                    "game {g}: {} lost as {a_color}: {}",
                    players[0],
                    game.result().unwrap().describe(size)
                );
                eprintln!(
                    "{}",
                    wuzi_rules::notation::format_moves(
                        &game.moves().iter().map(|m| m.pos).collect::<Vec<_>>(),
                        size,
                        ""
                    )
                );
            }
            None => draws += 1,
        }
    }
    println!(
        "{rule} {} vs {} at {ms} ms: +{wins} -{losses} ={draws}; slowest move {:?} / {:?}",
        players[0], players[1], slowest[0], slowest[1]
    );
}
