// The analysis board (#analysis, #analysis=<game id>): set up any position or start from a
// game, play variations (a tree), and study them with the engine: live best lines, the threat
// map, Black's forbidden points, the candidate heat map and the VCF / VCT solver.
//
// The tree is kept in this browser's local storage, per game (or one for the free board): a
// study is personal scratch work, guests have none of the server-side storage an account has,
// anyone may study any game (another person's too) without write access to it, and SGF export
// is there to share or keep it elsewhere. The server judges every position (rules, threats,
// forbidden points) and runs the searches; the page decides nothing about the rules.

import { Board } from '../board.js';
import { t, onLanguageChange } from '../i18n.js';
import { pointName } from '../coords.js';
import { VariationTree } from './tree.js';
import * as engine from '../engine.js';

const STORE_PREFIX = 'wuzi.analysis.';
const RULES = ['freestyle', 'standard', 'renju', 'caro'];
const THREAT_KINDS = ['five', 'open_four', 'four', 'open_three'];
const THREAT_STYLE = {
  five: { fill: '#d93a2b', text: '5' },
  open_four: { fill: '#e8862a', text: '4' },
  four: { fill: '#e6c52e', text: '4' },
  open_three: { fill: '#4fae5b', text: '3' },
};
const STREAM_MS = 20000;
const SOLVE_MS = 5000;
/// A live analysis in the browser (offline): one search, ended when the position changes.
const OFFLINE_MS = 8000;
/// Trees larger than this show as the line to the current move and the moves after it, not whole.
const FULL_TREE_NODES = 1500;
const RENLIB_MAGIC = [0xff, 0x52, 0x65, 0x6e, 0x4c, 0x69, 0x62, 0xff]; // FF 'RenLib' FF

/// Base64 of `bytes` (a Uint8Array), in pieces so a large file does not overflow the call stack.
function toBase64(bytes) {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/// Whether `bytes` (or the file's name) say RenLib: its header, or the `.lib` extension.
function isRenLib(bytes, name) {
  return RENLIB_MAGIC.every((b, i) => bytes[i] === b) || /\.lib$/i.test(name || '');
}

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function post(path, body, signal) {
  let res;
  try {
    res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal });
  } catch (e) {
    if (e && e.name === 'AbortError') throw e;
    throw new HttpError(0, t('an.network'));
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) throw new HttpError(res.status, (data && data.error) || `HTTP ${res.status}`);
  return data;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

function fmtNodes(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} k`;
  return String(n);
}

export function initAnalysis(root, { getGame, onBack, toast }) {
  const $ = (id) => root.querySelector(`#${id}`);
  const canvas = $('an-board');
  const status = $('an-status');
  let tree = new VariationTree({ rule: 'renju', size: 15, to_move: 'black' });
  let source = 'board'; // the storage key: a game id, or 'board'
  let info = null; // the server's answer for the current node
  let infoFor = null; // the line `info` belongs to
  let tool = 'play';
  let lines = [];
  let engineText = '';
  // The tallest the best lines have been at this number of lines. The box keeps that
  // height while the engine streams, so the overlays and the solver below it never move
  // under the pointer as a line grows or wraps.
  let linesFloor = 0;
  let analysisCtrl = null;
  let solveResult = null;
  let requestSeq = 0;
  let drawPending = false;
  /// A RenLib library on the board (read-only): `{ name, version, skipped, labels }`, else null.
  let library = null;
  /// A message to show instead of the side to move once the position is judged (a library opened).
  let note = null;

  const board = new Board(canvas, {
    onPlay: (p) => clickPoint(p),
  });

  // Controls.
  const ruleSel = $('an-rule');
  for (const r of RULES) ruleSel.append(new Option(r, r));
  const sizeInput = $('an-size');
  const toMoveSel = $('an-tomove');
  const multipvSel = $('an-multipv');
  for (let i = 1; i <= 5; i++) multipvSel.append(new Option(String(i), String(i)));
  const solveSide = $('an-solve-side');

  function fillLabels() {
    for (const sel of [toMoveSel, solveSide]) {
      const v = sel.value;
      sel.replaceChildren(new Option(t('color.black'), 'black'), new Option(t('color.white'), 'white'));
      if (v) sel.value = v;
    }
    for (const o of ruleSel.options) o.textContent = t(`rule.${o.value}`) === `rule.${o.value}` ? o.value : t(`rule.${o.value}`);
    render();
  }

  root.querySelectorAll('[data-tool]').forEach((b) =>
    b.addEventListener('click', () => {
      tool = b.dataset.tool;
      root.querySelectorAll('[data-tool]').forEach((x) => x.setAttribute('aria-pressed', String(x === b)));
      render();
    }),
  );

  function setSetup(change) {
    if (library) {
      showStatus(t('an.lib_read_only'), true);
      syncSetupControls();
      return;
    }
    if (tree.preorder().length && !window.confirm(t('an.setup_clears'))) {
      syncSetupControls();
      return;
    }
    const s = { ...tree.setup, ...change };
    tree = new VariationTree(s);
    changed();
  }

  ruleSel.addEventListener('change', () => setSetup({ rule: ruleSel.value }));
  sizeInput.addEventListener('change', () => {
    const n = Math.round(Number(sizeInput.value));
    if (!(n >= 5 && n <= 26)) {
      showStatus(t('an.bad_size'), true);
      syncSetupControls();
      return;
    }
    setSetup({ size: n, black: [], white: [] });
  });
  toMoveSel.addEventListener('change', () => setSetup({ to_move: toMoveSel.value }));
  $('an-clear').addEventListener('click', () => setSetup({ black: [], white: [] }));

  $('an-engine').addEventListener('change', () => (isOn('an-engine') ? analyse() : stopAnalysis(true)));
  multipvSel.addEventListener('change', () => {
    linesFloor = 0;
    analyse();
  });
  window.addEventListener('resize', () => {
    linesFloor = 0;
  });
  for (const id of ['an-ov-black', 'an-ov-white', 'an-ov-forbidden', 'an-ov-heat']) $(id).addEventListener('change', () => render());

  $('an-first').addEventListener('click', () => go(0));
  $('an-prev').addEventListener('click', () => go(tree.node(tree.current).parent ?? 0));
  $('an-next').addEventListener('click', () => {
    const c = tree.node(tree.current).children[0];
    if (c != null) go(c);
  });
  $('an-last').addEventListener('click', () => {
    let id = tree.current;
    while (tree.node(id).children.length) id = tree.node(id).children[0];
    go(id);
  });
  $('an-promote').addEventListener('click', () => {
    if (!library && tree.promote(tree.current)) changed(false);
  });
  $('an-mainline').addEventListener('click', () => {
    if (library) return;
    tree.makeMainLine(tree.current);
    changed(false);
  });
  $('an-delete').addEventListener('click', () => {
    if (library || tree.current === 0) return;
    tree.delete(tree.current);
    changed();
  });
  $('an-vcf').addEventListener('click', () => solve('vcf'));
  $('an-vct').addEventListener('click', () => solve('vct'));
  $('an-export').addEventListener('click', exportSgf);
  $('an-import').addEventListener('click', () => importSgf($('an-sgf').value));
  $('an-file').addEventListener('change', async (e) => {
    const f = e.target.files && e.target.files[0];
    e.target.value = '';
    if (!f) return;
    const bytes = new Uint8Array(await f.arrayBuffer());
    if (isRenLib(bytes, f.name)) openLibrary(bytes, f.name);
    else importSgf(new TextDecoder().decode(bytes));
  });
  $('an-lib-close').addEventListener('click', () => closeLibrary());
  $('an-back').addEventListener('click', () => onBack(source));

  window.addEventListener(
    'keydown',
    (e) => {
      if (root.hidden || e.target.closest('input, textarea, select, dialog[open]') || e.altKey || e.ctrlKey || e.metaKey) return;
      const keys = { ArrowLeft: 'an-prev', ArrowRight: 'an-next', Home: 'an-first', End: 'an-last', ArrowUp: 'an-first', ArrowDown: 'an-last' };
      if (!keys[e.key]) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      $(keys[e.key]).click();
    },
    true,
  );
  onLanguageChange(fillLabels);

  const isOn = (id) => $(id).checked;

  function showStatus(text, error = false) {
    status.textContent = text;
    status.classList.toggle('error', !!error);
  }

  function positionOf(moves = tree.line()) {
    const s = tree.setup;
    return { rule: s.rule, size: s.size, black: s.black, white: s.white, to_move: s.to_move, moves };
  }

  // Offline (the server cannot be reached), the engine in this browser (js/engine.js) judges the
  // position, streams the best lines and runs the solver; the threat map and the heat map need
  // the server and stay empty.
  let offline = false;

  /// The engine's position: the set-up stones and `moves`, or (`side`) every stone as set up
  /// with `side` to move, for the solver.
  function enginePosition(moves = tree.line(), side = null) {
    const s = tree.setup;
    if (!side) return { rule: s.rule, width: s.size, height: s.size, black: s.black, white: s.white, to_move: s.to_move, moves };
    const black = [...s.black];
    const white = [...s.white];
    const other = s.to_move === 'black' ? 'white' : 'black';
    moves.forEach((m, i) => ((i % 2 ? other : s.to_move) === 'black' ? black : white).push(m));
    return { rule: s.rule, width: s.size, height: s.size, black, white, to_move: side, moves: [] };
  }

  /// The position as /api/analysis/position describes it, from the browser's engine.
  async function judgeHere(line) {
    const a = await engine.judge(enginePosition(line));
    if (a.error) throw new HttpError(422, a.error);
    offline = true;
    return {
      side_to_move: a.side_to_move,
      result: a.result ? a.result_text : null,
      winner: a.result ? a.result.winner : null,
      threats: { black: [], white: [] },
      forbidden: (a.forbidden || []).map((f) => ({ point: { x: f.x, y: f.y, name: f.name }, kind: f.kind })),
      candidates: [],
    };
  }

  /// The server's answer about `line`, or the browser's engine's when the server cannot be reached.
  async function describe(line) {
    try {
      const v = await post('/api/analysis/position', { position: positionOf(line) });
      offline = false;
      return v;
    } catch (e) {
      if (e.status !== 0 || !(await engine.available())) throw e;
      return judgeHere(line);
    }
  }

  function save() {
    // A library is read from its file each time: not kept (it may be far larger than storage).
    if (library) return;
    let flat;
    try {
      flat = tree.toFlat();
      flat.current = tree.preorder().indexOf(tree.current);
      flat.saved_at = Date.now();
      localStorage.setItem(STORE_PREFIX + source, JSON.stringify(flat));
    } catch {
      /* storage full or off: the study lives on screen (and on the server) only */
    }
    if (flat) push(source, flat);
  }

  // The study is kept with the game on the server too (PUT /api/studies/<game id or board>),
  // so it follows its owner to another device; the newer copy wins. Offline, the browser's copy
  // waits and goes with the next save.
  // One PUT at a time: a save made meanwhile waits, and only the latest one is sent.
  let pushing = false;
  let waiting = null;
  async function push(key, flat) {
    waiting = { key, flat };
    if (pushing) return;
    pushing = true;
    while (waiting) {
      const { key: k, flat: f } = waiting;
      waiting = null;
      const { current, saved_at: savedAt, ...treeFlat } = f;
      try {
        await fetch(`/api/studies/${encodeURIComponent(k)}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ tree: treeFlat, current: current >= 0 ? current : null, saved_at: savedAt }),
          keepalive: true,
        });
      } catch {
        /* offline: this browser's copy goes with the next save */
      }
    }
    pushing = false;
  }

  /// Takes the server's copy of the study under `key` when it is newer than this browser's.
  async function pull(key) {
    try {
      const res = await fetch(`/api/studies/${encodeURIComponent(key)}`);
      if (!res.ok) return;
      const { study } = await res.json();
      if (!study) return;
      const local = JSON.parse(localStorage.getItem(STORE_PREFIX + key) || 'null');
      if (local && (local.saved_at || 0) >= study.saved_at) return;
      localStorage.setItem(STORE_PREFIX + key, JSON.stringify({ ...study.tree, current: study.current ?? 0, saved_at: study.saved_at }));
    } catch {
      /* offline or storage off: this browser's copy */
    }
  }

  function load(key) {
    try {
      const raw = localStorage.getItem(STORE_PREFIX + key);
      if (!raw) return null;
      const flat = JSON.parse(raw);
      const tr = VariationTree.fromFlat(flat);
      const order = tr.preorder();
      tr.current = flat.current >= 0 && flat.current < order.length ? order[flat.current] : 0;
      return tr;
    } catch {
      return null;
    }
  }

  function syncSetupControls() {
    ruleSel.value = tree.setup.rule;
    sizeInput.value = String(tree.setup.size);
    toMoveSel.value = tree.setup.to_move;
    for (const c of [ruleSel, sizeInput, toMoveSel, $('an-clear'), ...root.querySelectorAll('[data-tool]')]) c.disabled = !!library;
    $('an-lib-close').hidden = !library;
  }

  /// The tree changed (or the node): save, ask the server about the position, redraw.
  /// Redraws after the study or the position changed; `persist` false when nothing new is to be
  /// kept (opening a study must not make a stale copy newer than another device's edit).
  function changed(refetch = true, persist = true) {
    if (persist) save();
    syncSetupControls();
    solveResult = null;
    renderSolve();
    if (refetch) refresh();
    else render();
  }

  function go(id) {
    if (tree.node(id) == null || id === tree.current) return;
    tree.current = id;
    changed();
  }

  async function refresh() {
    const seq = ++requestSeq;
    const line = tree.line();
    stopAnalysis(false);
    lines = [];
    render();
    try {
      const v = await describe(line);
      if (seq !== requestSeq) return;
      info = v;
      infoFor = line.join(' ');
      showStatus(note || describeStatus());
      note = null;
      render();
      analyse();
    } catch (e) {
      if (seq !== requestSeq) return;
      note = null;
      info = null;
      showStatus(e.message, true);
      render();
    }
  }

  function describeStatus() {
    if (!info) return '';
    const away = offline ? ` ${t('an.offline')}` : '';
    if (info.result) return t('an.over', { result: info.result }) + away;
    return t('an.to_move', { color: t(`color.${info.side_to_move}`) }) + away;
  }

  function stoneAt(name) {
    const s = tree.setup;
    if (s.black.includes(name) || s.white.includes(name)) return true;
    return tree.line().includes(name);
  }

  async function clickPoint(p) {
    const size = tree.setup.size;
    const name = pointName(p, size);
    if (tool !== 'play') {
      const s = { black: tree.setup.black.filter((n) => n !== name), white: tree.setup.white.filter((n) => n !== name) };
      if (tool === 'black' || tool === 'white') {
        if (tree.line().includes(name)) return;
        s[tool].push(name);
      }
      setSetup(s);
      return;
    }
    if (library) {
      // Read-only: a click on one of the next moves goes there.
      const next = tree.node(tree.current).children.find((c) => tree.node(c).move === name);
      if (next != null) go(next);
      else showStatus(t('an.lib_read_only'), true);
      return;
    }
    if (stoneAt(name)) return;
    if (info && info.result) {
      showStatus(t('an.over', { result: info.result }), true);
      return;
    }
    await playLine([name]);
  }

  /// Plays `names` from the current node (checked by the server first), going to the end.
  async function playLine(names) {
    if (library) {
      showStatus(t('an.lib_read_only'), true);
      return;
    }
    const line = [...tree.line(), ...names];
    const seq = ++requestSeq;
    try {
      const v = await describe(line);
      if (seq !== requestSeq) return;
      let id = tree.current;
      for (const n of names) id = tree.play(id, n);
      tree.current = id;
      info = v;
      infoFor = line.join(' ');
      save();
      solveResult = null;
      renderSolve();
      showStatus(describeStatus());
      lines = [];
      render();
      analyse();
    } catch (e) {
      if (seq !== requestSeq) return;
      showStatus(e.message, true);
    }
  }

  // Live analysis: a stream of lines while the position is on screen.
  function stopAnalysis(clear) {
    if (analysisCtrl) analysisCtrl.abort();
    // A search in the browser cannot be interrupted inside its worker: the worker is ended.
    if (analysisCtrl && analysisCtrl.here) engine.stop();
    analysisCtrl = null;
    if (clear) {
      lines = [];
      engineText = '';
      render();
    }
  }

  async function analyse() {
    stopAnalysis(false);
    lines = [];
    engineText = '';
    if (!isOn('an-engine') || !info || info.result || root.hidden) {
      renderLines();
      return;
    }
    const ctrl = new AbortController();
    analysisCtrl = ctrl;
    const body = { position: positionOf(), multipv: Number(multipvSel.value) || 1, time_ms: STREAM_MS };
    engineText = t('an.thinking');
    renderLines();
    for (let attempt = 0; attempt < 4; attempt++) {
      let res;
      try {
        if (offline) throw new Error('offline');
        res = await fetch('/api/analysis/stream', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: ctrl.signal });
      } catch {
        if (!ctrl.signal.aborted && analysisCtrl === ctrl) await analyseHere(ctrl, body.multipv);
        return;
      }
      // The previous stream may not be closed on the server yet: try again shortly.
      if (res.status === 429 && attempt < 3) {
        await sleep(300 * (attempt + 1));
        if (ctrl.signal.aborted) return;
        continue;
      }
      if (!res.ok) {
        let msg = `HTTP ${res.status}`;
        try {
          msg = (await res.json()).error || msg;
        } catch {
          /* keep the status */
        }
        engineText = msg;
        renderLines();
        return;
      }
      const reader = res.body.getReader();
      const dec = new TextDecoder();
      let buf = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buf += dec.decode(value, { stream: true });
          let i;
          while ((i = buf.indexOf('\n')) >= 0) {
            const text = buf.slice(0, i);
            buf = buf.slice(i + 1);
            if (text && analysisCtrl === ctrl) onStream(JSON.parse(text));
          }
        }
      } catch {
        /* aborted: a newer position took over */
      }
      return;
    }
  }

  /// The live lines from the engine in this browser (no server).
  async function analyseHere(ctrl, multipv) {
    if (!(await engine.available())) return;
    ctrl.here = true;
    try {
      const r = await engine.analyse(enginePosition(), {
        ms: OFFLINE_MS,
        multipv,
        onProgress: (p) => {
          if (analysisCtrl !== ctrl || !p.pv || !p.pv.length) return;
          onStream({ type: 'line', rank: p.multipv || 1, depth: p.depth, score_text: p.score_text, pv: p.pv, nodes: p.nodes, nps: p.nps, time_ms: p.time_ms });
        },
      });
      if (analysisCtrl !== ctrl) return;
      // A search settled before its first depth (one move, a forced win) reports no line.
      if (!lines.length && r.pv && r.pv.length) {
        onStream({ type: 'line', rank: 1, depth: r.depth, score_text: r.score_text, pv: r.pv, nodes: r.nodes, nps: r.nps, time_ms: r.time_ms });
      }
      onStream({ type: 'done', depth: r.depth, nodes: r.nodes, time_ms: r.time_ms });
    } catch {
      /* stopped: a newer position took over */
    }
  }

  function onStream(m) {
    if (m.type === 'queued') {
      engineText = m.ahead ? t('an.queued', { n: m.ahead }) : t('an.thinking');
    } else if (m.type === 'line') {
      lines[m.rank - 1] = m;
      engineText = t('an.engine_info', { depth: m.depth, nps: fmtNodes(m.nps), time: (m.time_ms / 1000).toFixed(1) });
    } else if (m.type === 'done') {
      engineText = t('an.engine_done', { depth: m.depth, nodes: fmtNodes(m.nodes), time: (m.time_ms / 1000).toFixed(1) });
    }
    if (!drawPending) {
      drawPending = true;
      requestAnimationFrame(() => {
        drawPending = false;
        render();
      });
    }
  }

  // The threat solver.
  async function solve(kind) {
    if (!info || info.result) return;
    const side = solveSide.value || 'black';
    const line = tree.line();
    solveResult = { pending: true, kind, side };
    renderSolve();
    try {
      let r;
      try {
        r = await post('/api/analysis/solve', { position: positionOf(line), kind, side, time_ms: SOLVE_MS });
      } catch (e) {
        if (e.status !== 0 || !(await engine.available())) throw e;
        // The solver in this browser: the side asked for moves, the other is taken to pass.
        const a = await engine.solve(enginePosition(line, side), kind, { ms: SOLVE_MS, nodes: 2_000_000 });
        if (a.error) throw new Error(a.error);
        r = { kind, side, found: a.found, line: a.line, nodes: a.nodes || 0, complete: false };
      }
      if (tree.line().join(' ') !== line.join(' ')) return;
      solveResult = r;
    } catch (e) {
      solveResult = { error: e.message };
    }
    renderSolve();
    render();
  }

  function renderSolve() {
    const box = $('an-solve-result');
    box.replaceChildren();
    const r = solveResult;
    if (!r) return;
    if (r.pending) {
      box.append(el('p', 'an-dim', t('an.solving')));
      return;
    }
    if (r.error) {
      box.append(el('p', 'an-error', r.error));
      return;
    }
    const who = t(`color.${r.side}`);
    const kind = r.kind.toUpperCase();
    if (!r.found) {
      const key = r.complete ? 'an.solve_none' : 'an.solve_none_time';
      box.append(el('p', 'an-solve-none', t(key, { kind, color: who, nodes: r.nodes.toLocaleString() })));
      return;
    }
    box.append(el('p', 'an-solve-found', t('an.solve_found', { kind, color: who, n: Math.ceil(r.line.length / 2), nodes: r.nodes.toLocaleString() })));
    const ol = el('ol', 'an-solve-line');
    const other = r.side === 'black' ? 'white' : 'black';
    r.line.forEach((m, i) => {
      const li = el('li', `an-solve-move ${i % 2 ? other : r.side}`, m.name);
      li.dataset.move = m.name;
      ol.append(li);
    });
    box.append(ol);
    if (info && r.side === info.side_to_move) {
      const b = el('button', 'btn small', t('an.play_line'));
      b.type = 'button';
      b.id = 'an-solve-play';
      b.addEventListener('click', () => playLine(r.line.map((m) => m.name)));
      box.append(b);
    }
  }

  // Rendering.
  function boardState() {
    const s = tree.setup;
    const size = s.size;
    const at = (name) => {
      const m = /^([a-z])(\d+)$/.exec(name);
      return { x: m[1].charCodeAt(0) - 97, y: size - Number(m[2]) };
    };
    const setup = [...s.black.map((n) => ({ ...at(n), color: 'black' })), ...s.white.map((n) => ({ ...at(n), color: 'white' }))];
    const line = tree.line();
    const first = s.to_move;
    const other = first === 'black' ? 'white' : 'black';
    const moves = line.map((n, i) => ({ ...at(n), color: i % 2 ? other : first }));
    const fresh = info && infoFor === line.join(' ');
    const marks = [];
    if (fresh && isOn('an-ov-heat') && info.candidates.length) {
      const hi = info.candidates[0].score;
      const lo = info.candidates[info.candidates.length - 1].score;
      for (const c of info.candidates) {
        const f = hi === lo ? 1 : (c.score - lo) / (hi - lo);
        marks.push({ x: c.point.x, y: c.point.y, r: 0.42, fill: `rgba(230, 60, 30, ${(0.12 + 0.5 * f).toFixed(2)})`, square: true });
      }
      for (const l of lines) {
        if (l && l.pv.length) marks.push({ x: l.pv[0].x, y: l.pv[0].y, text: l.score_text, textColor: '#fff', r: 0, label: true });
      }
    }
    for (const side of ['black', 'white']) {
      if (!fresh || !isOn(`an-ov-${side}`)) continue;
      const d = side === 'black' ? -0.2 : 0.2;
      for (const tp of info.threats[side]) {
        const st = THREAT_STYLE[tp.kind];
        marks.push({ x: tp.point.x, y: tp.point.y, dx: d, dy: d, r: 0.2, fill: st.fill, stroke: side === 'black' ? '#111' : '#fff', text: st.text, textColor: '#111' });
      }
    }
    if (library) {
      // The library's next moves, lettered as RenLib shows them (a = its main line).
      tree.node(tree.current).children.forEach((c, i) => {
        const p = at(tree.node(c).move);
        marks.push({ x: p.x, y: p.y, r: 0.3, fill: 'rgba(40, 110, 210, 0.85)', stroke: '#fff', text: String.fromCharCode(97 + (i % 26)), textColor: '#fff' });
      });
    }
    if (solveResult && solveResult.found) {
      const other2 = solveResult.side === 'black' ? 'white' : 'black';
      solveResult.line.forEach((m, i) => marks.push({ x: m.x, y: m.y, r: 0.4, ghost: i % 2 ? other2 : solveResult.side, text: String(i + 1) }));
    }
    const forbidden = fresh && isOn('an-ov-forbidden') ? info.forbidden.map((f) => ({ x: f.point.x, y: f.point.y, kind: f.kind })) : [];
    let ghostColor = tree.sideToMove();
    if (tool === 'black' || tool === 'white') ghostColor = tool;
    return {
      width: size,
      height: size,
      setup,
      moves,
      lastIndex: moves.length - 1,
      winCells: [],
      forbidden,
      walls: [],
      bubbles: [],
      ghostColor: tool === 'erase' ? null : ghostColor,
      interactive: true,
      marks,
    };
  }

  function render() {
    if (root.hidden) return;
    board.render(boardState(), { moveNumbers: true, coordinates: true, forbiddenMarks: true, confirmTouch: false });
    canvas.setAttribute('aria-label', t('an.board_label', { moves: tree.line().join(' ') || '—' }));
    canvas.dataset.line = tree.line().join(' ');
    renderMoves();
    renderComment();
    renderLines();
    renderThreatList();
    const cur = tree.node(tree.current);
    $('an-promote').disabled = !!library || !cur || cur.parent == null || tree.node(cur.parent).children[0] === cur.id;
    $('an-mainline').disabled = !!library || !cur || cur.parent == null || tree.isMainLine(cur.id);
    $('an-delete').disabled = !!library || tree.current === 0;
    for (const id of ['an-vcf', 'an-vct']) $(id).disabled = !info || !!info.result;
  }

  /// The current node's comment, as text.
  function renderComment() {
    const box = $('an-comment');
    const text = (tree.node(tree.current) || {}).comment || '';
    box.hidden = !text;
    box.textContent = text;
  }

  function renderMoves() {
    const box = $('an-moves');
    box.replaceChildren();
    box.dataset.nodes = String(tree.nodes.length - 1);
    if (!tree.node(0).children.length) {
      box.append(el('p', 'an-dim', t('an.no_moves')));
      return;
    }
    if (tree.nodes.length - 1 > FULL_TREE_NODES) {
      renderCompact(box);
      return;
    }
    // The line from `first` down its main children; each fork's other children follow the
    // main child's move, as indented variations.
    const renderLine = (first, container) => {
      let id = first;
      let row = el('div', 'an-line-row');
      container.append(row);
      while (id != null) {
        row.append(moveButton(id));
        const parent = tree.node(tree.node(id).parent);
        if (parent.children[0] === id && parent.children.length > 1) {
          for (const alt of parent.children.slice(1)) {
            const v = el('div', 'an-variation');
            renderLine(alt, v);
            container.append(v);
          }
          row = el('div', 'an-line-row');
          container.append(row);
        }
        id = tree.node(id).children[0];
      }
    };
    renderLine(tree.node(0).children[0], box);
    for (const r of box.querySelectorAll('.an-line-row')) if (!r.childElementCount) r.remove();
    // Keep the current move in view inside the list (never scroll the page: on a phone the
    // board is above the list).
    const cur = box.querySelector('.current');
    if (cur) {
      const br = box.getBoundingClientRect();
      const cr = cur.getBoundingClientRect();
      if (cr.top < br.top || cr.bottom > br.bottom) box.scrollTop += cr.top - br.top - box.clientHeight / 2;
    }
  }

  function moveButton(id) {
    const n = tree.node(id);
    const b = el('button', `an-move ${tree.colorOf(id)}`, `${tree.line(id).length}. ${n.move}`);
    b.type = 'button';
    b.dataset.node = String(id);
    b.dataset.move = n.move;
    if (id === tree.current) {
      b.classList.add('current');
      b.setAttribute('aria-current', 'true');
    }
    b.addEventListener('click', () => go(id));
    return b;
  }

  /// A large tree (a library): the line to the current move and on down its main line, then the
  /// moves that may follow the current one (each a variation).
  function renderCompact(box) {
    const path = [];
    for (let n = tree.node(tree.current); n && n.parent != null; n = tree.node(n.parent)) path.push(n.id);
    path.reverse();
    for (let id = tree.node(tree.current).children[0]; id != null; id = tree.node(id).children[0]) path.push(id);
    const row = el('div', 'an-line-row');
    for (const id of path) row.append(moveButton(id));
    box.append(row);
    const next = tree.node(tree.current).children;
    if (next.length) {
      const div = el('div', 'an-next-moves');
      div.append(el('span', 'an-next-label', t('an.next_moves', { n: next.length })));
      next.forEach((id, i) => {
        const b = moveButton(id);
        b.textContent = `${String.fromCharCode(97 + (i % 26))}) ${tree.node(id).move}`;
        b.classList.add('an-next');
        div.append(b);
      });
      box.append(div);
    }
    const cur = box.querySelector('.current');
    if (cur) {
      const br = box.getBoundingClientRect();
      const cr = cur.getBoundingClientRect();
      if (cr.top < br.top || cr.bottom > br.bottom) box.scrollTop += cr.top - br.top - box.clientHeight / 2;
    }
  }

  function renderLines() {
    const ol = $('an-lines');
    ol.replaceChildren();
    const on = isOn('an-engine');
    $('an-engine-info').textContent = on ? engineText : '';
    ol.style.setProperty('--pv-count', on ? String(Number(multipvSel.value) || 1) : '0');
    lines.forEach((l) => {
      if (!l) return;
      const li = el('li');
      const b = el('button', 'an-pv');
      b.type = 'button';
      b.dataset.rank = String(l.rank);
      b.append(el('span', 'an-pv-score', l.score_text), el('span', 'an-pv-depth', `d${l.depth}`), el('span', 'an-pv-moves', l.pv.slice(0, 12).map((p) => p.name).join(' ')));
      b.title = t('an.play_line');
      b.addEventListener('click', () => playLine(l.pv.map((p) => p.name)));
      li.append(b);
      ol.append(li);
    });
    ol.style.minHeight = '';
    if (!on) {
      linesFloor = 0;
      return;
    }
    linesFloor = Math.max(linesFloor, ol.getBoundingClientRect().height);
    ol.style.minHeight = `${linesFloor}px`;
  }

  function renderThreatList() {
    const box = $('an-threat-list');
    box.replaceChildren();
    if (!info || infoFor !== tree.line().join(' ')) return;
    for (const side of ['black', 'white']) {
      if (!isOn(`an-ov-${side}`)) continue;
      const div = el('div', 'an-threat-side');
      div.dataset.side = side;
      div.append(el('span', 'an-threat-who', t(`color.${side}`)));
      for (const kind of THREAT_KINDS) {
        const pts = info.threats[side].filter((x) => x.kind === kind).map((x) => x.point.name);
        if (!pts.length) continue;
        const item = el('span', 'an-threat-kind');
        item.dataset.kind = kind;
        const sw = el('i', 'an-swatch');
        sw.style.background = THREAT_STYLE[kind].fill;
        item.append(sw, el('span', null, `${t(`an.threat.${kind}`)}: `), el('span', 'an-threat-points', pts.join(' ')));
        div.append(item);
      }
      if (!info.threats[side].length) div.append(el('span', 'an-dim', t('an.threat.none')));
      box.append(div);
    }
    if (isOn('an-ov-forbidden') && tree.setup.rule === 'renju') {
      const div = el('div', 'an-threat-side an-forbidden-list');
      div.append(el('span', 'an-threat-who', t('an.forbidden')));
      div.append(el('span', 'an-threat-points', info.forbidden.map((f) => f.point.name).join(' ') || '—'));
      box.append(div);
    }
  }

  // SGF.
  async function exportSgf() {
    try {
      const r = await post('/api/analysis/sgf', tree.toFlat());
      $('an-sgf').value = r.sgf;
      const a = $('an-download');
      if (a.href) URL.revokeObjectURL(a.href);
      a.href = URL.createObjectURL(new Blob([r.sgf], { type: 'application/x-go-sgf' }));
      a.download = `wuzi-analysis-${source}.sgf`;
      a.hidden = false;
      showStatus(t('an.exported'));
    } catch (e) {
      showStatus(e.message, true);
    }
  }

  async function importSgf(text) {
    if (!text || !text.trim()) {
      showStatus(t('an.paste_sgf'), true);
      return;
    }
    try {
      const flat = await post('/api/analysis/tree', { sgf: text });
      leaveLibrary();
      tree = VariationTree.fromFlat(flat);
      tree.current = 0;
      changed();
      showStatus(t('an.imported', { n: tree.preorder().length }));
    } catch (e) {
      showStatus(e.message, true);
    }
  }

  // RenLib libraries: read by the server (POST /api/analysis/renlib) into a tree shown read-only.
  async function openLibrary(bytes, name) {
    showStatus(t('an.lib_reading'));
    try {
      const r = await post('/api/analysis/renlib', { data: toBase64(bytes) });
      stopAnalysis(true);
      tree = VariationTree.fromFlat(r);
      tree.current = 0;
      library = { name: String(name || ''), version: r.version, skipped: r.skipped, labels: r.labels };
      source = 'library';
      $('an-back').hidden = true;
      $('an-source').textContent = t('an.lib_source', { name: library.name });
      note = t('an.lib_opened', { name: library.name, n: r.nodes.length });
      if (r.skipped) note += ` ${t('an.lib_skipped', { n: r.skipped })}`;
      changed();
    } catch (e) {
      showStatus(t('an.lib_error', { message: e.message }), true);
    }
  }

  /// Forgets the library (the tree that replaces it is the caller's).
  function leaveLibrary() {
    if (!library) return;
    library = null;
    source = 'board';
    $('an-source').textContent = '';
  }

  /// Back from a library to the free board's own study.
  function closeLibrary() {
    leaveLibrary();
    tree = load('board') || new VariationTree({ rule: 'renju', size: 15, to_move: 'black' });
    changed();
  }

  /// Builds (or extends) the tree of a game: its moves are the main line, merged into the
  /// study kept for it.
  function fromGame(view) {
    if (view.width !== view.height || view.width < 5 || view.width > 26 || view.k !== 5 || (view.theme && view.theme !== 'wood') || (view.walls && view.walls.length)) {
      throw new Error(t('an.cannot_game'));
    }
    const moves = view.moves.map((m) => m.name || pointName(m, view.height));
    const first = (view.moves[0] && view.moves[0].color) || 'black';
    let tr = load(view.id);
    if (!tr || tr.setup.rule !== view.rule || tr.setup.size !== view.width || tr.setup.black.length || tr.setup.white.length || tr.setup.to_move !== first) {
      tr = new VariationTree({ rule: view.rule, size: view.width, to_move: first });
    }
    let id = 0;
    for (const m of moves) id = tr.play(id, m);
    return { tr, end: id };
  }

  return {
    /// Shows the page: the free board (`gameId` empty) or a game's study at `ply`.
    async open(gameId, ply) {
      root.hidden = false;
      leaveLibrary();
      fillLabels();
      if (gameId) {
        try {
          const view = await getGame(gameId);
          await pull(String(view.id));
          const { tr, end } = fromGame(view);
          tree = tr;
          source = String(view.id);
          let id = end;
          if (ply != null && Number.isFinite(Number(ply))) {
            const line = tree.line(end);
            id = 0;
            for (const m of line.slice(0, Math.max(0, Number(ply)))) id = tree.play(id, m);
          } else if (load(view.id)) {
            id = tree.current || end;
          }
          tree.current = id;
          $('an-source').textContent = t('an.from_game');
          $('an-back').hidden = false;
        } catch (e) {
          toast(e.message);
          source = 'board';
          tree = load('board') || tree;
          $('an-back').hidden = true;
        }
      } else {
        source = 'board';
        await pull('board');
        tree = load('board') || new VariationTree({ rule: 'renju', size: 15, to_move: 'black' });
        $('an-source').textContent = '';
        $('an-back').hidden = true;
      }
      requestAnimationFrame(() => board.resize());
      changed(true, false);
    },
    hide() {
      if (root.hidden) return;
      stopAnalysis(true);
      root.hidden = true;
    },
    get tree() {
      return tree;
    },
    /// The library on the board (`{ name, version, skipped, labels }`), or null.
    get library() {
      return library;
    },
  };
}
