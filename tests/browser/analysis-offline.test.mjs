// Issue 27 item 11 for the analysis board: with the network cut, the engine in the browser (the
// WebAssembly build in a Web Worker) judges the moves played on a set-up position, streams its
// best lines and finds a VCF. Needs a binary built with the page's engine (WUZI_WASM=1, as
// scripts/test-browser.sh builds it; release builds always have it).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './lib/harness.mjs';

const suite = serverAndBrowser();

async function click(page, name) {
  const canvas = page.locator('#an-board');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  const g = await canvas.evaluate((el) => ({ cell: Number(el.dataset.cell), ox: Number(el.dataset.ox), oy: Number(el.dataset.oy) }));
  const x = name.charCodeAt(0) - 97;
  const y = 15 - Number(name.slice(1));
  await page.mouse.click(box.x + g.ox + x * g.cell, box.y + g.oy + y * g.cell);
}

test('offline analysis board: moves judged, live lines and a VCF from the engine in the browser', { timeout: 120000 }, async () => {
  const { page, context, errors } = suite.browser;
  await page.goto(`${suite.server.url}/#analysis`);
  await page.locator('#analysis-page').waitFor({ state: 'visible' });
  // The engine is fetched (and cached by the service worker) while online.
  assert.equal(await page.evaluate(async () => (await import('/js/engine.js')).available()), true);
  // Black's broken three f9 g9 · i9, Black to move: h9 makes an open four.
  await page.evaluate(() =>
    localStorage.setItem(
      'wuzi.analysis.board',
      JSON.stringify({
        position: { rule: 'freestyle', size: 15, black: ['f9', 'g9', 'i9'], white: ['c12', 'm3'], to_move: 'black', moves: [] },
        nodes: [],
        current: 0,
        saved_at: Date.now(),
      }),
    ),
  );
  await page.reload();
  await page.locator('#analysis-page').waitFor({ state: 'visible' });
  await page.waitForFunction(() => /Black to move/.test(document.querySelector('#an-status').textContent));
  await page.locator('#an-engine').uncheck();

  await context.setOffline(true);
  try {
    // The solver, here.
    await page.locator('#an-solve-side').selectOption('black');
    await page.locator('#an-vcf').click();
    await page.waitForFunction(() => document.querySelector('.an-solve-move[data-move="h9"]'), null, { timeout: 30000 });

    // A move, judged here; the status says the board is offline.
    await click(page, 'h9');
    await page.waitForFunction(() => document.querySelector('#an-board').dataset.line === 'h9', null, { timeout: 30000 });
    assert.match(await page.locator('#an-status').textContent(), /White to move.*offline/);
    // An occupied point is still no move.
    await click(page, 'f9');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await page.locator('#an-board').evaluate((el) => el.dataset.line), 'h9');

    // Live lines from the engine in the browser: White must block an end of the open four.
    await page.locator('#an-engine').check();
    await page.waitForFunction(() => document.querySelectorAll('#an-lines .an-pv').length > 0, null, { timeout: 30000 });
    const first = await page.locator('#an-lines .an-pv-moves').first().textContent();
    assert.ok(first.split(' ').length >= 1, first);
    await page.locator('#an-engine').uncheck();

    // White blocks, Black makes five: the engine here ends the game.
    await click(page, 'e9');
    await page.waitForFunction(() => document.querySelector('#an-board').dataset.line === 'h9 e9', null, { timeout: 30000 });
    await click(page, 'j9');
    await page.waitForFunction(() => /Black wins|black wins/i.test(document.querySelector('#an-status').textContent), null, { timeout: 30000 });
  } finally {
    await context.setOffline(false);
  }
  assert.deepEqual(errors, []);
});
