// Issue 23, the page: who you are in the header, registration and sign-in, spectators, the profile
// (statistics, history, the archive), account settings, and names that are shown as text.
// No `server.api` here: it would share its session with every browser, and these tests need
// people who are not each other.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, waitView, play, clickPoint, statusText, newGameViaDialog, saveScreenshot } from './lib/harness.mjs';
import { layoutProblems } from './lib/layout.mjs';

let server;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

async function meName(page) {
  return (await page.locator('#me-name').textContent()).trim();
}

async function register(page, { username, password, display_name = '', email = '' }) {
  await page.click('#btn-register');
  const dlg = page.locator('#dlg-register');
  await dlg.waitFor({ state: 'visible' });
  await dlg.locator('input[name=username]').fill(username);
  await dlg.locator('input[name=password]').fill(password);
  await dlg.locator('input[name=display_name]').fill(display_name);
  await dlg.locator('input[name=email]').fill(email);
  await page.click('#register-submit');
}

async function signIn(page, username, password) {
  await page.click('#btn-signin');
  const dlg = page.locator('#dlg-signin');
  await dlg.waitFor({ state: 'visible' });
  await dlg.locator('input[name=username]').fill(username);
  await dlg.locator('input[name=password]').fill(password);
  await page.click('#signin-submit');
}

/// A game against the computer (level 1, you play Black), one stone, then resign: a loss.
async function loseAGame(page) {
  await newGameViaDialog(page, { mode: 'computer', player: 'level1', color: 'black', rule: 'renju', size: '15', opening: 'free', clock: 'none' });
  await play(page, 'h8');
  await waitView(page, (v) => v.moves.length === 2 && !v.thinking, { what: "the computer's reply" });
  await page.click('#btn-resign');
  await page.click('#btn-resign');
  return waitView(page, (v) => !!v.result, { what: 'the resignation' });
}

async function openProfile(page) {
  await page.click('#btn-me');
  await page.locator('#dlg-profile').waitFor({ state: 'visible' });
  await page.locator('#profile-games li').first().waitFor();
}

async function statsRow(page, cls) {
  return page.locator(`#profile-stats tbody tr.${cls} td`).allTextContents();
}

test('register, sign out, sign in, play; the games are in the history and the statistics', { timeout: 180000 }, async () => {
  const b = await openBrowser();
  try {
    const { page, errors } = b;
    await page.goto(server.url);
    await waitView(page, () => true);
    await page.waitForFunction(() => window.wuzi.store.me !== undefined);
    assert.equal(await meName(page), 'Guest');
    assert.ok(await page.locator('#btn-signin').isVisible());
    assert.ok(await page.locator('#btn-register').isVisible());
    assert.ok(!(await page.locator('#btn-signout').isVisible()));

    // A guest's game stays theirs when they register.
    const first = await loseAGame(page);

    // Refusals in the page's words.
    await register(page, { username: 'x', password: 'password123' });
    await page.waitForFunction(() => document.querySelector('#register-error').textContent !== '');
    assert.equal(await page.locator('#register-error').textContent(), 'A username has 2–20 letters, digits, _ or -');
    await page.locator('#dlg-register input[name=username]').fill('lin_wei');
    await page.locator('#dlg-register input[name=password]').fill('short');
    await page.click('#register-submit');
    await page.waitForFunction(() => document.querySelector('#register-error').textContent.includes('8'));
    assert.equal(await page.locator('#register-error').textContent(), 'A password needs at least 8 characters');
    await page.click('#register-cancel');

    await register(page, { username: 'lin_wei', password: 'correct horse', display_name: '林伟', email: 'lin@example.com' });
    await page.locator('#dlg-register').waitFor({ state: 'hidden' });
    await page.waitForFunction(() => document.querySelector('#me-name').textContent === '林伟');
    assert.ok(await page.locator('#btn-signout').isVisible());
    assert.ok(!(await page.locator('#btn-signin').isVisible()));

    // Signed out: a guest again, and the account's game on screen is someone else's.
    await page.click('#btn-signout');
    await page.waitForFunction(() => document.querySelector('#me-name').textContent === 'Guest');

    // Wrong password, then right.
    await signIn(page, 'lin_wei', 'wrong password');
    await page.waitForFunction(() => document.querySelector('#signin-error').textContent !== '');
    assert.equal(await page.locator('#signin-error').textContent(), 'Wrong username or password');
    await page.locator('#dlg-signin input[name=password]').fill('correct horse');
    await page.click('#signin-submit');
    await page.locator('#dlg-signin').waitFor({ state: 'hidden' });
    await page.waitForFunction(() => document.querySelector('#me-name').textContent === '林伟');

    // A game as the account.
    const second = await loseAGame(page);

    await openProfile(page);
    assert.equal(await page.locator('#profile-name').textContent(), '林伟');
    assert.equal(await page.locator('#profile-sub').textContent(), '@lin_wei');
    assert.deepEqual(await statsRow(page, 'all'), ['All games', '2', '0', '2', '0', '0%']);
    assert.deepEqual(await statsRow(page, 'rule-renju'), ['Renju', '2', '0', '2', '0', '0%']);
    assert.deepEqual(await page.locator('#profile-stats tbody tr.opponent td').allTextContents(), ['Computer Level 1', '2', '0', '2', '0', '0%']);
    assert.equal(await page.locator('#profile-streak').textContent(), 'Longest winning streak: 0');
    const ids = await page.locator('#profile-games li').evaluateAll((els) => els.map((e) => e.dataset.id));
    assert.deepEqual(ids, [second.id, first.id], 'newest first, the guest game included');
    assert.match(await page.locator(`#profile-games li[data-id="${first.id}"]`).textContent(), /Renju · Computer Level 1 · as Black.*Lost · 2 moves/);
    await saveScreenshot(page, 'accounts-profile-desktop.png');

    // Filters.
    await page.selectOption('#filter-result', 'win');
    await page.waitForFunction(() => document.querySelector('#profile-games li').classList.contains('games-empty'));
    await page.selectOption('#filter-result', 'loss');
    await page.waitForFunction(() => document.querySelectorAll('#profile-games li.games-item').length === 2);
    await page.selectOption('#filter-rule', 'caro');
    await page.waitForFunction(() => document.querySelector('#profile-games li').classList.contains('games-empty'));
    await page.selectOption('#filter-rule', 'renju');
    await page.selectOption('#filter-opponent', 'computer:level1');
    await page.waitForFunction(() => document.querySelectorAll('#profile-games li.games-item').length === 2);

    // "Download all my games": a tar of this player's games.
    const href = await page.locator('#profile-archive').getAttribute('href');
    const archive = await page.evaluate(async (h) => {
      const r = await fetch(h);
      const bytes = new Uint8Array(await r.arrayBuffer());
      return { status: r.status, text: new TextDecoder('latin1').decode(bytes) };
    }, href);
    assert.equal(archive.status, 200);
    assert.ok(archive.text.includes(`wuzi-${first.id}.sgf`) && archive.text.includes(`wuzi-${second.id}.sgf`));

    // Each item reopens its game.
    await page.locator(`#profile-games li[data-id="${first.id}"] a.games-open`).click();
    await page.locator('#dlg-profile').waitFor({ state: 'hidden' });
    await waitView(page, (v) => v.id === first.id, { what: 'the first game again' });

    // "Games" is the player's own list from the server.
    await page.click('#btn-games');
    await page.locator(`#games-list li[data-id="${first.id}"]`).waitFor();
    assert.equal(await page.locator('#games-list li.games-item').count(), 2);
    await page.locator('#dlg-games button[value=close]').click();
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('too many sign-in attempts: "try again in N s", as the server gives it', { timeout: 60000 }, async () => {
  const b = await openBrowser({ locale: 'zh-CN' });
  try {
    const { page, errors } = b;
    await page.goto(server.url);
    await waitView(page, () => true);
    await signIn(page, 'nobody_here', 'not the password');
    for (let i = 0; i < 8; i++) {
      await page.waitForFunction(() => document.querySelector('#signin-error').textContent !== '' && !document.querySelector('#signin-submit').disabled);
      if ((await page.locator('#signin-error').textContent()).includes('秒')) break;
      await page.evaluate(() => (document.querySelector('#signin-error').textContent = ''));
      await page.click('#signin-submit');
    }
    assert.match(await page.locator('#signin-error').textContent(), /^登录尝试过多，请 \d+ 秒后再试$/);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('a second person who opens the link watches: a read-only board, and a click says why', { timeout: 120000 }, async () => {
  const owner = await openBrowser();
  const watcher = await openBrowser();
  try {
    const a = owner.page;
    await a.goto(server.url);
    await waitView(a, () => true);
    const g = await newGameViaDialog(a, { mode: 'local', rule: 'freestyle', size: '15', opening: 'free', clock: 'none' });
    await play(a, 'h8');
    await a.waitForFunction(() => window.wuzi.store.me && window.wuzi.store.me.identity);
    assert.equal(await statusText(a), 'White to move');

    const b = watcher.page;
    await b.goto(`${server.url}/#g=${g.id}`);
    await waitView(b, (v) => v.id === g.id && v.moves.length === 1);
    await b.waitForFunction(() => window.wuzi.store.me !== undefined);
    assert.equal(await statusText(b), 'You are watching · White to move');
    for (const id of ['#btn-undo', '#btn-resign', '#btn-restart', '#btn-hint']) assert.ok(await b.locator(id).isDisabled(), `${id} is disabled for a spectator`);
    const requests = [];
    b.on('request', (r) => {
      if (r.method() !== 'GET') requests.push(r.url());
    });
    await clickPoint(b, 'h9');
    await b.waitForFunction(() => document.querySelector('#status-text').textContent.includes('only its players'));
    assert.equal(await statusText(b), 'You are watching this game: only its players can play it');
    assert.deepEqual(requests, [], 'nothing is sent for a spectator');
    assert.equal((await waitView(b, () => true)).moves.length, 1);

    // The owner plays on; the spectator sees it live.
    await play(a, 'h9');
    await waitView(b, (v) => v.moves.length === 2, { what: "the owner's move at the spectator" });
    // The owner's page is still the player's.
    assert.equal(await statusText(a), 'Black to move');
    assert.ok(!(await a.locator('#btn-undo').isDisabled()));

    // Against the computer, in a swap2 choice: the spectator is offered no choice.
    await newGameViaDialog(a, { mode: 'computer', player: 'level1', color: 'white', rule: 'renju', size: '15', opening: 'swap2', clock: 'none' });
    if (await a.locator('#btn-start-draft').isVisible()) await a.click('#btn-start-draft');
    const s = await waitView(a, (v) => !!v.id && v.opening && v.opening.phase === 'choose' && !v.thinking, { what: "the computer's swap2 stones" });
    await a.locator('#opening-panel').waitFor({ state: 'visible' });
    await b.goto(`${server.url}/#g=${s.id}`);
    await waitView(b, (v) => v.id === s.id && v.opening && v.opening.phase === 'choose');
    await b.waitForFunction(() => document.querySelector('#status-text').textContent.startsWith('You are watching'));
    assert.ok(await b.locator('#opening-panel').isHidden(), 'no opening choices for a spectator');
    assert.equal(await b.locator('#opening-choices button').count(), 0);
    assert.deepEqual(owner.errors, []);
    assert.deepEqual(watcher.errors, []);
  } finally {
    await owner.close();
    await watcher.close();
  }
});

test('names with markup, quotes and great length render as text and fit, on a phone too', { timeout: 120000 }, async () => {
  for (const vp of [{ viewport: { width: 1280, height: 800 } }, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }]) {
    const b = await openBrowser(vp);
    try {
      const { page, errors } = b;
      await page.goto(server.url);
      await waitView(page, () => true);
      await page.waitForFunction(() => window.wuzi.store.me !== undefined);
      const evil = `<img src=x onerror="window.__pwned=1">'"`; // 37 characters
      const username = `z${vp.isMobile ? 'p' : 'd'}_<script>`;
      // A username with markup is refused, in words.
      // On a phone the header has only the name: Register is in the profile it opens.
      if (vp.isMobile) {
        assert.ok(await page.locator('#btn-register').isHidden());
        await page.click('#btn-me');
        await page.click('#profile-register');
      } else {
        await page.click('#btn-register');
      }
      const dlg = page.locator('#dlg-register');
      await dlg.waitFor({ state: 'visible' });
      await dlg.locator('input[name=username]').fill(username);
      await dlg.locator('input[name=password]').fill('password123');
      await page.click('#register-submit');
      await page.waitForFunction(() => document.querySelector('#register-error').textContent !== '');
      assert.equal(await page.locator('#register-error').textContent(), 'A username has 2–20 letters, digits, _ or -');
      // The longest username, and a display name that is markup.
      const long = `${vp.isMobile ? 'p' : 'd'}${'_-'.repeat(9)}X`;
      await dlg.locator('input[name=username]').fill(long);
      await dlg.locator('input[name=display_name]').fill(evil);
      await page.click('#register-submit');
      await dlg.waitFor({ state: 'hidden' });
      await page.waitForFunction(() => window.wuzi.store.me && window.wuzi.store.me.kind === 'account');
      const shown = await meName(page);
      assert.ok(evil.startsWith(shown.replace(/…$/, '')), `the header shows the name as text: ${shown}`);
      await page.evaluate(() => document.querySelector('#btn-me').click());
      await page.locator('#dlg-profile').waitFor({ state: 'visible' });
      await page.waitForFunction((e) => document.querySelector("#profile-name").textContent === e, evil);
      assert.equal(await page.locator('#profile-sub').textContent(), `@${long}`);
      assert.equal(await page.locator('#profile-name img').count(), 0);
      await saveScreenshot(page, `profile-markup-${vp.isMobile ? 'phone' : 'desktop'}.png`);
      const problems = [...(await layoutProblems(page, '#dlg-profile')), ...(await layoutProblems(page, '.topbar'))];
      await page.click('#profile-settings');
      await page.locator('#dlg-account').waitFor({ state: 'visible' });
      // A token with a long name that is markup too.
      await page.fill('#token-name', `<b>bot</b> "${'長'.repeat(26)}`);
      await page.click('#btn-token-create');
      await page.waitForFunction(() => document.querySelector('#token-value').value.startsWith('wuzi_'));
      await page.locator('#token-list li.token-item').first().waitFor();
      assert.equal(await page.locator('#token-list b').count(), 0);
      assert.ok((await page.locator('#token-list .token-name').first().textContent()).startsWith('<b>bot</b>'));
      assert.equal(await page.evaluate(() => window.__pwned), undefined);
      problems.push(...(await layoutProblems(page, '#dlg-account')));
      assert.deepEqual(problems, []);
      // Revoke it.
      await page.locator('#token-list .token-revoke').first().click();
      await page.waitForFunction(() => document.querySelector('#token-list li').classList.contains('games-empty'));
      assert.deepEqual(errors, []);
    } finally {
      await b.close();
    }
  }
});

test('account settings: change the password, sign out everywhere, delete the account', { timeout: 120000 }, async () => {
  const b = await openBrowser();
  try {
    const { page, errors } = b;
    await page.goto(server.url);
    await waitView(page, () => true);
    await page.waitForFunction(() => window.wuzi.store.me !== undefined);
    await register(page, { username: 'mei', password: 'first password' });
    await page.waitForFunction(() => document.querySelector('#me-name').textContent === 'mei');
    await page.click('#btn-me');
    await page.click('#profile-settings');
    await page.locator('#account-settings').waitFor({ state: 'visible' });
    await page.fill('#password-current', 'not it at all');
    await page.fill('#password-new', 'second password');
    await page.click('#btn-change-password');
    await page.waitForFunction(() => document.querySelector('#password-msg').textContent !== '');
    assert.equal(await page.locator('#password-msg').textContent(), 'Wrong password');
    await page.fill('#password-current', 'first password');
    await page.click('#btn-change-password');
    await page.waitForFunction(() => document.querySelector('#password-msg').textContent.startsWith('Password changed'));

    await page.click('#btn-signout-all');
    await page.waitForFunction(() => document.querySelector('#me-name').textContent === 'Guest');
    await signIn(page, 'mei', 'second password');
    await page.waitForFunction(() => document.querySelector('#me-name').textContent === 'mei');

    await page.click('#btn-me');
    await page.click('#profile-settings');
    await page.locator('#account-settings').waitFor({ state: 'visible' });
    await page.fill('#delete-password', 'second password');
    await page.click('#btn-delete-account');
    assert.equal(await page.locator('#btn-delete-account').textContent(), 'Press again to delete for good');
    await page.click('#btn-delete-account');
    await page.waitForFunction(() => document.querySelector('#me-name').textContent === 'Guest');
    await signIn(page, 'mei', 'second password');
    await page.waitForFunction(() => document.querySelector('#signin-error').textContent !== '');
    assert.equal(await page.locator('#signin-error').textContent(), 'Wrong username or password');
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('signing out makes your game one you watch; signing in again gives it back, WebSocket too', { timeout: 120000 }, async () => {
  const b = await openBrowser();
  try {
    const { page, errors } = b;
    await page.goto(server.url);
    await page.evaluate(() => localStorage.setItem('wuzi.settings', JSON.stringify({ showEval: true })));
    await page.reload();
    await waitView(page, () => true);
    await page.waitForFunction(() => window.wuzi.store.me !== undefined);
    await register(page, { username: 'chen_jing', password: 'password123' });
    await page.waitForFunction(() => document.querySelector('#me-name').textContent === 'chen_jing');
    const g = await newGameViaDialog(page, { mode: 'local', rule: 'freestyle', size: '15', opening: 'free', clock: 'none' });
    await play(page, 'h8');
    await page.click('#btn-signout');
    await page.waitForFunction(() => document.querySelector('#me-name').textContent === 'Guest');
    await page.waitForFunction(() => document.querySelector('#status-text').textContent === 'You are watching · White to move');
    assert.ok(await page.locator('#btn-undo').isDisabled());
    // The page opened again while signed out: its WebSocket belongs to nobody.
    await page.reload();
    await waitView(page, (v) => v.id === g.id);
    await page.waitForFunction(() => window.wuzi.store.connection === 'up' && window.wuzi.store.me !== undefined);
    assert.equal(await statusText(page), 'You are watching · White to move');
    await signIn(page, 'chen_jing', 'password123');
    await page.waitForFunction(() => document.querySelector('#me-name').textContent === 'chen_jing');
    await page.waitForFunction(() => document.querySelector('#status-text').textContent === 'White to move');
    assert.ok(!(await page.locator('#btn-undo').isDisabled()));
    await play(page, 'h9');
    // The evaluation is asked for over the WebSocket, which must act as the account now.
    await page.waitForFunction(() => document.querySelector('#eval-line').textContent.includes(':'), null, { timeout: 20000 });
    assert.equal(await statusText(page), 'Black to move');
    assert.equal((await waitView(page, (v) => v.id === g.id)).moves.length, 2);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('SQL metacharacters in a display name and a token name are stored and shown verbatim', { timeout: 120000 }, async () => {
  const b = await openBrowser();
  try {
    const { page, errors } = b;
    await page.goto(server.url);
    await waitView(page, () => true);
    await page.waitForFunction(() => window.wuzi.store.me !== undefined);
    const name = `Robert'); DROP TABLE accounts;-- %_\\ "x"`;
    await register(page, { username: 'bobby_tables', password: 'password123', display_name: name });
    await page.locator('#dlg-register').waitFor({ state: 'hidden' });
    await page.waitForFunction(() => window.wuzi.store.me && window.wuzi.store.me.kind === 'account');
    await page.click('#btn-me');
    await page.locator('#dlg-profile').waitFor({ state: 'visible' });
    await page.waitForFunction((n) => document.querySelector('#profile-name').textContent === n, name);
    await page.click('#profile-settings');
    await page.locator('#dlg-account').waitFor({ state: 'visible' });
    const token = `'; DELETE FROM tokens WHERE '1'='1`;
    await page.fill('#token-name', token);
    await page.click('#btn-token-create');
    await page.locator('#token-list li.token-item').first().waitFor();
    assert.equal(await page.locator('#token-list .token-name').first().textContent(), token);
    // Everything is still there after a reload: the session, the name, the token.
    await page.reload();
    await waitView(page, () => true);
    await page.waitForFunction(() => window.wuzi.store.me && window.wuzi.store.me.kind === 'account');
    assert.equal(await page.evaluate(() => window.wuzi.store.me.display_name), name);
    await page.click('#btn-me');
    await page.click('#profile-settings');
    await page.locator('#token-list li.token-item').first().waitFor();
    assert.equal(await page.locator('#token-list .token-name').first().textContent(), token);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});
