// Issue 23, the page's ratings: the Rated switch of a new game (and why it is off), a rated game
// against the computer (its badge and pool, no undo, hint, restart or analysis, the rating change
// at the end), the profile's rating card with "?", its graph and the rated history lines, the
// leaderboard with a name that is markup (shown inert, as text), and another player's profile
// opened from it, read-only, with its history in pages.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, waitView, play, saveScreenshot } from './lib/harness.mjs';
import { layoutProblems } from './lib/layout.mjs';

let server;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

const EVIL = `<img src=x onerror=alert(1)>"'`;

async function openNewGame(page) {
  await page.click('#btn-new');
  await page.locator('#dlg-new').waitFor({ state: 'visible' });
}

test('a rated game against level 1 with a clock, resigned from the page: badge, no undo or hint, the change; the profile shows "?", a one-point graph and a rated history line', { timeout: 180000 }, async () => {
  const b = await openBrowser();
  try {
    const { page, errors } = b;
    // The evaluation bar is on: a rated game must neither show it nor ask for analysis.
    const asked = [];
    page.on('websocket', (ws) => ws.on('framesent', (f) => {
      if (String(f.payload).includes('"analysis"')) asked.push(String(f.payload));
    }));
    await page.goto(server.url);
    await page.evaluate(() => localStorage.setItem('wuzi.settings', JSON.stringify({ showEval: true })));
    await page.reload();
    await waitView(page, () => true);
    await page.waitForFunction(() => window.wuzi.store.me !== undefined);

    await openNewGame(page);
    const dlg = page.locator('#dlg-new');
    // Each level shows the computer's published rating.
    const players = await page.evaluate(async () => (await fetch('/api/players')).json());
    const level1 = players.find((p) => p.id === 'level1');
    await page.waitForFunction((r) => document.querySelector('#new-player option[value=level1]').textContent.endsWith(` · ${r}`), level1.rating);
    assert.equal(await dlg.locator('option[value=level1]').textContent(), `Level 1 (beginner) · ${level1.rating}`);
    const level6 = players.find((p) => p.id === 'level6');
    assert.equal(await dlg.locator('option[value=level6]').textContent(), `Level 6 · ${level6.rating}`);

    // Without a clock a game cannot be rated: the switch is off and says why.
    await page.check('#dlg-new input[name=mode][value=computer]', { force: true });
    await dlg.locator('select[name=player]').selectOption('level1');
    await page.check('#dlg-new input[name=color][value=black]', { force: true });
    await dlg.locator('select[name=rule]').selectOption('freestyle');
    await dlg.locator('select[name=size]').selectOption('15');
    await dlg.locator('select[name=k]').selectOption('5');
    await dlg.locator('select[name=opening]').selectOption('free');
    await dlg.locator('select[name=theme]').selectOption('wood');
    await dlg.locator('select[name=clock]').selectOption('none');
    assert.ok(await page.locator('#new-rated').isDisabled());
    assert.equal(await page.locator('#new-rated-why').textContent(), 'A rated game needs a clock.');
    // Two players at one screen: never rated.
    await page.check('#dlg-new input[name=mode][value=local]', { force: true });
    await dlg.locator('select[name=clock]').selectOption('side');
    assert.ok(await page.locator('#new-rated').isDisabled());
    assert.equal(await page.locator('#new-rated-why').textContent(), 'Only games against the computer are rated.');
    await page.check('#dlg-new input[name=mode][value=computer]', { force: true });
    await dlg.locator('input[name=minutes]').fill('5');
    await dlg.locator('input[name=increment]').fill('0');
    assert.ok(await page.locator('#new-rated').isEnabled());
    assert.equal(await page.locator('#new-rated-text').textContent(), 'Casual');
    await page.locator('#new-rated').check({ force: true });
    assert.equal(await page.locator('#new-rated-text').textContent(), 'Rated');
    assert.equal(await page.locator('#new-rated-why').textContent(), 'Your rating changes with the result. No undo, hints or analysis.');
    // A board of 13 cannot be rated; back on 15 the switch is on again (the choice is kept).
    await dlg.locator('select[name=size]').selectOption('13');
    assert.ok(await page.locator('#new-rated').isDisabled());
    assert.ok(!(await page.locator('#new-rated').isChecked()));
    assert.equal(await page.locator('#new-rated-why').textContent(), 'Rated games are on a square board of 15 to 20 lines.');
    await dlg.locator('select[name=size]').selectOption('15');
    assert.ok(await page.locator('#new-rated').isChecked());
    await page.click('#new-start');
    await dlg.waitFor({ state: 'hidden' });
    await waitView(page, (v) => v.rated, { what: 'a rated game' });
    assert.equal(await page.locator('#rated-pool').textContent(), 'Gomoku · Blitz');
    await play(page, 'h8');
    const g = await waitView(page, (v) => !!v.id && v.moves.length === 2 && !v.thinking, { what: "the computer's reply" });
    assert.equal(g.rated, true);
    assert.ok(await page.locator('#rated-bar').isVisible());
    assert.equal(await page.locator('#rated-bar .rated-badge').textContent(), 'Rated');
    for (const [id, title] of [['#btn-undo', 'A rated game: moves cannot be taken back'], ['#btn-hint', 'No hints in a rated game'], ['#btn-restart', 'A rated game cannot be restarted']]) {
      assert.ok(await page.locator(id).isDisabled(), `${id} is disabled in a rated game`);
      assert.equal(await page.locator(id).getAttribute('title'), title);
    }
    assert.ok(await page.locator('#btn-resign').isEnabled());
    assert.equal(await page.locator('#rated-change').textContent(), 'No undo, hints or analysis');
    assert.ok(await page.locator('#evalbox').isHidden(), 'no evaluation bar in a rated game');
    // The cards carry the ratings: the computer's published one, yours before your first game.
    await page.waitForFunction(() => document.querySelector('#player-black .player-detail').textContent.endsWith('1500?'));
    assert.equal(await page.locator('#player-black .player-detail').textContent(), 'Black · 1500?');
    assert.equal(await page.locator('#player-white .player-detail').textContent(), `Level 1 · White · ${level1.rating}`);
    assert.deepEqual(asked, [], 'no analysis asked for in a rated game');

    // The choice is remembered for the next new game.
    await openNewGame(page);
    assert.ok(await page.locator('#new-rated').isChecked());
    await page.click('#new-cancel');

    await page.click('#btn-resign');
    await page.click('#btn-resign');
    await waitView(page, (v) => !!v.result, { what: 'the resignation' });
    await page.waitForFunction(() => /→/.test(document.querySelector('#rated-change').textContent), null, { timeout: 30000 });
    const changeText = await page.locator('#rated-change').textContent();
    const m = /^1500 → (\d+) \(−(\d+)\)$/.exec(changeText);
    assert.ok(m, `the change with the result: ${changeText}`);
    const after = Number(m[1]);
    assert.equal(1500 - after, Number(m[2]));
    assert.match(await page.locator('#rated-change').getAttribute('class'), /down/);
    assert.deepEqual(asked, [], 'nor after it ended');

    // The profile (the player's card opens it): the pool's card with "?", a graph of one point,
    // the history line rated. The computer's card opens nothing.
    assert.equal(await page.locator('#player-white').getAttribute('data-owner'), null);
    const me = await page.evaluate(() => window.wuzi.store.me.identity);
    assert.equal(await page.locator('#player-black').getAttribute('data-owner'), me);
    await page.click('#player-black');
    await page.locator('#dlg-profile').waitFor({ state: 'visible' });
    assert.equal(await page.evaluate(() => location.hash), `#player=${me}`);
    assert.ok(await page.locator('#profile-account-buttons').isVisible(), 'your own profile has the account buttons');
    const card = page.locator('#rating-cards .rating-card[data-pool="gomoku.blitz"]');
    await card.waitFor();
    assert.equal(await card.locator('.rating-value').textContent(), `${after}?`);
    assert.equal(await card.locator('.rating-games').textContent(), '1 game');
    assert.equal(await card.locator('.rating-pool').textContent(), 'Gomoku · Blitz');
    await page.waitForFunction(() => document.querySelector('#rating-graph').dataset.points === '1');
    assert.equal(await page.locator('#rating-graph .graph-dot').count(), 1);
    assert.ok(await page.locator('#graph-pool').isHidden(), 'no pool selector with one pool');
    assert.ok((await page.locator('#graph-readout').textContent()).startsWith(`${after} · `));
    // Axis labels: ratings on the left, the date below.
    assert.ok((await page.locator('#rating-graph .graph-y').count()) >= 2);
    assert.equal(await page.locator('#rating-graph .graph-x').count(), 1);
    const line = page.locator(`#profile-games li[data-id="${g.id}"]`);
    assert.equal(await line.getAttribute('data-rated'), '1');
    assert.equal(await line.locator('.games-rated').textContent(), 'Rated');
    assert.equal(await line.locator('.games-change').textContent(), `−${1500 - after}`);
    // Its record downloads from the line.
    assert.deepEqual(await line.locator('.games-downloads a').allTextContents(), ['SGF', 'PSQ']);
    const sgf = await page.evaluate(async (href) => {
      const r = await fetch(href);
      return { status: r.status, text: await r.text() };
    }, await line.locator('.games-downloads a').first().getAttribute('href'));
    assert.equal(sgf.status, 200);
    assert.ok(sgf.text.startsWith('(;'), sgf.text.slice(0, 40));
    // A rated game's line says so; the history of an unrated one does not (none here).
    assert.equal(await page.locator('#profile-games li[data-rated]').count(), 1);
    await saveScreenshot(page, 'ratings-profile-guest.png');
    assert.deepEqual(await layoutProblems(page, '#dlg-profile'), []);
    await page.click('#profile-close');

    // A second pool (renju, 10 s a move: blitz); "Rated" is remembered. The profile then has two
    // cards and a pool selector, and each shows its own graph.
    await page.click('#btn-new');
    await dlg.waitFor({ state: 'visible' });
    await dlg.locator('select[name=rule]').selectOption('renju');
    await dlg.locator('select[name=clock]').selectOption('move');
    await dlg.locator('input[name=move_seconds]').fill('10');
    assert.ok(await page.locator('#new-rated').isChecked());
    await page.click('#new-start');
    await dlg.waitFor({ state: 'hidden' });
    await waitView(page, (v) => v.rated && v.rule === 'renju' && v.id !== g.id, { what: 'a rated renju game' });
    assert.equal(await page.locator('#rated-pool').textContent(), 'Renju · Blitz');
    await play(page, 'h8');
    await waitView(page, (v) => v.moves.length === 2 && !v.thinking, { what: "the computer's reply" });
    await page.click('#btn-resign');
    await page.click('#btn-resign');
    await page.waitForFunction(() => /→/.test(document.querySelector('#rated-change').textContent), null, { timeout: 30000 });
    await page.click('#btn-me');
    await page.locator('#dlg-profile').waitFor({ state: 'visible' });
    await page.locator('#rating-cards .rating-card[data-pool="renju.blitz"]').waitFor();
    assert.equal(await page.locator('#rating-cards .rating-card').count(), 2);
    assert.ok(await page.locator('#graph-pool').isVisible(), 'a pool selector with two pools');
    await page.selectOption('#graph-pool', 'renju.blitz');
    await page.waitForFunction(() => document.querySelector('#rating-graph').dataset.pool === 'renju.blitz' && document.querySelector('#rating-graph').dataset.points === '1');
    assert.equal(await page.locator('#rating-cards .rating-card[data-pool="renju.blitz"]').getAttribute('aria-pressed'), 'true');
    await page.click('#rating-cards .rating-card[data-pool="gomoku.blitz"]');
    await page.waitForFunction(() => document.querySelector('#rating-graph').dataset.pool === 'gomoku.blitz');
    assert.equal(await page.locator('#graph-pool').inputValue(), 'gomoku.blitz');
    assert.equal(await page.locator('#profile-games li[data-rated]').count(), 2);
    // The leaderboard lists nobody yet, and says where you stand: provisional, not listed.
    await page.click('#profile-leaderboard');
    await page.locator('#dlg-leaderboard').waitFor({ state: 'visible' });
    await page.selectOption('#leaderboard-pool', 'gomoku.blitz');
    await page.waitForFunction(() => !document.querySelector('#leaderboard-you').hidden);
    assert.equal(await page.locator('#leaderboard-you').textContent(), `Your rating here: ${after}? (1 game), provisional: not listed yet`);
    assert.ok(await page.locator('#leaderboard-empty').isVisible());
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

/// Rated games through the API (resigned at once, as the first seat) until the account's rating in
/// `gomoku.bullet` is established and it has at least `atLeast` games.
async function establish(atLeast) {
  const me = (await server.api('GET', '/api/me')).body.identity;
  for (let games = 1; games <= 80; games++) {
    const g = await server.api('POST', '/api/games', { mode: 'computer', computer: { player: 'level1', color: 'white' }, clock: { kind: 'side', initial_seconds: 60, increment_seconds: 0 }, rated: true });
    assert.equal(g.status, 201, JSON.stringify(g.body));
    const r = await server.api('POST', `/api/games/${g.body.id}/resign`, {});
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const p = (await server.api('GET', `/api/profiles/${me}`)).body;
    if (games >= atLeast && p.ratings[0] && !p.ratings[0].provisional) return { me, games, rating: p.ratings[0] };
  }
  throw new Error('still provisional after 80 rated games');
}

test('the leaderboard shows an established account whose name is markup as text; its profile opens read-only, with its history in pages', { timeout: 240000 }, async () => {
  const reg = await server.api('POST', '/api/account/register', { username: 'steady_one', password: 'password123', display_name: EVIL });
  assert.equal(reg.status, 201, JSON.stringify(reg.body));
  const { me, games, rating } = await establish(30);

  const b = await openBrowser();
  try {
    const { page, errors, context } = b;
    // This browser is someone else: a guest of its own (not the account the API played as).
    await context.clearCookies();
    const dialogs = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      d.dismiss().catch(() => {});
    });
    await page.goto(server.url);
    await waitView(page, () => true);
    await page.waitForFunction(() => window.wuzi.store.me !== undefined);
    assert.notEqual(await page.evaluate(() => window.wuzi.store.me && window.wuzi.store.me.identity), me);

    await page.click('#btn-leaderboard');
    await page.locator('#dlg-leaderboard').waitFor({ state: 'visible' });
    assert.equal(await page.evaluate(() => location.hash), '#leaderboard');
    await page.waitForFunction(() => document.querySelector('#leaderboard-table').dataset.pool === 'gomoku.bullet');
    assert.equal(await page.locator('#leaderboard-pool').inputValue(), 'gomoku.bullet', 'opens on the pool somebody is in');
    const rows = page.locator('#leaderboard-table tbody tr');
    assert.equal(await rows.count(), 1);
    assert.deepEqual(await rows.first().locator('td').allTextContents(), ['1', `${EVIL} @steady_one`, String(Math.round(rating.rating)), String(games)]);
    assert.equal(await rows.first().locator('.leader-name').textContent(), EVIL);
    assert.equal(await page.locator('#dlg-leaderboard img').count(), 0, 'the name is not markup');
    await saveScreenshot(page, 'ratings-leaderboard.png');

    // A pool nobody is established in.
    await page.selectOption('#leaderboard-pool', 'renju.rapid');
    await page.waitForFunction(() => document.querySelector('#leaderboard-table').dataset.pool === 'renju.rapid');
    assert.ok(await page.locator('#leaderboard-empty').isVisible());
    assert.equal(await page.locator('#leaderboard-empty').textContent(), 'Nobody has an established rating in this pool yet.');
    assert.ok(await page.locator('#leaderboard-table').isHidden());
    await saveScreenshot(page, 'ratings-leaderboard-empty.png');
    assert.equal(await page.evaluate(() => location.hash), '#leaderboard=renju.rapid');
    await page.selectOption('#leaderboard-pool', 'gomoku.bullet');
    await page.waitForFunction(() => document.querySelectorAll('#leaderboard-table tbody tr').length === 1);

    // The name opens that player's profile: read-only.
    await rows.first().locator('a.player-link').click();
    await page.locator('#dlg-leaderboard').waitFor({ state: 'hidden' });
    await page.locator('#dlg-profile').waitFor({ state: 'visible' });
    await page.waitForFunction((e) => document.querySelector('#profile-name').textContent === e, EVIL);
    assert.equal(await page.evaluate(() => location.hash), `#player=${me}`);
    assert.equal(await page.locator('#profile-sub').textContent(), '@steady_one');
    assert.equal(await page.locator('#dlg-profile img').count(), 0);
    for (const id of ['#profile-account-buttons', '#profile-archive', '#profile-settings', '#profile-signout', '#profile-signin', '#profile-register']) {
      assert.ok(await page.locator(id).isHidden(), `${id} is not offered on someone else's profile`);
    }
    const card = page.locator('#rating-cards .rating-card[data-pool="gomoku.bullet"]');
    await card.waitFor();
    assert.equal(await card.locator('.rating-value').textContent(), String(Math.round(rating.rating)), 'established: no "?"');
    await page.waitForFunction((n) => document.querySelector('#rating-graph').dataset.points === String(n), games);
    // Pointing at the graph's left end reads the first game.
    const box = await page.locator('#rating-graph svg').boundingBox();
    await page.mouse.move(box.x + 44, box.y + box.height / 2);
    await page.waitForFunction(() => document.querySelector('#rating-graph svg').dataset.picked === '0');
    const first = (await server.api('GET', `/api/profiles/${me}/ratings/gomoku.bullet`)).body[0];
    assert.ok((await page.locator('#graph-readout').textContent()).startsWith(`${Math.round(first.rating)} · `));

    // The history in pages of 25: "More games" brings the rest, then goes.
    await page.waitForFunction(() => document.querySelectorAll('#profile-games li.games-item').length === 25);
    assert.ok(await page.locator('#profile-more').isVisible());
    await page.click('#profile-more');
    await page.waitForFunction((n) => document.querySelectorAll('#profile-games li.games-item').length === n, games);
    const ids = await page.locator('#profile-games li.games-item').evaluateAll((els) => els.map((e) => e.dataset.id));
    assert.equal(new Set(ids).size, games, 'no line twice');
    assert.ok(await page.locator('#profile-more').isHidden());
    assert.equal(await page.locator('#profile-games li[data-rated="1"] .games-change').count(), games);

    await saveScreenshot(page, 'ratings-profile-other.png');
    // Closing gives the address back.
    await page.click('#profile-close');
    await page.locator('#dlg-profile').waitFor({ state: 'hidden' });
    // The dialog's close event gives the address back; it may come a moment after the
    // dialog is hidden (a fresh-clone CI run once read the hash in between).
    await page.waitForFunction(() => location.hash === '', null, { timeout: 5000 }).catch(() => {});
    assert.equal(await page.evaluate(() => location.hash), '');
    // The link works from outside too (a reload on it).
    await page.goto(`${server.url}/#player=${me}`);
    await page.locator('#dlg-profile').waitFor({ state: 'visible' });
    await page.waitForFunction((e) => document.querySelector('#profile-name').textContent === e, EVIL);
    assert.ok(await page.locator('#profile-account-buttons').isHidden());
    // A link to one pool's leaderboard opens on it.
    await page.goto('about:blank');
    await page.goto(`${server.url}/#leaderboard=renju.rapid`);
    await page.locator('#dlg-leaderboard').waitFor({ state: 'visible' });
    await page.waitForFunction(() => document.querySelector('#leaderboard-table').dataset.pool === 'renju.rapid');
    assert.equal(await page.locator('#leaderboard-pool').inputValue(), 'renju.rapid');
    assert.ok(await page.locator('#leaderboard-empty').isVisible());
    // A link to a player the server does not have says so.
    await page.goto('about:blank');
    await page.goto(`${server.url}/#player=nobody-at-all`);
    await page.locator('#dlg-profile').waitFor({ state: 'visible' });
    await page.waitForFunction(() => document.querySelector('#profile-name').textContent === 'No such player');
    assert.ok(await page.locator('#profile-account-buttons').isHidden());
    assert.equal(await page.locator('#profile-games li.games-item').count(), 0);
    assert.deepEqual(dialogs, [], 'no script ran');
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('on a phone: a tap on the graph reads that game; the profile and the leaderboard fit', { timeout: 120000 }, async () => {
  // This browser is the account the API played as (server.api shares its session): the one of
  // the test before, or one made here when this test runs alone.
  if ((await server.api('GET', '/api/me')).body.kind !== 'account') {
    await server.api('POST', '/api/account/register', { username: 'phone_player', password: 'password123' });
    await establish(3);
  }
  const me = (await server.api('GET', '/api/me')).body.identity;
  const points = (await server.api('GET', `/api/profiles/${me}/ratings/gomoku.bullet`)).body;
  assert.ok(points.length > 2);
  const b = await openBrowser({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'zh-TW' });
  try {
    const { page, errors } = b;
    await page.goto(server.url);
    await waitView(page, () => true);
    await page.waitForFunction((id) => window.wuzi.store.me && window.wuzi.store.me.identity === id, me);
    assert.ok(await page.locator('#btn-leaderboard').isHidden(), 'no trophy in a phone header');
    await page.click('#btn-me');
    await page.locator('#dlg-profile').waitFor({ state: 'visible' });
    await page.waitForFunction((n) => document.querySelector('#rating-graph').dataset.points === String(n), points.length);
    assert.ok(await page.locator('#profile-account-buttons').isVisible(), 'your own profile');
    const svg = page.locator('#rating-graph svg');
    await svg.scrollIntoViewIfNeeded();
    const box = await svg.boundingBox();
    await page.touchscreen.tap(box.x + 44, box.y + box.height / 2);
    await page.waitForFunction(() => document.querySelector('#rating-graph svg').dataset.picked === '0');
    assert.match(await page.locator('#graph-readout').textContent(), new RegExp(`^${Math.round(points[0].rating)} · \\d{4}年`));
    assert.deepEqual(await layoutProblems(page, '#dlg-profile'), []);
    await page.click('#profile-leaderboard');
    await page.locator('#dlg-leaderboard').waitFor({ state: 'visible' });
    await page.locator('#leaderboard-table tbody tr.me').waitFor();
    assert.ok(await page.locator('#leaderboard-you').isHidden(), 'listed: no line about where you stand');
    assert.deepEqual(await layoutProblems(page, '#dlg-leaderboard'), []);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('the rating graph: rating labels in round steps, dates along the bottom, the point under the pointer', { timeout: 60000 }, async () => {
  const b = await openBrowser();
  try {
    const { page, errors } = b;
    await page.goto(server.url);
    await waitView(page, () => true);
    // Thirty games over two months, drawn by the page's own module into a box of its own.
    const labels = await page.evaluate(async () => {
      const { drawGraph } = await import('/js/ui/ratings.js');
      const box = document.createElement('div');
      box.id = 'graph-probe';
      box.style.cssText = 'position:fixed;left:20px;top:20px;width:600px;background:#181a1d;z-index:99';
      const readout = document.createElement('p');
      readout.id = 'graph-probe-readout';
      readout.style.cssText = 'position:fixed;left:20px;top:240px;z-index:99;color:#fff';
      document.body.append(box, readout);
      const day = 86400000;
      const start = Date.UTC(2026, 8, 1, 12);
      const points = Array.from({ length: 30 }, (_, i) => ({ at: start + i * 2 * day, rating: 1500 + Math.round(200 * Math.sin(i / 4)) - i * 3, deviation: 80, game: `g${i}` }));
      drawGraph(box, readout, points);
      return {
        y: [...box.querySelectorAll('.graph-y')].map((e) => Number(e.textContent)),
        x: [...box.querySelectorAll('.graph-x')].map((e) => e.textContent),
        dots: box.querySelectorAll('.graph-dot').length,
        readout: readout.textContent,
      };
    });
    assert.equal(labels.dots, 30);
    assert.ok(labels.y.length >= 3, JSON.stringify(labels.y));
    const steps = labels.y.slice(1).map((v, i) => v - labels.y[i]);
    assert.ok(steps.every((s) => s === steps[0] && s > 0 && s % 10 === 0), `round, even steps: ${labels.y}`);
    assert.equal(labels.x.length, 4, JSON.stringify(labels.x));
    assert.equal(new Set(labels.x).size, 4);
    assert.equal(labels.x[0], 'Sep 1');
    assert.match(labels.readout, /^\d+ · Oct 29, 2026/, 'the latest game until the pointer moves');
    const box = await page.locator('#graph-probe svg').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const picked = Number(await page.locator('#graph-probe svg').getAttribute('data-picked'));
    assert.ok(picked === 14 || picked === 15, `the middle game: ${picked}`);
    await saveScreenshot(page, 'ratings-graph-probe.png', { clip: { x: 10, y: 10, width: 620, height: 260 } });
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});
