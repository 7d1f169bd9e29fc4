// The evaluation bar (Black's share from the bottom-left) and the best line, from the engine's reports.

import { t } from '../i18n.js';
import { toPoint, pointName } from '../coords.js';

/// Reads the engine's score in whichever shape the server sends it:
/// a number (side to move), {eval: n} / {kind: "eval", value: n}, {win: plies}, {loss: plies}, or "+35" / "win 5".
export function parseScore(score) {
  if (score == null) return null;
  if (typeof score === 'number') return { kind: 'eval', value: score };
  if (typeof score === 'string') {
    const m = /^(win|loss|mate|eval)?\s*([+-]?\d+)/i.exec(score.trim());
    if (!m) return null;
    const kind = (m[1] || 'eval').toLowerCase();
    const n = Number(m[2]);
    if (kind === 'mate') return n >= 0 ? { kind: 'win', value: n } : { kind: 'loss', value: -n };
    return { kind, value: n };
  }
  if (typeof score === 'object') {
    const kind = String(score.kind || score.type || Object.keys(score)[0] || '').toLowerCase();
    const value = Number(score.value ?? score.plies ?? score[Object.keys(score)[0]]);
    if (['eval', 'win', 'loss'].includes(kind)) return { kind, value };
  }
  return null;
}

/// Probability that the side to move wins, from its score.
export function winProbability(s) {
  if (!s) return 0.5;
  if (s.kind === 'win') return 1;
  if (s.kind === 'loss') return 0;
  return 1 / (1 + Math.exp(-s.value / 300));
}

/// The score said from the side that stands better ("White +0.99", "Black wins in 7"), never a bare
/// signed number whose side the reader must guess. `s` is from `mover`'s point of view.
export function scoreText(s, mover) {
  if (!s) return '';
  const other = mover === 'black' ? 'white' : 'black';
  const name = (c) => t(c === 'white' ? 'color.white' : 'color.black');
  if (s.kind === 'win') return t('eval.win_in', { color: name(mover), n: s.value });
  if (s.kind === 'loss') return t('eval.win_in', { color: name(other), n: s.value });
  const v = Math.round(Number(s.value) || 0);
  if (v === 0) return t('eval.even');
  return t('eval.ahead', { color: name(v > 0 ? mover : other), score: (Math.abs(v) / 100).toFixed(2) });
}

export function renderEval(els, store, settings) {
  const v = store.view;
  // No analysis in a rated game (the server refuses it): no bar either.
  els.box.classList.toggle('off', !settings.showEval || (!!v && v.rated));
  const a = store.hint || store.analysis;
  if (!v || !a) {
    els.white.style.width = '50%';
    els.score.textContent = '';
    els.line.textContent = t('eval.none');
    return;
  }
  // The score is from the side to move's point of view at the time it was computed.
  const mover = a.side_to_move || a.side || v.sideToMove;
  const s = parseScore(a.score);
  const black =
    typeof a.black_win_probability === 'number'
      ? a.black_win_probability
      : mover === 'black'
        ? winProbability(s)
        : 1 - winProbability(s);
  els.white.style.width = `${Math.round((1 - black) * 100)}%`;
  els.score.textContent = scoreText(s, mover);
  const pv = (a.pv || []).map((m) => {
    const pt = toPoint(m, v.width, v.height);
    return typeof m === 'string' ? m : pt ? pointName(pt, v.height) : '';
  });
  const bits = [];
  if (store.hint && a.best) {
    const bp = toPoint(a.best, v.width, v.height);
    bits.push(t('eval.hint', { move: bp ? pointName(bp, v.height) : a.best }));
  }
  if (pv.length) bits.push(`${t('eval.best_line')}: ${pv.slice(0, 10).join(' ')}`);
  if (a.depth) bits.push(t('eval.depth', { d: a.depth }));
  els.line.textContent = bits.join(' · ');
  els.line.title = els.line.textContent;
}
