// HTTP + WebSocket client for the wuzi server API (docs/api.md).
// Every function returns plain JSON from the server; errors become ApiError with the server's message.

export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

export async function request(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, 'network', null);
  }
  const text = await res.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!res.ok) {
    const message = (data && (data.error || data.message)) || `HTTP ${res.status}`;
    throw new ApiError(res.status, message, data);
  }
  return data;
}

const enc = encodeURIComponent;

export const api = {
  createGame: (settings) => request('POST', '/api/games', settings),
  getGame: (id, waitPly) => request('GET', `/api/games/${enc(id)}${waitPly == null ? '' : `?wait_ply=${Number(waitPly)}`}`),
  play: (id, pos, ply) => request('POST', `/api/games/${enc(id)}/moves`, ply === undefined ? { pos } : { pos, ply }),
  // The computer's move searched in this browser (a game made with `computer.in_browser`).
  computerMove: (id, pos, ply) => request('POST', `/api/games/${enc(id)}/computer-move`, { pos, ply }),
  undo: (id) => request('POST', `/api/games/${enc(id)}/undo`, {}),
  resign: (id, color) => request('POST', `/api/games/${enc(id)}/resign`, color ? { color } : {}),
  restart: (id) => request('POST', `/api/games/${enc(id)}/restart`, {}),
  hint: (id) => request('POST', `/api/games/${enc(id)}/hint`, {}),
  stop: (id) => request('POST', `/api/games/${enc(id)}/stop`, {}),
  opening: (id, body) => request('POST', `/api/games/${enc(id)}/opening`, body),
  importGame: (body) => request('POST', '/api/games/import', body),
  me: () => request('GET', '/api/me'),
  // Puzzles (docs/api.md, Puzzles).
  puzzle: (id) => request('GET', `/api/puzzles/${enc(id)}`),
  puzzleBatch: (theme, count) => request('GET', `/api/puzzles/batch?count=${Number(count)}${theme && theme !== 'any' ? `&theme=${enc(theme)}` : ''}`),
  tryPuzzle: (id, solved) => request('POST', `/api/puzzles/${enc(id)}/attempt`, { solved }),
  // The analysis board's position and solver (docs/api.md, The analysis board).
  analysePosition: (position) => request('POST', '/api/analysis/position', { position }),
  solvePosition: (position, kind, timeMs) => request('POST', '/api/analysis/solve', { position, kind, time_ms: timeMs }),
  register: (body) => request('POST', '/api/account/register', body),
  login: (username, password) => request('POST', '/api/account/login', { username, password }),
  logout: () => request('POST', '/api/account/logout', {}),
  logoutAll: () => request('POST', '/api/account/logout-all', {}),
  changePassword: (password, newPassword) => request('POST', '/api/account/password', { password, new_password: newPassword }),
  deleteAccount: (password) => request('DELETE', '/api/account', { password }),
  tokens: () => request('GET', '/api/account/tokens'),
  createToken: (name) => request('POST', '/api/account/tokens', { name }),
  revokeToken: (id) => request('DELETE', `/api/account/tokens/${enc(id)}`),
  profile: (identity) => request('GET', `/api/profiles/${enc(identity)}`),
  profileGames: (identity, filters = {}) => {
    const q = new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== '' && v != null)).toString();
    return request('GET', `/api/profiles/${enc(identity)}/games${q ? `?${q}` : ''}`);
  },
  profileRatings: (identity, pool) => request('GET', `/api/profiles/${enc(identity)}/ratings/${enc(pool)}`),
  leaderboards: () => request('GET', '/api/leaderboard'),
  leaderboard: (pool, limit = 50) => request('GET', `/api/leaderboard/${enc(pool)}?limit=${Number(limit)}`),
  gameRating: (id) => request('GET', `/api/games/${enc(id)}/rating`),
  players: () => request('GET', '/api/players'),
  // Playing people (docs/api.md, "Playing people: seeks, pairing, challenges").
  seeks: () => request('GET', '/api/seeks'),
  addSeek: (terms) => request('POST', '/api/seeks', terms),
  cancelSeek: (id) => request('DELETE', `/api/seeks/${enc(id)}`),
  acceptSeek: (id) => request('POST', `/api/seeks/${enc(id)}/accept`, {}),
  pairing: () => request('GET', '/api/pairing'),
  pair: (id) => request('POST', `/api/pairing/${enc(id)}`, {}),
  challenge: (to, terms) => request('POST', '/api/challenges', to ? { to, terms } : { terms }),
  challenges: () => request('GET', '/api/challenges'),
  getChallenge: (id) => request('GET', `/api/challenges/${enc(id)}`),
  acceptChallenge: (id) => request('POST', `/api/challenges/${enc(id)}/accept`, {}),
  declineChallenge: (id) => request('POST', `/api/challenges/${enc(id)}/decline`, {}),
  cancelChallenge: (id) => request('DELETE', `/api/challenges/${enc(id)}`),
  offer: (id, kind, action) => request('POST', `/api/games/${enc(id)}/offer`, { kind, action }),
  abort: (id) => request('POST', `/api/games/${enc(id)}/abort`, {}),
  claim: (id, result) => request('POST', `/api/games/${enc(id)}/claim`, { result }),
  live: () => request('GET', '/api/live'),
  chat: (id) => request('GET', `/api/games/${enc(id)}/chat`),
  sendChat: (id, text) => request('POST', `/api/games/${enc(id)}/chat`, { text }),
  archiveUrl: (identity) => `/api/profiles/${enc(identity)}/archive`,
  recordUrl: (id, format) => `/api/games/${enc(id)}/record?format=${enc(format)}`,
  async record(id, format) {
    const res = await fetch(this.recordUrl(id, format));
    const text = await res.text();
    if (!res.ok) {
      let message = `HTTP ${res.status}`;
      let body = text;
      try {
        body = JSON.parse(text);
        message = body.error || message;
      } catch {
        /* plain text error */
      }
      throw new ApiError(res.status, message, body);
    }
    const disposition = res.headers.get('content-disposition') || '';
    const m = /filename="?([^";]+)"?/.exec(disposition);
    return { text, filename: m ? m[1] : null, type: res.headers.get('content-type') || 'text/plain' };
  },
};

/// A WebSocket to one game that reconnects while the page wants it, and hands each
/// JSON message to `onMessage`. `send` drops messages while disconnected (the HTTP API is the fallback).
/// `onStatus(up, closeEvent)` reports each open and each close (with the server's code and reason,
/// e.g. 1009 for a message that was too large).
/// The largest WebSocket message the server reads (docs/api.md); it closes the socket with 1009 on a larger one.
const WS_MAX_MESSAGE = 16 * 1024;

export class GameSocket {
  /// `path`: another socket of the same kind (the lobby's, `/api/lobby/ws`) instead of the game's.
  constructor(id, onMessage, onStatus, path) {
    this.id = id;
    this.path = path || `/api/games/${enc(id)}/ws`;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.closed = false;
    this.retry = 0;
    this.lastTooLarge = -Infinity;
    this.open();
  }

  open() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}${this.path}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.onStatus(true);
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      // A socket the page closed on purpose (another game opened) reports nothing.
      if (this.closed || this.ws !== ws) return;
      // 1009: the server would not read a message that large. The server's close frame can be lost
      // when it closes while the browser is still sending (the browser then sees 1006), so a close
      // right after sending more than the server reads counts as "too large" too.
      const tooLarge = ev.code === 1009 || (ev.code === 1006 && performance.now() - this.lastTooLarge < 5000);
      this.onStatus(false, { code: ev.code, reason: ev.reason, tooLarge });
      const delay = Math.min(5000, 300 * 2 ** this.retry++);
      this.timer = setTimeout(() => this.open(), delay);
    };
    // An error is always followed by a close event (with the code), which reconnects.
  }

  send(msg) {
    return this.sendText(JSON.stringify(msg));
  }

  sendText(text) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      if (text.length > WS_MAX_MESSAGE) this.lastTooLarge = performance.now();
      this.ws.send(text);
      return true;
    }
    return false;
  }

  get up() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
