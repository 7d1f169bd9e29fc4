// The page's picture of one game, built only from what the server says (GameView, WebSocket messages).
// The page never judges a move: legality, forbidden points and results all come from the server.

import { toPoint, pointName } from './coords.js';

function sizeOf(config = {}, raw = {}) {
  const s = config.size ?? raw.size;
  if (typeof s === 'number') return { width: s, height: s };
  if (typeof s === 'string') {
    const m = /^(\d+)(?:\s*[x×*,]\s*(\d+))?$/.exec(s.trim());
    if (m) return { width: Number(m[1]), height: Number(m[2] ?? m[1]) };
  }
  if (s && typeof s === 'object') return { width: Number(s.width), height: Number(s.height ?? s.width) };
  return { width: Number(config.width ?? 15), height: Number(config.height ?? config.width ?? 15) };
}

function pointsOf(list, width, height) {
  if (!Array.isArray(list)) return [];
  return list.map((p) => toPoint(p, width, height)).filter(Boolean);
}

/// Turns a server GameView into the shape the panels use, tolerating small differences in the payload.
export function normalizeView(raw) {
  const config = raw.config || {};
  const { width, height } = sizeOf(config, raw);
  const variant = config.variant && typeof config.variant === 'object' ? config.variant : {};
  const theme = raw.theme || config.theme || variant.theme || (typeof config.variant === 'string' ? config.variant : 'wood');
  const moves = (raw.moves || []).map((m, i) => {
    const p = toPoint(m, width, height) || { x: -1, y: -1 };
    return {
      x: p.x,
      y: p.y,
      name: m.name || pointName(p, height),
      color: m.color || (i % 2 === 0 ? 'black' : 'white'),
      time_ms: m.time_ms ?? null,
    };
  });
  const result = raw.result || null;
  let winCells = [];
  if (result) {
    winCells = pointsOf(result.cells || result.line || [], width, height);
  }
  const opening = raw.opening && typeof raw.opening === 'object' ? raw.opening : null;
  const clock = raw.clock || config.clock || null;
  return {
    id: raw.id,
    width,
    height,
    rule: config.rule || raw.rule || 'freestyle',
    k: Number(config.k ?? raw.k ?? 5),
    theme: String(theme).toLowerCase(),
    openingRule: (opening && opening.rule) || config.opening || 'free',
    mode: raw.mode || 'local',
    computer: raw.computer || null,
    players: raw.players || null,
    toAct: raw.to_act || null,
    forbiddenPolicy: config.forbidden_policy || raw.forbidden_policy || 'refuse',
    moves,
    ply: Number(raw.ply ?? moves.length),
    sideToMove: raw.side_to_move || (moves.length % 2 === 0 ? 'black' : 'white'),
    result,
    resultText: raw.result_text || '',
    winCells,
    forbidden: (raw.forbidden || []).map((f) => ({ ...toPoint(f, width, height), kind: f.kind, name: f.name })),
    clock: clock && clock.kind !== 'none' ? clock : null,
    opening: opening && opening.phase && opening.phase !== 'done' ? opening : null,
    // A computer in the browser "thinks" whenever it is to move: a page of its person searches.
    thinking: !!raw.thinking || (!!raw.computer && raw.computer.in_browser === true && !raw.local && !result && !!raw.to_act && raw.to_act.who === 'computer'),
    queued: Number(raw.queued || 0),
    walls: pointsOf(raw.walls || variant.walls || [], width, height),
    bubbles: pointsOf(raw.bubbles || variant.bubbles || [], width, height),
    bubbleTarget: raw.bubble_target ?? null,
    updatedAt: raw.updated_at ?? null,
    bubblesHeld: raw.bubbles_held || null,
    draft: !!raw.draft,
    // A game going on in this page without the server (local.js).
    local: !!raw.local,
    owners: raw.owners || null,
    rated: !!raw.rated,
    // Games between people (`mode: "online"`): what each side offers, who left, who watches.
    takebacks: !!raw.takebacks,
    offers: raw.offers || {},
    away: raw.away || { first: null, second: null },
    spectators: Number(raw.spectators || 0),
    // Which seat plays Black (swap openings decide it; else the first seat).
    blackSeat: (raw.opening && raw.opening.black) || (!raw.opening || !raw.opening.rule || raw.opening.rule === 'free' ? 'first' : null),
  };
}

/// Whether Black is to move with every empty point forbidden (renju): the rules have no pass, so any
/// move Black makes loses, and the page lets a click on a forbidden point through instead of refusing it.
export function onlyForbiddenLeft(v) {
  if (!v || v.result || v.sideToMove !== 'black' || !v.forbidden.length) return false;
  return v.forbidden.length >= v.width * v.height - v.moves.length - v.walls.length;
}

/// A game not yet created on the server: what a new game with `request` (the body of
/// POST /api/games) looks like before its first move. The page shows it on a visit without a game
/// link and creates the game only when the player starts (first stone, or Start when the computer
/// moves first), so page loads leave nothing behind in the database. Nothing here judges a move:
/// an empty board is the same under every rule.
export function draftView(request) {
  const vsComputer = request.mode === 'computer';
  const computerColor = vsComputer ? (request.computer && request.computer.color) || 'white' : null;
  const opening = request.opening || 'free';
  // In swap openings the computer's "color" is its seat: black = first.
  const computerFirst = vsComputer && computerColor === 'black';
  let players = { black: 'human', white: 'human' };
  if (vsComputer) {
    players = opening === 'free'
      ? { black: computerFirst ? 'computer' : 'human', white: computerFirst ? 'human' : 'computer' }
      : { black: null, white: null };
  }
  const clock = request.clock || { kind: 'none' };
  let clockView = null;
  if (clock.kind === 'side') {
    const ms = Number(clock.initial_seconds) * 1000;
    clockView = { kind: 'side', black_ms: ms, white_ms: ms, running: null, initial_ms: ms, increment_ms: Number(clock.increment_seconds) * 1000 };
  } else if (clock.kind === 'move') {
    const ms = Number(clock.seconds) * 1000;
    clockView = { kind: 'move', black_ms: ms, white_ms: ms, running: null, move_ms: ms };
  }
  const raw = {
    id: null,
    draft: true,
    mode: request.mode || 'computer',
    config: {
      rule: request.rule,
      size: request.size,
      k: request.k,
      opening,
      theme: request.theme,
      forbidden_policy: request.forbidden_policy,
    },
    computer: vsComputer
      ? { player: request.computer.player, color: computerColor, seat: computerFirst ? 'first' : 'second' }
      : null,
    players,
    moves: [],
    ply: 0,
    side_to_move: 'black',
    to_act: { seat: 'first', who: computerFirst ? 'computer' : 'human', action: 'move' },
    result: null,
    clock: clockView,
    opening: opening === 'free' ? null : { rule: opening, phase: 'place', seat: 'first', options: [] },
    thinking: false,
    rated: !!request.rated,
  };
  return normalizeView(raw);
}

/// Holds the current game and everything shown about it; panels subscribe and redraw.
export class GameStore {
  constructor() {
    this.view = null; // normalized GameView
    this.socketStates = 0; // `state` messages taken from the game's socket (see `setView`'s `asked`)
    this.browsePly = null; // null = live position; else number of moves shown
    this.analysis = null; // latest thinking info {depth, score, best, pv, nodes}
    this.hint = null; // {best, score, pv}
    this.clock = null; // {black_ms, white_ms, running, at}
    this.message = null; // {key, params, kind}
    this.busy = false; // a request of ours is in flight
    this.connected = false;
    this.connection = 'none'; // 'none' (no socket), 'connecting', 'up', 'down'
    this.queued = 0; // searches ahead of the computer's move (the `queued` WebSocket message)
    this.listeners = new Set();
    this.me = undefined; // GET /api/me: who this page is (undefined until asked)
  }

  subscribe(f) {
    this.listeners.add(f);
  }

  emit() {
    for (const f of this.listeners) f(this);
  }

  /// How many searches are ahead of the computer's move in the engine queue (0: not waiting).
  setQueued(n) {
    const was = this.waiting();
    if (this.clock && n > 0 !== was) {
      // Stand the clocks where they are now (the server's stands too), or run on from there.
      const c = this.clock;
      this.clock = { ...c, black_ms: this.remaining('black'), white_ms: this.remaining('white'), at: performance.now() };
    }
    this.queued = n;
    this.emit();
  }

  /// Whether the computer's move waits for an engine worker.
  waiting() {
    return !!this.view && !this.view.result && (this.queued > 0 || this.view.queued > 0) && (this.view.thinking || this.queued > 0);
  }

  /// Shows a game that exists only on the page until the player starts it (see `draftView`).
  setDraft(view, request) {
    this.view = view;
    this.draftRequest = request;
    this.browsePly = null;
    this.analysis = null;
    this.hint = null;
    this.message = null;
    this.connection = 'none';
    this.connected = false;
    if (view.clock) this.setClock(view.clock, false);
    else this.clock = null;
    this.emit();
  }

  /// The socket went up or down. While down the clocks on screen stand where they were: the server
  /// gives the time of an outage back, and the true times come with the state fetched on reconnect.
  setConnection(state) {
    if (state === 'down' && this.clock && !this.clock.frozen) {
      const c = this.clock;
      this.clock = { ...c, black_ms: this.remaining('black'), white_ms: this.remaining('white'), at: performance.now(), frozen: true };
    }
    this.connection = state;
    this.connected = state === 'up';
    this.emit();
  }

  /// `asked`: for an HTTP answer, `socketStates` when it was asked. Who is there (`away`,
  /// `spectators`) changes no `updated_at`: an answer read before a socket state that came
  /// meanwhile, and no newer in the game, would put back a presence that state replaced.
  setView(raw, { asked } = {}) {
    // Answers can cross on the wire (an HTTP answer after a newer WebSocket state): keep the newest.
    const cur = this.view;
    if (cur && raw.id === cur.id && raw.updated_at != null && cur.updatedAt != null) {
      if (raw.updated_at < cur.updatedAt) return;
      if (raw.updated_at === cur.updatedAt) {
        const n = (raw.moves || []).length;
        if (n < cur.moves.length) return;
        if (n === cur.moves.length && asked !== undefined && asked !== this.socketStates) return;
      }
    }
    this.lastUpdate = performance.now();
    // The queue count belongs to one search: a new position or a finished search ends it.
    if (!raw.thinking || (cur && raw.id !== cur.id)) this.queued = 0;
    const prevId = this.view && this.view.id;
    const prevPly = this.view && this.view.ply;
    const v = normalizeView(raw);
    this.view = v;
    this.draftRequest = null;
    if (prevId !== v.id) {
      this.browsePly = null;
      this.analysis = null;
    }
    if (prevPly !== v.ply || prevId !== v.id) {
      this.hint = null;
      this.message = null;
      if (!v.thinking) this.analysis = this.analysis && this.analysis.ply === v.ply ? this.analysis : null;
    }
    if (this.browsePly !== null && this.browsePly > v.moves.length) this.browsePly = null;
    if (v.clock) this.setClock(v.clock, false);
    else this.clock = null;
    this.emit();
  }

  /// Someone began or stopped watching (a game between people): the count, nothing else.
  setSpectators(n) {
    if (!this.view) return;
    this.view = { ...this.view, spectators: n };
    this.emit();
  }

  setClock(c, emit = true) {
    const kind = c.kind || (this.view && this.view.clock && this.view.clock.kind);
    if (!kind || kind === 'none') {
      this.clock = null;
    } else {
      this.clock = {
        kind,
        black_ms: c.black_ms ?? (c.black && c.black.remaining_ms) ?? null,
        white_ms: c.white_ms ?? (c.white && c.white.remaining_ms) ?? null,
        running: c.running ?? null,
        at: performance.now(),
      };
    }
    if (emit) this.emit();
  }

  /// Remaining milliseconds now for `color`, counting down locally between server updates.
  remaining(color) {
    const c = this.clock;
    if (!c) return null;
    const base = color === 'black' ? c.black_ms : c.white_ms;
    if (base == null) return null;
    const over = this.view && this.view.result;
    // A computer's move waiting for an engine worker does not use its time (the server's clock stands).
    if (c.running === color && !over && !c.frozen && !this.waiting()) return Math.max(0, base - (performance.now() - c.at));
    return base;
  }

  setAnalysis(info) {
    this.analysis = { ...info, ply: this.view ? this.view.ply : 0 };
    this.emit();
  }

  setHint(h) {
    this.hint = h;
    this.emit();
  }

  say(key, params = {}, kind = 'info') {
    this.message = key ? { key, params, kind } : null;
    this.emit();
  }

  /// Moves currently drawn (all of them, or the first `browsePly` while looking back).
  shownMoves() {
    if (!this.view) return [];
    const n = this.browsePly === null ? this.view.moves.length : this.browsePly;
    return this.view.moves.slice(0, n);
  }

  browsing() {
    return this.browsePly !== null && this.view && this.browsePly < this.view.moves.length;
  }

  browse(ply) {
    if (!this.view) return;
    const n = this.view.moves.length;
    const p = Math.max(0, Math.min(n, ply));
    this.browsePly = p === n ? null : p;
    this.emit();
  }

  shownPly() {
    return this.browsePly === null ? (this.view ? this.view.moves.length : 0) : this.browsePly;
  }

  /// Which colours the person at this screen plays (both in local mode; none yet while a swap
  /// opening has not assigned colours).
  humanColors() {
    const v = this.view;
    if (!v) return [];
    if (v.players) return ['black', 'white'].filter((c) => v.players[c] === 'human');
    if (v.mode !== 'computer' || !v.computer) return ['black', 'white'];
    return [v.computer.color === 'black' ? 'white' : 'black'];
  }

  /// Whether the person at this page only watches: the game's seats have owners and none is
  /// this page's identity (`this.me`, from GET /api/me; unknown until it has been asked).
  watching() {
    const v = this.view;
    if (!v || v.draft || !v.owners || this.me === undefined) return false;
    const owners = [v.owners.first, v.owners.second].filter(Boolean);
    return owners.length > 0 && !owners.includes(this.me && this.me.identity);
  }

  /// In a game between people: this page's seat ('first' or 'second'), or null (a spectator, or
  /// not yet known who this page is).
  mySeat() {
    const v = this.view;
    if (!v || v.mode !== 'online' || !v.owners || !this.me) return null;
    if (v.owners.first && v.owners.first === this.me.identity) return 'first';
    if (v.owners.second && v.owners.second === this.me.identity) return 'second';
    return null;
  }

  /// In a game between people: this page's colour (null while a swap opening has not given them out).
  myColor() {
    const v = this.view;
    const seat = this.mySeat();
    if (!seat || !v.blackSeat) return null;
    return seat === v.blackSeat ? 'black' : 'white';
  }

  /// Whether the server waits for a person to act, and how ('move' or 'choose').
  humanAction() {
    const v = this.view;
    if (!v || v.result || v.thinking || this.watching()) return null;
    // Between people: only when it is this page's seat that acts.
    if (v.mode === 'online') {
      const seat = this.mySeat();
      if (!seat) return null;
      if (v.toAct) return v.toAct.who === 'human' && v.toAct.seat === seat ? v.toAct.action || 'move' : null;
      return this.myColor() === v.sideToMove ? 'move' : null;
    }
    if (v.toAct) return v.toAct.who === 'human' ? v.toAct.action || 'move' : null;
    return this.humanColors().includes(v.sideToMove) ? 'move' : null;
  }

  isHumanTurn() {
    return this.humanAction() === 'move';
  }
}
