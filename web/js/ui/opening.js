// Swap / swap2 openings: who places the opening stones, and the colour choices the server offers.

import { t } from '../i18n.js';

/// The name of a seat ("first"/"second"): "You"/"Computer" against the computer, else the seat.
export function seatName(store, seat) {
  const v = store.view;
  if (v && v.mode === 'computer' && v.computer && v.computer.seat) {
    return t(v.computer.seat === seat ? 'player.computer' : store.watching() ? 'player.person' : 'player.you');
  }
  // Between people: you, or your opponent (a spectator sees the seats).
  const mine = v && v.mode === 'online' ? store.mySeat() : null;
  if (mine) return t(mine === seat ? 'player.you' : 'player.opponent');
  return t(seat === 'second' ? 'seat.second' : 'seat.first');
}

/// Status sentence while the opening is on, or null.
export function openingStatus(store) {
  const v = store.view;
  const o = v && !v.result ? v.opening : null;
  if (!o) return null;
  const who = seatName(store, o.seat);
  const stone = t(`color.${v.sideToMove}`);
  const n = v.moves.length + 1;
  // Against the computer say who acts in words that fit ("you choose", "the computer places").
  let vsComputer = v.mode === 'computer' && v.computer && v.computer.seat;
  let computerActs = vsComputer && v.computer.seat === o.seat;
  // Between people the same words fit the player who acts now ("you choose").
  if (v.mode === 'online' && store.mySeat() === o.seat) {
    vsComputer = true;
    computerActs = false;
  }
  if (o.phase === 'choose') {
    if (!vsComputer) return t('status.opening_choice', { who });
    return t(computerActs ? 'status.opening_choose_computer' : 'status.opening_choose_you');
  }
  if (o.phase === 'place') {
    if (!vsComputer) return t('status.place_opening', { who, stone, n });
    return t(computerActs ? 'status.opening_place_computer' : 'status.opening_place_you', { stone, n });
  }
  return null;
}

export function renderOpening(panel, titleEl, choicesEl, store, onChoose) {
  const v = store.view;
  const o = v && !v.result ? v.opening : null;
  const options = o && o.phase === 'choose' && store.humanAction() === 'choose' ? o.options || [] : [];
  if (!options.length || store.browsing()) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  // The status line above says who chooses; the panel says what the choice means, then the choices.
  titleEl.hidden = false;
  titleEl.textContent = t('opening.next_white');
  const key = options.map(String).join(',');
  if (choicesEl.dataset.key === `${key}|${document.documentElement.lang}`) return;
  choicesEl.dataset.key = `${key}|${document.documentElement.lang}`;
  choicesEl.replaceChildren(
    ...options.map((choice) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'btn';
      b.dataset.choice = choice;
      b.textContent = t(`opening.choice.${choice}`);
      b.addEventListener('click', () => onChoose(choice));
      return b;
    }),
  );
}
