// Issue 22, items 11 and 15: the page shows the connection as it is and recovers by itself; the
// clocks on screen stand while the server cannot be reached (the server gives an outage's time
// back); a message too large for the server (closed with 1009) is reported and the page reconnects.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newGameViaDialog, waitView, play, clickPoint, statusText } from './lib/harness.mjs';

const suite = serverAndBrowser();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test('server down and back: the status says so at once, the clock stands, and all recovers without a click', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  await page.goto(suite.server.url);
  await waitView(page, () => true);
  await newGameViaDialog(page, { mode: 'local', rule: 'freestyle', size: '15', clock: 'side', minutes: '10', increment: '0' });
  await play(page, 'h8');
  await page.waitForFunction(() => ['up', undefined].includes(window.wuzi.store.connection));
  await page.waitForTimeout(300);
  assert.equal(await statusText(page), 'White to move');

  await suite.server.crash();
  await page.waitForFunction(() => /cannot be reached/.test(document.querySelector('#status-text').textContent), null, { timeout: 5000 });
  assert.equal(await page.locator('#status').getAttribute('class'), 'status offline');
  const clock1 = await page.locator('#player-white .player-clock').textContent();
  await sleep(2500);
  const clock2 = await page.locator('#player-white .player-clock').textContent();
  assert.equal(clock2, clock1, 'the clock on screen stands while the server is unreachable');
  assert.equal(await page.locator('#player-white').evaluate((el) => el.classList.contains('clock-running')), false, 'and is not shown as running');

  // A move tried meanwhile cannot reach the server: it says so, and the stone is not there.
  await clickPoint(page, 'a1');
  await page.waitForFunction(() => !window.wuzi.store.busy, null, { timeout: 10000 });
  assert.match(await statusText(page), /cannot be reached/);
  assert.equal((await waitView(page, () => true)).moves.length, 1);

  await suite.server.resume();
  await page.waitForFunction(() => window.wuzi.store.connection === 'up', null, { timeout: 15000 });
  await page.waitForFunction(() => document.querySelector('#status-text').textContent === 'White to move', null, { timeout: 5000 });
  // Running again, from the server's time.
  await page.waitForFunction((c) => document.querySelector('#player-white .player-clock').textContent !== c, clock2, { timeout: 5000 });
  await play(page, 'h9');
  assert.deepEqual(errors, []);
});

test('a 200 KB message: the server closes the socket (1009), the page says so and reconnects', { timeout: 60000 }, async () => {
  const { page, errors } = suite.browser;
  await newGameViaDialog(page, { mode: 'local', rule: 'freestyle', size: '15', clock: 'none' });
  await page.waitForFunction(() => ['up', undefined].includes(window.wuzi.store.connection));
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => typeof window.wuzi.sendRaw), 'function', 'the page lets a test send a raw message');
  const sent = await page.evaluate(() => window.wuzi.sendRaw(JSON.stringify({ type: 'ping', pad: 'x'.repeat(200 * 1024) })));
  assert.ok(sent);
  await page.locator('#toast').waitFor({ state: 'visible', timeout: 5000 });
  assert.match(await page.locator('#toast').textContent(), /too large/);
  await page.waitForFunction(() => window.wuzi.store.connection === 'up', null, { timeout: 10000 });
  await play(page, 'h8');
  assert.deepEqual(errors, []);
});
