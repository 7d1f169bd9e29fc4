// Issue 22, "done when": no text is cut off or overflows its box, in every language, at 1280×800,
// 800×1000 and 390×844, in the states that have the longest texts: a game ended with a long
// reason, a swap2 choice against the computer, the armed resign button, the dialogs (issue 23:
// sign-in and registration with an error, the profile with ratings and a graph, the account
// settings, the leaderboard, a rated game over with its rating change; issue 25: the lobby, the
// dialog that makes a seek or a challenge, a game between people with an offer), the ocean
// cards against the strongest computer, a page not yet started, the server out of reach. Screenshots of each go to
// target/screenshots/overflow-*.png for looking at by eye.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, waitView, saveScreenshot } from './lib/harness.mjs';
import { layoutProblems } from './lib/layout.mjs';

const LANGS = ['en', 'zh-Hans', 'zh-Hant'];
const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'tablet', viewport: { width: 800, height: 1000 } },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let server;
const games = {};
before(async () => {
  server = await startServer();
  const api = server.api;
  // Ended: Black's forbidden double-three at i9 loses.
  let r = await api('POST', '/api/games', { mode: 'local', rule: 'renju', forbidden_policy: 'lose', clock: { kind: 'side', initial_seconds: 600, increment_seconds: 5 } });
  for (const pos of ['g9', 'a1', 'h9', 'c1', 'i7', 'o15', 'i8', 'o1', 'i9']) await api('POST', `/api/games/${r.body.id}/moves`, { pos });
  games.ended = r.body.id;
  // Swap2, you are the second seat: the computer places three stones, you choose.
  r = await api('POST', '/api/games', { mode: 'computer', rule: 'renju', opening: 'swap2', computer: { player: 'level1', color: 'black' } });
  games.swap2 = r.body.id;
  for (let i = 0; i < 600; i++) {
    const g = (await api('GET', `/api/games/${games.swap2}`)).body;
    if (g.opening.phase === 'choose' && !g.thinking) break;
    await sleep(100);
  }
  // A game in play with clocks, to arm Resign in.
  r = await api('POST', '/api/games', { mode: 'local', rule: 'freestyle', size: 19, k: 6, clock: { kind: 'side', initial_seconds: 5400, increment_seconds: 30 } });
  for (const pos of ['j10', 'k11']) await api('POST', `/api/games/${r.body.id}/moves`, { pos });
  games.playing = r.body.id;
  // Ocean against level 10: the longest player cards.
  r = await api('POST', '/api/games', { mode: 'computer', theme: 'ocean', rule: 'caro', seed: 7, computer: { player: 'level10', color: 'white' } });
  games.ocean = r.body.id;
  // A rated game, resigned: the rating change shows with the result.
  r = await api('POST', '/api/games', { mode: 'computer', rule: 'renju', computer: { player: 'level1', color: 'white' }, clock: { kind: 'side', initial_seconds: 900, increment_seconds: 10 }, rated: true });
  games.rated = r.body.id;
  await api('POST', `/api/games/${games.rated}/resign`, {});
  // A rated game in play: the badge says what it does not offer.
  r = await api('POST', '/api/games', { mode: 'computer', rule: 'caro', computer: { player: 'level2', color: 'white' }, clock: { kind: 'side', initial_seconds: 3600, increment_seconds: 30 }, rated: true });
  games.ratedPlaying = r.body.id;
  // The games' owner registers (in place: the games stay theirs), with a long display name and a token.
  await api('POST', '/api/account/register', { username: 'overflow_tester_20ch', password: 'password123', display_name: '一个很长很长的显示名称 with a long tail too' });
  // Established in a second pool (the leaderboard lists it; the profile has two cards and a pool selector).
  const me = (await api('GET', '/api/me')).body.identity;
  for (let i = 0; i < 80; i++) {
    const g = await api('POST', '/api/games', { mode: 'computer', computer: { player: 'level1', color: 'white' }, clock: { kind: 'move', seconds: 5 }, rated: true });
    await api('POST', `/api/games/${g.body.id}/resign`, {});
    const p = (await api('GET', `/api/profiles/${me}`)).body;
    if (p.ratings.some((x) => x.pool === 'gomoku.bullet' && !x.provisional)) break;
  }
  await api('POST', '/api/account/tokens', { name: 'a token for a bot with a long name 長' });
  // Issue 25: a game between people, the page's player against another person (a guest of their
  // own), rated, with a long clock.
  const s = await other('POST', '/api/seeks', { rule: 'renju', size: 15, opening: 'free', clock: { kind: 'side', initial_seconds: 5400, increment_seconds: 30 }, rated: true, color: 'black' });
  r = await api('POST', `/api/seeks/${s.id}/accept`, {});
  games.online = r.body.id;
  await other('POST', `/api/games/${games.online}/offer`, { kind: 'draw', action: 'offer' });
});

/// Requests as another person: a guest of their own (the first request makes them one).
let otherCookie = null;
async function other(method, p, body) {
  const res = await fetch(server.url + p, {
    method,
    headers: { 'content-type': 'application/json', ...(otherCookie ? { cookie: otherCookie } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const set = res.headers.get('set-cookie');
  if (set) otherCookie = set.split(';')[0];
  const text = await res.text();
  return text ? JSON.parse(text) : null;
}
after(async () => {
  await server?.stop();
});

async function setLanguage(page, code) {
  await page.evaluate(async (c) => (await import('/js/i18n.js')).setLanguage(c), code);
}

async function openGame(page, id) {
  await page.goto('about:blank'); // a fresh page: no dialog left open, no armed button
  await page.goto(`${server.url}/#g=${id}`);
  await waitView(page, (v) => v.id === id);
  await page.waitForFunction(() => ['up', undefined].includes(window.wuzi.store.connection));
}

/// What the page shows, for a state that could not be reached: the link, the dialogs open,
/// whether the game is on screen, the focused element.
function describePage(page) {
  return page
    .evaluate(() => JSON.stringify({
      hash: location.hash,
      dialogs: [...document.querySelectorAll('dialog[open]')].map((d) => d.id),
      game: !document.querySelector('main.layout')?.hidden,
      focus: document.activeElement ? document.activeElement.id || document.activeElement.tagName : null,
    }))
    .catch((e) => `cannot be read: ${e.message.split('\n')[0]}`);
}

/// Reaches `state`, or says why it could not, with what the page showed (and a screenshot,
/// overflow-<viewport>-<state>-failed-<try>.png). A step that fails is tried once more, from a
/// fresh page, before the state counts as not shown: this test is about layout, and the
/// first try's failure is printed so that a flaky step stays visible (it failed once in CI, at
/// tablet size, the Records dialog's text box not there 30 s after the click on Records, and
/// never in five runs of this file on the development machine).
async function enter(page, state, viewportName) {
  for (let attempt = 1; ; attempt++) {
    try {
      await state.enter(page);
      return null;
    } catch (e) {
      const why = `${e.message.split('\n')[0]}; the page: ${await describePage(page)}`;
      await saveScreenshot(page, `overflow-${viewportName}-${state.name}-failed-${attempt}.png`, { fullPage: true }).catch(() => {});
      if (state.leave) await state.leave(page);
      if (attempt === 2) return why;
      console.log(`${viewportName} ${state.name}: not reached at the first try (${why}); trying again`);
    }
  }
}

/// Each state: a name and how to reach it from any page; `perLanguage` runs again after each switch.
const STATES = [
  { name: 'draft', enter: async (page) => { await page.goto('about:blank'); await page.goto(server.url); await waitView(page, () => true); } },
  { name: 'ended', enter: (page) => openGame(page, games.ended) },
  { name: 'swap2-choice', enter: async (page) => { await openGame(page, games.swap2); await page.locator('#opening-panel').waitFor({ state: 'visible' }); } },
  {
    name: 'armed-resign',
    enter: async (page) => {
      await openGame(page, games.playing);
      // The engine's evaluation and best line for Black, to move.
      await page.waitForFunction(() => document.querySelector('#eval-line').textContent.includes(':'), null, { timeout: 20000 });
    },
    perLanguage: async (page) => {
      await page.waitForFunction(() => !document.querySelector('#btn-resign').classList.contains('armed'), null, { timeout: 5000 });
      await page.click('#btn-resign');
    },
  },
  { name: 'ocean-level10', enter: (page) => openGame(page, games.ocean) },
  {
    name: 'new-game-dialog',
    enter: async (page) => {
      await openGame(page, games.playing);
      await page.click('#btn-new');
      await page.locator('#dlg-new select[name=clock]').selectOption('side');
      await page.locator('#dlg-new select[name=rule]').selectOption('renju');
    },
  },
  {
    name: 'records-error',
    enter: async (page) => {
      await openGame(page, games.playing);
      await page.click('#btn-records');
      await page.locator('#dlg-records').waitFor({ state: 'visible', timeout: 10000 });
      await page.fill('#record-text', 'not a record at all');
      await page.click('#btn-open-record');
      await page.waitForFunction(() => document.querySelector('#records-error').textContent !== '');
    },
    perLanguage: async (page) => {
      await page.click('#btn-open-record');
      await page.waitForFunction(() => document.querySelector('#records-error').textContent !== '');
    },
  },
  {
    name: 'offline',
    enter: async (page) => {
      await openGame(page, games.playing);
      await server.crash();
      await page.waitForFunction(() => document.querySelector('#status').classList.contains('offline'), null, { timeout: 5000 });
    },
    leave: () => server.resume(),
  },
  {
    name: 'signin-error',
    enter: async (page) => {
      await openGame(page, games.ended);
      await page.evaluate(() => document.querySelector('#btn-signin').click());
      await page.fill('#signin-username', 'nobody_at_all');
      await page.fill('#signin-password', 'not the password');
    },
    perLanguage: async (page) => {
      await page.evaluate(() => (document.querySelector('#signin-error').textContent = ''));
      await page.click('#signin-submit');
      await page.waitForFunction(() => document.querySelector('#signin-error').textContent !== '');
    },
  },
  {
    name: 'register-error',
    enter: async (page) => {
      await openGame(page, games.ended);
      await page.evaluate(() => document.querySelector('#btn-register').click());
      await page.fill('#register-username', 'x');
      await page.fill('#register-password', 'password123');
    },
    perLanguage: async (page) => {
      await page.evaluate(() => (document.querySelector('#register-error').textContent = ''));
      await page.click('#register-submit');
      await page.waitForFunction(() => document.querySelector('#register-error').textContent !== '');
    },
  },
  {
    name: 'rated-playing',
    enter: async (page) => {
      await openGame(page, games.ratedPlaying);
      await page.locator('#rated-bar').waitFor({ state: 'visible' });
    },
  },
  {
    name: 'rated-over',
    enter: async (page) => {
      await openGame(page, games.rated);
      await page.waitForFunction(() => document.querySelector('#rated-change').textContent.includes('→'), null, { timeout: 20000 });
    },
  },
  {
    name: 'profile-dialog',
    enter: async (page) => {
      await openGame(page, games.ended);
      await page.click('#btn-me');
      await page.locator('#profile-games li.games-item').first().waitFor();
      await page.waitForFunction(() => Number(document.querySelector('#rating-graph').dataset.points) > 0);
    },
  },
  {
    name: 'leaderboard',
    enter: async (page) => {
      await openGame(page, games.ended);
      // On a phone the header has no trophy: the leaderboard opens from the profile.
      if (await page.locator('#btn-leaderboard').isVisible()) {
        await page.click('#btn-leaderboard');
      } else {
        await page.click('#btn-me');
        await page.click('#profile-leaderboard');
      }
      await page.locator('#leaderboard-table tbody tr').first().waitFor();
    },
  },
  {
    name: 'account-dialog',
    enter: async (page) => {
      await openGame(page, games.ended);
      await page.click('#btn-me');
      await page.click('#profile-settings');
      await page.locator('#token-list li.token-item').first().waitFor();
      await page.click('#btn-delete-account');
    },
  },
  {
    name: 'lobby',
    enter: async (page) => {
      await openGame(page, games.ended);
      // Another person's seek with the longest terms, listed live.
      await other('POST', '/api/seeks', { rule: 'standard', size: 15, opening: 'swap2', clock: { kind: 'side', initial_seconds: 5400, increment_seconds: 30 }, rated: false, color: 'random' });
      await page.click('#btn-play');
      await page.locator('#seek-list li.seek').first().waitFor();
      await page.locator('#pairing .pair-btn').first().waitFor();
    },
  },
  {
    name: 'seek-dialog',
    enter: async (page) => {
      await openGame(page, games.ended);
      await page.click('#btn-play');
      await page.click('#btn-challenge-friend');
      await page.locator('#seek-clock').selectOption('custom');
    },
  },
  {
    name: 'online-game',
    enter: async (page) => {
      await openGame(page, games.online);
      await page.locator('#online-offer').waitFor({ state: 'visible' });
    },
  },
  { name: 'games-dialog', enter: async (page) => { await openGame(page, games.ended); await page.click('#btn-games'); await page.locator('#games-list li').first().waitFor(); } },
];

for (const vp of VIEWPORTS) {
  test(`${vp.name} ${vp.viewport.width}×${vp.viewport.height}: no text overflows its box, in any language`, { timeout: 300000 }, async () => {
    const b = await openBrowser({ viewport: vp.viewport, isMobile: vp.isMobile, hasTouch: vp.hasTouch });
    const problems = [];
    try {
      const { page, errors } = b;
      // Every game once, so "Games" lists them all; the evaluation bar and best line on.
      await page.goto(server.url);
      await page.evaluate(() => localStorage.setItem('wuzi.settings', JSON.stringify({ showEval: true, moveNumbers: true })));
      for (const id of Object.values(games)) await openGame(page, id);
      for (const state of STATES) {
        const failed = await enter(page, state, vp.name);
        if (failed) {
          problems.push(`${state.name}: cannot be shown: ${failed}`);
          continue;
        }
        for (const lang of LANGS) {
          await setLanguage(page, lang);
          if (state.perLanguage) await state.perLanguage(page);
          await page.mouse.move(0, 0);
          for (const p of await layoutProblems(page)) problems.push(`${state.name} ${lang}: ${p}`);
          await saveScreenshot(page, `overflow-${vp.name}-${state.name}-${lang}.png`, { fullPage: true });
        }
        await setLanguage(page, 'en');
        if (state.leave) await state.leave(page);
      }
      assert.deepEqual(errors, []);
    } finally {
      await b.close();
    }
    assert.deepEqual(problems, []);
  });
}
