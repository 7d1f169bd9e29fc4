// The leaderboard: the established ratings of one pool (`GET /api/leaderboard/{pool}`), each name a
// link to that player's profile (`#player=<id>`). Names are people's text: shown as text only.

import { api } from '../api.js';
import { t } from '../i18n.js';
import { POOLS, poolName, ratingText } from './ratings.js';
import { errorText } from './status.js';

const $ = (id) => document.getElementById(id);

/// Wires the dialog; `onClose()` runs when it closes; `me()` is `GET /api/me` (its row is marked).
export function initLeaderboard(dialog, { onClose, me = () => null } = {}) {
  const select = $('leaderboard-pool');
  const body = $('leaderboard-table').tBodies[0];
  const empty = $('leaderboard-empty');
  /// Pools somebody is established in (from `GET /api/leaderboard`), to open on one of them.
  let active = [];
  let pool = null;

  function fillPools() {
    const keep = select.value || pool;
    select.replaceChildren(
      ...POOLS.map((p) => {
        const opt = document.createElement('option');
        opt.value = p;
        opt.textContent = poolName(p);
        return opt;
      }),
    );
    if (keep) select.value = keep;
  }

  function cell(text, cls) {
    const td = document.createElement('td');
    if (cls) td.className = cls;
    td.textContent = text;
    return td;
  }

  let seq = 0;
  async function render() {
    const mine = ++seq;
    let rows = [];
    let failed = null;
    try {
      rows = await api.leaderboard(pool, 50);
    } catch (e) {
      failed = e;
    }
    if (mine !== seq) return;
    $('leaderboard-table').dataset.pool = pool;
    body.replaceChildren(
      ...rows.map((r, i) => {
        const tr = document.createElement('tr');
        tr.dataset.id = r.id;
        // This page's player stands out in the list.
        const mine = me();
        if (mine && mine.identity === r.id) tr.className = 'me';
        const who = document.createElement('td');
        who.className = 'who';
        const link = document.createElement('a');
        link.className = 'player-link';
        link.href = `#player=${encodeURIComponent(r.id)}`;
        const name = document.createElement('span');
        name.className = 'leader-name';
        name.textContent = r.display_name || r.username;
        link.append(name);
        if (r.display_name && r.display_name !== r.username) {
          const user = document.createElement('span');
          user.className = 'leader-username';
          user.textContent = `@${r.username}`;
          link.append(' ', user);
        }
        who.append(link);
        tr.append(cell(String(i + 1), 'rank'), who, cell(String(Math.round(r.rating)), 'rating'), cell(String(r.games), 'games'));
        return tr;
      }),
    );
    $('leaderboard-table').hidden = !rows.length;
    empty.hidden = rows.length > 0;
    empty.textContent = failed ? t('leaderboard.error', { message: errorText(failed) }) : t('leaderboard.empty');
    await renderYou(rows, mine);
  }

  /// Under the list: your own rating in the pool when you are not in it (provisional, or below).
  async function renderYou(rows, mine) {
    const you = $('leaderboard-you');
    const who = me();
    let row = null;
    if (who && who.identity && !rows.some((r) => r.id === who.identity)) {
      try {
        row = ((await api.profile(who.identity)).ratings || []).find((r) => r.pool === pool) || null;
      } catch {
        row = null;
      }
    }
    if (mine !== seq) return;
    you.hidden = !row;
    if (row) you.textContent = t(row.provisional ? 'leaderboard.you_provisional' : 'leaderboard.you', { rating: ratingText(row.rating, row.provisional), games: row.games === 1 ? t('profile.rating_one_game') : t('profile.rating_games', { n: row.games }) });
  }

  select.addEventListener('change', () => {
    pool = select.value;
    // The address names the pool, to share or reload.
    if (/^#leaderboard/.test(location.hash)) history.replaceState(null, '', `#leaderboard=${encodeURIComponent(pool)}`);
    render();
  });
  $('leaderboard-close').addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => onClose && onClose());
  // A name opens that player's profile in its place.
  body.addEventListener('click', (e) => {
    const link = e.target.closest('a.player-link');
    if (!link) return;
    e.preventDefault();
    location.hash = `player=${encodeURIComponent(link.closest('tr').dataset.id)}`;
    dialog.close();
  });

  return {
    /// Opens on `which` (a pool key), else on the first pool anybody is established in.
    async open(which) {
      if (!POOLS.includes(which)) {
        try {
          active = (await api.leaderboards()).map((b) => b.pool);
        } catch {
          active = [];
        }
        which = pool && active.includes(pool) ? pool : active[0] || pool || 'gomoku.blitz';
      }
      pool = which;
      fillPools();
      select.value = pool;
      await render();
      if (!dialog.open) dialog.showModal();
    },
    /// After a language change while open.
    rerender() {
      if (!dialog.open) return;
      fillPools();
      render();
    },
  };
}
