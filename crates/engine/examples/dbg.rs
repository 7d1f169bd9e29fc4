use std::sync::atomic::AtomicBool;
use wuzi_engine::{Engine, EngineOptions, Position, SearchLimits};
use wuzi_rules::{Board, Color, GameConfig, Rule, Size};
fn main() {
    let rows = [
        "...............","...............","...............","...............",
        "....OX.XX.O....","....OX.X.X.....","....OXXO.OX....",".....OXXO......",
        "....OOXX.OX....",".....OOX.OO....",".....OX..OX....","...............",
        "...............","...............","...............",
    ];
    let board = Board::from_rows(&rows).unwrap();
    let pos = Position::from_board(&GameConfig::new(Rule::Renju, Size::STANDARD), &board, Color::Black);
    let mut b = wuzi_engine::board::Board::new(&pos);
    let mut w = Vec::new();
    b.win_points(Color::White, &mut w);
    println!("white wins {:?}", w.iter().map(|&i| Size::STANDARD.notation(wuzi_engine::board::pos_of(i)).to_string()).collect::<Vec<_>>());
    let mut mv = Vec::new();
    let r = wuzi_engine::movegen::generate(&mut b, &mut mv);
    println!("restricted {r} moves {:?}", mv.iter().map(|&i| Size::STANDARD.notation(wuzi_engine::board::pos_of(i)).to_string()).collect::<Vec<_>>());
    let mut e = Engine::new(EngineOptions::default());
    let r = e.search(&pos, &SearchLimits::depth(3), &AtomicBool::new(false), &mut |i| println!("{:?} {}", i.pv.iter().map(|&p| Size::STANDARD.notation(p).to_string()).collect::<Vec<_>>(), i.score));
    println!("{:?} {} {:?}", r.best.map(|p| Size::STANDARD.notation(p).to_string()), r.score, r.pv.iter().map(|&p| Size::STANDARD.notation(p).to_string()).collect::<Vec<_>>());
    println!("{:?}", wuzi_rules::forbidden_points(&board).iter().map(|(p,k)| format!("{}:{}", Size::STANDARD.notation(*p), k.code())).collect::<Vec<_>>());
}
#[allow(dead_code)]
fn x() {}
