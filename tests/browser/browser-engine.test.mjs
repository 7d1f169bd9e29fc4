// Issue 27, item 11 online: a game against the computer whose computer plays in this browser. The
// engine compiled to WebAssembly searches the computer's moves in a Web Worker and the page sends
// them to the server, which records them and searches nothing (its count of the computer's searches,
// GET /api/health, stands still); the person may still choose the server's engine, which does. Needs
// a binary built with the page's engine (WUZI_WASM=1, as the test scripts build it).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, waitView, play, newGameViaDialog, statusText } from './lib/harness.mjs';

const suite = serverAndBrowser();

async function searches() {
  const h = await suite.server.api('GET', '/api/health');
  assert.equal(h.status, 200);
  return h.body.computer_searches;
}

test("an unrated game against the computer online: the computer's moves come from this browser", { timeout: 300000 }, async () => {
  const { page, errors } = suite.browser;
  // Every computer move this page sends, and every HTTP request to the server's engine.
  const sent = [];
  const engineCalls = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (/\/computer-move$/.test(url.pathname)) sent.push(JSON.parse(r.postData() || '{}'));
    if (/\/(hint|analysis|stop)$/.test(url.pathname)) engineCalls.push(url.pathname);
  });
  await page.goto(suite.server.url);
  await waitView(page, () => true, { what: 'the page' });
  const before = await searches();

  // Renju, the person White: the computer (Black) owes the first move at once.
  let v = await newGameViaDialog(page, { mode: 'computer', player: 'level2', color: 'white', rule: 'renju', size: '15' });
  assert.ok(v.id, 'the server made the game');
  assert.equal(v.computer.in_browser, true, 'made with the computer in this browser');
  assert.match(await page.locator('#game-meta').textContent(), /computer in this browser/);
  v = await waitView(page, (g) => g.moves.length === 1 && !g.thinking, { what: "the computer's first stone", timeout: 60000 });
  assert.equal(v.moves[0].color, 'black');
  assert.equal(v.local, false, 'the game stays the server’s');

  // Two exchanges: each reply is searched here, sent, and recorded by the server.
  for (let i = 0; i < 2 && !v.result; i++) {
    const n = v.moves.length;
    const taken = new Set(v.moves.map((m) => m.name));
    const mine = ['a1', 'o15', 'a15', 'o1'].find((p) => !taken.has(p));
    await play(page, mine);
    v = await waitView(page, (g) => !!g.result || (g.moves.length === n + 2 && !g.thinking), { what: "the computer's reply", timeout: 60000 });
  }
  assert.match(await statusText(page), /Your move|wins/);
  const server = (await suite.server.api('GET', `/api/games/${v.id}`)).body;
  assert.deepEqual(server.moves.map((m) => m.name), v.moves.map((m) => m.name), "the server holds the page's game");
  assert.equal(server.computer.in_browser, true);
  // The computer's stones are the ones this page sent, each for the position it answered.
  const computerMoves = server.moves.filter((m) => m.color === 'black').map((m) => m.name);
  assert.deepEqual(sent.map((s) => s.pos), computerMoves);
  assert.deepEqual(sent.map((s) => s.ply), computerMoves.map((_, i) => 2 * i));
  // ...and the server searched none of them.
  assert.equal(await searches(), before, "the server ran no search for the computer's moves");
  // A hint in such a game comes from the engine here too.
  if (!v.result) {
    await page.click('#btn-hint');
    await page.waitForFunction(() => !!window.wuzi.store.hint, null, { timeout: 30000 });
  }
  assert.deepEqual(engineCalls, [], "no hint, analysis or stop asked of the server's engine");
  assert.deepEqual(errors, [], 'no script errors on the page');
});

test('chosen so, the computer plays on the server (and the server searches its move)', { timeout: 300000 }, async () => {
  const { page, errors } = suite.browser;
  const before = await searches();
  let v = await newGameViaDialog(page, { mode: 'computer', player: 'level1', color: 'black', rule: 'freestyle', size: '15', engine: 'server' });
  assert.equal(v.computer.in_browser, false);
  assert.doesNotMatch(await page.locator('#game-meta').textContent(), /computer in this browser/);
  await play(page, 'h8');
  v = await waitView(page, (g) => g.moves.length === 2 && !g.thinking, { what: "the server's reply", timeout: 60000 });
  assert.equal(v.moves[1].color, 'white');
  assert.ok((await searches()) > before, 'the server searched the move');
  // A clock keeps the computer on the server whatever was chosen: the choice is disabled.
  await page.click('#btn-new');
  await page.locator('#dlg-new').waitFor({ state: 'visible' });
  await page.locator('#new-engine').selectOption('browser');
  await page.locator('#new-clock').selectOption('side');
  assert.equal(await page.locator('#new-engine').isDisabled(), true);
  await page.locator('#new-clock').selectOption('none');
  assert.equal(await page.locator('#new-engine').isDisabled(), false);
  await page.click('#new-cancel');
  assert.deepEqual(errors, [], 'no script errors on the page');
});
