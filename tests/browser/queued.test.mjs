// Issue 22, item 11: a computer's move waiting for an engine worker: the page says so, and the
// computer's clock on screen stands (the server's does too) until the search starts.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, newGameViaDialog, waitView, play, statusText } from './lib/harness.mjs';

let server;
let browser;
before(async () => {
  // One engine worker, so a second search has to wait.
  server = await startServer({ args: ['--workers', '1'] });
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test('the computer waits for the engine: the status says so and its clock stands', { timeout: 120000 }, async () => {
  const { page, errors } = browser;
  await page.goto(server.url);
  await waitView(page, () => true);
  await newGameViaDialog(page, { mode: 'computer', player: 'level3', color: 'black', rule: 'freestyle', size: '15', clock: 'side', minutes: '10', increment: '0' });
  await page.waitForFunction(() => ['up', undefined].includes(window.wuzi.store.connection));
  await page.waitForTimeout(300);

  // Another game's 8-second hint holds the only worker.
  const other = (await server.api('POST', '/api/games', { mode: 'local' })).body;
  await server.api('POST', `/api/games/${other.id}/moves`, { pos: 'h8' });
  const hint = server.api('POST', `/api/games/${other.id}/hint`, { time_ms: 8000 });
  await sleep(300);

  await play(page, 'h8');
  await page.waitForFunction(() => /waits for the engine/.test(document.querySelector('#status-text').textContent), null, { timeout: 5000 });
  assert.match(await statusText(page), /^The computer waits for the engine \(1 ahead\); its clock is stopped…$/);
  const c1 = await page.locator('#player-white .player-clock').textContent();
  await sleep(2000);
  const c2 = await page.locator('#player-white .player-clock').textContent();
  assert.equal(c2, c1, "the computer's clock stands while its move waits");
  assert.equal(await page.evaluate(() => window.wuzi.store.waiting()), true);

  await hint;
  await waitView(page, (g) => g.moves.length === 2 && !g.thinking, { what: "the computer's move", timeout: 60000 });
  assert.match(await statusText(page), /Your move/);
  assert.deepEqual(errors, []);
});
