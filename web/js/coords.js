// Renju notation: columns a.. from the left, rows 1.. from the bottom. Points are {x, y} with y from the top
// (Gomocup coordinates), exactly as the server sends them.

export function pointName(p, height) {
  return String.fromCharCode(97 + p.x) + String(height - p.y);
}

export function parsePoint(s, width, height) {
  const m = /^\s*([a-zA-Z])(\d{1,2})\s*$/.exec(s || '');
  if (!m) return null;
  const x = m[1].toLowerCase().charCodeAt(0) - 97;
  const row = Number(m[2]);
  const y = height - row;
  if (x < 0 || x >= width || row < 1 || row > height) return null;
  return { x, y };
}

/// Accepts {x, y}, [x, y] or "h8" and returns {x, y} (or null).
export function toPoint(v, width, height) {
  if (v == null) return null;
  if (typeof v === 'string') return parsePoint(v, width, height);
  if (Array.isArray(v) && v.length >= 2) return { x: Number(v[0]), y: Number(v[1]) };
  if (typeof v === 'object' && 'x' in v && 'y' in v) return { x: Number(v.x), y: Number(v.y) };
  if (typeof v === 'object' && (v.pos || v.name)) return toPoint(v.pos || v.name, width, height);
  return null;
}

export function samePoint(a, b) {
  return !!a && !!b && a.x === b.x && a.y === b.y;
}

/// Star points drawn on the grid (the classic 15×15 pattern, scaled to other sizes).
export function starPoints(width, height) {
  if (width < 9 || height < 9) return width === height && width % 2 === 1 ? [{ x: (width - 1) / 2, y: (height - 1) / 2 }] : [];
  const edge = width >= 13 && height >= 13 ? 3 : 2;
  const xs = [edge, width - 1 - edge];
  const ys = [edge, height - 1 - edge];
  const pts = [];
  for (const x of xs) for (const y of ys) pts.push({ x, y });
  if (width % 2 === 1 && height % 2 === 1) pts.push({ x: (width - 1) / 2, y: (height - 1) / 2 });
  if (width >= 19 && height >= 19 && width % 2 === 1 && height % 2 === 1) {
    const cx = (width - 1) / 2;
    const cy = (height - 1) / 2;
    pts.push({ x: cx, y: edge }, { x: cx, y: height - 1 - edge }, { x: edge, y: cy }, { x: width - 1 - edge, y: cy });
  }
  return pts;
}
