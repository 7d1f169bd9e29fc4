// A game between people (`mode: "online"`): offers (draw, takeback, rematch) and their answers,
// aborting before both have played, claiming a game the opponent left, the spectators. The server
// holds every offer (`offers` in the view names the seat that made it) and decides every result.

import { t } from '../i18n.js';

const $ = (id) => document.getElementById(id);

/// How long an opponent must have been away before the game may be claimed (docs/api.md).
export const CLAIM_AFTER_MS = 30000;

const other = (seat) => (seat === 'first' ? 'second' : 'first');

/// Whether the game may still be aborted: until each side has played its first stone.
function canAbort(v) {
  if (!v || v.result) return false;
  const colors = new Set(v.moves.map((m) => m.color));
  return !(colors.has('black') && colors.has('white'));
}

/// `send(kind, action)` makes or answers an offer; `abort()`, `claim(result)`, `openGame(id)`.
export function initOnline(store, { send, abort, claim, openGame }) {
  const panel = $('online-panel');

  function render() {
    const v = store.view;
    const online = !!v && v.mode === 'online' && !v.draft;
    panel.hidden = !online;
    document.body.classList.toggle('online-game', online);
    if (!online) return;
    const seat = store.mySeat();
    const offers = v.offers || {};
    const over = !!v.result;

    // The offer the opponent made (one at a time is shown; a draw first).
    let incoming = null;
    if (seat) {
      for (const kind of over ? ['rematch'] : ['draw', 'takeback']) {
        if (offers[kind] === other(seat)) {
          incoming = kind;
          break;
        }
      }
    }
    $('online-offer').hidden = !incoming;
    $('online-offer').dataset.kind = incoming || '';
    if (incoming) $('online-offer-text').textContent = t(`online.offered.${incoming}`);

    // The opponent left: the claim's countdown, then the buttons.
    const awaySince = seat && !over && v.away ? v.away[other(seat)] : null;
    $('online-away').hidden = !awaySince;
    if (awaySince) {
      const left = Math.max(0, Math.ceil((awaySince + CLAIM_AFTER_MS - Date.now()) / 1000));
      $('online-away-text').textContent = left > 0 ? t('online.away_wait', { n: left }) : t('online.away_claim');
      $('btn-claim-win').disabled = left > 0;
      $('btn-claim-draw').disabled = left > 0;
      $('online-away').dataset.left = String(left);
    }

    // Our own buttons; one we offered says so and withdraws it.
    const mineOffered = (kind) => !!seat && offers[kind] === seat;
    const show = (id, on) => {
      $(id).hidden = !on;
    };
    show('btn-offer-draw', !!seat && !over);
    show('btn-offer-takeback', !!seat && !over && v.takebacks);
    show('btn-abort', !!seat && canAbort(v));
    show('btn-rematch', !!seat && over && !offers.rematch_game);
    for (const [id, kind] of [['btn-offer-draw', 'draw'], ['btn-offer-takeback', 'takeback'], ['btn-rematch', 'rematch']]) {
      const b = $(id);
      const offered = mineOffered(kind);
      b.classList.toggle('offered', offered);
      b.textContent = t(offered ? `online.withdraw.${kind}` : `online.offer.${kind}`);
    }
    $('btn-offer-takeback').disabled = !v.moves.length;
    $('online-actions').hidden = !seat;

    const info = [];
    if (v.spectators) info.push(t('online.spectators', { n: v.spectators }));
    if (offers.rematch_game) info.push(t('online.rematch_started'));
    $('online-info').textContent = info.join(' · ');
    $('online-info').dataset.spectators = String(v.spectators || 0);

    // A rematch both agreed to while this page showed the game: go to it (a game opened later
    // from the history stays on screen).
    const key = `${v.id} ${offers.rematch_game || ''}`;
    if (offers.rematch_game && seat && seen === `${v.id} `) openGame(offers.rematch_game);
    seen = key;
  }
  let seen = null;

  const toggle = (kind) => () => {
    const v = store.view;
    const seat = store.mySeat();
    if (!v || !seat) return;
    send(kind, v.offers && v.offers[kind] === seat ? 'withdraw' : 'offer');
  };
  $('btn-offer-draw').addEventListener('click', toggle('draw'));
  $('btn-offer-takeback').addEventListener('click', toggle('takeback'));
  $('btn-rematch').addEventListener('click', toggle('rematch'));
  $('btn-offer-accept').addEventListener('click', () => send($('online-offer').dataset.kind, 'accept'));
  $('btn-offer-decline').addEventListener('click', () => send($('online-offer').dataset.kind, 'decline'));
  $('btn-abort').addEventListener('click', abort);
  $('btn-claim-win').addEventListener('click', () => claim('win'));
  $('btn-claim-draw').addEventListener('click', () => claim('draw'));

  // The claim's countdown runs on between server messages.
  setInterval(() => {
    const v = store.view;
    if (v && v.mode === 'online' && !v.result && v.away && (v.away.first || v.away.second)) render();
  }, 500);

  return { render };
}
