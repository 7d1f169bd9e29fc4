// Puzzles (#puzzles, #puzzle=<id>): positions mined from real games where one side wins by
// force (or has a single saving defence), each step's move proven unique by the solver
// (`wuzi puzzles mine`). The page gets the puzzle with its whole solution tree and checks the
// player's moves against it itself; the computer answers with the defender's best reply from
// the tree. A wrong move ends the try: the page shows how it is refuted (the server's solver
// and engine, when reachable) and the solution. The first try of each puzzle is rated on the
// server (Glicko-2, the puzzle rated too); the streak counts puzzles solved in a row.

import { Board } from '../board.js';
import { t, onLanguageChange } from '../i18n.js';
import { pointName, parsePoint } from '../coords.js';
import { api } from '../api.js';

const THEMES = ['any', 'vcf', 'vct', 'forbidden', 'defence'];
const REPLY_MS = 350;
/// Puzzles kept in this browser for the theme chosen (so puzzles go on offline): `{ theme, puzzles }`.
const QUEUE_KEY = 'wuzi.puzzles.queue';
/// Tries made offline, sent when the server can be reached: `[{ id, solved }]`.
const PENDING_KEY = 'wuzi.puzzles.pending';
const KEEP = 10;
const REFILL_BELOW = 4;

function readJson(key, fallback) {
  try {
    return JSON.parse(localStorage.getItem(key)) ?? fallback;
  } catch {
    return fallback;
  }
}

function writeJson(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* storage full or off: nothing kept */
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function initPuzzles(root, { onBack }) {
  const $ = (id) => root.querySelector(`#${id}`);
  const canvas = $('pz-board');
  const status = $('pz-status');
  const themeSel = $('pz-theme');
  let puzzle = null; // the API's puzzle: { id, record, rating, plays, solved }
  let player = null;
  let step = null; // the solution step the player is at
  let moves = []; // points played from the puzzle's position, alternating from the solver
  let state = 'idle'; // 'solving' | 'replying' | 'solved' | 'failed' | 'loading' (the next one)
  let rated = false; // the try was sent
  let marks = []; // ghost stones of a shown line
  let lines = []; // texts shown under the board: refutation and solution
  let lastChange = null;
  let loadSeq = 0;

  const board = new Board(canvas, { onPlay: (p) => play(p) });

  function fillThemes() {
    const v = themeSel.value || 'any';
    themeSel.replaceChildren(...THEMES.map((th) => new Option(t(`pz.theme.${th}`), th)));
    themeSel.value = v;
    render();
  }
  fillThemes();
  onLanguageChange(fillThemes);

  $('pz-next').addEventListener('click', () => {
    location.hash = 'puzzles';
    next();
  });
  $('pz-retry').addEventListener('click', () => restart());
  $('pz-solution').addEventListener('click', () => giveUp());
  $('pz-analyse').addEventListener('click', () => {
    if (!puzzle) return;
    const r = puzzle.record;
    // The free analysis board's study (js/analysis/tree.js, flat form): the puzzle's position
    // and the moves played on it.
    const flat = {
      position: { rule: r.rule, size: r.size, black: r.black, white: r.white, to_move: r.to_move, moves: [] },
      nodes: moves.map((move, i) => ({ parent: i ? i - 1 : null, move })),
      current: moves.length - 1,
      saved_at: Date.now(),
    };
    // The free board's own study gives way only when its owner says so.
    const old = readJson('wuzi.analysis.board', null);
    if (old && old.nodes && old.nodes.length && !window.confirm(t('pz.replace_study'))) return;
    try {
      localStorage.setItem('wuzi.analysis.board', JSON.stringify(flat));
    } catch {
      /* storage off: the board opens empty */
    }
    location.hash = 'analysis';
  });
  $('pz-back').addEventListener('click', () => onBack());
  themeSel.addEventListener('change', () => next());

  const size = () => puzzle.record.size;
  const solver = () => puzzle.record.to_move;
  const other = (c) => (c === 'black' ? 'white' : 'black');

  function showStatus(text, kind = '') {
    status.textContent = text;
    status.dataset.kind = kind;
    status.classList.toggle('error', kind === 'error');
  }

  async function open(id) {
    root.hidden = false;
    flushPending();
    if (id) await load(() => api.puzzle(id));
    else if (!puzzle) await next();
    else render();
  }

  function hide() {
    root.hidden = true;
  }

  const theme = () => themeSel.value || 'any';

  function kept(th) {
    const q = readJson(QUEUE_KEY, null);
    return q && q.theme === th && Array.isArray(q.puzzles) ? q.puzzles : [];
  }

  /// Tops up the puzzles kept for theme `th` from the server when few are left.
  async function refill(th) {
    let list = kept(th);
    if (list.length >= REFILL_BELOW) return list;
    const a = await api.puzzleBatch(th, KEEP);
    if (!player) player = a.player;
    const skip = new Set([...list.map((p) => p.id), ...readJson(PENDING_KEY, []).map((p) => p.id)]);
    if (puzzle) skip.add(puzzle.id);
    list = [...kept(th), ...a.puzzles.filter((p) => !skip.has(p.id))];
    writeJson(QUEUE_KEY, { theme: th, puzzles: list });
    return list;
  }

  /// The next puzzle: the first one kept (fetched first when none is), so it works offline.
  async function next() {
    const th = theme();
    const seq = ++loadSeq;
    const back = loading();
    let list;
    try {
      list = await refill(th);
    } catch (e) {
      list = kept(th);
      if (!list.length) {
        if (seq === loadSeq) {
          back();
          showStatus(e.status === 0 ? t('pz.offline_empty') : e.message, 'error');
        }
        return;
      }
    }
    if (seq !== loadSeq) return;
    if (!list.length) {
      back();
      showStatus(t('pz.none_left'), 'error');
      return;
    }
    const [first, ...rest] = list;
    writeJson(QUEUE_KEY, { theme: th, puzzles: rest });
    puzzle = first;
    lastChange = null;
    rated = false;
    restart();
    refill(th).catch(() => {});
  }

  /// Sends the tries made offline; stops at the first that cannot reach the server.
  async function flushPending() {
    let pending = readJson(PENDING_KEY, []);
    while (pending.length) {
      const [p] = pending;
      try {
        const a = await api.tryPuzzle(p.id, p.solved);
        player = a.player;
      } catch (e) {
        if (e.status === 0) break;
      }
      pending = readJson(PENDING_KEY, []).filter((q) => q.id !== p.id);
      writeJson(PENDING_KEY, pending);
    }
    renderInfo();
  }
  window.addEventListener('online', () => flushPending());

  /// The puzzle on screen stops taking moves while the next one loads (a move on it then
  /// would count for a puzzle already left); the function returned puts it back as it was,
  /// for when none comes.
  function loading() {
    const was = state;
    showStatus(t('pz.loading'));
    if (state !== 'loading') {
      state = 'loading';
      render();
    }
    return () => {
      if (state !== 'loading') return;
      // A reply cut short, or a load over another: the puzzle from its start.
      if (was === 'replying' || was === 'loading') return restart();
      state = was;
      render();
    };
  }

  async function load(fetcher) {
    const seq = ++loadSeq;
    const back = loading();
    try {
      const a = await fetcher();
      if (seq !== loadSeq) return;
      puzzle = a.puzzle;
      player = a.player;
      lastChange = null;
      rated = false;
      restart();
    } catch (e) {
      if (seq !== loadSeq) return;
      back();
      showStatus(e.status === 404 ? t('pz.none_left') : e.status === 0 ? t('an.network') : e.message, 'error');
      renderInfo();
    }
  }

  function restart() {
    if (!puzzle) return;
    step = puzzle.record.solution;
    moves = [];
    marks = [];
    lines = [];
    state = 'solving';
    showStatus(t(`pz.task.${puzzle.record.theme}`, { color: t(`color.${solver()}`) }));
    render();
  }

  function colorAt(i) {
    return i % 2 ? other(solver()) : solver();
  }

  function occupied(name) {
    const r = puzzle.record;
    return r.black.includes(name) || r.white.includes(name) || moves.includes(name);
  }

  async function play(p) {
    if (!puzzle || state !== 'solving') return;
    const name = pointName(p, size());
    if (occupied(name)) return;
    marks = [];
    if (!step.moves.includes(name)) {
      moves.push(name);
      state = 'failed';
      render();
      await fail(name);
      return;
    }
    moves.push(name);
    if (step.forbidden) {
      // White's four whose only block is forbidden to Black: Black cannot stop it.
      marks = [{ ...parsePoint(step.forbidden, size(), size()), r: 0.34, fill: 'rgba(214, 48, 32, 0.85)', text: '×', textColor: '#fff' }];
      lines = [t('pz.forbidden_end', { point: step.forbidden })];
      return solved();
    }
    const replies = step.replies || [];
    if (!replies.length) return solved();
    state = 'replying';
    showStatus(t('pz.good'), 'good');
    render();
    await sleep(REPLY_MS);
    if (state !== 'replying') return;
    const reply = replies[0];
    moves.push(reply.move);
    step = reply.next;
    state = 'solving';
    showStatus(t('pz.your_move'), 'good');
    render();
  }

  async function solved() {
    state = 'solved';
    showStatus(t('pz.solved'), 'good');
    render();
    await rate(true);
  }

  // The wrong move `name`: how the opponent answers it (a win of its own by fours, or the
  // engine's best defence), then the solution from the position before it.
  async function fail(name) {
    showStatus(t('pz.wrong', { move: name }), 'error');
    const solution = mainLine(step);
    const before = moves.slice(0, -1);
    lines = [t('pz.solution_line', { line: solution.join(' ') })];
    render();
    rate(false);
    const r = puzzle.record;
    const position = { rule: r.rule, size: r.size, black: r.black, white: r.white, to_move: r.to_move, moves };
    try {
      const win = await api.solvePosition(position, 'vcf', 1500);
      let refutation = null;
      if (win && win.found && win.line && win.line.length) {
        refutation = t('pz.refuted_win', { line: win.line.map((m) => m.name || pointName(m, r.size)).join(' ') });
      } else {
        const info = await api.analysePosition(position);
        const best = info && info.candidates && info.candidates[0];
        if (best) refutation = t('pz.refuted_defence', { move: best.point.name || pointName(best.point, r.size) });
      }
      if (refutation && state === 'failed') lines = [refutation, ...lines];
    } catch {
      // Offline or busy: the solution alone.
    }
    if (state !== 'failed') return;
    marks = solution.map((m, i) => ({ ...parsePoint(m, r.size, r.size), r: 0.4, ghost: colorAt(before.length + i), text: String(i + 1) }));
    render();
  }

  function giveUp() {
    if (!puzzle || state === 'solved' || state === 'failed' || state === 'loading') return;
    const before = moves.length;
    state = 'failed';
    const solution = mainLine(step);
    const r = puzzle.record;
    marks = solution.map((m, i) => ({ ...parsePoint(m, r.size, r.size), r: 0.4, ghost: colorAt(before + i), text: String(i + 1) }));
    lines = [t('pz.solution_line', { line: solution.join(' ') })];
    showStatus(t('pz.shown'), 'error');
    render();
    rate(false);
  }

  function mainLine(s) {
    const out = [];
    let cur = s;
    while (cur) {
      out.push(cur.moves[0]);
      if (cur.forbidden) {
        out.push(cur.forbidden);
        break;
      }
      const r = cur.replies && cur.replies[0];
      if (!r) break;
      out.push(r.move);
      cur = r.next;
    }
    return out;
  }

  async function rate(ok) {
    if (rated || !puzzle) return;
    rated = true;
    const current = puzzle;
    try {
      const a = await api.tryPuzzle(current.id, ok);
      player = a.player;
      lastChange = a.counted ? a.change : null;
      current.rating = a.puzzle_rating;
      if (a.counted) {
        current.plays += 1;
        if (ok) current.solved += 1;
      }
    } catch (e) {
      lastChange = null;
      if (e.status === 0) {
        // Offline: kept, and sent when the server can be reached again.
        writeJson(PENDING_KEY, [...readJson(PENDING_KEY, []), { id: current.id, solved: ok }]);
        lines = [...lines, t('pz.saved_offline')];
        render();
      }
    }
    renderInfo();
  }

  function boardState() {
    const r = puzzle.record;
    const at = (n) => parsePoint(n, r.size, r.size);
    const setup = [...r.black.map((n) => ({ ...at(n), color: 'black' })), ...r.white.map((n) => ({ ...at(n), color: 'white' }))];
    const played = moves.map((n, i) => ({ ...at(n), color: colorAt(i) }));
    return {
      width: r.size,
      height: r.size,
      setup,
      moves: played,
      lastIndex: played.length - 1,
      winCells: [],
      forbidden: [],
      walls: [],
      bubbles: [],
      ghostColor: state === 'solving' ? solver() : null,
      interactive: state === 'solving',
      marks,
    };
  }

  function renderInfo() {
    const info = $('pz-info');
    info.replaceChildren();
    if (puzzle) {
      const r = puzzle.record;
      const add = (k, v) => {
        const row = document.createElement('div');
        row.className = 'pz-fact';
        const a = document.createElement('span');
        a.className = 'an-dim';
        a.textContent = t(k);
        const b = document.createElement('span');
        b.textContent = v;
        row.append(a, ' ', b);
        info.append(row);
      };
      add('pz.theme_label', t(`pz.theme.${r.theme}`));
      add('pz.rule_label', t(`rule.${r.rule}`) === `rule.${r.rule}` ? r.rule : t(`rule.${r.rule}`));
      add('pz.rating_label', String(puzzle.rating));
      add('pz.played_label', t('pz.played', { plays: puzzle.plays, solved: puzzle.solved }));
      add('pz.source_label', r.source || '—');
    }
    const me = $('pz-me');
    if (player) {
      me.querySelector('#pz-rating').textContent = `${player.rating}${player.provisional ? '?' : ''}`;
      me.querySelector('#pz-streak').textContent = String(player.streak);
      me.querySelector('#pz-best').textContent = String(player.best_streak);
      const ch = me.querySelector('#pz-change');
      ch.textContent = lastChange == null ? '' : lastChange >= 0 ? `+${lastChange}` : String(lastChange);
      ch.dataset.sign = lastChange == null ? '' : lastChange >= 0 ? 'up' : 'down';
    }
  }

  function render() {
    if (root.hidden || !puzzle) return;
    board.render(boardState(), { moveNumbers: true, coordinates: true, forbiddenMarks: false, confirmTouch: false });
    canvas.dataset.moves = moves.join(' ');
    canvas.dataset.state = state;
    canvas.dataset.puzzle = puzzle.id;
    canvas.setAttribute('aria-label', t('pz.board_label', { moves: moves.join(' ') || '—' }));
    const box = $('pz-lines');
    box.replaceChildren(...lines.map((l) => {
      const d = document.createElement('div');
      d.textContent = l;
      return d;
    }));
    box.hidden = !lines.length;
    $('pz-retry').disabled = (state === 'solving' && !moves.length) || state === 'loading';
    $('pz-solution').disabled = state === 'solved' || state === 'failed' || state === 'loading';
    renderInfo();
  }

  return {
    open,
    hide,
    next,
    /// For tests: the puzzle on screen and where the try stands.
    get state() {
      return { id: puzzle && puzzle.id, record: puzzle && puzzle.record, state, moves: [...moves], player };
    },
  };
}
