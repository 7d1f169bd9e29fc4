//! A [`Thinker`] that plays one of the classic one-ply AIs: a cheap, fixed-strength
//! Gomocup brain (`pbrain-wuzi --player classic-rank`) for testing match tools.

use std::sync::atomic::AtomicBool;

use wuzi_engine::ClassicAi;

use crate::think::{EngineSettings, Eval, Progress, ThinkRequest, Thinker, Thought};

/// Plays a classic AI's move; ignores limits (it answers at once).
#[derive(Clone, Copy, Debug)]
pub struct ClassicThinker(pub ClassicAi);

impl Thinker for ClassicThinker {
    fn configure(&mut self, _: EngineSettings) {}

    fn new_game(&mut self) {}

    fn think(
        &mut self,
        request: &ThinkRequest,
        _stop: &AtomicBool,
        _progress: &mut dyn FnMut(&Progress),
    ) -> Thought {
        let best = self
            .0
            .choose_move(&request.config, &request.board, request.to_move);
        Thought {
            best,
            eval: Eval::Value(0),
            lines: best.map(|p| (p, Eval::Value(0))).into_iter().collect(),
            depth: 1,
            nodes: 1,
        }
    }
}
