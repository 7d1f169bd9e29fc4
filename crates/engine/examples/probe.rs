//! Prints search progress for a position: `probe RULE MOVES MS [THREADS [clear]]`;
//! with `clear` the engine clears (makes and writes its table) before the search.
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use wuzi_engine::{Engine, EngineOptions, Position, SearchLimits};
use wuzi_rules::{Game, GameConfig, Rule, Size, notation};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rule: Rule = args[0].parse().unwrap();
    let size = Size::STANDARD;
    let moves = notation::parse_moves(&args[1], size).unwrap();
    let ms: u64 = args[2].parse().unwrap();
    let threads: usize = args.get(3).map_or(1, |s| s.parse().unwrap());
    let t = Instant::now();
    let _ = wuzi_engine::eval::pattern::PatternTable::get(rule, 5);
    println!("tables {:?}", t.elapsed());
    let game = Game::from_moves(GameConfig::new(rule, size), &moves).unwrap();
    let mut e = Engine::new(EngineOptions {
        hash_mb: 64,
        threads,
    });
    if args.get(4).is_some_and(|a| a == "clear") {
        let t = Instant::now();
        e.clear();
        println!("clear {:?}", t.elapsed());
    }
    let r = e.search(
        &Position::from_game(&game),
        &SearchLimits::per_move(Duration::from_millis(ms)),
        &AtomicBool::new(false),
        &mut |i| {
            let pv: Vec<String> = i.pv.iter().map(|&p| size.notation(p).to_string()).collect();
            println!(
                "depth {} sel {} score {} nodes {} nps {} time {:?} pv {}",
                i.depth,
                i.seldepth,
                i.score,
                i.nodes,
                i.nps,
                i.time,
                pv.join(" ")
            );
        },
    );
    println!(
        "best {} score {} nodes {} time {:?}",
        size.notation(r.best.unwrap()),
        r.score,
        r.nodes,
        r.time
    );
}
