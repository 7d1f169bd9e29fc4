// The player's profile: statistics (overall, by rule, by opponent, longest winning streak), the
// history of their games with filters, each reopening the game, and "download all my games".

import { api } from '../api.js';
import { t } from '../i18n.js';
import { meName } from './account.js';
import { colorName } from './status.js';

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
  return li;
}

export function initProfile(dialog, store, { onOpen, account }) {
  let identity = null;
  let stats = null;

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
    const name = stats && stats.kind === 'account' ? stats.display_name || stats.username : meName(me);
    $('profile-name').textContent = name;
    const sub = stats && stats.kind === 'account' && stats.username ? `@${stats.username}` : stats && stats.kind === 'deleted' ? t('profile.kind.deleted') : t('profile.kind.guest');
    $('profile-sub').textContent = sub;
  }

  let historySeq = 0;
  async function renderHistory() {
    const list = $('profile-games');
    const seq = ++historySeq;
    let games = [];
    if (identity) {
      try {
        games = await api.profileGames(identity, { rule: $('filter-rule').value, result: $('filter-result').value, opponent: $('filter-opponent').value, limit: 100 });
      } catch {
        games = [];
      }
    }
    if (seq !== historySeq) return;
    if (!games.length) {
      const li = document.createElement('li');
      li.className = 'games-empty';
      li.textContent = t('profile.no_games');
      list.replaceChildren(li);
      return;
    }
    list.replaceChildren(
      ...games.map((g) =>
        historyItem(g, {
          describe,
          current: store.view && store.view.id,
          onOpen: (id) => {
            dialog.close();
            onOpen(id);
          },
        }),
      ),
    );
  }

  for (const id of ['filter-rule', 'filter-result', 'filter-opponent']) $(id).addEventListener('change', renderHistory);
  $('profile-close').addEventListener('click', () => dialog.close());

  return {
    async open() {
      const me = store.me || (await account.refresh());
      identity = me && me.identity;
      stats = null;
      if (identity) {
        try {
          stats = await api.profile(identity);
        } catch {
          stats = null;
        }
      }
      renderHead();
      renderStats();
      $('profile-archive').hidden = !identity;
      if (identity) $('profile-archive').href = api.archiveUrl(identity);
      account.renderHeader();
      await renderHistory();
      if (!dialog.open) dialog.showModal();
    },
    /// After a language change while open.
    rerender() {
      if (!dialog.open) return;
      renderHead();
      renderStats();
      renderHistory();
    },
  };
}
