// Screenshots for the README and for looking at by eye (docs/screenshots/), desktop and phone,
// plus the layout facts that can be checked: nothing overflows, nothing moves while playing.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, newGameViaDialog, waitView, play, saveScreenshot } from './lib/harness.mjs';

let server;
before(async () => {
  server = await startServer();
});
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
    await saveScreenshot(page, 'desktop.png');
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
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});
