//! The wuzi engine as a [`Thinker`].

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use wuzi_engine::{Engine, EngineOptions, Position, Score, SearchLimits};
use wuzi_rules::Pos;

use crate::think::{EngineSettings, Eval, Progress, ThinkRequest, Thinker, Thought};

/// Runs [`wuzi_engine::Engine`] searches for the session.
#[derive(Debug)]
pub struct EngineThinker {
    engine: Engine,
}

impl EngineThinker {
    /// An engine with these settings (the hash table is taken lazily by the engine).
    #[must_use]
    pub fn new(settings: EngineSettings) -> EngineThinker {
        EngineThinker {
            engine: Engine::new(options(settings)),
        }
    }
}

fn options(s: EngineSettings) -> EngineOptions {
    EngineOptions {
        hash_mb: s.hash_mb,
        threads: s.threads,
    }
}

/// The protocol's view of an engine score.
#[must_use]
pub fn eval_of(score: Score) -> Eval {
    match score {
        Score::Eval(v) => Eval::Value(v),
        Score::Win(n) => Eval::Win(n),
        Score::Loss(n) => Eval::Loss(n),
    }
}

impl Thinker for EngineThinker {
    fn configure(&mut self, settings: EngineSettings) {
        let wanted = options(settings);
        let had = self.engine.options();
        if had != wanted {
            self.engine.set_options(wanted);
            if had.hash_mb != wanted.hash_mb {
                // Make and write the new table now, between commands, rather than
                // in the next move's time.
                self.engine.clear();
            }
        }
    }

    fn new_game(&mut self) {
        self.engine.clear();
    }

    fn think(
        &mut self,
        request: &ThinkRequest,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> Thought {
        let position = Position::from_board(&request.config, &request.board, request.to_move);
        let limits = SearchLimits {
            time: request.remaining(Instant::now()),
            clock: None,
            depth: request.budget.depth,
            nodes: request.budget.nodes,
            multipv: request.multipv,
        };
        // The latest report of each of the N best lines.
        let mut lines: Vec<Option<(Pos, Eval)>> = vec![None; request.multipv.max(1)];
        let result = self.engine.search(&position, &limits, stop, &mut |info| {
            let eval = eval_of(info.score);
            if let (Some(slot), Some(&first)) =
                (lines.get_mut(info.multipv.max(1) - 1), info.pv.first())
            {
                *slot = Some((first, eval));
            }
            progress(&Progress {
                depth: info.depth,
                seldepth: info.seldepth,
                eval,
                nodes: info.nodes,
                nps: info.nps,
                time: info.time,
                pv: info.pv.clone(),
                multipv: info.multipv,
            });
        });
        let eval = eval_of(result.score);
        let mut lines: Vec<(Pos, Eval)> = lines.into_iter().flatten().collect();
        if let Some(best) = result.best
            && lines.first().map(|l| l.0) != Some(best)
        {
            lines.retain(|l| l.0 != best);
            lines.insert(0, (best, eval));
        }
        Thought {
            best: result.best,
            eval,
            lines,
            depth: result.depth,
            nodes: result.nodes,
        }
    }
}
