// Clocks: the running side is highlighted, and when a flag falls the server ends the game on time.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newGameViaDialog, waitView, play, statusText } from './lib/harness.mjs';

const suite = serverAndBrowser();

test('per side: White\'s time runs out and White loses on time', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  await page.goto(suite.server.url);
  await waitView(page, () => true);
  // 3 seconds each, no increment. The clocks start once a stone is on the board.
  await newGameViaDialog(page, { mode: 'local', rule: 'freestyle', size: '15', clock: 'side', minutes: '0.05', increment: '0' });
  await play(page, 'h8');
  await page.waitForFunction(() => document.querySelector('#player-white').classList.contains('clock-running'));
  assert.equal(await page.locator('#player-black').evaluate((el) => el.classList.contains('clock-running')), false);
  const v = await waitView(page, (g) => !!g.result, { timeout: 30000, what: 'the flag to fall' });
  assert.equal(v.result.reason, 'time');
  assert.equal(v.result.winner, 'black');
  assert.match(await statusText(page), /Black wins — White lost on time/);
  assert.equal((await page.locator('#player-white .player-clock').textContent()).trim(), '0.0');
  assert.deepEqual(errors, []);
});

test('per move: the limit applies to each move', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  await newGameViaDialog(page, { mode: 'local', rule: 'freestyle', size: '15', clock: 'move', move_seconds: '2' });
  await play(page, 'h8');
  await play(page, 'h9');
  const v = await waitView(page, (g) => !!g.result, { timeout: 30000, what: 'the flag to fall' });
  assert.equal(v.result.reason, 'time');
  assert.equal(v.result.winner, 'white', 'Black did not move within 2 s');
  assert.match(await statusText(page), /Black lost on time/);
  assert.deepEqual(errors, []);
});
