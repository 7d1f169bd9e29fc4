// The move list in renju notation; clicking a move (or the arrow keys) looks back at that position.

import { t } from '../i18n.js';

export function renderMoveList(list, store) {
  const v = store.view;
  const moves = v ? v.moves : [];
  const shown = store.shownPly();
  if (!moves.length) {
    const li = document.createElement('li');
    li.className = 'empty';
    li.textContent = t('movelist.empty');
    list.replaceChildren(li);
    return;
  }
  const items = [];
  let current = null;
  for (let i = 0; i < moves.length; i += 2) {
    const num = document.createElement('li');
    num.className = 'num';
    num.textContent = `${i / 2 + 1}.`;
    items.push(num);
    for (let j = i; j < i + 2; j++) {
      const li = document.createElement('li');
      if (j < moves.length) {
        li.className = 'mv';
        li.textContent = moves[j].name;
        li.dataset.ply = String(j + 1);
        const secs = moves[j].time_ms != null ? ` (${(moves[j].time_ms / 1000).toFixed(1)} s)` : '';
        li.title = `${j + 1}. ${moves[j].name}${secs}`;
        if (j + 1 === shown) {
          li.classList.add('current');
          current = li;
        }
      }
      items.push(li);
    }
  }
  list.replaceChildren(...items);
  if (current) current.scrollIntoView({ block: 'nearest' });
}

export function initMoveList(list, store, buttons) {
  list.addEventListener('click', (e) => {
    const li = e.target.closest('.mv');
    if (li) store.browse(Number(li.dataset.ply));
  });
  buttons.first.addEventListener('click', () => store.browse(0));
  buttons.prev.addEventListener('click', () => store.browse(store.shownPly() - 1));
  buttons.next.addEventListener('click', () => store.browse(store.shownPly() + 1));
  buttons.last.addEventListener('click', () => store.browse(Infinity));
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, textarea, select, dialog[open]') || e.altKey || e.ctrlKey || e.metaKey) return;
    const moves = {
      ArrowLeft: () => store.shownPly() - 1,
      ArrowRight: () => store.shownPly() + 1,
      ArrowUp: () => 0,
      Home: () => 0,
      ArrowDown: () => Infinity,
      End: () => Infinity,
    };
    if (e.key in moves && store.view) {
      e.preventDefault();
      store.browse(moves[e.key]());
    }
  });
}
