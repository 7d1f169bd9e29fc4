// Screenshots for the README and for looking at by eye (docs/screenshots/), desktop and phone:
// a game (signed in), the profile with ratings, graph and history, and the leaderboard; plus the
// layout facts that can be checked: nothing overflows, nothing moves while playing.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, newGameViaDialog, waitView, play, saveScreenshot } from './lib/harness.mjs';
import { layoutProblems } from './lib/layout.mjs';

let server;
before(async () => {
  server = await startServer();
  // The browsers are 林伟 (server.api shares its session with them): the header shows who is
  // signed in, and the profile has ratings in two pools, one of them established.
  await server.api('POST', '/api/account/register', { username: 'lin_wei', password: 'password123', display_name: '林伟' });
  // Rated games lost to stronger and weaker levels (resigned at once): an established blitz
  // rating with a graph, and a provisional renju one.
  // (A loss to a much stronger player says little: the opponents are the weak levels.)
  await establish(server.api, ['level4', 'level2', 'level3', 'level1', 'level3']);
  for (const player of ['level5', 'level7']) await ratedLoss(server.api, { player, rule: 'renju', clock: { kind: 'side', initial_seconds: 600, increment_seconds: 5 } });
  // Two more players on the leaderboard, each with a session of their own.
  for (const [username, display_name, levels] of [['mei_ling', '美玲', ['level4', 'classic-greedy']], ['hiro', 'Hiro Tanaka', ['level1', 'level2']]]) {
    const own = sessionApi(server.url);
    await own('POST', '/api/account/register', { username, password: 'password123', display_name });
    await establish(own, levels);
  }
});

const BLITZ = { kind: 'side', initial_seconds: 180, increment_seconds: 2 };

/// Rated blitz losses against `levels` in turn until the rating is established.
async function establish(api, levels) {
  const me = (await api('GET', '/api/me')).body.identity;
  for (let i = 0; i < 100; i++) {
    await ratedLoss(api, { player: levels[i % levels.length], rule: 'freestyle', clock: BLITZ });
    const p = (await api('GET', `/api/profiles/${me}`)).body;
    if (p.ratings.some((r) => r.pool === 'gomoku.blitz' && !r.provisional)) return;
  }
  throw new Error('still provisional after 100 games');
}

/// A rated game against `player` that the person resigns at once (they play Black).
async function ratedLoss(api, { player, rule, clock }) {
  const g = await api('POST', '/api/games', { mode: 'computer', rule, computer: { player, color: 'white' }, clock, rated: true });
  assert.equal(g.status, 201, JSON.stringify(g.body));
  const r = await api('POST', `/api/games/${g.body.id}/resign`, {});
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

/// Requests with a session of their own (not the one `server.api` shares with the browsers).
function sessionApi(url) {
  let cookie = null;
  return async (method, p, body) => {
    const headers = body ? { 'content-type': 'application/json' } : {};
    if (cookie) headers.cookie = cookie;
    const res = await fetch(url + p, { method, headers, body: body ? JSON.stringify(body) : undefined });
    const set = res.headers.get('set-cookie');
    if (set) cookie = set.split(';')[0];
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
}

/// The profile (ratings, graph, statistics, history) in a window tall enough to show all of it.
async function profileShot(page, name, size) {
  const old = page.viewportSize();
  await page.setViewportSize(size);
  await page.click('#btn-me');
  await page.locator('#dlg-profile').waitFor({ state: 'visible' });
  await page.waitForFunction(() => Number(document.querySelector('#rating-graph').dataset.points) > 1);
  await page.locator('#profile-games li.games-item').first().waitFor();
  // Point at a game on the graph: its rating and date show under it.
  const box = await page.locator('#rating-graph svg').boundingBox();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
  const problems = await layoutProblems(page, '#dlg-profile');
  await saveScreenshot(page, name);
  await page.click('#profile-close');
  await page.setViewportSize(old);
  return problems;
}

/// The leaderboard (from the header, or on a phone from the profile).
async function leaderboardShot(page, name) {
  if (await page.locator('#btn-leaderboard').isVisible()) {
    await page.click('#btn-leaderboard');
  } else {
    await page.click('#btn-me');
    await page.click('#profile-leaderboard');
  }
  await page.locator('#dlg-leaderboard').waitFor({ state: 'visible' });
  await page.waitForFunction(() => document.querySelectorAll('#leaderboard-table tbody tr').length === 3);
  await page.locator('#leaderboard-close').focus();
  const problems = await layoutProblems(page, '#dlg-leaderboard');
  await saveScreenshot(page, name);
  await page.click('#leaderboard-close');
  return problems;
}
after(async () => {
  await server?.stop();
});

async function box(page, sel) {
  const b = await page.locator(sel).boundingBox();
  return b && { x: Math.round(b.x), y: Math.round(b.y), width: Math.round(b.width), height: Math.round(b.height) };
}

async function enableEval(page) {
  await page.click('#btn-settings');
  await page.locator('#dlg-settings input[name=showEval]').check();
  await page.locator('#dlg-settings button[value=close]').click();
}

test('desktop 1280×800: a game against the computer; the layout does not move while playing', { timeout: 180000 }, async () => {
  const b = await openBrowser({ viewport: { width: 1280, height: 800 } });
  try {
    const { page, errors } = b;
    await page.goto(server.url);
    await waitView(page, () => true);
    await enableEval(page);
    await newGameViaDialog(page, { mode: 'computer', player: 'level3', color: 'black', rule: 'renju', size: '15' });
    const layout0 = { board: await box(page, '#board'), side: await box(page, '.side'), status: await box(page, '#status') };
    const candidates = ['h8', 'i9', 'g7', 'g9', 'i7', 'j10', 'f6', 'h10'];
    for (;;) {
      const v = await waitView(page, (g) => !!g.result || (!g.thinking && g.sideToMove === 'black'), { what: "the computer's reply" });
      if (v.moves.length >= 6 || v.result) break;
      await play(page, candidates.find((m) => !v.moves.some((x) => x.name === m)));
    }
    const layout1 = { board: await box(page, '#board'), side: await box(page, '.side'), status: await box(page, '#status') };
    assert.deepEqual(layout1, layout0, 'no layout jumps while playing');
    // The board fits the window.
    assert.ok(layout1.board.y + layout1.board.height <= 800 && layout1.board.x >= 0, `board inside the window: ${JSON.stringify(layout1.board)}`);
    await page.mouse.move(1, 1);
    await page.waitForTimeout(1500); // let the evaluation arrive
    assert.equal((await page.locator('#me-name').textContent()).trim(), '林伟', 'the header shows who is signed in');
    await saveScreenshot(page, 'desktop.png');
    assert.deepEqual(await profileShot(page, 'profile-desktop.png', { width: 1280, height: 1320 }), []);
    assert.deepEqual(await leaderboardShot(page, 'leaderboard-desktop.png'), []);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('phone 390×844: board on top, controls below, nothing wider than the screen; touch asks for a confirming tap', { timeout: 180000 }, async () => {
  const b = await openBrowser({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'zh-CN' });
  try {
    const { page, errors } = b;
    await page.goto(server.url);
    await waitView(page, () => true);
    await newGameViaDialog(page, { mode: 'local', rule: 'freestyle', size: '15', theme: 'ocean' });
    const board = await box(page, '#board');
    const side = await box(page, '.side');
    assert.ok(board.width <= 390 && board.x >= 0, `board fits the width: ${JSON.stringify(board)}`);
    assert.ok(side.y >= board.y + board.height, 'the panel is below the board');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'no horizontal scrolling');

    // Touch: the first tap shows the stone, the second on the same point plays it.
    const g = await page.locator('#board').evaluate((el) => ({ cell: +el.dataset.cell, ox: +el.dataset.ox, oy: +el.dataset.oy }));
    const tap = async (x, y) => page.touchscreen.tap(board.x + g.ox + x * g.cell, board.y + g.oy + y * g.cell);
    const walls = (await waitView(page, () => true)).bubbles;
    // Four points near the centre that are not bubbles (the ten bubbles are random and
    // may cover several of the first candidates).
    const near = [];
    for (let y = 4; y <= 10; y++) for (let x = 4; x <= 10; x++) near.push([x, y]);
    near.sort((a, b) => Math.hypot(a[0] - 7, a[1] - 7) - Math.hypot(b[0] - 7, b[1] - 7));
    const free = near.filter(([x, y]) => !walls.some((w) => w.x === x && w.y === y)).slice(0, 4);
    assert.equal(free.length, 4, 'four free points near the centre');
    await tap(...free[0]);
    await page.waitForTimeout(300);
    assert.equal((await waitView(page, () => true)).moves.length, 0, 'one tap only shows the stone');
    await tap(...free[0]);
    await waitView(page, (v) => v.moves.length === 1, { what: 'the confirmed tap' });
    for (const p of free.slice(1, 4)) {
      await tap(...p);
      await tap(...p);
      await page.waitForTimeout(200);
    }
    await waitView(page, (v) => v.moves.length === 4, { what: 'four stones' });
    await saveScreenshot(page, 'phone.png');
    assert.deepEqual(await profileShot(page, 'profile-phone.png', { width: 390, height: 1800 }), []);
    assert.deepEqual(await leaderboardShot(page, 'leaderboard-phone.png'), []);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('playing people (issue 25): the lobby on desktop and phone, a game between people with an offer', { timeout: 180000 }, async () => {
  // Two other people seek, each with a session of their own: the lobby lists them.
  const mei = sessionApi(server.url);
  const hiro = sessionApi(server.url);
  await mei('POST', '/api/account/login', { username: 'mei_ling', password: 'password123' });
  await hiro('POST', '/api/account/login', { username: 'hiro', password: 'password123' });
  await mei('POST', '/api/seeks', { rule: 'renju', size: 15, opening: 'swap2', clock: { kind: 'side', initial_seconds: 600, increment_seconds: 5 }, rated: false, color: 'random' });
  const seek = (await hiro('POST', '/api/seeks', { rule: 'freestyle', size: 15, opening: 'free', clock: BLITZ, rated: true, color: 'white' })).body;
  for (const [name, viewport, phone] of [['lobby-desktop.png', { width: 1280, height: 800 }, false], ['lobby-phone.png', { width: 390, height: 844 }, true]]) {
    const b = await openBrowser({ viewport, isMobile: phone, hasTouch: phone });
    try {
      await b.page.goto(server.url);
      // On a phone too the entry is in the header, without pushing anything off the screen.
      assert.ok(await b.page.locator('#btn-play').isVisible());
      assert.deepEqual(await layoutProblems(b.page, '.topbar'), []);
      await b.page.click('#btn-play');
      await b.page.waitForFunction(() => document.querySelectorAll('#seek-list li.seek').length === 2);
      await b.page.locator('#pairing .pair-btn').first().waitFor();
      assert.deepEqual(await layoutProblems(b.page, '#dlg-lobby'), []);
      await saveScreenshot(b.page, name);
      assert.deepEqual(b.errors, []);
    } finally {
      await b.close();
    }
  }
  // 林伟 takes Hiro's seek from the list and plays; Hiro answers over the API, then offers a draw.
  const b = await openBrowser();
  try {
    const { page, errors } = b;
    await page.goto(server.url);
    await page.click('#btn-play');
    await page.locator(`#seek-list li[data-id="${seek.id}"] .seek-accept`).click();
    const g = await waitView(page, (v) => v.mode === 'online', { what: 'the game with Hiro' });
    for (const [mine, his] of [['h8', 'h9'], ['i9', 'g7'], ['j10', 'k11']]) {
      const n = (await waitView(page, () => true)).moves.length;
      await play(page, mine);
      await hiro('POST', `/api/games/${g.id}/moves`, { pos: his, ply: n + 1 });
      await waitView(page, (v) => v.moves.length === n + 2, { what: `${his} at the page` });
    }
    await hiro('POST', `/api/games/${g.id}/chat`, { text: 'Good luck! 请多指教' });
    await page.locator('#chat-list li.chat-msg').first().waitFor();
    await hiro('POST', `/api/games/${g.id}/offer`, { kind: 'draw', action: 'offer' });
    await page.locator('#online-offer').waitFor({ state: 'visible' });
    await page.waitForFunction(() => /Hiro Tanaka/.test(document.querySelector('#player-white').textContent));
    assert.deepEqual(await layoutProblems(page), []);
    await saveScreenshot(page, 'online-game.png');
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});
