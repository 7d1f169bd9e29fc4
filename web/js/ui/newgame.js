// The new-game dialog: builds the body of POST /api/games and remembers the last choices.

import { t, onLanguageChange } from '../i18n.js';
import { api } from '../api.js';
import { ratedWhyNot } from './ratings.js';

const KEY = 'wuzi.newgame';
export const DEFAULT_CHOICES = {
  mode: 'computer',
  player: 'level5',
  color: 'black',
  // Where the computer searches in an unrated game with a free opening and no clock: the engine
  // in this browser (when it can run here; see main.js) or the server's.
  engine: 'browser',
  rule: 'freestyle',
  forbidden_policy: 'refuse',
  size: '15',
  width: 15,
  height: 15,
  k: 5,
  opening: 'free',
  theme: 'wood',
  clock: 'none',
  move_seconds: 30,
  minutes: 10,
  increment: 5,
  rated: false,
};

export function loadChoices() {
  try {
    return { ...DEFAULT_CHOICES, ...JSON.parse(localStorage.getItem(KEY) || '{}') };
  } catch {
    return { ...DEFAULT_CHOICES };
  }
}

/// Whether the computer of these choices may play in the browser (the server refuses it in rated
/// games, with a clock or an opening rule); the choice is the person's.
export function browserEngineFits(c) {
  return c.mode === 'computer' && c.engine !== 'server' && c.clock === 'none' && c.opening === 'free';
}

/// The API request for a set of choices.
export function choicesToRequest(c) {
  const body = { mode: c.mode, rule: c.rule, k: Number(c.k), opening: c.opening, theme: c.theme };
  if (c.size === 'custom') {
    const w = Number(c.width);
    const h = Number(c.height);
    body.size = w === h ? w : { width: w, height: h };
  } else {
    body.size = Number(c.size);
  }
  if (c.rule === 'renju') {
    body.k = 5;
    body.forbidden_policy = c.forbidden_policy;
  }
  if (c.mode === 'computer') body.computer = { player: c.player, color: c.color === 'black' ? 'white' : 'black' };
  if (c.clock === 'move') body.clock = { kind: 'move', seconds: Number(c.move_seconds) };
  else if (c.clock === 'side')
    body.clock = {
      kind: 'side',
      initial_seconds: Math.round(Number(c.minutes) * 60),
      increment_seconds: Number(c.increment),
    };
  else body.clock = { kind: 'none' };
  // "Rated" is remembered as chosen, and asked for only when these settings can be rated.
  if (c.rated && !ratedWhyNot(c)) body.rated = true;
  if (body.computer && browserEngineFits(c) && !body.rated) body.computer.in_browser = true;
  return body;
}

/// The computer's fixed ratings by player id (`GET /api/players`), once known.
const playerRatings = new Map();

/// The computer player's published rating (`level6`, `classic-rank`), once known.
export function computerRating(id) {
  return playerRatings.get(id) ?? null;
}

/// "Level 6 · 1300" once the server has said the level's rating.
function withRating(id, name) {
  const r = playerRatings.get(id);
  return r == null ? name : t('new.with_rating', { name, rating: r });
}

function fillPlayers(select) {
  const value = select.value;
  const opts = [];
  for (let n = 1; n <= 10; n++) {
    const o = document.createElement('option');
    o.value = `level${n}`;
    o.textContent = withRating(o.value, n === 1 ? t('new.level.hint1') : n === 10 ? t('new.level.hint10') : t('new.level', { n }));
    opts.push(o);
  }
  const group = document.createElement('optgroup');
  group.label = t('new.classic');
  for (const c of ['rank', 'tuple', 'greedy']) {
    const o = document.createElement('option');
    o.value = `classic-${c}`;
    o.textContent = withRating(o.value, t(`new.classic.${c}`));
    group.append(o);
  }
  select.replaceChildren(...opts, group);
  if (value) select.value = value;
}

export function initNewGame(dialog, { onStart }) {
  const form = dialog.querySelector('form');
  const el = form.elements;
  const errorEl = dialog.querySelector('#new-error');
  fillPlayers(el.player);
  onLanguageChange(() => {
    fillPlayers(el.player);
    syncRated();
  });
  api.players().then(
    (list) => {
      for (const p of list || []) if (p && p.id && typeof p.rating === 'number') playerRatings.set(p.id, p.rating);
      fillPlayers(el.player);
    },
    () => {},
  );
  /// Whether the player wants a rated game (kept while settings that cannot be rated are chosen).
  let wantRated = false;
  const ratedBox = el.rated;
  const ratedWhy = dialog.querySelector('#new-rated-why');

  function syncRated() {
    const why = ratedWhyNot(read());
    ratedBox.disabled = !!why;
    ratedBox.checked = !why && wantRated;
    ratedBox.closest('.switch').classList.toggle('disabled', !!why);
    ratedWhy.textContent = why ? t(why) : t(ratedBox.checked ? 'new.rated.on' : 'new.rated.off');
    dialog.querySelector('#new-rated-text').textContent = t(ratedBox.checked ? 'new.rated' : 'new.casual');
    ratedWhy.classList.toggle('why', !!why);
  }
  ratedBox.addEventListener('change', () => {
    wantRated = ratedBox.checked;
    syncRated();
  });

  function sync() {
    const computer = form.querySelector('input[name=mode]:checked').value === 'computer';
    for (const n of form.querySelectorAll('.computer-only')) n.hidden = !computer;
    const renju = el.rule.value === 'renju';
    for (const n of form.querySelectorAll('.renju-only')) n.hidden = !renju;
    el.k.disabled = renju;
    if (renju) el.k.value = '5';
    form.querySelector('.custom-size').hidden = el.size.value !== 'custom';
    form.querySelector('.clock-move').hidden = el.clock.value !== 'move';
    form.querySelector('.clock-side').hidden = el.clock.value !== 'side';
    syncRated();
    // A rated game, a clock or an opening rule keep the computer on the server.
    el.engine.disabled = ratedBox.checked || el.clock.value !== 'none' || el.opening.value !== 'free';
  }

  function load(c) {
    form.querySelector(`input[name=mode][value=${c.mode}]`).checked = true;
    form.querySelector(`input[name=color][value=${c.color}]`).checked = true;
    for (const k of ['player', 'engine', 'rule', 'forbidden_policy', 'size', 'k', 'opening', 'theme', 'clock']) el[k].value = String(c[k]);
    for (const k of ['width', 'height', 'move_seconds', 'minutes', 'increment']) el[k].value = c[k];
    wantRated = !!c.rated;
    sync();
  }

  function read() {
    const c = {};
    c.mode = form.querySelector('input[name=mode]:checked').value;
    c.color = form.querySelector('input[name=color]:checked').value;
    for (const k of ['player', 'engine', 'rule', 'forbidden_policy', 'size', 'k', 'opening', 'theme', 'clock']) c[k] = el[k].value;
    for (const k of ['width', 'height', 'move_seconds', 'minutes', 'increment']) c[k] = Number(el[k].value);
    c.rated = wantRated;
    return c;
  }

  form.addEventListener('change', sync);
  dialog.querySelector('#new-cancel').addEventListener('click', () => dialog.close());
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const c = read();
    if (c.size === 'custom' && !(c.width >= 5 && c.width <= 26 && c.height >= 5 && c.height <= 26)) {
      errorEl.textContent = t('error.generic', { message: '5..26' });
      return;
    }
    errorEl.textContent = '';
    localStorage.setItem(KEY, JSON.stringify(c));
    const err = await onStart(choicesToRequest(c));
    if (err) errorEl.textContent = err;
    else dialog.close();
  });

  return {
    open() {
      load(loadChoices());
      errorEl.textContent = '';
      dialog.showModal();
    },
  };
}
