// The post-game review of a finished game (server: crates/server/src/review.rs): a button that
// starts it (or joins the one running), its progress, Black's winning chance as a graph over the
// game, each move's mark in the move list, the notable moves (inaccuracies, mistakes, blunders,
// forced wins missed or allowed) and, for the move on screen, the better move with its line.
// Clicking a point of the graph or a mark shows that position.

import { t } from '../i18n.js';

const enc = encodeURIComponent;
const POLL_MS = 1500;
const NOTABLE = new Set(['inaccuracy', 'mistake', 'blunder']);
const SYMBOL = { best: '★', good: '✓', inaccuracy: '?!', mistake: '?', blunder: '??' };
const SVG = 'http://www.w3.org/2000/svg';
const W = 300;
const H = 80;

async function call(method, id) {
  const res = await fetch(`/api/games/${enc(id)}/review`, {
    method,
    headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
    body: method === 'POST' ? '{}' : undefined,
  });
  const body = await res.json().catch(() => null);
  return { status: res.status, body };
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

function svg(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

const names = (line) => (line || []).map((p) => p.name).join(' ');
const pct = (x) => `${Math.round(x * 100)}%`;

/// The review panel in `root`; `movelist` is the move list whose items it marks.
export function initReview(root, movelist, store, onError) {
  let gameId = null;
  let review = null; // the server's review, or null when none was asked for
  let loading = false;
  let timer = null;
  let error = '';
  let askedFor = null;

  const head = el('div', 'review-head');
  const title = el('span', 'panel-title');
  const startBtn = el('button', 'btn small');
  startBtn.type = 'button';
  startBtn.id = 'btn-review';
  head.append(title, startBtn);
  const progress = el('div', 'review-progress');
  const accuracy = el('div', 'review-accuracy');
  const graph = svg('svg', { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', class: 'review-graph', role: 'img' });
  graph.id = 'review-graph';
  const detail = el('div', 'review-detail');
  detail.id = 'review-detail';
  const marks = el('ol', 'review-marks');
  marks.id = 'review-marks';
  root.replaceChildren(head, progress, accuracy, graph, detail, marks);

  async function load(start) {
    const id = gameId;
    if (!id || loading) return;
    loading = true;
    try {
      const { status, body } = await call(start ? 'POST' : 'GET', id);
      if (id !== gameId) return;
      if (status === 200) {
        review = body;
        error = '';
      } else if (status === 404 && !start) {
        review = null;
      } else {
        error = (body && (body.error || body.message)) || `HTTP ${status}`;
        if (start && onError) onError({ status, message: error, body });
      }
    } catch {
      error = t('review.network');
    } finally {
      loading = false;
    }
    schedule();
    render();
  }

  function schedule() {
    clearTimeout(timer);
    timer = null;
    if (review && review.status === 'running') timer = setTimeout(() => load(false), POLL_MS);
  }

  function decorateMoveList() {
    const byPly = new Map(((review && review.moves) || []).map((m) => [m.ply, m]));
    for (const li of movelist.querySelectorAll('.mv')) {
      const m = byPly.get(Number(li.dataset.ply));
      const mark = m ? m.mark : '';
      if ((li.dataset.mark || '') === mark) continue;
      if (mark) li.dataset.mark = mark;
      else delete li.dataset.mark;
    }
  }

  function moveLabel(m) {
    return `${m.ply}. ${m.point.name}`;
  }

  function forcedText(f) {
    const key = f.moment === 'missed' ? 'review.missed' : 'review.allowed';
    return t(key, { color: t(`color.${f.winner}`), kind: t(`review.kind.${f.kind}`), line: names(f.line) });
  }

  function renderGraph(shown) {
    const points = review.graph;
    const n = Math.max(1, points.length - 1);
    const x = (k) => (k / n) * W;
    const y = (p) => (1 - p) * H;
    const children = [svg('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'mid' })];
    let d = '';
    let area = '';
    let last = null;
    points.forEach((p, k) => {
      if (p == null) return;
      d += `${d ? 'L' : 'M'}${x(k).toFixed(1)},${y(p).toFixed(1)}`;
      area += `${area ? 'L' : `M${x(k).toFixed(1)},${H}L`}${x(k).toFixed(1)},${y(p).toFixed(1)}`;
      last = k;
    });
    if (last !== null) {
      children.push(svg('path', { d: `${area}L${x(last).toFixed(1)},${H}Z`, class: 'area' }));
      children.push(svg('path', { d, class: 'curve' }));
    }
    children.push(svg('line', { x1: x(shown), y1: 0, x2: x(shown), y2: H, class: 'cursor' }));
    for (const m of review.moves) {
      if (!NOTABLE.has(m.mark) && !m.forced) continue;
      const p = points[m.ply];
      if (p == null) continue;
      const c = svg('circle', { cx: x(m.ply), cy: y(p), r: 3.5, class: `dot ${m.mark}` });
      c.dataset.ply = String(m.ply);
      children.push(c);
    }
    graph.replaceChildren(...children);
    graph.setAttribute('aria-label', t('review.graph'));
  }

  function render() {
    const v = store.view;
    const id = v && !v.draft ? v.id : null;
    if (id !== gameId) {
      gameId = id;
      review = null;
      error = '';
      clearTimeout(timer);
      timer = null;
    }
    const finished = !!(v && !v.draft && v.result && v.moves.length);
    root.hidden = !finished;
    if (!finished) return;
    if (askedFor !== gameId) {
      // A finished game opened, or the game on screen just ended: is there a review?
      askedFor = gameId;
      load(false);
    }
    title.textContent = t('review.title');
    startBtn.textContent = t('review.start');
    startBtn.hidden = !!review;
    startBtn.disabled = loading;
    const shown = store.shownPly();
    if (!review) {
      progress.textContent = error;
      accuracy.textContent = '';
      graph.replaceChildren();
      graph.hidden = true;
      detail.replaceChildren();
      marks.replaceChildren();
      decorateMoveList();
      return;
    }
    graph.hidden = false;
    progress.textContent =
      review.status === 'done' ? '' : t('review.progress', { done: review.analysed, total: review.positions });
    const acc = review.accuracy || {};
    const accText = (c) => (acc[c] == null ? '—' : `${acc[c].toFixed(1)}%`);
    accuracy.textContent = t('review.accuracy', { black: accText('black'), white: accText('white') });
    renderGraph(shown);
    // The move on screen: its mark, the better move and its line, a forced win missed or allowed.
    const m = review.moves.find((r) => r.ply === shown);
    const lines = [];
    if (m) {
      const head = el('div', `review-move ${m.mark}`);
      head.append(el('span', 'mark-symbol', SYMBOL[m.mark]), ` ${moveLabel(m)} — ${t(`review.mark.${m.mark}`)}`);
      if (m.loss > 0.005) head.append(el('span', 'review-loss', ` ${t('review.loss', { p: pct(m.loss) })}`));
      lines.push(head);
      if (m.better) {
        lines.push(el('div', 'review-better', t('review.better', { move: m.better.point.name, line: names(m.better.line) })));
      }
      if (m.forced) lines.push(el('div', `review-forced ${m.forced.moment}`, forcedText(m.forced)));
    }
    detail.replaceChildren(...lines);
    // The notable moves, each a link to its position.
    const items = review.moves
      .filter((r) => NOTABLE.has(r.mark) || r.forced)
      .map((r) => {
        const li = el('li', `review-mark ${r.mark}`);
        li.dataset.ply = String(r.ply);
        li.tabIndex = 0;
        li.append(el('span', 'mark-symbol', SYMBOL[r.mark]), ` ${moveLabel(r)} ${t(`review.mark.${r.mark}`)}`);
        if (r.forced) li.append(el('span', 'review-forced-tag', ` · ${t(`review.moment.${r.forced.moment}`)} ${t(`review.kind.${r.forced.kind}`)}`));
        if (r.ply === shown) li.classList.add('current');
        return li;
      });
    if (!items.length && review.status === 'done') items.push(el('li', 'empty', t('review.none')));
    marks.replaceChildren(...items);
    decorateMoveList();
  }

  startBtn.addEventListener('click', () => load(true));
  const jump = (e) => {
    const target = e.target.closest('[data-ply]');
    if (target) store.browse(Number(target.dataset.ply));
  };
  marks.addEventListener('click', jump);
  marks.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      jump(e);
    }
  });
  // A click anywhere on the graph shows the nearest position.
  graph.addEventListener('click', (e) => {
    if (!review) return;
    const dot = e.target.closest && e.target.closest('circle[data-ply]');
    if (dot) {
      store.browse(Number(dot.dataset.ply));
      return;
    }
    const box = graph.getBoundingClientRect();
    const n = Math.max(1, review.graph.length - 1);
    const k = Math.round(((e.clientX - box.left) / Math.max(1, box.width)) * n);
    store.browse(Math.max(0, Math.min(n, k)));
  });

  return {
    render,
    /// A `review` message from the game's socket: progress made, read the review again.
    onProgress() {
      if (gameId) load(false);
    },
  };
}
