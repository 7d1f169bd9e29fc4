// Wires the page together: the store, the board, the panels, the server connection.

import { api, GameSocket } from './api.js';
import { applyDocument, onLanguageChange, t } from './i18n.js';
import { GameStore, draftView, normalizeView, onlyForbiddenLeft } from './game.js';
import { Board } from './board.js';
import { toPoint, samePoint, pointName } from './coords.js';
import { initSettings, loadSettings, fillLanguageSelect } from './ui/settings.js';
import { renderStatus, kindName, errorText } from './ui/status.js';
import { initMoveList, renderMoveList } from './ui/movelist.js';
import { renderPlayers, tickClocks } from './ui/clocks.js';
import { renderEval } from './ui/evalbar.js';
import { initNewGame, loadChoices, choicesToRequest, computerRating } from './ui/newgame.js';
import { initRecords, parseHash, gameLink } from './ui/records.js';
import { renderOpening } from './ui/opening.js';
import { initGames, rememberGame } from './ui/games.js';
import { initAccount } from './ui/account.js';
import { initProfile } from './ui/profile.js';
import { initLeaderboard } from './ui/leaderboard.js';
import { poolOfView, poolName, changeText, ratingText } from './ui/ratings.js';
import { personOwner } from './ui/clocks.js';
import { initLobby } from './ui/lobby.js';
import { initOnline } from './ui/online.js';
import { initChat } from './ui/chat.js';
import { initLocal, canGoLocal } from './local.js';
import { available as engineAvailable, analyse as analyseHere, positionOf as enginePosition } from './engine.js';
import { initBrowserComputer, computerInBrowser } from './browser-computer.js';
import { initAnalysis } from './analysis/page.js';
import { initPuzzles } from './puzzles/page.js';
import { initReview } from './review/review.js';

const $ = (id) => document.getElementById(id);
const store = new GameStore();
/// The lobby (its socket stays open while the page is) and a game between people's panel.
let lobby = null;
let onlinePanel = null;
let chat = null;
const settings = loadSettings();
let socket = null;
/// The identity the socket was opened as (a sign-in or sign-out opens it again).
let socketIdentity = null;

// ---------------------------------------------------------------- messages
let toastTimer;
function toast(text) {
  const el = $('toast');
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    el.hidden = true;
  }, 2500);
}

function showError(e) {
  const text = errorText(e);
  store.say('error.raw', { text }, 'error');
  // After the end the status line keeps the result; the refusal still shows, as a toast.
  if (store.view && store.view.result) toast(text);
}

/// A game that goes on in this page (the engine in the browser) when the server cannot be reached.
const local = initLocal(store, { say: (key) => toast(t(key)), onError: showError });

/// The computer of a game made with `computer.in_browser`: this page searches its moves and sends
/// them to the server (browser-computer.js).
const browserComputer = initBrowserComputer(store, {
  send: (id, pos, ply) => api.computerMove(id, pos, ply),
  onSent: (view) => {
    if (store.view && store.view.id === view.id) store.setView(view);
  },
  onError: async (e, v) => {
    // The server cannot be reached: the game goes on here (the engine here answers again).
    if (e.status === 0 && (await goLocal(e))) return;
    // Another page of ours sent it first, or the position moved on: show the server's game.
    if (e.status !== 409 || (e.body && e.body.code !== 'stale')) showError(e);
    if (store.view && store.view.id === v.id) refetch(v.id);
  },
});

/// A new-game request as this page can play it: the computer in this browser only if the engine
/// can run here (else the server's engine plays, as it always may).
async function withEngineHere(request) {
  if (request && request.computer && request.computer.in_browser && !(await engineAvailable())) {
    const computer = { ...request.computer };
    delete computer.in_browser;
    return { ...request, computer };
  }
  return request;
}

/// Continues the game on screen here after `e`, when `e` says the server cannot be reached and the
/// game can (see local.js); true if it did.
async function goLocal(e) {
  const v = store.view;
  if (!e || e.status !== 0 || !canGoLocal(v) || !(await engineAvailable())) return false;
  browserComputer.cancel();
  if (socket) {
    socket.close();
    socket = null;
  }
  downSince = null;
  if (!(await local.start(v))) {
    if (v.id) connect(v.id);
    return false;
  }
  store.setConnection('none');
  if (location.hash) history.replaceState(null, '', location.pathname + location.search);
  watchForServer();
  return true;
}

/// While a game goes on in this page, look for the server now and then: once it answers, the game
/// goes back to it (POST /api/games/import, its computer still playing in this browser) and on
/// there under a new id. The server's copy of the game from before stays where it stopped.
let homeTimer = null;
const HOME_EVERY_MS = 3000;
function watchForServer() {
  clearInterval(homeTimer);
  const stop = () => {
    clearInterval(homeTimer);
    homeTimer = null;
  };
  let trying = false;
  homeTimer = setInterval(async () => {
    if (!local.active()) return stop();
    const v = store.view;
    if (trying || v.thinking || store.busy || !navigator.onLine) return;
    trying = true;
    try {
      const health = await fetch('/api/health', { cache: 'no-store' }).catch(() => null);
      if (!health || !health.ok || !local.active()) return;
      const body = local.importRequest();
      if (!body || body.text === '') return stop();
      const played = local.moves().length;
      let view;
      try {
        view = await api.importGame(body);
      } catch (e) {
        if (e.status !== 0) stop();
        return;
      }
      // A move made meanwhile: the next look sends the game as it is then.
      if (!local.active() || local.moves().length !== played) return;
      stop();
      await knowMe();
      openGame(view);
      toast(t('local.back_online'));
    } finally {
      trying = false;
    }
  }, HOME_EVERY_MS);
}

/// Since when the game's socket has been down (null: up, or no socket).
let downSince = null;
/// How long the computer's move may wait for a server that cannot be reached before the engine
/// in this browser plays it (and the game goes on here).
const LOCAL_AFTER_MS = 5000;

/// After a reconnect: the state as the server holds it, and no stale "cannot be reached".
function resync() {
  const v = store.view;
  if (!v || !v.id) return;
  if (store.message && store.message.kind === 'error' && store.message.params && store.message.params.text === t('error.network')) {
    store.message = null;
  }
  refetch(v.id);
}

/// Asks the server for game `id` and shows it, unless a socket state that came meanwhile is as new.
function refetch(id) {
  const asked = store.socketStates;
  api.getGame(id).then((g) => {
    // Not if the page has gone to another game meanwhile (see `run`).
    if (store.view && store.view.id === id) store.setView(g, { asked });
  }, () => {});
}

// ---------------------------------------------------------------- server calls
async function run(action) {
  if (store.busy) return null;
  store.busy = true;
  const shown = store.view && store.view.id;
  try {
    const view = await action();
    // An answer about a game the page has left meanwhile (an agreed rematch opens its game as the
    // socket says so) stays off screen: shown, it would bring the old game back for good, since
    // the socket's states for the new one are then dropped as another game's.
    const left = !!store.view && store.view.id !== shown;
    if (view && view.id !== undefined && !left) store.setView(view);
    return view;
  } catch (e) {
    showError(e);
    // The server is the judge: after a refusal, show what it holds now.
    if (store.view && e.status >= 400) refetch(store.view.id);
    return null;
  } finally {
    store.busy = false;
    render();
  }
}

function onSocketMessage(msg) {
  switch (msg.type) {
    case 'state':
      if (msg.game && store.view && msg.game.id !== store.view.id) return;
      store.socketStates++;
      store.setView(msg.game || msg);
      if (pendingMove && store.view.ply > pendingMove.ply) moveDone();
      break;
    case 'thinking':
      if (msg.purpose !== 'hint' && msg.purpose !== 'analysis') store.setQueued(0);
      store.setAnalysis(msg);
      break;
    case 'queued':
      // The computer's move waits for a free engine worker (its clock stands meanwhile). This can
      // come before the answer to our move says the computer is to think.
      store.setQueued(Number(msg.ahead || 0));
      break;
    case 'analysis':
      if (msg.result) {
        if (msg.purpose === 'hint') store.setHint(msg.result);
        else store.setAnalysis({ ...msg.result, purpose: msg.purpose, final: true });
      }
      break;
    case 'clock':
      store.setClock(msg);
      break;
    case 'crowd':
      // Someone began or stopped watching (a game between people).
      store.setSpectators(Number(msg.spectators || 0));
      break;
    case 'chat':
      if (chat) chat.onMessage(msg);
      break;
    case 'review':
      review.onProgress(msg);
      break;
    case 'ack':
      // The server took our move (a game between people sends moves over the socket).
      if (pendingMove && msg.id === pendingMove.id) moveDone();
      break;
    case 'error':
      if (pendingMove) moveDone();
      // The page asks over the socket only for evaluations (and Move now): one that a move made
      // out of date is dropped by the server as `stale`; the next position gets its own.
      if (msg.code === 'stale') break;
      showError({ status: 400, message: msg.message || '', body: { code: msg.code } });
      break;
    default:
      break;
  }
}

function openGame(view, { browse } = {}) {
  local.leave();
  downSince = null;
  if (socket && (!store.view || store.view.id !== view.id)) {
    socket.close();
    socket = null;
  }
  store.message = null;
  store.setView(view);
  if (!socket) connect(view.id);
  history.replaceState(null, '', `#g=${encodeURIComponent(view.id)}`);
  if (browse != null) store.browse(browse);
}

/// Opens the game's WebSocket (as the identity of this page now).
function connect(id) {
  socketIdentity = store.me === undefined ? undefined : store.me && store.me.identity;
  store.setConnection('connecting');
  socket = new GameSocket(id, onSocketMessage, (up, closed) => {
    downSince = up ? null : downSince ?? performance.now();
    store.setConnection(up ? 'up' : 'down');
    // After a reconnect, fetch the state we may have missed, and send a move that had no answer
    // again (the server plays a move with the same ply once).
    if (up) {
      resync();
      if (chat) chat.reload();
      if (pendingMove && socket) socket.send(pendingMove.msg);
    }
    // The server closes with 1009 a message too large to read; the socket reconnects by itself.
    else if (closed && closed.tooLarge) toast(t('status.ws_too_big'));
  });
}

/// The first changing request makes this browser a guest: ask who we are before showing a game
/// we made, so its seats are seen as ours.
async function knowMe() {
  if (!store.me || !store.me.identity) await account.refresh();
}

async function newGame(request) {
  try {
    const view = await api.createGame(await withEngineHere(request));
    await knowMe();
    openGame(view);
    return null;
  } catch (e) {
    return errorText(e);
  }
}

/// Shows a new game that is created on the server only when the player starts it.
function showDraft(request, { keepHash = false } = {}) {
  local.leave();
  if (socket) {
    socket.close();
    socket = null;
  }
  store.setDraft(draftView(request), request);
  if (location.hash && !keepHash) history.replaceState(null, '', location.pathname + location.search);
}

/// Creates the game on screen (a draft) on the server; returns its view, or null after showing why not.
async function createDraft() {
  const request = store.draftRequest;
  if (!request) return null;
  try {
    const view = await api.createGame(await withEngineHere(request));
    await knowMe();
    openGame(view);
    return store.view;
  } catch (e) {
    // Offline: the game can start here instead.
    if (await goLocal(e)) return store.view;
    showError(e);
    return null;
  }
}

// ---------------------------------------------------------------- actions
/// A click on the board that cannot play says why.
function refusedClick() {
  const v = store.view;
  if (!v) return;
  if (store.browsing()) store.say('status.browsing_click', {}, 'error');
  else if (store.watching() && !v.result) store.say('error.code.not_yours', {}, 'error');
  else if (v.result) toast(t('error.code.game_over'));
  else if (store.busy) return;
  else if (v.draft) store.say('status.draft_computer_first', {}, 'error');
  else if (v.thinking || !store.isHumanTurn()) store.say(store.humanAction() === 'choose' ? 'error.code.wrong_phase' : 'error.not_your_turn', {}, 'error');
}

async function play(p) {
  let v = store.view;
  if (!v || v.result) return;
  if (store.browsing()) {
    refusedClick();
    return;
  }
  if (!store.isHumanTurn()) {
    if (store.watching()) refusedClick();
    else store.say('error.not_your_turn');
    return;
  }
  const forbidden = v.forbidden.find((f) => samePoint(f, p));
  // When every empty point is forbidden, refusing would leave Black without a move: the click
  // goes through, the server plays it, and Black loses.
  if (forbidden && v.sideToMove === 'black' && v.forbiddenPolicy === 'refuse' && !onlyForbiddenLeft(v)) {
    store.say('status.forbidden_refused', { point: pointName(p, v.height), kind: kindName(forbidden.kind) }, 'error');
    return;
  }
  store.message = null;
  if (v.local) {
    local.play(p);
    return;
  }
  if (v.draft) {
    // The player starts playing: now the game exists.
    store.busy = true;
    render();
    v = await createDraft();
    store.busy = false;
    if (!v) {
      render();
      return;
    }
    if (v.local) {
      local.play(p);
      return;
    }
  }
  // Between people the move goes over the socket, with an id the server acknowledges.
  if (v.mode === 'online' && socket && socket.up) {
    // The server's ids are strings; one per move of this page.
    const id = `${pageTag}-${++moveSeq}`;
    pendingMove = { id, ply: v.ply, msg: { type: 'move', pos: pointName(p, v.height), ply: v.ply, id } };
    store.busy = true;
    socket.send(pendingMove.msg);
    render();
    return;
  }
  run(async () => {
    try {
      return await api.play(v.id, pointName(p, v.height), v.ply);
    } catch (e) {
      // The server cannot be reached: the game goes on here, this move first.
      if (e.status === 0 && canGoLocal(v)) {
        store.busy = false;
        if (await goLocal(e)) {
          local.play(p);
          return null;
        }
      }
      throw e;
    }
  });
}

/// A move sent over the socket and not yet answered: `{ id, ply, msg }`.
let pendingMove = null;
let moveSeq = 0;
const pageTag = Math.random().toString(36).slice(2, 8);
function moveDone() {
  pendingMove = null;
  store.busy = false;
  render();
}

let resignArmed = null;
function resign() {
  const v = store.view;
  if (!v || v.result) return;
  const btn = $('btn-resign');
  if (!resignArmed) {
    btn.textContent = t('confirm.resign');
    btn.classList.add('armed');
    resignArmed = setTimeout(() => {
      resignArmed = null;
      btn.classList.remove('armed');
      btn.textContent = t('btn.resign');
    }, 3000);
    return;
  }
  clearTimeout(resignArmed);
  resignArmed = null;
  btn.classList.remove('armed');
  btn.textContent = t('btn.resign');
  // Against the computer the person resigns; two players here: the side to move resigns.
  const color = v.mode === 'computer' ? store.humanColors()[0] : v.mode === 'online' ? store.myColor() || undefined : v.sideToMove;
  if (v.local) local.resign(color);
  else run(() => api.resign(v.id, color));
}

async function hint() {
  const v = store.view;
  if (!v || v.result || v.rated) return;
  $('btn-hint').disabled = true;
  try {
    // A game whose computer plays in this browser gets its hints from here too.
    const h = v.local ? await local.hint() : computerInBrowser(v) ? await analyseHere(enginePosition(v), { ms: 1000 }) : await api.hint(v.id);
    store.setHint({ ...h, side: v.sideToMove });
    if (h && h.best) toast(t('eval.hint', { move: h.best.name || pointName(toPoint(h.best, v.width, v.height), v.height) }));
  } catch (e) {
    showError(e);
  }
}

async function continueHere() {
  const v = store.view;
  if (!v) return;
  const ply = store.shownPly();
  await run(async () => {
    const rec = await api.record(v.id, 'json');
    const view = await api.importGame({ format: 'json', text: rec.text, ply });
    await knowMe();
    openGame(view);
    return null;
  });
}

// ---------------------------------------------------------------- rendering
const board = new Board($('board'), { onPlay: play, onRefused: refusedClick });
const cards = { black: $('player-black'), white: $('player-white') };
const evalEls = { box: $('evalbox'), white: $('evalbar-white'), score: $('eval-score'), line: $('eval-line') };

function boardState() {
  const v = store.view;
  if (!v) return null;
  const moves = store.shownMoves();
  const live = !store.browsing();
  const interactive = live && !v.result && store.isHumanTurn() && !store.busy;
  const showForbidden = live && !v.result && v.rule === 'renju' && v.sideToMove === 'black';
  let best = null;
  if (live && v.thinking && store.analysis && store.analysis.best) best = toPoint(store.analysis.best, v.width, v.height);
  const hintPoint = live && store.hint && store.hint.best ? toPoint(store.hint.best, v.width, v.height) : null;
  return {
    width: v.width,
    height: v.height,
    moves,
    walls: v.walls,
    bubbles: v.bubbles,
    forbidden: showForbidden ? v.forbidden : [],
    winCells: live ? v.winCells : [],
    ghostColor: v.sideToMove,
    interactive,
    best,
    hint: hintPoint,
    theme: v.theme,
  };
}

function metaText(v) {
  const size = v.width === v.height ? `${v.width}×${v.width}` : `${v.width}×${v.height}`;
  const bits = [t(`rule.short.${v.rule}`), size];
  if (v.k !== 5) bits.push(t('meta.k', { k: v.k }));
  if (v.openingRule && v.openingRule !== 'free') bits.push(t(`opening.${v.openingRule}`));
  if (v.theme && v.theme !== 'wood') bits.push(t(`theme.short.${v.theme}`));
  if (v.local) bits.push(t('meta.local'));
  else if (computerInBrowser(v)) bits.push(t('meta.browser_engine'));
  return bits.join(' · ');
}

/// Whether the server would take back a move now (docs/api.md, undo).
function canUndo(v) {
  if (!v || v.moves.length === 0) return false;
  if (v.result && ['resignation', 'time'].includes(String(v.result.reason))) return false;
  if (v.mode === 'computer') {
    const mine = store.humanColors();
    if (mine.length && !v.moves.some((m) => mine.includes(m.color))) return false;
    // A swap opening the computer began: its three stones are all there is until you act.
    if (!mine.length && v.opening && v.computer && v.computer.seat === 'first' && v.moves.length <= 3) return false;
  }
  return true;
}

/// What a finished rated game changed, by game id: `{ before, after }` of this page's player,
/// `null` while it is being asked, `false` when there is none to show.
const ratingChanges = new Map();

/// Asks the server what a rated game that is over changed (the change is stored with the game's
/// end, which the WebSocket can announce a moment earlier: ask again a few times).
async function loadRatingChange(id) {
  ratingChanges.set(id, null);
  for (let i = 0; i < 8; i++) {
    try {
      const changes = await api.gameRating(id);
      const me = store.me && store.me.identity;
      const mine = (changes || []).find((c) => c.identity === me) || (store.watching() ? (changes || [])[0] : null);
      if (mine) {
        ratingChanges.set(id, mine);
        render();
        return;
      }
    } catch {
      /* try again */
    }
    await new Promise((r) => setTimeout(r, 250 * (i + 1)));
  }
  // Nothing to show (a game whose seats have no owners changes no rating).
  ratingChanges.set(id, false);
  render();
}

/// People's ratings by `game identity pool` (`{rating, provisional}`), `null` while asked.
const personRatings = new Map();

/// People's names by identity (a game between people shows them on the cards), `null` while asked.
const personNames = new Map();
function personName(owner) {
  if (!personNames.has(owner)) {
    personNames.set(owner, null);
    api.profile(owner).then(
      (p) => {
        personNames.set(owner, p.display_name || p.username || t('lobby.guest'));
        render();
      },
      () => personNames.set(owner, t('lobby.guest')),
    );
  }
  return personNames.get(owner);
}

/// The rating on a card of a rated game: the computer's published one, a person's in the game's
/// pool (as it stood when the page asked; "1500?" before their first rated game there).
function cardRating(color) {
  const v = store.view;
  const pool = poolOfView(v);
  if (!v || !pool) return null;
  const who = v.players ? v.players[color] : null;
  if (who === 'computer') {
    const r = v.computer && v.computer.player ? computerRating(v.computer.player) : null;
    return r == null ? null : String(r);
  }
  const owner = personOwner(v, color);
  if (!owner) return null;
  // Asked once per game: the rating as it stood when the game was opened.
  const key = `${v.id} ${owner} ${pool}`;
  if (!personRatings.has(key)) {
    personRatings.set(key, null);
    api.profile(owner).then(
      (p) => {
        const row = (p.ratings || []).find((x) => x.pool === pool);
        personRatings.set(key, row || { rating: 1500, provisional: true });
        render();
      },
      () => {},
    );
  }
  const r = personRatings.get(key);
  return r ? ratingText(r.rating, r.provisional) : null;
}

/// The "Rated" badge with the pool, and after the end the rating change ("1500 → 1488 (−12)").
function renderRated(v) {
  const bar = $('rated-bar');
  bar.hidden = !v || !v.rated;
  if (bar.hidden) return;
  const pool = poolOfView(v);
  $('rated-pool').textContent = pool ? poolName(pool) : '';
  bar.dataset.pool = pool || '';
  // While it is played: what a rated game does not offer (on a phone, disabled buttons have no
  // tooltip to say why).
  let change = v.result ? '' : t('rated.rules');
  $('rated-change').classList.toggle('rules', !v.result);
  $('rated-change').classList.remove('up', 'down');
  if (v.result && v.id) {
    if (!ratingChanges.has(v.id) && store.me !== undefined) loadRatingChange(v.id);
    const c = ratingChanges.get(v.id);
    change = c ? changeText(c.before, c.after) : c === null ? t('rated.pending') : '';
    $('rated-change').classList.toggle('up', !!c && c.after > c.before);
    $('rated-change').classList.toggle('down', !!c && c.after < c.before);
  }
  $('rated-change').textContent = change;
}

function render() {
  const v = store.view;
  board.render(boardState(), settings);
  $('board').setAttribute('aria-label', v ? v.moves.map((m) => m.name).join(' ') : '');
  renderStatus($('status'), $('status-text'), store);
  renderPlayers(cards, store, cardRating, personName);
  renderEval(evalEls, store, settings);
  renderMoveList($('movelist'), store);
  review.render();
  renderOpening($('opening-panel'), $('opening-title'), $('opening-choices'), store, (choice) =>
    run(() => api.opening(v.id, { choice })),
  );
  $('game-meta').textContent = v ? metaText(v) : '';
  const over = !v || !!v.result;
  const draft = !v || !!v.draft;
  // Buttons that cannot act are disabled (the server would refuse them).
  // A spectator is offered nothing that acts for a seat.
  const watching = store.watching();
  // A rated game's moves stand: no undo, restart or hint (the server answers 409 rated_game).
  const rated = !!v && v.rated;
  $('btn-undo').disabled = draft || watching || rated || !canUndo(v) || store.busy;
  $('btn-resign').disabled = over || draft || watching;
  $('btn-hint').disabled = over || draft || rated || !store.isHumanTurn() || store.browsing();
  $('btn-restart').disabled = draft || watching || rated;
  for (const [id, key] of [['btn-undo', 'rated.no_undo'], ['btn-hint', 'rated.no_hint'], ['btn-restart', 'rated.no_restart']]) {
    const title = rated ? t(key) : '';
    if ($(id).title !== title) $(id).title = title;
  }
  renderRated(v);
  // Between people: no undo, hint, restart or new game while it is played (the panel has the
  // offers instead).
  const online = !!v && v.mode === 'online';
  $('btn-undo').hidden = online;
  $('btn-hint').hidden = online;
  $('btn-restart').hidden = online;
  $('btn-new').hidden = online && !v.result && !watching;
  if (online) $('btn-hint').disabled = true;
  if (onlinePanel) onlinePanel.render();
  if (chat) chat.render();
  $('browse-bar').classList.toggle('on', store.browsing());
  const n = v ? v.moves.length : 0;
  const shown = store.shownPly();
  $('nav-first').disabled = shown === 0;
  $('nav-prev').disabled = shown === 0;
  $('nav-next').disabled = shown >= n;
  $('nav-last').disabled = shown >= n;
}

const review = initReview($('review-panel'), $('movelist'), store, showError);
store.subscribe(render);
store.subscribe(() => rememberGame(store.view));

// Without a WebSocket (proxy, reconnecting), wait for the computer's reply by long-polling.
let polling = false;
async function pollWhileThinking() {
  if (polling) return;
  polling = true;
  try {
    while (store.view && store.view.thinking && !store.connected && !store.view.local) {
      const v = store.view;
      try {
        const g = await api.getGame(v.id, v.moves.length);
        if (store.view && store.view.id === g.id) store.setView(g);
      } catch {
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  } finally {
    polling = false;
  }
}
store.subscribe(() => {
  if (store.view && store.view.thinking && !store.connected && !store.view.local) setTimeout(pollWhileThinking, 800);
});

// With the evaluation bar on, ask the engine about each new position where a person is to move.
let analysedKey = null;
store.subscribe(() => {
  const v = store.view;
  // No analysis during a rated game (the server refuses it).
  if (!settings.showEval || !v || v.result || v.rated || v.mode === 'online' || !store.isHumanTurn()) return;
  const key = `${v.id}:${v.ply}`;
  if (key === analysedKey) return;
  if (v.local || computerInBrowser(v)) {
    // The engine in this browser evaluates the positions of a local game, and of a game whose
    // computer plays here.
    analysedKey = key;
    (v.local ? local.evaluate(800) : analyseHere(enginePosition(v), { ms: 800 })).then(
      (r) => {
        const cur = store.view;
        if (cur && cur.local === v.local && cur.id === v.id && cur.ply === v.ply) store.setAnalysis({ ...r, purpose: 'analysis', final: true });
      },
      () => {},
    );
    return;
  }
  if (!socket) return;
  if (socket.send({ type: 'analysis', time_ms: 800 })) analysedKey = key;
});
onLanguageChange(() => {
  $('lang').value = document.documentElement.lang;
  account.renderHeader();
  account.rerender();
  lobby.rerender();
  profile.rerender();
  leaderboard.rerender();
  render();
});

// ---------------------------------------------------------------- wiring
applyDocument();
const openById = (id) => {
  location.hash = `g=${encodeURIComponent(id)}`;
};
const account = initAccount(store, {
  onChange: () => {
    // Signing in or out may make the game on screen ours, or someone else's.
    if (store.message && store.message.key === 'error.code.not_yours') store.message = null;
    // The WebSocket acts as the identity it was opened with: open it again as the new one.
    const identity = store.me ? store.me.identity : null;
    if (socketIdentity === undefined) socketIdentity = identity;
    else if (identity !== socketIdentity && socket && store.view && store.view.id) {
      socket.close();
      connect(store.view.id);
    }
    if (lobby) lobby.identityChanged();
    render();
    // The computer in this browser plays for its person's page only: now known.
    browserComputer.check();
  },
  openProfile: () => profile.open(),
  toast,
});
/// A profile or the leaderboard shown from a link (`#player=<id>`, `#leaderboard`) gives the
/// address back to the game on screen when it closes.
function leaveOverlay(key) {
  if (parseHash(location.hash)[key] === undefined) return;
  const v = store.view;
  history.replaceState(null, '', v && v.id ? `#g=${encodeURIComponent(v.id)}` : location.pathname + location.search);
}
const profile = initProfile($('dlg-profile'), store, { onOpen: openById, account, onClose: () => leaveOverlay('player') });
const leaderboard = initLeaderboard($('dlg-leaderboard'), { onClose: () => leaveOverlay('leaderboard'), me: () => store.me });
// A person's name on a player card opens their profile.
for (const card of Object.values(cards)) {
  card.addEventListener('click', () => {
    if (card.dataset.owner) location.hash = `player=${encodeURIComponent(card.dataset.owner)}`;
  });
}
lobby = initLobby(store, { openGame: openById, knowMe, toast });
onlinePanel = initOnline(store, {
  send: (kind, action) => {
    const v = store.view;
    if (v && v.id) run(() => api.offer(v.id, kind, action));
  },
  abort: () => {
    const v = store.view;
    if (v && v.id) run(() => api.abort(v.id));
  },
  claim: (result) => {
    const v = store.view;
    if (v && v.id) run(() => api.claim(v.id, result));
  },
  openGame: openById,
});
chat = initChat(store, { toast });
$('btn-play').addEventListener('click', () => lobby.open());
// A challenge link, or the lobby or watch list from a link, gives the address back when it closes.
for (const [dialog, key] of [['dlg-challenge', 'challenge'], ['dlg-lobby', 'lobby'], ['dlg-watch', 'watch']]) {
  $(dialog).addEventListener('close', () => leaveOverlay(key));
}
$('btn-leaderboard').addEventListener('click', () => {
  if (parseHash(location.hash).leaderboard !== undefined) leaderboard.open();
  else location.hash = 'leaderboard';
});
fillLanguageSelect($('lang'));
initSettings($('dlg-settings'), $('btn-settings'), settings, () => {
  board.resize();
  render();
});
const newGameDialog = initNewGame($('dlg-new'), { onStart: newGame });
const recordsDialog = initRecords($('dlg-records'), store, {
  onOpened: async (view) => {
    await knowMe();
    openGame(view);
  },
  toast,
});
initMoveList($('movelist'), store, {
  first: $('nav-first'),
  prev: $('nav-prev'),
  next: $('nav-next'),
  last: $('nav-last'),
});
$('btn-new').addEventListener('click', () => newGameDialog.open());
$('btn-records').addEventListener('click', () => recordsDialog.open());
$('btn-undo').addEventListener('click', () => {
  const v = store.view;
  if (v && v.id) {
    // Undo acts on the game as it is: looking back ends, so the change is seen.
    if (store.browsing()) store.browse(Infinity);
    store.setHint(null);
    run(() => api.undo(v.id));
  } else if (v && v.local) {
    if (store.browsing()) store.browse(Infinity);
    store.setHint(null);
    local.undo();
  }
});
$('btn-start-draft').addEventListener('click', () => {
  if (store.view && store.view.draft && !store.busy) createDraft();
});
const gamesDialog = initGames($('dlg-games'), {
  me: () => store.me,
  currentId: () => store.view && store.view.id,
  onOpen: (id) => {
    location.hash = `g=${encodeURIComponent(id)}`;
  },
});
$('btn-games').addEventListener('click', () => gamesDialog.open());
$('btn-resign').addEventListener('click', resign);
$('btn-restart').addEventListener('click', () => {
  const v = store.view;
  if (v && v.local) local.restart();
  else if (v) run(() => api.restart(v.id));
});
$('btn-hint').addEventListener('click', hint);
// While the computer thinks: ask it to play its best move so far.
$('btn-move-now').addEventListener('click', () => {
  if (computerInBrowser(store.view)) browserComputer.moveNow();
  else if (store.view && store.view.thinking && socket) socket.send({ type: 'stop' });
});
$('btn-continue-here').addEventListener('click', continueHere);
$('btn-back-live').addEventListener('click', () => store.browse(Infinity));

// Clocks count down locally between server updates; the server decides when a flag falls.
let lastPoll = 0;
setInterval(() => {
  tickClocks(cards, store);
  const c = store.clock;
  const v = store.view;
  const now = performance.now();
  const flagDown = c && v && !v.result && c.running && store.remaining(c.running) === 0;
  // A safety net if a WebSocket message was missed: look again when a flag is down or a reply is late.
  const lateReply = v && v.thinking && !v.local && now - (store.lastUpdate || 0) > 5000;
  // The server went away while the computer was to move: the engine here plays instead.
  if (v && v.thinking && !v.local && downSince !== null && now - downSince > LOCAL_AFTER_MS && !store.busy) {
    downSince = null;
    goLocal({ status: 0 });
  }
  if ((flagDown || lateReply) && now - lastPoll > 2000) {
    lastPoll = now;
    refetch(v.id);
  }
}, 100);

// The analysis board (#analysis, or #analysis=<game id>&ply=<n> from a game).
const gameMain = document.querySelector('main.layout');
const analysis = initAnalysis($('analysis-page'), {
  getGame: async (id) => normalizeView(await api.getGame(id)),
  onBack: (id) => {
    location.hash = id && id !== 'board' ? `g=${encodeURIComponent(id)}` : '';
  },
  toast,
});
$('btn-analysis').addEventListener('click', () => {
  location.hash = 'analysis';
});
$('btn-analyse-game').addEventListener('click', () => {
  const v = store.view;
  location.hash = v && v.id && !v.draft ? `analysis=${encodeURIComponent(v.id)}&ply=${store.shownPly()}` : 'analysis';
});

// Puzzles (#puzzles, or #puzzle=<id> for one).
const puzzles = initPuzzles($('puzzle-page'), {
  onBack: () => {
    location.hash = '';
  },
});
for (const id of ['btn-puzzles', 'btn-puzzles-game']) {
  $(id).addEventListener('click', () => {
    location.hash = 'puzzles';
  });
}

window.addEventListener('hashchange', () => start());

async function start() {
  const h = parseHash(location.hash);
  if (h.analysis !== undefined) {
    for (const d of document.querySelectorAll('dialog[open]')) d.close();
    gameMain.hidden = true;
    puzzles.hide();
    await analysis.open(h.analysis, h.ply);
    return;
  }
  if (h.puzzles !== undefined || h.puzzle !== undefined) {
    for (const d of document.querySelectorAll('dialog[open]')) d.close();
    gameMain.hidden = true;
    analysis.hide();
    await puzzles.open(h.puzzle);
    return;
  }
  if (gameMain.hidden) {
    analysis.hide();
    puzzles.hide();
    gameMain.hidden = false;
  }
  // A challenge link, the lobby or the games to watch, over the game on screen.
  if (h.challenge !== undefined || h.lobby !== undefined || h.watch !== undefined) {
    if (!store.view) showDraft(choicesToRequest(loadChoices()), { keepHash: true });
    if (h.challenge) await lobby.openChallenge(h.challenge);
    else if (h.watch !== undefined) lobby.openWatch();
    else lobby.open();
    return;
  }
  // Another player's profile, or the leaderboard, over the game on screen (a fresh board if none).
  if (h.player !== undefined || h.leaderboard !== undefined) {
    if (!store.view) showDraft(choicesToRequest(loadChoices()), { keepHash: true });
    for (const d of document.querySelectorAll('dialog[open]')) if (d.id !== 'dlg-profile' && d.id !== 'dlg-leaderboard') d.close();
    if (h.player) {
      if ($('dlg-leaderboard').open) $('dlg-leaderboard').close();
      await profile.open(h.player);
    } else {
      if ($('dlg-profile').open) $('dlg-profile').close();
      await leaderboard.open(h.leaderboard || undefined);
    }
    return;
  }
  if (h.g && (!store.view || String(store.view.id) !== h.g)) {
    try {
      const view = await api.getGame(h.g);
      openGame(view, { browse: h.ply != null ? Number(h.ply) : undefined });
      return;
    } catch (e) {
      // A link to a game the server does not have: a fresh board, and the reason.
      showDraft(choicesToRequest(loadChoices()));
      showError(e);
      return;
    }
  } else if (h.g) {
    if (h.ply != null) store.browse(Number(h.ply));
    return;
  }
  // No game link: a fresh board with the last choices, created when the player starts.
  showDraft(choicesToRequest(loadChoices()));
}

// For tests and the curious: the link to the position on screen.
window.wuzi = {
  store,
  analysis,
  puzzles,
  link: () => store.view && gameLink(store.view.id, store.shownPly(), store.view.moves.length),
  sendRaw: (text) => !!socket && socket.sendText(text),
};

render();
account.refresh();
start();

// The page loads offline after a first visit (sw.js caches its files, the engine's included).
if ('serviceWorker' in navigator && window.isSecureContext) {
  navigator.serviceWorker.register('sw.js').catch(() => {});
}
