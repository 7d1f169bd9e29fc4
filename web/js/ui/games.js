// "Your games": the games this browser has played, unfinished first, so a player can always get
// back to them (the logo and New game leave the current game). The list lives in localStorage until
// wuzi has accounts; the games themselves are on the server, the list only remembers their ids.

import { t } from '../i18n.js';

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

function forgetGame(id) {
  saveGames(loadGames().filter((g) => g.id !== id));
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

function when(ms) {
  try {
    return new Date(ms).toLocaleString(document.documentElement.lang, { dateStyle: 'short', timeStyle: 'short' });
  } catch {
    return new Date(ms).toLocaleString();
  }
}

/// Wires the dialog; `currentId()` names the game on screen, `onOpen(id)` opens one.
export function initGames(dialog, { currentId, onOpen }) {
  const listEl = dialog.querySelector('#games-list');

  function render() {
    const games = ordered(loadGames());
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
        title.textContent = describe(g);
        const state = document.createElement('span');
        state.className = `games-state ${g.over ? 'over' : 'unfinished'}`;
        const bits = [t(g.over ? 'games.finished' : 'games.unfinished'), (g.moves === 1 ? t('games.one_move') : t('games.moves', { n: g.moves })), when(g.updated)];
        if (g.id === currentId()) bits.push(t('games.current'));
        state.textContent = bits.join(' · ');
        open.append(title, state);
        open.addEventListener('click', (e) => {
          e.preventDefault();
          dialog.close();
          onOpen(g.id);
        });
        const forget = document.createElement('button');
        forget.type = 'button';
        forget.className = 'btn small games-forget';
        forget.textContent = t('games.forget');
        forget.addEventListener('click', () => {
          forgetGame(g.id);
          render();
        });
        li.append(open, forget);
        return li;
      }),
    );
  }

  return {
    open() {
      render();
      dialog.showModal();
    },
  };
}
