// The computer of an online game, played by the engine in this browser (engine.js, the same engine
// compiled to WebAssembly) when the game was made so (`computer.in_browser`: unrated, free opening,
// no clock; see the new-game request in main.js). The server still holds and judges the game: this
// page searches the computer's move when it is due and sends it (POST /api/games/{id}/computer-move);
// the server checks that it comes from the person who plays the game, on the computer's turn, for
// the position on the board, and that the rules allow it, and searches nothing itself.
//
// Only the page of the game's person searches; a spectator sees the computer "thinking" until the
// move arrives. Two pages of the same person both search, and the second answer is refused as stale.

import { analyse, moveMs, positionOf, stop as stopEngine } from './engine.js';

/// Whether the game `v` (a normalized view) is one whose computer plays in the browser.
export function computerInBrowser(v) {
  return !!v && !v.local && !v.draft && !!v.computer && v.computer.in_browser === true;
}

/// Whether the computer of `v` is due to move now (the page's own search is what it waits for).
export function computerDue(v) {
  return computerInBrowser(v) && !v.result && !!v.toAct && v.toAct.who === 'computer' && (v.toAct.action || 'move') === 'move';
}

/// Drives the computer of the game on screen. `send(id, pos, ply)` posts the move (api.computerMove),
/// `onSent(view)` shows the server's answer, `onError(e, view)` a failure (status 0: the server
/// cannot be reached; 409: the position moved on meanwhile).
export function initBrowserComputer(store, { send, onSent, onError }) {
  /// The move in progress: `{ key, best, phase }` (`best`: the best move of its last full depth;
  /// `phase`: 'search' in the worker, then 'send' to the server).
  let running = null;
  /// The position last answered (or failed): not searched again until the server's game changes.
  let lastKey = null;
  let token = 0;

  /// A position of the server's game: a restart or an undo back to the same number of stones is
  /// another (the game was written since).
  const keyOf = (v) => `${v.id}:${v.ply}:${v.updatedAt}`;

  function mine(v) {
    const me = store.me && store.me.identity;
    return !!me && !!v.owners && (v.owners.first === me || v.owners.second === me);
  }

  async function search(v) {
    const key = keyOf(v);
    const me = ++token;
    const player = v.computer.player;
    running = { key, best: null, phase: 'search' };
    let move = null;
    try {
      const r = await analyse(positionOf(v), {
        player,
        ms: moveMs(player),
        onProgress: (info) => {
          if (me !== token) return;
          if (info.pv && info.pv.length && (info.multipv || 1) <= 1) running.best = info.pv[0].name || null;
          store.setAnalysis({ ...info, purpose: 'move' });
        },
      });
      move = r.move;
    } catch (e) {
      // Cancelled (a new game, another position, the game going on in this page): dropped.
      if (me !== token || !running) return;
      if (!running.now) {
        // The engine cannot run here (no WebAssembly, the worker failed): say so; the move waits
        // for a page that can search it.
        running = null;
        lastKey = key;
        onError(e, v);
        return;
      }
      // "Move now": the best move so far.
      move = running.best;
    }
    if (me !== token) return;
    lastKey = key;
    const cur = store.view;
    if (!move || !cur || keyOf(cur) !== key) {
      running = null;
      return;
    }
    running.phase = 'send';
    try {
      const view = await send(v.id, move, v.ply);
      if (me === token) running = null;
      onSent(view);
    } catch (e) {
      if (me === token) running = null;
      onError(e, v);
    }
  }

  /// Starts the search when the game on screen owes the computer's move (and this page plays it).
  function check() {
    const v = store.view;
    if (!computerDue(v) || !mine(v)) return;
    const key = keyOf(v);
    if ((running && running.key === key) || key === lastKey) return;
    if (running) cancel();
    search(v);
  }

  /// Drops the search in progress (the game on screen changed, or went on in this page).
  function cancel() {
    if (!running) return;
    token++;
    // Only a search is stopped (the worker is ended); a move on its way to the server goes on.
    if (running.phase === 'search') stopEngine();
    running = null;
  }

  store.subscribe(() => {
    const v = store.view;
    if (running && (!v || keyOf(v) !== running.key || !computerDue(v))) cancel();
    check();
  });

  return {
    check,
    cancel,
    /// "Move now": the best move of the last depth searched, at once (the worker cannot be
    /// interrupted, so it is ended). Nothing before the first depth is done.
    moveNow() {
      if (!running || running.phase !== 'search' || !running.best) return false;
      running.now = true;
      stopEngine();
      return true;
    },
    /// Whether this page searches the computer's move now.
    searching: () => !!running,
  };
}
