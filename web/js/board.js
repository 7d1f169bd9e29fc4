// The board: drawn on a canvas that fills its container, crisp on hiDPI screens, played with mouse or touch.
// It draws what the store says and reports clicked points; it decides nothing about the rules.

import { pointName, samePoint, starPoints } from './coords.js';

const COLORS = {
  woodLight: '#e3b779',
  woodDark: '#cf9a55',
  grain: 'rgba(120, 72, 28, 0.07)',
  line: 'rgba(52, 32, 12, 0.85)',
  coord: 'rgba(52, 32, 12, 0.85)',
  star: 'rgba(40, 24, 8, 0.95)',
  lastMark: '#e0412f',
  win: 'rgba(214, 48, 32, 0.9)',
  forbidden: 'rgba(200, 30, 30, 0.85)',
  hint: '#1f9d55',
  best: '#2b7bd6',
};

/// A small deterministic random generator so the wood grain is the same on every redraw.
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

export class Board {
  constructor(canvas, { onPlay, onHover, onRefused } = {}) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.onPlay = onPlay || (() => {});
    this.onHover = onHover || (() => {});
    this.onRefused = onRefused || (() => {}); // a click on a point while the board takes no move
    this.state = null;
    this.opts = {};
    this.hover = null;
    this.pending = null; // touch: first tap waiting for confirmation
    this.geom = null;
    this.woodCache = null;

    const ro = new ResizeObserver(() => this.resize());
    ro.observe(canvas.parentElement);
    canvas.addEventListener('pointermove', (e) => this.pointerMove(e));
    canvas.addEventListener('pointerleave', () => {
      if (this.hover) {
        this.hover = null;
        this.draw();
      }
    });
    canvas.addEventListener('pointerup', (e) => this.pointerUp(e));
    canvas.addEventListener('contextmenu', (e) => e.preventDefault());
    matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`).addEventListener?.('change', () => this.resize());
    this.resize();
  }

  /// Board state to draw: {width, height, moves, lastIndex, winCells, forbidden, walls, bubbles, ghostColor,
  /// interactive, hint, best, theme}; opts: {moveNumbers, coordinates, forbiddenMarks, confirmTouch}.
  render(state, opts) {
    const sizeChanged =
      !this.state || !state || this.state.width !== state.width || this.state.height !== state.height;
    this.state = state;
    this.opts = opts;
    if (!state || !state.interactive) this.pending = null;
    if (sizeChanged) this.resize();
    else this.draw();
  }

  resize() {
    const parent = this.canvas.parentElement;
    const cssW = parent.clientWidth;
    const cssH = parent.clientHeight;
    if (!cssW || !cssH) return;
    const dpr = window.devicePixelRatio || 1;
    const w = this.state ? this.state.width : 15;
    const h = this.state ? this.state.height : 15;
    // Coordinates go left (numbers) and below (letters), as on a renju diagram.
    const edge = 0.72;
    const label = this.opts.coordinates === false ? edge : 1.2;
    const cell = Math.min(cssW / (w - 1 + edge + label), cssH / (h - 1 + edge + label));
    const boardW = Math.floor(cell * (w - 1 + edge + label));
    const boardH = Math.floor(cell * (h - 1 + edge + label));
    this.canvas.style.width = `${boardW}px`;
    this.canvas.style.height = `${boardH}px`;
    this.canvas.width = Math.round(boardW * dpr);
    this.canvas.height = Math.round(boardH * dpr);
    const ox = cell * label;
    const oy = cell * edge;
    this.geom = { cell, ox, oy, boardW, boardH, dpr, w, h };
    // Exposed for tests and tools: where point (x, y) is, in CSS pixels from the canvas's top-left.
    this.canvas.dataset.cell = cell.toFixed(3);
    this.canvas.dataset.ox = ox.toFixed(3);
    this.canvas.dataset.oy = oy.toFixed(3);
    this.woodCache = null;
    this.draw();
  }

  pointAt(e) {
    const g = this.geom;
    if (!g || !this.state) return null;
    const r = this.canvas.getBoundingClientRect();
    const px = e.clientX - r.left;
    const py = e.clientY - r.top;
    const x = Math.round((px - g.ox) / g.cell);
    const y = Math.round((py - g.oy) / g.cell);
    if (x < 0 || y < 0 || x >= this.state.width || y >= this.state.height) return null;
    const dx = px - (g.ox + x * g.cell);
    const dy = py - (g.oy + y * g.cell);
    if (dx * dx + dy * dy > (g.cell * 0.55) ** 2) return null;
    return { x, y };
  }

  pointerMove(e) {
    if (e.pointerType === 'touch') return;
    const p = this.pointAt(e);
    if (!samePoint(p, this.hover) && (p || this.hover)) {
      this.hover = p;
      this.onHover(p);
      this.draw();
    }
  }

  pointerUp(e) {
    if (e.button !== undefined && e.button !== 0) return;
    const p = this.pointAt(e);
    if (!p || !this.state) return;
    if (!this.state.interactive) {
      this.onRefused(p);
      return;
    }
    if (e.pointerType === 'touch' && this.opts.confirmTouch) {
      if (samePoint(p, this.pending)) {
        this.pending = null;
        this.onPlay(p);
      } else {
        this.pending = this.occupied(p) ? null : p;
        this.draw();
      }
      return;
    }
    this.pending = null;
    this.onPlay(p);
  }

  occupied(p) {
    const s = this.state;
    return (
      s.moves.some((m) => m.x === p.x && m.y === p.y) ||
      s.walls.some((w) => samePoint(w, p)) ||
      (s.setup || []).some((m) => samePoint(m, p))
    );
  }

  center(p) {
    const g = this.geom;
    return [g.ox + p.x * g.cell, g.oy + p.y * g.cell];
  }

  wood() {
    const g = this.geom;
    if (this.woodCache) return this.woodCache;
    const off = document.createElement('canvas');
    off.width = this.canvas.width;
    off.height = this.canvas.height;
    const c = off.getContext('2d');
    c.scale(g.dpr, g.dpr);
    const grad = c.createLinearGradient(0, 0, g.boardW, g.boardH);
    grad.addColorStop(0, COLORS.woodLight);
    grad.addColorStop(1, COLORS.woodDark);
    c.fillStyle = grad;
    c.fillRect(0, 0, g.boardW, g.boardH);
    const r = rng(1234567);
    c.strokeStyle = COLORS.grain;
    for (let i = 0; i < 70; i++) {
      const y0 = r() * g.boardH;
      const amp = 2 + r() * 6;
      c.lineWidth = 0.5 + r() * 1.6;
      c.beginPath();
      for (let x = 0; x <= g.boardW; x += 8) {
        const y = y0 + Math.sin(x / (40 + r() * 6) + i) * amp;
        if (x === 0) c.moveTo(x, y);
        else c.lineTo(x, y);
      }
      c.stroke();
    }
    this.woodCache = off;
    return off;
  }

  draw() {
    const g = this.geom;
    const s = this.state;
    const ctx = this.ctx;
    if (!g) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.drawImage(this.wood(), 0, 0);
    ctx.setTransform(g.dpr, 0, 0, g.dpr, 0, 0);
    const w = s ? s.width : 15;
    const h = s ? s.height : 15;
    this.drawGrid(w, h);
    if (!s) return;
    const bubbles = this.bubbleCounts(s.bubbles);
    for (const b of bubbles) this.drawBubble(b.p, b.n);
    for (const p of s.walls) this.drawRock(p);
    if (this.opts.forbiddenMarks && s.forbidden) for (const f of s.forbidden) this.drawForbidden(f);
    // Set-up stones (the analysis board) carry no numbers.
    for (const m of s.setup || []) this.drawStone(m, m.color, 1, null);
    s.moves.forEach((m, i) => this.drawStone(m, m.color, 1, this.opts.moveNumbers ? i + 1 : null));
    if (s.marks) this.drawMarks(s.marks);
    // Over the stones: a blue ring shows that a stone holds a bubble, and the "×n" badge of a
    // multiple bubble is drawn whole, on top, whether the point is covered or not.
    const marks = [];
    for (const b of bubbles) {
      const stone = s.moves.find((m) => samePoint(m, b.p));
      if (stone) this.drawHeldBubble(b.p);
      if (b.n > 1) this.drawBubbleBadge(b.p, b.n);
      marks.push(`${pointName(b.p, s.height)}:${b.n}:${stone ? stone.color : '-'}`);
    }
    // For tests and tools: what the board shows about each bubble (point:count:holder).
    this.canvas.dataset.bubbles = marks.join(' ');
    const last = s.moves[s.moves.length - 1];
    if (last && !this.opts.moveNumbers) this.drawLastMark(last);
    if (last && this.opts.moveNumbers) this.drawLastRing(last);
    if (s.best) this.drawRing(s.best, COLORS.best, true);
    if (s.hint) this.drawRing(s.hint, COLORS.hint, false);
    if (s.winCells && s.winCells.length) this.drawWinLine(s.winCells);
    const ghost = this.pending || this.hover;
    if (s.interactive && ghost && !this.occupied(ghost) && s.ghostColor) {
      this.drawStone(ghost, s.ghostColor, this.pending ? 0.75 : 0.45, null);
      if (this.pending) this.drawRing(this.pending, COLORS.best, false);
    }
  }

  drawGrid(w, h) {
    const g = this.geom;
    const ctx = this.ctx;
    const lw = Math.max(1, g.cell / 28);
    ctx.strokeStyle = COLORS.line;
    ctx.lineWidth = lw;
    const snap = (v) => Math.round(v * g.dpr) / g.dpr + (Math.round(lw * g.dpr) % 2 ? 0.5 / g.dpr : 0);
    ctx.beginPath();
    for (let x = 0; x < w; x++) {
      const px = snap(g.ox + x * g.cell);
      ctx.moveTo(px, g.oy);
      ctx.lineTo(px, g.oy + (h - 1) * g.cell);
    }
    for (let y = 0; y < h; y++) {
      const py = snap(g.oy + y * g.cell);
      ctx.moveTo(g.ox, py);
      ctx.lineTo(g.ox + (w - 1) * g.cell, py);
    }
    ctx.stroke();
    ctx.lineWidth = lw * 2;
    ctx.strokeRect(g.ox, g.oy, (w - 1) * g.cell, (h - 1) * g.cell);
    ctx.fillStyle = COLORS.star;
    for (const p of starPoints(w, h)) {
      const [cx, cy] = this.center(p);
      ctx.beginPath();
      ctx.arc(cx, cy, Math.max(2, g.cell * 0.1), 0, Math.PI * 2);
      ctx.fill();
    }
    if (this.opts.coordinates === false) return;
    ctx.fillStyle = COLORS.coord;
    const fs = Math.max(9, Math.min(16, g.cell * 0.42));
    ctx.font = `600 ${fs}px system-ui, -apple-system, "Segoe UI", sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    const gap = g.cell * 0.75;
    for (let x = 0; x < w; x++) {
      ctx.fillText(String.fromCharCode(97 + x), g.ox + x * g.cell, g.oy + (h - 1) * g.cell + gap);
    }
    for (let y = 0; y < h; y++) {
      ctx.fillText(String(h - y), g.ox - gap, g.oy + y * g.cell);
    }
  }

  drawStone(p, color, alpha, number) {
    const g = this.geom;
    const ctx = this.ctx;
    const [cx, cy] = this.center(p);
    const r = g.cell * 0.46;
    ctx.save();
    ctx.globalAlpha = alpha;
    if (alpha === 1) {
      ctx.shadowColor = 'rgba(0,0,0,0.35)';
      ctx.shadowBlur = r * 0.25;
      ctx.shadowOffsetX = r * 0.08;
      ctx.shadowOffsetY = r * 0.12;
    }
    const grad = ctx.createRadialGradient(cx - r * 0.35, cy - r * 0.35, r * 0.1, cx, cy, r);
    if (color === 'black') {
      grad.addColorStop(0, '#5a5a5a');
      grad.addColorStop(0.45, '#222');
      grad.addColorStop(1, '#070707');
    } else {
      grad.addColorStop(0, '#ffffff');
      grad.addColorStop(0.6, '#eeeeea');
      grad.addColorStop(1, '#bdbdb5');
    }
    ctx.fillStyle = grad;
    ctx.beginPath();
    ctx.arc(cx, cy, r, 0, Math.PI * 2);
    ctx.fill();
    ctx.restore();
    if (number != null) {
      ctx.fillStyle = color === 'black' ? '#f4f4f4' : '#1a1a1a';
      const fs = Math.max(8, g.cell * (number >= 100 ? 0.34 : 0.42));
      ctx.font = `600 ${fs}px system-ui, -apple-system, "Segoe UI", sans-serif`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(String(number), cx, cy + fs * 0.05);
    }
  }

  drawLastMark(p) {
    const g = this.geom;
    const ctx = this.ctx;
    const [cx, cy] = this.center(p);
    ctx.fillStyle = COLORS.lastMark;
    ctx.beginPath();
    ctx.arc(cx, cy, g.cell * 0.12, 0, Math.PI * 2);
    ctx.fill();
  }

  drawLastRing(p) {
    const g = this.geom;
    const ctx = this.ctx;
    const [cx, cy] = this.center(p);
    ctx.strokeStyle = COLORS.lastMark;
    ctx.lineWidth = Math.max(1.5, g.cell * 0.07);
    ctx.beginPath();
    ctx.arc(cx, cy, g.cell * 0.46, 0, Math.PI * 2);
    ctx.stroke();
  }

  drawRing(p, color, dashed) {
    const g = this.geom;
    const ctx = this.ctx;
    const [cx, cy] = this.center(p);
    ctx.save();
    ctx.strokeStyle = color;
    ctx.lineWidth = Math.max(2, g.cell * 0.08);
    if (dashed) ctx.setLineDash([g.cell * 0.12, g.cell * 0.09]);
    ctx.beginPath();
    ctx.arc(cx, cy, g.cell * 0.36, 0, Math.PI * 2);
    ctx.stroke();
    ctx.restore();
  }

  drawForbidden(p) {
    const g = this.geom;
    const ctx = this.ctx;
    const [cx, cy] = this.center(p);
    const d = g.cell * 0.2;
    ctx.save();
    ctx.strokeStyle = COLORS.forbidden;
    ctx.lineWidth = Math.max(1.5, g.cell * 0.08);
    ctx.lineCap = 'round';
    ctx.beginPath();
    ctx.moveTo(cx - d, cy - d);
    ctx.lineTo(cx + d, cy + d);
    ctx.moveTo(cx + d, cy - d);
    ctx.lineTo(cx - d, cy + d);
    ctx.stroke();
    ctx.restore();
  }

  drawWinLine(cells) {
    const g = this.geom;
    const ctx = this.ctx;
    const [x0, y0] = this.center(cells[0]);
    const [x1, y1] = this.center(cells[cells.length - 1]);
    ctx.save();
    ctx.strokeStyle = COLORS.win;
    ctx.lineWidth = Math.max(3, g.cell * 0.14);
    ctx.lineCap = 'round';
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    ctx.stroke();
    ctx.restore();
  }

  bubbleCounts(bubbles) {
    const map = new Map();
    for (const p of bubbles || []) {
      const key = `${p.x},${p.y}`;
      const e = map.get(key) || { p, n: 0 };
      e.n++;
      map.set(key, e);
    }
    return [...map.values()];
  }

  drawBubble(p, n) {
    const g = this.geom;
    const ctx = this.ctx;
    const [cx, cy] = this.center(p);
    const r = g.cell * 0.44;
    ctx.save();
    const grad = ctx.createRadialGradient(cx - r * 0.3, cy - r * 0.35, r * 0.05, cx, cy, r);
    grad.addColorStop(0, 'rgba(255,255,255,0.9)');
    grad.addColorStop(0.35, 'rgba(120,200,255,0.45)');
    grad.addColorStop(1, 'rgba(30,120,220,0.55)');
    ctx.fillStyle = grad;
    ctx.strokeStyle = 'rgba(20,90,180,0.8)';
    ctx.lineWidth = Math.max(1, g.cell * 0.04);
    ctx.beginPath();
    ctx.arc(cx, cy, r, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
    ctx.restore();
  }

  /// A stone standing on a bubble: a bright blue ring around it.
  drawHeldBubble(p) {
    const g = this.geom;
    const ctx = this.ctx;
    const [cx, cy] = this.center(p);
    ctx.save();
    ctx.strokeStyle = 'rgba(40,150,255,0.95)';
    ctx.lineWidth = Math.max(2, g.cell * 0.09);
    ctx.beginPath();
    ctx.arc(cx, cy, g.cell * 0.46, 0, Math.PI * 2);
    ctx.stroke();
    ctx.restore();
  }

  /// "×n" on a small filled disc at the point's upper right, readable over a stone or a bubble.
  drawBubbleBadge(p, n) {
    const g = this.geom;
    const ctx = this.ctx;
    const [cx, cy] = this.center(p);
    const br = Math.max(6, g.cell * 0.24);
    const bx = cx + g.cell * 0.34;
    const by = cy - g.cell * 0.34;
    ctx.save();
    ctx.fillStyle = '#0b5cc0';
    ctx.strokeStyle = '#ffffff';
    ctx.lineWidth = Math.max(1, g.cell * 0.03);
    ctx.beginPath();
    ctx.arc(bx, by, br, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
    ctx.fillStyle = '#ffffff';
    ctx.font = `700 ${Math.max(7, br * 1.05)}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(`×${n}`, bx, by + br * 0.05);
    ctx.restore();
  }

  drawRock(p) {
    const g = this.geom;
    const ctx = this.ctx;
    const [cx, cy] = this.center(p);
    const r = g.cell * 0.47;
    const rand = rng(p.x * 97 + p.y * 131 + 7);
    ctx.save();
    ctx.shadowColor = 'rgba(0,0,0,0.35)';
    ctx.shadowBlur = r * 0.2;
    ctx.shadowOffsetY = r * 0.1;
    const grad = ctx.createLinearGradient(cx - r, cy - r, cx + r, cy + r);
    grad.addColorStop(0, '#9a9a94');
    grad.addColorStop(1, '#55554f');
    ctx.fillStyle = grad;
    ctx.beginPath();
    const n = 8;
    for (let i = 0; i < n; i++) {
      const a = (i / n) * Math.PI * 2 + rand() * 0.3;
      const rr = r * (0.78 + rand() * 0.22);
      const x = cx + Math.cos(a) * rr;
      const y = cy + Math.sin(a) * rr;
      if (i === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.closePath();
    ctx.fill();
    ctx.restore();
  }

  /// Overlay marks (the analysis board): {x, y, r, dx, dy, fill, stroke, square, text, textColor,
  /// ghost: a colour for a see-through numbered stone, label: text alone under the point}.
  drawMarks(marks) {
    const g = this.geom;
    const ctx = this.ctx;
    for (const m of marks) {
      if (m.ghost) {
        this.drawStone(m, m.ghost, 0.55, m.text);
        continue;
      }
      const [cx0, cy0] = this.center(m);
      const cx = cx0 + (m.dx || 0) * g.cell;
      const cy = cy0 + (m.dy || 0) * g.cell;
      const r = (m.r || 0.2) * g.cell;
      ctx.save();
      if (m.fill && !m.label) {
        ctx.fillStyle = m.fill;
        ctx.beginPath();
        if (m.square) ctx.rect(cx - r, cy - r, 2 * r, 2 * r);
        else ctx.arc(cx, cy, r, 0, Math.PI * 2);
        ctx.fill();
        if (m.stroke) {
          ctx.strokeStyle = m.stroke;
          ctx.lineWidth = Math.max(1, g.cell * 0.04);
          ctx.stroke();
        }
      }
      if (m.text) {
        const fs = m.label ? Math.max(8, g.cell * 0.3) : Math.max(7, r * 1.3);
        ctx.font = `700 ${fs}px system-ui, sans-serif`;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        if (m.label) {
          const w = ctx.measureText(m.text).width + 4;
          ctx.fillStyle = 'rgba(20, 20, 20, 0.8)';
          ctx.fillRect(cx - w / 2, cy + g.cell * 0.18, w, fs + 2);
          ctx.fillStyle = m.textColor || '#fff';
          ctx.fillText(m.text, cx, cy + g.cell * 0.18 + fs / 2 + 1);
        } else {
          ctx.fillStyle = m.textColor || '#111';
          ctx.fillText(m.text, cx, cy + fs * 0.05);
        }
      }
      ctx.restore();
    }
  }

  /// A text description of the position for screen readers.
  describe() {
    const s = this.state;
    if (!s) return '';
    return s.moves.map((m) => pointName(m, s.height)).join(' ');
  }
}
