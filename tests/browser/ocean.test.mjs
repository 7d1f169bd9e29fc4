// Issue 22, item 9: on the ocean board a stone that holds a bubble is marked, the "×2" of a double
// bubble is drawn whole above the stone, and the cards count each side's bubbles.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, waitView, play, pointXY, saveScreenshot } from './lib/harness.mjs';

const suite = serverAndBrowser();

test('a stone on a double bubble: a ring, a whole ×2 badge on top, and "bubbles 2/7" on Black\'s card', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  const { server } = suite;
  // Find a layout with a double bubble (the seed fixes the layout).
  let game = null;
  let double = null;
  for (let seed = 1; seed < 400 && !double; seed++) {
    const res = await server.api('POST', '/api/games', { mode: 'local', theme: 'ocean', seed, size: 15 });
    assert.equal(res.status, 201);
    const names = res.body.bubbles.map((b) => b.name);
    double = names.find((n, i) => names.indexOf(n) !== i) || null;
    game = res.body;
  }
  assert.ok(double, 'some seed has a double bubble');
  await page.goto(`${suite.server.url}/#g=${game.id}`);
  await waitView(page, (v) => v.id === game.id);
  await play(page, double);
  await page.waitForFunction((n) => (document.querySelector('#board').dataset.bubbles || '').includes(`${n}:2:black`), double, { timeout: 5000 });

  // The badge's disc sits at the point's upper right; below its text and inside the stone, its pixels are the badge's blue.
  const { x, y } = await pointXY(page, double);
  const cell = Number(await page.locator('#board').getAttribute('data-cell'));
  const box = await page.locator('#board').boundingBox();
  const rgb = await page.evaluate(
    ({ px, py }) => {
      const c = document.querySelector('#board');
      const dpr = c.width / c.getBoundingClientRect().width;
      const d = c.getContext('2d').getImageData(Math.round(px * dpr), Math.round(py * dpr), 1, 1).data;
      return [d[0], d[1], d[2]];
    },
    { px: x - box.x + cell * 0.34, py: y - box.y - cell * 0.34 + cell * 0.18 },
  );
  assert.ok(rgb[2] > 150 && rgb[0] < 60, `the badge is drawn over the stone: rgb ${rgb}`);

  await saveScreenshot(page, 'ocean-double-bubble.png');
  const detail = await page.locator('#player-black .player-detail').textContent();
  assert.match(detail, /bubbles 2\/7/);
  assert.match(await page.locator('#player-white .player-detail').textContent(), /bubbles 0\/7/);
  assert.deepEqual(errors, []);
});
