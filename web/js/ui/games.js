// "Your games": the player's own games from the server (`/api/profiles/{me}/games`), unfinished
// first, so a player can always get back to them (the logo and New game leave the current game).
// localStorage keeps what the server's list does not say (board size, k) for the games this
// browser has seen, and stands in for the server's list when it cannot be reached.

import { api } from '../api.js';
import { t } from '../i18n.js';
import { opponentName, resultName, when as whenText } from './profile.js';

const KEY = 'wuzi.games';
/// How many games the list keeps (the oldest finished ones go first).
const KEEP = 40;

export function loadGames() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || '[]');
    return Array.isArray(list) ? list.filter((g) => g && typeof g.id === 'string') : [];
  } catch {
    return [];
  }
}

function saveGames(list) {
  try {
    localStorage.setItem(KEY, JSON.stringify(list));
  } catch {
    /* storage full or off: the list is a convenience */
  }
}

/// Unfinished games first, then the most recently changed.
function ordered(list) {
  return [...list].sort((a, b) => (a.over === b.over ? b.updated - a.updated : a.over ? 1 : -1));
}

/// Records what the list shows about a game (called with every view of a created game).
export function rememberGame(view) {
  if (!view || !view.id || view.draft) return;
  const entry = {
    id: String(view.id),
    mode: view.mode,
    player: (view.computer && view.computer.player) || null,
    rule: view.rule,
    width: view.width,
    height: view.height,
    k: view.k,
    moves: view.moves.length,
    over: !!view.result,
    updated: Date.now(),
  };
  const list = loadGames();
  const old = list.find((g) => g.id === entry.id);
  if (old && old.moves === entry.moves && old.over === entry.over) return;
  const rest = list.filter((g) => g.id !== entry.id);
  let next = [entry, ...rest];
  if (next.length > KEEP) {
    const keep = ordered(next).slice(0, KEEP);
    next = next.filter((g) => keep.includes(g));
  }
  saveGames(next);
}

function describe(g) {
  const size = g.width === g.height ? `${g.width}×${g.width}` : `${g.width}×${g.height}`;
  const bits = [t(`rule.short.${g.rule}`), size];
  if (g.k && g.k !== 5) bits.push(t('meta.k', { k: g.k }));
  const lv = /^level(\d+)$/.exec(g.player || '');
  const classic = /^classic-(\w+)$/.exec(g.player || '');
  if (g.mode === 'computer') bits.push(lv ? `${t('player.computer')} ${t('player.level', { n: lv[1] })}` : classic ? t(`new.classic.${classic[1]}`) : t('player.computer'));
  else bits.push(t('new.mode.local'));
  return bits.join(' · ');
}

/// A game of the server's list in the shape of the local one (with the size and k this browser saw).
function fromServer(g, local) {
  const known = local.find((l) => l.id === g.id) || {};
  return {
    id: g.id,
    rule: g.rule,
    opponent: g.opponent,
    width: known.width,
    height: known.height,
    k: known.k,
    moves: g.ply,
    result: g.result,
    over: g.result !== 'playing',
    updated: g.updated_at,
    rated: !!g.rated,
  };
}

function describeAny(g) {
  if (!g.opponent) return describe(g);
  const bits = [t(`rule.short.${g.rule}`)];
  if (g.width) bits.push(g.width === g.height ? `${g.width}×${g.width}` : `${g.width}×${g.height}`);
  if (g.k && g.k !== 5) bits.push(t('meta.k', { k: g.k }));
  bits.push(opponentName(g.opponent));
  return bits.join(' · ');
}

/// Wires the dialog; `currentId()` names the game on screen, `onOpen(id)` opens one, `me()` is
/// `GET /api/me` (the list is that identity's games).
export function initGames(dialog, { currentId, onOpen, me }) {
  const listEl = dialog.querySelector('#games-list');

  async function load() {
    const local = loadGames();
    const who = me();
    if (!who || !who.identity) return [];
    try {
      return (await api.profileGames(who.identity, { limit: 100 })).map((g) => fromServer(g, local));
    } catch {
      return local;
    }
  }

  async function render() {
    const games = ordered(await load());
    if (!games.length) {
      const li = document.createElement('li');
      li.className = 'games-empty';
      li.textContent = t('games.empty');
      listEl.replaceChildren(li);
      return;
    }
    listEl.replaceChildren(
      ...games.map((g) => {
        const li = document.createElement('li');
        li.className = 'games-item';
        li.dataset.id = g.id;
        const open = document.createElement('a');
        open.className = 'games-open';
        open.href = `#g=${encodeURIComponent(g.id)}`;
        const title = document.createElement('span');
        title.className = 'games-what';
        title.textContent = describeAny(g);
        if (g.rated) {
          const mark = document.createElement('span');
          mark.className = 'games-rated';
          mark.textContent = t('profile.rated');
          title.append(' ', mark);
        }
        const state = document.createElement('span');
        state.className = `games-state ${g.over ? 'over' : 'unfinished'}`;
        const how = g.result && g.result !== 'over' ? resultName(g.result) : t(g.over ? 'games.finished' : 'games.unfinished');
        const bits = [how, g.moves === 1 ? t('games.one_move') : t('games.moves', { n: g.moves }), whenText(g.updated)];
        if (g.id === currentId()) bits.push(t('games.current'));
        state.textContent = bits.join(' · ');
        open.append(title, state);
        open.addEventListener('click', (e) => {
          e.preventDefault();
          dialog.close();
          onOpen(g.id);
        });
        li.append(open);
        return li;
      }),
    );
  }

  return {
    async open() {
      await render();
      if (!dialog.open) dialog.showModal();
    },
  };
}
