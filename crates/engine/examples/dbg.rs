use std::sync::atomic::AtomicBool;
use wuzi_engine::{Engine, EngineOptions, Position, SearchLimits};
use wuzi_rules::{Board, Color, GameConfig, Rule, Size};
fn main() {
    let rows = [
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        ".......X.......",
        ".......X.......",
        ".....XX........",
        "...............",
        "...............",
        "..O.O.O...O....",
        "...............",
        "...............",
        "...............",
        "...............",
    ];
    let board = Board::from_rows(&rows).unwrap();
    let pos = Position::from_board(
        &GameConfig::new(Rule::Freestyle, Size::STANDARD),
        &board,
        Color::Black,
    );
    for d in 1..=5 {
        let mut e = Engine::new(EngineOptions::default());
        let r = e.search(
            &pos,
            &SearchLimits::depth(d),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        println!(
            "depth {d}: {:?} {} {:?}",
            r.best.map(|p| Size::STANDARD.notation(p).to_string()),
            r.score,
            r.pv.iter()
                .map(|&p| Size::STANDARD.notation(p).to_string())
                .collect::<Vec<_>>()
        );
    }
}
