// Ratings as the page shows them: pool names, "1432?" for a provisional rating, "1500 → 1488 (−12)"
// for a game's change, the pool a game is rated in, whether a new game's settings can be rated, and
// the rating graph (inline SVG, no chart library). The server computes every rating; the page only
// names the pool (the same rule as crates/server/src/rating.rs) to label a game before it ends.

import { t } from '../i18n.js';

export const FAMILIES = ['gomoku', 'renju', 'caro'];
export const SPEEDS = ['bullet', 'blitz', 'rapid', 'classical'];
/// Every pool key, `gomoku.bullet` first.
export const POOLS = FAMILIES.flatMap((f) => SPEEDS.map((s) => `${f}.${s}`));

/// "Gomoku · Blitz" for `gomoku.blitz`.
export function poolName(key) {
  const [family, speed] = String(key || '').split('.');
  if (!FAMILIES.includes(family) || !SPEEDS.includes(speed)) return String(key || '');
  return t('pool.name', { family: t(`pool.${family}`), speed: t(`pool.${speed}`) });
}

/// A rating rounded, with "?" while provisional.
export function ratingText(rating, provisional) {
  return `${Math.round(Number(rating))}${provisional ? '?' : ''}`;
}

/// A signed whole change with a true minus sign: "+12", "−12", "±0".
export function signed(diff) {
  const n = Math.round(Number(diff));
  if (n === 0) return '±0';
  return n > 0 ? `+${n}` : `−${-n}`;
}

/// "1500 → 1488 (−12)".
export function changeText(before, after) {
  const b = Math.round(Number(before));
  const a = Math.round(Number(after));
  return t('rated.change', { before: b, after: a, diff: signed(a - b) });
}

/// The speed class of a clock (seconds a game is expected to take: base + 30 increments, or 30 moves
/// at a per-move limit), as the server classes it; null without a clock.
export function speedOf(clock) {
  if (!clock || clock.kind === 'none') return null;
  let ms;
  if (clock.kind === 'move') ms = Number(clock.move_ms ?? Number(clock.seconds) * 1000) * 30;
  else ms = Number(clock.initial_ms ?? Number(clock.initial_seconds) * 1000) + Number(clock.increment_ms ?? Number(clock.increment_seconds) * 1000) * 30;
  if (!Number.isFinite(ms)) return null;
  const s = Math.floor(ms / 1000);
  return s < 180 ? 'bullet' : s < 480 ? 'blitz' : s < 1500 ? 'rapid' : 'classical';
}

/// The pool of a game view (`rule` and `clock` as the page holds them), e.g. `renju.rapid`.
export function poolOfView(v) {
  if (!v) return null;
  const family = v.rule === 'renju' ? 'renju' : v.rule === 'caro' ? 'caro' : 'gomoku';
  const speed = speedOf(v.clock);
  return speed ? `${family}.${speed}` : null;
}

/// Why a new game's choices (ui/newgame.js) cannot be rated, as a translation key; null when they can.
/// The server says the same in its 400 (`rated: ...`).
export function ratedWhyNot(c) {
  if (c.mode !== 'computer') return 'new.rated.why.local';
  if (c.clock === 'none') return 'new.rated.why.clock';
  if (c.rule !== 'renju' && Number(c.k) !== 5) return 'new.rated.why.k';
  if (c.theme !== 'wood') return 'new.rated.why.theme';
  const w = c.size === 'custom' ? Number(c.width) : Number(c.size);
  const h = c.size === 'custom' ? Number(c.height) : Number(c.size);
  if (w !== h || !(w >= 15 && w <= 20)) return 'new.rated.why.size';
  return null;
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag, attrs = {}) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/// A date for the graph: with the time (`full`), the day only (`day`), or the time only (`time`).
function dateText(ms, style) {
  const lang = document.documentElement.lang;
  const opts = style === 'full' ? { dateStyle: 'medium', timeStyle: 'short' } : style === 'time' ? { timeStyle: 'short' } : { month: 'short', day: 'numeric' };
  try {
    return new Date(ms).toLocaleString(lang, opts);
  } catch {
    return new Date(ms).toLocaleString();
  }
}

/// Round steps for the rating axis.
function niceStep(span) {
  for (const s of [10, 20, 25, 50, 100, 200, 250, 500]) if (span / s <= 4) return s;
  return 1000;
}

/// Draws `points` (`[{at, rating, deviation, game}]`, oldest first) into `box` as an SVG line graph
/// with rating and date axes. Pointing at (or tapping) the graph picks the nearest game and writes
/// its rating and date into `readout`; without that, the readout names the latest.
export function drawGraph(box, readout, points) {
  const width = Math.max(240, Math.round(box.clientWidth || 480));
  const height = width < 420 ? 170 : 200;
  const pad = { left: 42, right: 12, top: 12, bottom: 24 };
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', class: 'graph-svg' });
  root.setAttribute('aria-label', t('profile.graph'));
  box.replaceChildren(root);
  const say = (p) => {
    readout.textContent = p ? t('profile.graph_point', { rating: Math.round(p.rating), date: dateText(p.at, 'full') }) : '';
  };
  if (!points.length) {
    say(null);
    return;
  }
  const ratings = points.map((p) => p.rating);
  let lo = Math.min(...ratings);
  let hi = Math.max(...ratings);
  // At least 100 points of height, so a few games do not look like a cliff.
  if (hi - lo < 100) {
    const mid = (hi + lo) / 2;
    lo = mid - 50;
    hi = mid + 50;
  }
  const step = niceStep(hi - lo);
  lo = Math.floor((lo - step / 4) / step) * step;
  hi = Math.ceil((hi + step / 4) / step) * step;
  const t0 = points[0].at;
  const t1 = points[points.length - 1].at;
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  // One step per game (a burst of games on one evening stays readable next to a quiet month);
  // the dates of the first and the last game label the ends.
  const xOf = (p, i) => pad.left + (points.length === 1 ? plotW / 2 : (i / (points.length - 1)) * plotW);
  const yOf = (r) => pad.top + (1 - (r - lo) / (hi - lo)) * plotH;

  const grid = svg('g', { class: 'graph-grid' });
  for (let r = lo; r <= hi; r += step) {
    const y = yOf(r);
    grid.append(svg('line', { x1: pad.left, x2: width - pad.right, y1: y, y2: y }));
    const label = svg('text', { x: pad.left - 6, y: y + 4, 'text-anchor': 'end', class: 'graph-label graph-y' });
    label.textContent = String(r);
    grid.append(label);
  }
  root.append(grid);
  // Dates under the first and the last game (one label when they fall on the same point); the
  // times when all the games were played on one day.
  const sameDay = points.length > 1 && new Date(t0).toDateString() === new Date(t1).toDateString();
  // On a wide graph with many games, two more dates in between; a date is written once.
  const last = points.length - 1;
  const style = sameDay ? 'time' : 'day';
  const at = [0];
  if (plotW >= 360 && last >= 6) at.push(Math.round(last / 3), Math.round((2 * last) / 3));
  at.push(last);
  const written = new Set();
  const xLabels = [];
  for (const i of [...new Set(at)].reverse()) {
    const text = dateText(points[i].at, style);
    if (written.has(text)) continue;
    written.add(text);
    xLabels.unshift([i, text]);
  }
  for (const [i, text] of xLabels) {
    const anchor = last === 0 ? 'middle' : i === 0 ? 'start' : i === last ? 'end' : 'middle';
    const label = svg('text', { x: xOf(points[i], i), y: height - 6, 'text-anchor': anchor, class: 'graph-label graph-x' });
    label.textContent = text;
    root.append(label);
  }
  const xy = points.map((p, i) => [xOf(p, i), yOf(p.rating)]);
  root.append(svg('polyline', { points: xy.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' '), class: 'graph-line' }));
  const dots = svg('g', { class: 'graph-dots' });
  if (points.length <= 80) {
    points.forEach((p, i) => {
      const dot = svg('circle', { cx: xy[i][0], cy: xy[i][1], r: 3, class: 'graph-dot', 'data-i': i });
      const title = svg('title');
      title.textContent = t('profile.graph_point', { rating: Math.round(p.rating), date: dateText(p.at, 'full') });
      dot.append(title);
      dots.append(dot);
    });
  }
  root.append(dots);
  const mark = svg('circle', { r: 5, class: 'graph-mark' });
  root.append(mark);
  const pick = (i) => {
    mark.setAttribute('cx', xy[i][0]);
    mark.setAttribute('cy', xy[i][1]);
    root.dataset.picked = String(i);
    say(points[i]);
  };
  // The whole plot answers the pointer: the game nearest along the x axis.
  const hit = svg('rect', { x: 0, y: 0, width, height, class: 'graph-hit' });
  const nearest = (ev) => {
    const r = root.getBoundingClientRect();
    const x = ((ev.clientX - r.left) / r.width) * width;
    let best = 0;
    for (let i = 1; i < xy.length; i++) if (Math.abs(xy[i][0] - x) < Math.abs(xy[best][0] - x)) best = i;
    pick(best);
  };
  hit.addEventListener('pointermove', nearest);
  hit.addEventListener('pointerdown', nearest);
  root.append(hit);
  pick(points.length - 1);
}
