// The status line: whose turn, the computer thinking, why the game ended, or the last message.

import { t } from '../i18n.js';
import { openingStatus } from './opening.js';
import { onlyForbiddenLeft } from '../game.js';

/// A translated sentence for a refusal: by the server's stable `code`, else its English message.
export function errorText(e) {
  if (e && e.status === 0) return t('error.network');
  const code = e && e.body && e.body.code;
  const key = `error.code.${code}`;
  if (code === 'bad_record') return recordErrorText(e.message);
  if (code && t(key) !== key) return t(key, { message: e.message });
  return t('error.generic', { message: (e && e.message) || String(e) });
}

/// A record that cannot be read, in the page's language: a move that cannot be replayed is named,
/// anything else is "not a record wuzi can read" (the server's English detail names a guessed format's
/// line and column, which says nothing useful about pasted text that is no record at all).
export function recordErrorText(message) {
  const m = /^move (\d+) \(([a-z]+\d+)\)/i.exec(String(message || ''));
  if (m) return t('records.bad_move', { n: m[1], move: m[2] });
  return t('error.code.bad_record');
}

export function colorName(c) {
  return t(c === 'white' ? 'color.white' : 'color.black');
}

export function kindName(kind) {
  const k = String(kind || '').toLowerCase().replace('_', '-');
  const map = { '33': 'double-three', '44': 'double-four', '6': 'overline', doublethree: 'double-three', doublefour: 'double-four' };
  return t(`forbidden.${map[k] || k}`);
}

/// A sentence for a finished game, built from the server's result (never judged here).
export function resultSentence(view) {
  const r = view.result;
  if (!r) return '';
  const winner = r.winner || null;
  const color = winner ? colorName(winner) : '';
  const loser = winner ? colorName(winner === 'black' ? 'white' : 'black') : '';
  const reason = String(r.reason || '').toLowerCase().replace('_', '-');
  switch (reason) {
    case 'five':
      return t('result.five', { color, n: (r.cells && r.cells.length) || view.k });
    case 'bubbles':
      return t('result.bubbles', { color, n: r.count ?? 7 });
    case 'forbidden': {
      const p = r.point || r.pos;
      const name = typeof p === 'string' ? p : p ? p.name || String.fromCharCode(97 + p.x) + (view.height - p.y) : '';
      return t('result.forbidden', { color, kind: kindName(r.kind), point: name });
    }
    case 'resignation':
      return t('result.resignation', { color, loser });
    case 'time':
      return t('result.time', { color, loser });
    case 'board-full':
      return t('result.board_full');
    case 'agreement':
      return t('result.agreement');
    case 'aborted':
      return t('result.aborted');
    case 'abandoned':
      return winner ? t('result.abandoned_win', { color, loser }) : t('result.abandoned_draw');
    default:
      return winner ? t('result.wins', { color }) : view.resultText || t('result.draw');
  }
}

export function renderStatus(el, textEl, store) {
  const v = store.view;
  let text;
  let cls = '';
  const msg = store.message;
  if (!v) {
    text = store.connected === false && msg ? t(msg.key, msg.params) : t('status.no_game');
  } else if (v.result) {
    text = resultSentence(v);
    const human = v.mode === 'online' ? [store.myColor()].filter(Boolean) : store.humanColors();
    if ((v.mode === 'computer' || v.mode === 'online') && v.result.winner && human.length === 1) {
      const verdict = t(v.result.winner === human[0] ? 'result.you_win' : 'result.you_lose');
      text = t('result.with_verdict', { verdict, result: text });
    }
    cls = 'over';
  } else if (store.connection === 'down') {
    text = t('status.offline');
    cls = 'offline';
  } else if (msg && msg.kind === 'error') {
    text = t(msg.key, msg.params);
    cls = 'error';
  } else if (store.waiting()) {
    text = t('status.queued', { n: Math.max(store.queued, v.queued) });
    cls = 'thinking';
  } else if (v.thinking) {
    const a = store.analysis;
    const best = a && a.purpose !== 'hint' && a.best && (a.best.name || a.best);
    text = best ? t('status.thinking_best', { move: best, d: a.depth ?? '' }) : t('status.thinking');
    cls = 'thinking';
  } else if (v.draft && !store.isHumanTurn()) {
    text = t('status.draft_computer_first');
    cls = 'draft-wait';
  } else if (store.browsing()) {
    const ply = store.shownPly();
    text = ply === 0 ? t('status.browsing_start') : t('status.browsing', { ply, total: v.moves.length });
  } else if (store.watching()) {
    text = t('status.watching', { color: colorName(v.sideToMove) });
    cls = 'watching';
  } else if (msg) {
    text = t(msg.key, msg.params);
  } else if (openingStatus(store)) {
    text = openingStatus(store);
  } else if (onlyForbiddenLeft(v)) {
    text = t('status.only_forbidden');
  } else if ((v.mode === 'computer' || v.mode === 'online') && store.isHumanTurn()) {
    text = t('status.your_move', { color: colorName(v.sideToMove) });
  } else {
    text = t('status.to_move', { color: colorName(v.sideToMove) });
  }
  if (v && v.thinking && !v.result) cls = `${cls} thinking`;
  // A spectator is offered nothing that acts for a seat (Move now included).
  if (v && !v.result && store.watching() && !cls.includes('watching')) cls = `${cls} watching`;
  el.className = `status ${cls}`.trim();
  textEl.textContent = text;
  const choosing = v && !v.result && v.opening && v.opening.phase === 'choose';
  el.dataset.turn = !v || store.browsing() || choosing ? '' : v.result ? v.result.winner || '' : v.sideToMove;
  el.dataset.state = v ? (v.result ? 'over' : v.thinking ? 'thinking' : 'playing') : 'none';
}
