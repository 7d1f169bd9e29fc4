// The engine in this browser: wuzi's rules and engine compiled to WebAssembly (crates/wasm),
// run by a Web Worker (engine-worker.js) so a search never blocks the page. The page uses it to
// play the computer when the server cannot be reached (see local.js); the server stays the judge
// of every game it holds.
//
//   import { analyse } from './engine.js';
//   const r = await analyse({ rule: 'renju', width: 15, height: 15, moves: ['h8', 'i9'] },
//     { ms: 1000, onProgress: (info) => console.log(info.depth, info.score_text, info.pv) });
//   r.move // 'h10'; also r.score, r.score_text, r.depth, r.nodes, r.nps, r.time_ms, r.pv
//
// A position is `{ rule, width, height, k, moves, walls, bubbles, bubble_target }` with points
// in renju notation (`positionOf(view)` makes one from the page's game).

import { pointName } from './coords.js';

/// The server's time per move for each level (crates/server/src/engine.rs, `LEVEL_MS`).
const LEVEL_MS = [150, 250, 350, 500, 700, 1000, 1500, 2000, 3000, 5000];
/// What the classic AIs get there.
const CLASSIC_MS = 500;

let worker = null;
let seq = 0;
const pending = new Map();
let availability = null;

function startWorker() {
  worker = new Worker(new URL('./engine-worker.js', import.meta.url));
  worker.onmessage = (event) => {
    const { id, progress, answer, error, fatal } = event.data;
    const p = pending.get(id);
    if (!p) return;
    if (progress) {
      if (p.onProgress) p.onProgress(progress);
      return;
    }
    pending.delete(id);
    if (fatal) stop();
    if (error !== undefined) p.reject(new Error(error));
    else p.resolve(answer);
  };
  worker.onerror = (e) => {
    const err = new Error((e && e.message) || 'engine worker failed');
    stop(err);
  };
}

/// Sends one request (the JSON of crates/wasm) to the worker; the answer, or an error.
export function request(req, onProgress) {
  if (!worker) startWorker();
  const id = ++seq;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject, onProgress });
    worker.postMessage({ id, request: req });
  });
}

/// Stops the engine at once (the worker is ended; a search cannot be interrupted inside it):
/// the requests waiting fail, and the next request starts a fresh worker.
export function stop(reason = new Error('stopped')) {
  if (worker) worker.terminate();
  worker = null;
  for (const p of pending.values()) p.reject(reason);
  pending.clear();
}

/// Whether the engine can run here (the server embeds it in release builds): asked once.
export function available() {
  if (!availability) {
    availability = typeof WebAssembly === 'object' && typeof Worker === 'function'
      ? request({ cmd: 'judge', game: { rule: 'freestyle', width: 15, height: 15 } }).then(
          (a) => !!a && a.side_to_move === 'black',
          () => false,
        )
      : Promise.resolve(false);
    availability.then((ok) => {
      if (!ok) availability = null; // ask again later (the cache may have it once online)
    });
  }
  return availability;
}

/// The engine's position for the page's game view (`moves`: the first `ply` of them).
export function positionOf(v, ply = v.moves.length) {
  return {
    rule: v.rule,
    width: v.width,
    height: v.height,
    k: v.k,
    moves: v.moves.slice(0, ply).map((m) => m.name),
    walls: (v.walls || []).map((p) => p.name || pointName(p, v.height)),
    bubbles: (v.bubbles || []).map((p) => p.name || pointName(p, v.height)),
    bubble_target: v.bubbleTarget ?? undefined,
  };
}

/// Searches `position`: `{ ms, nodes, depth }` limit it (none: full strength for a second),
/// `player` plays as a level (`level5`) or classic AI, `multipv` reports that many lines, and
/// `onProgress(info)` gets each completed depth (`depth`, `score`, `score_text`, `nodes`, `nps`,
/// `pv`, `multipv`). Answers `{ move, best, score, score_text, black_win_probability, depth,
/// nodes, nps, time_ms, pv }`.
export async function analyse(position, { ms, nodes, depth, player, multipv, onProgress } = {}) {
  const limited = ms != null || nodes != null || depth != null;
  const answer = await request(
    { cmd: 'think', game: position, player, ms: limited ? ms : 1000, nodes, depth, multipv },
    onProgress,
  );
  if (answer.error) throw new Error(answer.error);
  return { ...answer, move: answer.best ? answer.best.name : null };
}

/// The game's state by the rules: `{ ply, side_to_move, moves, result, result_text, forbidden }`,
/// or `{ error, index }` naming the move that cannot be played.
export function judge(position) {
  return request({ cmd: 'judge', game: position });
}

/// The threat solver: `kind` 'vcf' or 'vct'; answers `{ found, line }`.
export function solve(position, kind, { nodes, ms } = {}) {
  return request({ cmd: 'solve', game: position, kind, nodes, ms });
}

/// `wuzi bench` in the browser: `{ nodes, time_ms, nps, lines }`.
export function bench(depth, hashMb) {
  return request({ cmd: 'bench', depth, hash_mb: hashMb });
}

/// The time the server gives `player` ('level5', 'classic-rank') for a move, in ms.
export function moveMs(player) {
  const m = /^(?:level)?(\d+)$/.exec(String(player || ''));
  if (m) return LEVEL_MS[Math.min(10, Math.max(1, Number(m[1]))) - 1];
  return CLASSIC_MS;
}
