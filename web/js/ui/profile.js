// A player's profile: ratings per pool with a graph, statistics (overall, by rule, by opponent,
// longest winning streak), the history of their games with filters and paging, each reopening the
// game, and (your own) "download all my games" and the account buttons. Another player's profile
// (`#player=<id>`, from the leaderboard) is the same page, read-only.

import { api } from '../api.js';
import { t } from '../i18n.js';
import { meName } from './account.js';
import { colorName } from './status.js';
import { POOLS, poolName, ratingText, signed, drawGraph } from './ratings.js';

/// History lines asked for at a time ("More games" asks for the next ones).
const PAGE = 25;

const $ = (id) => document.getElementById(id);

/// An opponent as the server names it (`local`, `computer:level5`, `computer:classic-rank`, ...).
export function opponentName(o) {
  const s = String(o || '');
  if (s === 'local') return t('new.mode.local');
  if (s === 'people' || s === 'human') return t('opponent.people');
  const player = s.startsWith('computer:') ? s.slice(9) : null;
  if (player != null) {
    const lv = /^level(\d+)$/.exec(player);
    const classic = /^classic-(\w+)$/.exec(player);
    if (lv) return `${t('player.computer')} ${t('player.level', { n: lv[1] })}`;
    if (classic) return t(`new.classic.${classic[1]}`);
    return t('player.computer');
  }
  return s;
}

export function resultName(r) {
  const key = `profile.result.${r}`;
  return t(key) === key ? String(r || '') : t(key);
}

function ruleName(r) {
  const key = `rule.short.${r}`;
  return t(key) === key ? String(r || '') : t(key);
}

function percent(rate) {
  if (rate == null || Number.isNaN(Number(rate))) return '–';
  const x = Number(rate);
  return `${Math.round(x <= 1 ? x * 100 : x)}%`;
}

export function when(ms) {
  try {
    return new Date(ms).toLocaleString(document.documentElement.lang, { dateStyle: 'short', timeStyle: 'short' });
  } catch {
    return new Date(ms).toLocaleString();
  }
}

/// A list item for one game of the history (`/api/profiles/{id}/games`): what, how it went, when.
export function historyItem(g, { describe, current, onOpen }) {
  const li = document.createElement('li');
  li.className = 'games-item';
  li.dataset.id = g.id;
  li.dataset.result = g.result;
  const open = document.createElement('a');
  open.className = 'games-open';
  open.href = `#g=${encodeURIComponent(g.id)}`;
  const title = document.createElement('span');
  title.className = 'games-what';
  title.textContent = describe(g);
  if (g.rated) {
    li.dataset.rated = '1';
    const mark = document.createElement('span');
    mark.className = 'games-rated';
    mark.textContent = t('profile.rated');
    title.append(' ', mark);
    if (g.rating_change != null) {
      const change = document.createElement('span');
      change.className = `games-change ${g.rating_change > 0.5 ? 'up' : g.rating_change < -0.5 ? 'down' : ''}`.trim();
      change.textContent = signed(g.rating_change);
      title.append(' ', change);
    }
  }
  const state = document.createElement('span');
  state.className = `games-state ${g.result === 'playing' ? 'unfinished' : 'over'}`;
  const bits = [resultName(g.result), g.ply === 1 ? t('games.one_move') : t('games.moves', { n: g.ply }), when(g.updated_at)];
  if (g.id === current) bits.push(t('games.current'));
  state.textContent = bits.join(' · ');
  open.append(title, state);
  open.addEventListener('click', (e) => {
    e.preventDefault();
    onOpen(g.id);
  });
  li.append(open);
  // The game's record, without opening it.
  const downloads = document.createElement('span');
  downloads.className = 'games-downloads';
  for (const format of ['sgf', 'psq']) {
    const a = document.createElement('a');
    a.className = 'btn small';
    a.href = api.recordUrl(g.id, format);
    a.download = `wuzi-${g.id}.${format}`;
    a.textContent = format.toUpperCase();
    a.title = t('profile.download_one', { format: format.toUpperCase() });
    downloads.append(a);
  }
  li.append(downloads);
  return li;
}

export function initProfile(dialog, store, { onOpen, account, onClose }) {
  let identity = null;
  let stats = null;
  /// Whether the profile on screen is this page's own player (account buttons, the archive).
  let own = true;
  /// The server has no such player (a link to a wrong id).
  let missing = false;
  /// The pool the graph shows, and its points (`GET /api/profiles/{id}/ratings/{pool}`).
  let graphPool = null;
  let graphPoints = [];

  function describe(g) {
    const bits = [ruleName(g.rule), opponentName(g.opponent)];
    if (g.color && g.opponent !== 'local') bits.push(t('profile.as', { color: colorName(g.color) }));
    return bits.join(' · ');
  }

  function cell(tag, text) {
    const el = document.createElement(tag);
    el.textContent = text;
    return el;
  }

  function tallyRow(label, tally, cls) {
    const tr = document.createElement('tr');
    if (cls) tr.className = cls;
    tr.append(cell('td', label));
    const x = tally || {};
    for (const v of [x.games ?? 0, x.wins ?? 0, x.losses ?? 0, x.draws ?? 0]) tr.append(cell('td', String(v)));
    tr.append(cell('td', x.games ? percent(x.win_rate) : '–'));
    return tr;
  }

  function groupRow(label) {
    const tr = document.createElement('tr');
    tr.className = 'group';
    const td = cell('td', label);
    td.colSpan = 6;
    tr.append(td);
    return tr;
  }

  function renderStats() {
    const s = (stats && stats.stats) || {};
    $('profile-streak').textContent = t('profile.streak', { n: s.longest_winning_streak ?? 0 });
    const rows = [tallyRow(t('profile.all'), s.all, 'all')];
    const byRule = Object.entries(s.by_rule || {});
    if (byRule.length) {
      rows.push(groupRow(t('profile.by_rule')));
      for (const [rule, tally] of byRule) rows.push(tallyRow(ruleName(rule), tally, `rule-${rule}`));
    }
    const byOpp = Object.entries(s.by_opponent || {});
    if (byOpp.length) {
      rows.push(groupRow(t('profile.by_opponent')));
      for (const [opp, tally] of byOpp) rows.push(tallyRow(opponentName(opp), tally, 'opponent'));
    }
    $('profile-stats').tBodies[0].replaceChildren(...rows);
    // The opponent filter offers the opponents the player has met.
    const sel = $('filter-opponent');
    const keep = sel.value;
    const opps = new Set(['local', ...Object.keys(s.by_opponent || {})]);
    const any = document.createElement('option');
    any.value = '';
    any.textContent = t('profile.any');
    sel.replaceChildren(
      any,
      ...[...opps].map((o) => {
        const opt = document.createElement('option');
        opt.value = o;
        opt.textContent = opponentName(o);
        return opt;
      }),
    );
    sel.value = opps.has(keep) ? keep : '';
  }

  function renderHead() {
    const me = store.me;
    let name;
    if (stats && stats.kind === 'account') name = stats.display_name || stats.username;
    else if (own) name = meName(me);
    else if (missing) name = t('profile.not_found');
    else name = t(stats && stats.kind === 'deleted' ? 'profile.kind.deleted' : 'account.guest');
    $('profile-name').textContent = name;
    let sub = stats && stats.kind === 'account' && stats.username ? `@${stats.username}` : stats && stats.kind === 'deleted' ? t('profile.kind.deleted') : t('profile.kind.guest');
    if (missing && !own) sub = '';
    $('profile-sub').textContent = sub;
    // Someone else's profile is read-only: no account buttons, no archive of their games.
    $('profile-account-buttons').hidden = !own;
    $('profile-archive').hidden = !own || !identity;
  }

  // ------------------------------------------------------------ ratings
  /// The pools the player has a rating in, most games first.
  function ratedPools() {
    const list = (stats && Array.isArray(stats.ratings) ? stats.ratings : []).filter((r) => POOLS.includes(r.pool));
    return [...list].sort((a, b) => b.games - a.games || POOLS.indexOf(a.pool) - POOLS.indexOf(b.pool));
  }

  function renderRatings() {
    const pools = ratedPools();
    const cards = pools.map((r) => {
      const li = document.createElement('li');
      const card = document.createElement('button');
      card.type = 'button';
      card.className = 'rating-card';
      card.dataset.pool = r.pool;
      card.setAttribute('aria-pressed', String(r.pool === graphPool));
      const pool = document.createElement('span');
      pool.className = 'rating-pool';
      pool.textContent = poolName(r.pool);
      const value = document.createElement('span');
      value.className = 'rating-value';
      value.textContent = ratingText(r.rating, r.provisional);
      if (r.provisional) value.title = t('profile.provisional');
      const games = document.createElement('span');
      games.className = 'rating-games';
      games.textContent = r.games === 1 ? t('profile.rating_one_game') : t('profile.rating_games', { n: r.games });
      card.append(pool, value, games);
      card.addEventListener('click', () => selectPool(r.pool));
      li.append(card);
      return li;
    });
    $('rating-cards').replaceChildren(...cards);
    $('rating-cards').hidden = !pools.length;
    $('ratings-empty').hidden = !!pools.length;
    $('ratings-empty').textContent = t(own ? 'profile.no_ratings' : 'profile.no_ratings_other');
    $('rating-graph-box').hidden = !pools.length;
    // A pool selector when there is more than one pool.
    const sel = $('graph-pool');
    sel.hidden = pools.length < 2;
    sel.replaceChildren(
      ...pools.map((r) => {
        const opt = document.createElement('option');
        opt.value = r.pool;
        opt.textContent = poolName(r.pool);
        return opt;
      }),
    );
    if (graphPool) sel.value = graphPool;
  }

  let graphSeq = 0;
  async function selectPool(pool) {
    graphPool = pool;
    for (const c of $('rating-cards').querySelectorAll('.rating-card')) c.setAttribute('aria-pressed', String(c.dataset.pool === pool));
    $('graph-pool').value = pool || '';
    const seq = ++graphSeq;
    let points = [];
    if (identity && pool) {
      try {
        points = await api.profileRatings(identity, pool);
      } catch {
        points = [];
      }
    }
    if (seq !== graphSeq) return;
    graphPoints = points || [];
    $('rating-graph').dataset.pool = pool || '';
    $('rating-graph').dataset.points = String(graphPoints.length);
    drawNow();
  }

  function drawNow() {
    if (!dialog.open || $('rating-graph-box').hidden) return;
    drawGraph($('rating-graph'), $('graph-readout'), graphPoints);
  }

  $('graph-pool').addEventListener('change', (e) => selectPool(e.target.value));
  // The graph is drawn at the size it is shown (its labels stay readable on a phone).
  let lastWidth = 0;
  new ResizeObserver(() => {
    const w = $('rating-graph').clientWidth;
    if (w && Math.abs(w - lastWidth) > 2) {
      lastWidth = w;
      drawNow();
    }
  }).observe($('rating-graph'));

  let historySeq = 0;
  /// The history lines shown (for "More games": the next page starts before the last one).
  let shown = [];

  function item(g) {
    return historyItem(g, {
      describe,
      current: store.view && store.view.id,
      onOpen: (id) => {
        dialog.close();
        onOpen(id);
      },
    });
  }

  /// The first page of the history (`more`: the next page, after the lines shown).
  async function renderHistory({ more = false } = {}) {
    const list = $('profile-games');
    const seq = ++historySeq;
    let games = [];
    let failed = false;
    if (identity) {
      const filters = { rule: $('filter-rule').value, result: $('filter-result').value, opponent: $('filter-opponent').value, limit: PAGE };
      if (more && shown.length) filters.before = shown[shown.length - 1].updated_at;
      try {
        games = await api.profileGames(identity, filters);
      } catch {
        games = [];
        failed = true;
      }
    }
    if (seq !== historySeq) return;
    $('profile-more').hidden = failed || games.length < PAGE;
    if (more) {
      // Lines changed at the same millisecond as the last one shown are not repeated.
      const have = new Set(shown.map((g) => g.id));
      const fresh = games.filter((g) => !have.has(g.id));
      shown = [...shown, ...fresh];
      list.append(...fresh.map(item));
      return;
    }
    shown = games;
    if (!games.length) {
      const li = document.createElement('li');
      li.className = 'games-empty';
      li.textContent = t('profile.no_games');
      list.replaceChildren(li);
      return;
    }
    list.replaceChildren(...games.map(item));
  }

  for (const id of ['filter-rule', 'filter-result', 'filter-opponent']) $(id).addEventListener('change', () => renderHistory());
  $('profile-more').addEventListener('click', () => renderHistory({ more: true }));
  $('profile-leaderboard').addEventListener('click', (e) => {
    e.preventDefault();
    location.hash = 'leaderboard';
    dialog.close();
  });
  $('profile-close').addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => onClose && onClose());

  return {
    /// Opens the profile of `who` (an identity id), or this page's own without one.
    async open(who) {
      const me = store.me || (await account.refresh());
      const mine = me && me.identity;
      identity = who || mine;
      own = !who || who === mine;
      stats = null;
      missing = false;
      if (identity) {
        try {
          stats = await api.profile(identity);
        } catch (e) {
          stats = null;
          missing = e && e.status === 404;
        }
      }
      const pools = ratedPools();
      graphPool = pools.length ? pools[0].pool : null;
      graphPoints = [];
      for (const id of ['filter-rule', 'filter-result', 'filter-opponent']) $(id).value = '';
      dialog.dataset.identity = identity || '';
      dialog.classList.toggle('other', !own);
      renderHead();
      renderRatings();
      renderStats();
      if (identity) $('profile-archive').href = api.archiveUrl(identity);
      account.renderHeader();
      $('profile-account-buttons').hidden = !own;
      await renderHistory();
      if (!dialog.open) dialog.showModal();
      await selectPool(graphPool);
    },
    /// After a language change while open.
    rerender() {
      if (!dialog.open) return;
      renderHead();
      renderRatings();
      renderStats();
      renderHistory();
      drawNow();
    },
  };
}
