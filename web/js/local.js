// A game that goes on in this page when the server cannot be reached: against the computer (or
// two players at this screen), unrated, free opening, no clock. The rules and the computer's moves come
// from wuzi's own code compiled to WebAssembly (engine.js), so the page still judges nothing by
// itself; the server is simply not asked. Games the server holds stay the server's: a game that
// goes local leaves the server's copy where it was.

import { judge, analyse, moveMs, positionOf, stop as stopEngine, available } from './engine.js';
import { pointName } from './coords.js';

/// Whether the game on screen could go on in this page: no clock (clocks are the server's).
export function canGoLocal(v) {
  return !!v && !v.result && !v.rated && !v.clock && (v.mode === 'computer' || v.mode === 'local')
    && (!v.openingRule || v.openingRule === 'free') && !(v.mode === 'computer' && !v.computer);
}

/// The local games of a page: `store` shows them, `say(key)` tells the person.
export function initLocal(store, { say, onError }) {
  /// The game: `{ base, moves, state, thinking, token }` (`base`: the view it started from).
  let game = null;
  let token = 0;

  /// The server-shaped view of the local game (what normalizeView reads).
  function raw() {
    const b = game.base;
    const s = game.state;
    const point = (p) => ({ x: p.x, y: p.y, name: pointName(p, b.height) });
    return {
      id: null,
      local: true,
      mode: b.mode,
      config: {
        rule: b.rule,
        size: { width: b.width, height: b.height },
        k: b.k,
        opening: 'free',
        theme: b.theme,
        forbidden_policy: b.forbiddenPolicy,
      },
      computer: b.computer,
      players: b.players,
      moves: s.moves,
      ply: s.ply,
      side_to_move: s.side_to_move,
      result: game.result || s.result,
      result_text: game.result ? '' : s.result_text || '',
      forbidden: s.forbidden,
      walls: b.walls.map(point),
      bubbles: b.bubbles.map(point),
      bubble_target: b.bubbleTarget,
      thinking: game.thinking,
      clock: null,
      rated: false,
      to_act: null,
      updated_at: null,
    };
  }

  function show() {
    store.setView(raw());
  }

  function position(moves = game.moves) {
    return { ...positionOf(game.base, 0), moves };
  }

  function computerColor() {
    const b = game.base;
    if (b.mode !== 'computer') return null;
    if (b.players) return ['black', 'white'].find((c) => b.players[c] === 'computer') || null;
    return b.computer.color;
  }

  /// The computer's move, when it is to play.
  async function computerMoves() {
    const me = token;
    const s = game.state;
    if (s.result || game.result || s.side_to_move !== computerColor()) return;
    game.thinking = true;
    show();
    const player = game.base.computer.player;
    try {
      const r = await analyse(position(), {
        player,
        ms: moveMs(player),
        onProgress: (info) => {
          if (me === token) store.setAnalysis({ ...info, purpose: 'move' });
        },
      });
      if (me !== token) return;
      game.thinking = false;
      if (!r.move) {
        show();
        return;
      }
      await apply(r.move);
    } catch (e) {
      if (me !== token) return;
      game.thinking = false;
      show();
      onError(e);
    }
  }

  /// Plays `name` if the rules allow it; false (and why, on screen) if not.
  async function apply(name) {
    const moves = [...game.moves, name];
    const s = await judge(position(moves));
    if (s.error) {
      onError(new Error(s.error));
      show();
      return false;
    }
    game.moves = moves;
    game.state = s;
    show();
    return true;
  }

  return {
    /// Whether the game on screen is a local one.
    active: () => !!game && !!store.view && store.view.local === true,

    /// Continues the game on screen (`v`, a view) here; false when it cannot (no engine).
    async start(v) {
      if (!canGoLocal(v) || !(await available())) return false;
      token++;
      const moves = v.moves.map((m) => m.name);
      const state = await judge({ ...positionOf(v, 0), moves });
      if (state.error) return false;
      game = { base: v, moves, state, thinking: false, result: null };
      show();
      say('local.started');
      await computerMoves();
      return true;
    },

    /// The person's move at point `p` ({x, y}).
    async play(p) {
      if (!game || game.thinking || game.result) return;
      if (await apply(pointName(p, game.base.height))) await computerMoves();
    },

    /// Takes back the last move (and the computer's reply before it, so the person is to move).
    async undo() {
      if (!game || !game.moves.length) return;
      token++;
      stopEngine();
      game.thinking = false;
      game.result = null;
      const human = computerColor() ? (computerColor() === 'black' ? 'white' : 'black') : null;
      let moves = game.moves.slice(0, -1);
      if (human) {
        // Back to the person's last move, then before it.
        const colorAt = (i) => (i % 2 === 0 ? 'black' : 'white');
        while (moves.length && colorAt(moves.length) !== human) moves = moves.slice(0, -1);
      }
      game.moves = moves;
      game.state = await judge(position(moves));
      show();
      await computerMoves();
    },

    async restart() {
      if (!game) return;
      token++;
      stopEngine();
      game.thinking = false;
      game.result = null;
      game.moves = [];
      game.state = await judge(position([]));
      show();
      await computerMoves();
    },

    /// `color` resigns.
    resign(color) {
      if (!game || game.state.result || game.result) return;
      token++;
      stopEngine();
      game.thinking = false;
      game.result = { winner: color === 'black' ? 'white' : 'black', reason: 'resignation' };
      show();
    },

    /// The engine's best move for the person: `{ best, score, pv, … }`.
    hint() {
      return analyse(position(), { ms: 1000 });
    },

    /// An evaluation of the position for the bar (`ms` of thinking).
    evaluate(ms) {
      return analyse(position(), { ms });
    },

    /// The body of POST /api/games/import that gives this game back to the server, its computer
    /// playing in this browser as here; null when it cannot go back (a resignation here, which a
    /// list of moves does not carry, or a board with walls or bubbles).
    importRequest() {
      if (!game || game.result) return null;
      const b = game.base;
      if ((b.walls && b.walls.length) || (b.bubbles && b.bubbles.length) || (b.theme && b.theme !== 'wood')) return null;
      const body = {
        text: game.moves.join(' ') || '',
        format: 'txt',
        rule: b.rule,
        size: b.width === b.height ? b.width : { width: b.width, height: b.height },
        k: b.k,
        mode: b.mode === 'computer' ? 'computer' : 'local',
        forbidden_policy: b.forbiddenPolicy,
      };
      if (b.mode === 'computer') body.computer = { player: b.computer.player, color: computerColor(), in_browser: true };
      return body;
    },

    /// The moves played so far (names).
    moves: () => (game ? [...game.moves] : []),

    /// Forgets the local game (a new game or a server game took the screen).
    leave() {
      if (!game) return;
      token++;
      if (game.thinking) stopEngine();
      game = null;
    },
  };
}
