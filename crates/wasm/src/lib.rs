//! # wuzi-wasm
//!
//! wuzi's rules and engine for the browser. Built with
//! `cargo build --release -p wuzi-wasm --target wasm32-unknown-unknown` into a plain
//! WebAssembly module (no wasm-bindgen): the page's engine worker
//! (`web/js/engine-worker.js`) loads it with `WebAssembly.instantiate`, and the release
//! server embeds it (see `crates/server/build.rs`).
//!
//! The interface is one JSON request in, one JSON answer out ([`handle`]); the module's
//! exports only move bytes across (module `ffi`, wasm32 only):
//!
//! | export | what |
//! |---|---|
//! | `wuzi_alloc(len) -> ptr` | a buffer of `len` bytes for the request |
//! | `wuzi_free(ptr, len)` | gives it back |
//! | `wuzi_call(ptr, len) -> len` | handles the request, returns the answer's length |
//! | `wuzi_answer() -> ptr` | where the answer is (valid until the next call) |
//!
//! and it imports from `env`: `wuzi_now() -> f64` (milliseconds, `performance.now()`)
//! and `wuzi_progress(ptr, len)` (a progress report, JSON, during a search). The
//! search is single-threaded there: wasm32-unknown-unknown has no threads.
//!
//! Requests (`cmd` says which):
//! - `{"cmd":"judge","game":G}`: the game's state (side to move, result, forbidden
//!   points), or `{"error":…,"index":i}` naming the move that cannot be played: the
//!   page's referee when the server cannot be reached.
//! - `{"cmd":"think","game":G,"player":"level5","ms":700,"nodes":…,"depth":…,"multipv":1}`:
//!   a search (all limits optional; `player` absent = full strength), answered as
//!   the server's analysis (`best`, `score`, `score_text`, `pv`, `depth`, `nodes`,
//!   `time_ms`, `nps`), with progress reports as its `thinking` messages.
//! - `{"cmd":"solve","game":G,"kind":"vcf"|"vct","nodes":…,"ms":…}`: the threat
//!   solver: `{"found":bool,"line":[…]}`.
//! - `{"cmd":"bench","depth":8,"hash_mb":16}`: `wuzi bench` (same positions, same node
//!   signature): `{"nodes","time_ms","nps","lines":[…]}`.
//!
//! `G` is `{"rule":"renju","width":15,"height":15,"k":5,"moves":["h8","h9"],
//! "walls":[…],"bubbles":[…],"bubble_target":7}` (points in renju notation; `k`,
//! `walls` and `bubbles` optional). A set-up position (the analysis board's) adds
//! `"black":[…],"white":[…],"to_move":"white"`; `moves` are then played from it.
#![deny(missing_docs)]

use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use wuzi_engine::{Engine, EngineOptions, PlayerKind, Position, Score, SearchInfo, SearchLimits};
use wuzi_rules::{Board, Cell, Color, EndReason, Game, GameConfig, Pos, Rule, Size, Variant};

#[cfg(target_arch = "wasm32")]
pub mod ffi;

/// Hash table of the browser's engine, MiB (a page should not take much memory).
pub const HASH_MB: usize = 16;

/// A game as the page describes it.
#[derive(Clone, Debug, Deserialize)]
pub struct GameSpec {
    /// The rule.
    pub rule: Rule,
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// Stones in a row that win.
    #[serde(default = "five")]
    pub k: u8,
    /// Black's stones set up before the moves (the analysis board's positions).
    #[serde(default)]
    pub black: Vec<String>,
    /// White's stones set up before the moves.
    #[serde(default)]
    pub white: Vec<String>,
    /// Who moves first after a set-up position (default Black).
    #[serde(default)]
    pub to_move: Option<Color>,
    /// The moves from the start (or the set-up position), in renju notation.
    #[serde(default)]
    pub moves: Vec<String>,
    /// Rock: the walls.
    #[serde(default)]
    pub walls: Vec<String>,
    /// Ocean: the bubbles.
    #[serde(default)]
    pub bubbles: Vec<String>,
    /// Ocean: bubbles to hold to win.
    #[serde(default)]
    pub bubble_target: Option<u8>,
}

const fn five() -> u8 {
    5
}

/// A request to the module.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "cmd", rename_all = "lowercase")]
pub enum Request {
    /// The state of a game.
    Judge {
        /// The game.
        game: GameSpec,
    },
    /// A search.
    Think {
        /// The position.
        game: GameSpec,
        /// Who plays (`level1`…`level10`, `classic-…`); absent: full strength.
        #[serde(default)]
        player: Option<String>,
        /// Time limit, ms.
        #[serde(default)]
        ms: Option<u64>,
        /// Node limit.
        #[serde(default)]
        nodes: Option<u64>,
        /// Depth limit.
        #[serde(default)]
        depth: Option<u32>,
        /// Lines to report.
        #[serde(default)]
        multipv: Option<usize>,
    },
    /// The threat solver.
    Solve {
        /// The position.
        game: GameSpec,
        /// `vcf` or `vct`.
        kind: String,
        /// Node limit.
        #[serde(default)]
        nodes: Option<u64>,
        /// Time limit, ms.
        #[serde(default)]
        ms: Option<u64>,
    },
    /// The search benchmark.
    Bench {
        /// Depth (default as `wuzi bench`).
        #[serde(default)]
        depth: Option<u32>,
        /// Hash table, MiB (default as `wuzi bench`).
        #[serde(default)]
        hash_mb: Option<usize>,
    },
}

/// A point as the server shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PointView {
    /// Column from the left, 0-based.
    pub x: u8,
    /// Row from the top, 0-based.
    pub y: u8,
    /// Renju notation.
    pub name: String,
}

fn point(p: Pos, size: Size) -> PointView {
    PointView {
        x: p.x,
        y: p.y,
        name: size.notation(p).to_string(),
    }
}

/// The one engine of the module: its table and pattern tables live between requests.
static ENGINE: Mutex<Option<Engine>> = Mutex::new(None);

fn with_engine<R>(f: impl FnOnce(&mut Engine) -> R) -> R {
    let mut guard = ENGINE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let engine = guard.get_or_insert_with(|| {
        Engine::new(EngineOptions {
            hash_mb: HASH_MB,
            threads: 1,
        })
    });
    f(engine)
}

/// Handles one JSON request and returns the JSON answer (`{"error": …}` when the
/// request cannot be served). `progress` gets the search's progress reports.
pub fn handle(request: &str, progress: &mut dyn FnMut(&str)) -> String {
    let answer = match serde_json::from_str::<Request>(request) {
        Ok(r) => run(r, progress),
        Err(e) => Err(json!({ "error": format!("bad request: {e}") })),
    };
    answer.unwrap_or_else(|e| e).to_string()
}

fn run(request: Request, progress: &mut dyn FnMut(&str)) -> Result<Value, Value> {
    match request {
        Request::Judge { game } => Ok(state(&build(&game)?)),
        Request::Think {
            game,
            player,
            ms,
            nodes,
            depth,
            multipv,
        } => {
            let game = build(&game)?;
            let player = match player {
                Some(p) => p
                    .parse::<PlayerKind>()
                    .map_err(|e| json!({ "error": e.to_string() }))?,
                None => PlayerKind::STRONGEST,
            };
            let limits = SearchLimits {
                time: ms.map(Duration::from_millis),
                nodes,
                depth,
                multipv: multipv.unwrap_or(1).clamp(1, 5),
                ..SearchLimits::default()
            };
            Ok(think(&game, player, &limits, progress))
        }
        Request::Solve {
            game,
            kind,
            nodes,
            ms,
        } => {
            let game = build(&game)?;
            let limits = SearchLimits {
                time: ms.map(Duration::from_millis),
                nodes: Some(nodes.unwrap_or(200_000)),
                ..SearchLimits::default()
            };
            let pos = Position::from_game(&game);
            let line = match kind.as_str() {
                "vcf" => wuzi_engine::vcf(&pos, &limits),
                "vct" => wuzi_engine::vct(&pos, &limits),
                other => {
                    return Err(
                        json!({ "error": format!("unknown solver {other:?} (vcf or vct)") }),
                    );
                }
            };
            let size = game.size();
            Ok(json!({
                "kind": kind,
                "found": line.is_some(),
                "line": line.unwrap_or_default().into_iter().map(|p| point(p, size)).collect::<Vec<_>>(),
                "side_to_move": game.side_to_move(),
            }))
        }
        Request::Bench { depth, hash_mb } => {
            let depth = depth
                .unwrap_or(wuzi_engine::bench::DEFAULT_DEPTH)
                .clamp(1, 20);
            let report = wuzi_engine::bench::run(depth, 1, hash_mb.unwrap_or(16).clamp(1, 256));
            let lines: Vec<Value> = report
                .lines
                .iter()
                .map(|l| {
                    let size = l.position.position.size();
                    json!({
                        "rule": l.position.rule,
                        "moves": l.position.moves,
                        "best": l.best.map(|p| size.notation(p).to_string()),
                        "nodes": l.nodes,
                        "time_ms": l.time.as_secs_f64() * 1000.0,
                    })
                })
                .collect();
            let secs = report.time.as_secs_f64();
            Ok(json!({
                "depth": depth,
                "nodes": report.nodes,
                "time_ms": secs * 1000.0,
                "nps": if secs > 0.0 { (report.nodes as f64 / secs) as u64 } else { 0 },
                "lines": lines,
            }))
        }
    }
}

/// The game of a spec, or the error naming what is wrong.
fn build(spec: &GameSpec) -> Result<Game, Value> {
    let err = |e: String| json!({ "error": e });
    let size = Size::new(spec.width, spec.height).map_err(|e| err(e.to_string()))?;
    let points = |names: &[String]| -> Result<Vec<Pos>, Value> {
        names
            .iter()
            .map(|n| size.parse_pos(n).map_err(|e| err(format!("{n:?}: {e}"))))
            .collect()
    };
    let mut config = GameConfig::new(spec.rule, size);
    config.k = spec.k;
    if !spec.walls.is_empty() {
        config.variant = Variant::Rock {
            seed: 0,
            walls: points(&spec.walls)?,
        };
    } else if !spec.bubbles.is_empty() {
        config.variant = Variant::Ocean {
            seed: 0,
            bubbles: points(&spec.bubbles)?,
            target: spec
                .bubble_target
                .unwrap_or(wuzi_rules::variant::OCEAN_TARGET),
        };
    }
    let mut game = if spec.black.is_empty() && spec.white.is_empty() && spec.to_move.is_none() {
        Game::new(config).map_err(|e| err(e.to_string()))?
    } else {
        let mut board = Board::new(size);
        for (names, cell) in [(&spec.black, Cell::Black), (&spec.white, Cell::White)] {
            for p in points(names)? {
                if board.get(p) != Cell::Empty {
                    return Err(err(format!("two stones on {}", size.notation(p))));
                }
                board.set(p, cell);
            }
        }
        Game::from_setup(config, &board, spec.to_move.unwrap_or(Color::Black))
            .map_err(|e| err(e.to_string()))?
    };
    for (index, name) in spec.moves.iter().enumerate() {
        let p = size
            .parse_pos(name)
            .map_err(|e| json!({ "error": format!("{name:?}: {e}"), "index": index }))?;
        game.try_play(p)
            .map_err(|e| json!({ "error": e.to_string(), "index": index }))?;
    }
    Ok(game)
}

/// What the page shows of a game: as the server's game view (`side_to_move`, `ply`,
/// `moves`, `result`, `result_text`, `forbidden`).
#[must_use]
pub fn state(game: &Game) -> Value {
    let size = game.size();
    let result = game.result().map(|r| {
        let mut v = json!({ "winner": r.winner });
        let reason = match &r.reason {
            EndReason::Five { cells } => {
                v["cells"] = json!(cells.iter().map(|&c| point(c, size)).collect::<Vec<_>>());
                "five"
            }
            EndReason::Bubbles { count } => {
                v["count"] = json!(count);
                "bubbles"
            }
            EndReason::Forbidden { pos, kind } => {
                v["point"] = json!(point(*pos, size));
                v["kind"] = json!(kind.code());
                "forbidden"
            }
            EndReason::Resignation => "resignation",
            EndReason::Time => "time",
            EndReason::BoardFull => "board-full",
            EndReason::Agreement => "agreement",
            EndReason::Aborted => "aborted",
            EndReason::Abandoned => "abandoned",
        };
        v["reason"] = json!(reason);
        v
    });
    let forbidden: Vec<Value> = if game.is_over() {
        Vec::new()
    } else {
        game.forbidden_points()
            .into_iter()
            .map(|(p, kind)| {
                let mut v = json!(point(p, size));
                v["kind"] = json!(kind.code());
                v
            })
            .collect()
    };
    let moves: Vec<Value> = game
        .moves()
        .iter()
        .map(|m| {
            let mut v = json!(point(m.pos, size));
            v["color"] = json!(m.color);
            v
        })
        .collect();
    json!({
        "ply": game.ply(),
        "side_to_move": game.side_to_move(),
        "moves": moves,
        "result": result,
        "result_text": game.result().map(|r| r.describe(size)),
        "forbidden": forbidden,
    })
}

/// A short text for a score, as the server writes it: `+0.35`, `win in 4`.
fn score_text(s: Score) -> String {
    match s {
        Score::Eval(v) => format!("{:+.2}", f64::from(v) / 100.0),
        other => other.to_string(),
    }
}

fn score_view(s: Score) -> Value {
    match s {
        Score::Eval(value) => json!({ "kind": "eval", "value": value }),
        Score::Win(plies) => json!({ "kind": "win", "plies": plies }),
        Score::Loss(plies) => json!({ "kind": "loss", "plies": plies }),
    }
}

fn black_probability(s: Score, to_move: Color) -> f32 {
    let p = s.win_probability();
    if to_move == Color::Black { p } else { 1.0 - p }
}

fn think(
    game: &Game,
    player: PlayerKind,
    limits: &SearchLimits,
    progress: &mut dyn FnMut(&str),
) -> Value {
    let pos = Position::from_game(game);
    let size = game.size();
    let to_move = game.side_to_move();
    let stop = AtomicBool::new(false);
    let mut on_info = |info: &SearchInfo| {
        let v = json!({
            "type": "thinking",
            "multipv": info.multipv,
            "depth": info.depth,
            "score": score_view(info.score),
            "score_text": score_text(info.score),
            "black_win_probability": black_probability(info.score, to_move),
            "best": info.pv.first().map(|&p| point(p, size)),
            "pv": info.pv.iter().map(|&p| point(p, size)).collect::<Vec<_>>(),
            "nodes": info.nodes,
            "nps": info.nps,
            "time_ms": info.time.as_millis() as u64,
        });
        progress(&v.to_string());
    };
    let r = if game.is_over() {
        None
    } else {
        Some(with_engine(|engine| {
            player.choose(engine, &pos, limits, &stop, &mut on_info)
        }))
    };
    let Some(r) = r else {
        return json!({ "error": "the game is over" });
    };
    let secs = r.time.as_secs_f64();
    json!({
        "best": r.best.map(|p| point(p, size)),
        "score": score_view(r.score),
        "score_text": score_text(r.score),
        "black_win_probability": black_probability(r.score, to_move),
        "pv": r.pv.iter().map(|&p| point(p, size)).collect::<Vec<_>>(),
        "depth": r.depth,
        "nodes": r.nodes,
        "time_ms": r.time.as_millis() as u64,
        "nps": if secs > 0.0 { (r.nodes as f64 / secs) as u64 } else { 0 },
        "side_to_move": to_move,
        "player": player.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(request: Value) -> Value {
        let mut reports = Vec::new();
        let answer = handle(&request.to_string(), &mut |r| reports.push(r.to_string()));
        serde_json::from_str(&answer).expect("the answer is JSON")
    }

    #[test]
    fn a_set_up_position_is_judged_searched_and_solved() {
        // Black's broken three f9 g9 · i9 set up, Black to move: h9 makes the open four.
        let game = json!({"rule": "freestyle", "width": 15, "height": 15,
            "black": ["f9", "g9", "i9"], "white": ["c12", "m3"], "to_move": "black"});
        let a = ask(json!({"cmd": "judge", "game": game}));
        assert_eq!(a["side_to_move"], "black", "{a}");
        assert_eq!(a["ply"], 0);
        let s = ask(json!({"cmd": "solve", "game": game, "kind": "vcf"}));
        assert_eq!(s["found"], true, "{s}");
        assert_eq!(s["line"][0]["name"], "h9");
        // White to move in the same stones: no VCF for White.
        let mut w = game.clone();
        w["to_move"] = json!("white");
        assert_eq!(
            ask(json!({"cmd": "solve", "game": w, "kind": "vcf"}))["found"],
            false
        );
        // Moves after the set-up: h9, White elsewhere, j9 makes five.
        let mut g = game.clone();
        g["moves"] = json!(["h9", "a1", "j9"]);
        let a = ask(json!({"cmd": "judge", "game": g}));
        assert_eq!(a["result"]["winner"], "black", "{a}");
        // Two stones on one point, a point off the board: errors, no panic.
        let mut bad = game.clone();
        bad["white"] = json!(["f9"]);
        assert!(ask(json!({"cmd": "judge", "game": bad}))["error"].is_string());
        bad["white"] = json!(["z99"]);
        assert!(ask(json!({"cmd": "judge", "game": bad}))["error"].is_string());
    }

    #[test]
    fn judges_a_renju_game() {
        // Black's five wins.
        let a = ask(
            json!({"cmd": "judge", "game": {"rule": "renju", "width": 15, "height": 15,
            "moves": ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"]}}),
        );
        assert_eq!(a["result"]["winner"], "black");
        assert_eq!(a["result"]["reason"], "five");
        assert_eq!(a["result"]["cells"].as_array().unwrap().len(), 5);
        assert_eq!(a["result_text"], "black wins: 5 in a row h8-l8");
        let a = ask(
            json!({"cmd": "judge", "game": {"rule": "renju", "width": 15, "height": 15,
            "moves": ["h8", "a1", "i8", "a2", "j10", "a3", "j11", "a4"]}}),
        );
        assert_eq!(a["side_to_move"], "black");
        assert!(a["result"].is_null());
        let kinds: Vec<&str> = a["forbidden"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["kind"].as_str().unwrap())
            .collect();
        // j8 makes the three h8-i8-j8 and the split three j8-j10-j11.
        assert!(
            a["forbidden"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["name"] == "j8"),
            "{a}"
        );
        assert!(kinds.contains(&"33"), "{a}");
    }

    #[test]
    fn names_the_move_that_cannot_be_played() {
        let a = ask(
            json!({"cmd": "judge", "game": {"rule": "freestyle", "width": 15, "height": 15,
            "moves": ["h8", "h8"]}}),
        );
        assert_eq!(a["index"], 1);
        assert!(a["error"].as_str().unwrap().contains("occupied"));
        let a = ask(
            json!({"cmd": "judge", "game": {"rule": "freestyle", "width": 15, "height": 15,
            "moves": ["z99"]}}),
        );
        assert_eq!(a["index"], 0);
        let a = ask(json!({"cmd": "nonsense"}));
        assert!(a["error"].as_str().unwrap().starts_with("bad request"));
    }

    #[test]
    fn thinks_and_reports_progress() {
        let mut reports = Vec::new();
        let request = json!({"cmd": "think", "game": {"rule": "freestyle", "width": 15, "height": 15,
            "moves": ["h8", "a1", "i8", "a2", "j8", "a3"]}, "depth": 4});
        let a: Value = serde_json::from_str(&handle(&request.to_string(), &mut |r| {
            reports.push(r.to_string())
        }))
        .unwrap();
        // An open three: Black makes it an open four (or a four that wins by VCF).
        assert!(
            ["g8", "k8", "f8", "l8"].contains(&a["best"]["name"].as_str().unwrap()),
            "{a}"
        );
        assert_eq!(a["score"]["kind"], "win");
        let a = ask(json!({"cmd": "think", "player": "level3", "nodes": 5000,
            "game": {"rule": "renju", "width": 15, "height": 15, "moves": ["h8"]}}));
        assert!(a["best"]["name"].is_string(), "{a}");
        assert_eq!(a["player"], "level3");
        let _ = reports;
    }

    #[test]
    fn solves_a_vcf() {
        // Black: h8 i8 j8 (an open three on row 8) and h9 i10: fours lead to five.
        let a = ask(
            json!({"cmd": "solve", "kind": "vcf", "game": {"rule": "freestyle",
            "width": 15, "height": 15,
            "moves": ["h8", "a1", "i8", "a15", "j8", "o1", "k9", "o15", "k10", "b1", "k11", "c1"]}}),
        );
        assert_eq!(a["found"], true, "{a}");
        assert!(!a["line"].as_array().unwrap().is_empty());
        let a = ask(
            json!({"cmd": "solve", "kind": "vcf", "game": {"rule": "freestyle",
            "width": 15, "height": 15, "moves": ["h8"]}}),
        );
        assert_eq!(a["found"], false);
    }
}
