// Player cards: names, clocks counting down between server updates, the side to move highlighted.

import { t } from '../i18n.js';
import { colorName } from './status.js';

export function formatMs(ms) {
  if (ms == null) return '';
  const total = Math.max(0, ms);
  if (total < 10000) return (Math.floor(total / 100) / 10).toFixed(1);
  const s = Math.ceil(total / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/// [name, detail] for a colour's card: "You" / "Computer · Level 5" against the computer, the colour otherwise.
function playerLabels(store, color, nameOf) {
  const v = store.view;
  if (!v) return [colorName(color), ''];
  const details = [];
  let name = colorName(color);
  const who = v.players ? v.players[color] : v.mode === 'computer' ? (v.computer && v.computer.color === color ? 'computer' : 'human') : 'human';
  if (v.mode === 'computer') {
    if (who === 'computer') {
      name = t('player.computer');
      const p = String((v.computer && v.computer.player) || '');
      const lv = /^level(\d+)$/.exec(p);
      const classic = /^classic-(\w+)$/.exec(p);
      if (lv) details.push(t('player.level', { n: lv[1] }));
      else if (classic) details.push(t(`new.classic.${classic[1]}`));
    } else if (who === 'human') {
      // A spectator is not the person playing.
      name = t(store.watching() ? 'player.person' : 'player.you');
    }
    // While a swap opening has not given out the colours, neither card is anyone's yet.
    details.push(who ? colorName(color) : t('player.unassigned'));
  }
  if (v.mode === 'online') {
    // Between people: the person's name (their text, shown as text), "You" on this page's card.
    const owner = personOwner(v, color);
    const known = owner && nameOf ? nameOf(owner) : null;
    if (known) name = known;
    const mine = owner && store.me && store.me.identity === owner;
    details.push(mine ? t('player.you') : colorName(color));
    if (!v.blackSeat) details.push(t('player.unassigned'));
  }
  if (v.bubbleTarget && v.bubblesHeld) details.push(t('player.bubbles', { n: v.bubblesHeld[color] ?? 0, target: v.bubbleTarget }));
  return [name, details.join(' · ')];
}

/// The identity that plays `color` when a person does (against the computer the only owned seat;
/// at one screen both seats are the creator's); null for the computer or a game without owners.
export function personOwner(v, color) {
  if (!v || v.draft || !v.owners) return null;
  // Between people each seat has its owner; Black's is the seat the opening gave Black.
  if (v.mode === 'online') {
    if (!v.blackSeat) return null;
    const other = v.blackSeat === 'first' ? 'second' : 'first';
    return v.owners[color === 'black' ? v.blackSeat : other] || null;
  }
  const who = v.players ? v.players[color] : null;
  if (v.mode === 'computer' && who !== 'human') return null;
  return v.owners.first || v.owners.second || null;
}

/// `ratingOf(color)`: the rating to show on a card in a rated game ("1432?"), or null.
/// `nameOf(identity)`: a person's name in a game between people, or null while it is asked.
export function renderPlayers(cards, store, ratingOf = () => null, nameOf = null) {
  const v = store.view;
  for (const color of ['black', 'white']) {
    const card = cards[color];
    const [name, plain] = playerLabels(store, color, nameOf);
    // Between people the ratings show in casual games too (as the lobby shows them).
    const rating = v && (v.rated || v.mode === 'online') ? ratingOf(color) : null;
    const detail = rating ? [plain, rating].filter(Boolean).join(' · ') : plain;
    card.querySelector('.player-name').textContent = name;
    // A person's card links to their profile (the computer has none).
    const owner = personOwner(v, color);
    if (owner) card.dataset.owner = owner;
    else delete card.dataset.owner;
    card.querySelector('.player-detail').textContent = detail;
    const toMove = !!v && !v.result && !(v.opening && v.opening.phase === 'choose') && v.sideToMove === color;
    card.classList.toggle('to-move', toMove);
    card.classList.toggle('winner', !!v && !!v.result && v.result.winner === color);
  }
  tickClocks(cards, store);
}

export function tickClocks(cards, store) {
  for (const color of ['black', 'white']) {
    const card = cards[color];
    const clockEl = card.querySelector('.player-clock');
    const ms = store.remaining(color);
    const text = ms == null ? '' : formatMs(ms);
    if (clockEl.textContent !== text) clockEl.textContent = text;
    // A clock standing (server out of reach, computer waiting for the engine) is not shown as running.
    const standing = !!store.clock && (store.clock.frozen || store.waiting());
    const running = !!store.clock && store.clock.running === color && !(store.view && store.view.result) && !standing;
    card.classList.toggle('clock-running', running);
    card.classList.toggle('clock-low', ms != null && ms < 10000);
  }
}
