// Issue 27, item 13 in the page: a RenLib library (.lib) opened in the analysis board. The real
// D4.lib of testdata/renlib (Kagetsu analysed, 3058 moves) is read through the file picker, browsed
// read-only to a known node by its lettered next moves and by the board, and its comment shown as
// text; a library whose comment looks like HTML shows it as text too.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import { serverAndBrowser, repoRoot, saveScreenshot } from './lib/harness.mjs';
import { layoutProblems } from './lib/layout.mjs';

const suite = serverAndBrowser();

async function openBoard(page) {
  await page.goto(`${suite.server.url}/#analysis`);
  await page.locator('#analysis-page').waitFor({ state: 'visible' });
  await page.waitForFunction(() => document.querySelector('#an-status').textContent.length > 0);
  await page.locator('#an-engine').uncheck();
}

async function click(page, name) {
  const canvas = page.locator('#an-board');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  const g = await canvas.evaluate((el) => ({ cell: Number(el.dataset.cell), ox: Number(el.dataset.ox), oy: Number(el.dataset.oy) }));
  const x = name.charCodeAt(0) - 97;
  const y = 15 - Number(name.slice(1));
  await page.mouse.click(box.x + g.ox + x * g.cell, box.y + g.oy + y * g.cell);
}

const line = (page) => page.locator('#an-board').evaluate((el) => el.dataset.line);
const status = (page) => page.locator('#an-status').textContent();

async function waitLine(page, want) {
  await page.waitForFunction((w) => document.querySelector('#an-board').dataset.line === w, want, { timeout: 10000 });
}

test('a RenLib library opens read-only in the analysis board and is browsed to a known comment', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  await openBoard(page);
  await page.setInputFiles('#an-file', path.join(repoRoot, 'testdata', 'renlib', 'D4.lib'));
  await page.waitForFunction(() => /RenLib library/.test(document.querySelector('#an-status').textContent), null, { timeout: 20000 });
  assert.match(await status(page), /^RenLib library “D4\.lib”: \d{4} moves, read-only\./);
  assert.equal(await page.locator('#an-source').textContent(), 'RenLib: D4.lib');
  assert.ok(await page.locator('#an-lib-close').isVisible());
  const nodes = Number(await page.locator('#an-moves').getAttribute('data-nodes'));
  assert.ok(nodes > 3000, `${nodes} moves in the tree`);
  for (const id of ['an-promote', 'an-mainline', 'an-delete', 'an-rule', 'an-clear']) {
    assert.equal(await page.locator(`#${id}`).isDisabled(), true, `${id} is disabled on a library`);
  }

  // The next moves are listed (a = the main line): follow h8 h9 i9 by them.
  for (const [i, mv] of ['h8', 'h9', 'i9'].entries()) {
    await page.locator(`#an-moves .an-next[data-move="${mv}"]`).click();
    await waitLine(page, ['h8', 'h9', 'i9'].slice(0, i + 1).join(' '));
  }
  // Then by the board: a click on a lettered next move goes there...
  await click(page, 'g10');
  await waitLine(page, 'h8 h9 i9 g10');
  const next = await page.locator('#an-moves .an-next').evaluateAll((els) => els.map((e) => e.dataset.move));
  assert.ok(next.includes('j8') && next.includes('g7'), `the moves after g10: ${next.join(' ')}`);
  await click(page, 'j8');
  await waitLine(page, 'h8 h9 i9 g10 j8');
  // ...where RenLib's comment is shown.
  const comment = page.locator('#an-comment');
  assert.ok(await comment.isVisible());
  assert.equal(await comment.textContent(), 'Transition to opening D7');

  // A point that is not a next move changes nothing: the library is read-only.
  await click(page, 'a1');
  await page.waitForFunction(() => /read-only/.test(document.querySelector('#an-status').textContent));
  assert.equal(await line(page), 'h8 h9 i9 g10 j8');
  await page.locator('#an-prev').click();
  await waitLine(page, 'h8 h9 i9 g10');
  assert.equal(await comment.isVisible(), false, 'no comment on g10');
  await click(page, 'g7');
  await waitLine(page, 'h8 h9 i9 g10 g7');
  assert.equal(await comment.textContent(), '"A"');
  const shot = await saveScreenshot(page, 'analysis-renlib.png');
  if (process.env.WUZI_SHOTS_DIR) {
    fs.mkdirSync(process.env.WUZI_SHOTS_DIR, { recursive: true });
    fs.copyFileSync(shot, path.join(process.env.WUZI_SHOTS_DIR, 'analysis-renlib.png'));
  }

  // Nothing cut off or overflowing with the library open, in the three languages, on a desktop
  // and a phone.
  const problems = [];
  for (const viewport of [null, { width: 390, height: 844 }]) {
    if (viewport) await page.setViewportSize(viewport);
    for (const lang of ['en', 'zh-Hans', 'zh-Hant']) {
      await page.evaluate(async (c) => (await import('/js/i18n.js')).setLanguage(c), lang);
      await new Promise((r) => setTimeout(r, 100));
      for (const p of await layoutProblems(page, '#analysis-page')) problems.push(`${viewport ? 'phone' : 'desktop'} ${lang}: ${p}`);
    }
  }
  await page.evaluate(async () => (await import('/js/i18n.js')).setLanguage('en'));
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.deepEqual(problems, []);

  // Closing the library gives the free board back, playable again.
  await page.locator('#an-lib-close').click();
  await page.waitForFunction(() => document.querySelector('#an-lib-close').hidden);
  assert.equal(await page.locator('#an-clear').isDisabled(), false);
  assert.equal(await page.evaluate(() => window.wuzi.analysis.library), null);
  assert.deepEqual(errors, [], 'no script errors on the page');
});

test("a library's comment is shown as text, never as HTML", { timeout: 60000 }, async () => {
  const { page, errors } = suite.browser;
  await openBoard(page);
  // A RenLib 3.0 file of one move, h8, whose comment is markup.
  const text = '<img src=x onerror="window.hacked=1"> <b>bold</b> & more';
  const bytes = [0xff, ...Buffer.from('RenLib'), 0xff, 3, 0, ...Array(10).fill(0xff), 0x78, 0x08, ...Buffer.from(text), 0];
  if (bytes.length % 2) bytes.push(0);
  await page.setInputFiles('#an-file', { name: 'markup.lib', mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
  await page.waitForFunction(() => /RenLib library/.test(document.querySelector('#an-status').textContent), null, { timeout: 20000 });
  await click(page, 'h8');
  await waitLine(page, 'h8');
  const comment = page.locator('#an-comment');
  assert.equal(await comment.textContent(), text);
  assert.equal(await comment.evaluate((el) => el.children.length), 0, 'no elements made from the comment');
  assert.equal(await page.evaluate(() => window.hacked), undefined);

  // Not a library at all: a clear error, and the board keeps what it had.
  await page.setInputFiles('#an-file', { name: 'broken.lib', mimeType: 'application/octet-stream', buffer: Buffer.from('not a library') });
  await page.waitForFunction(() => /Cannot read this library/.test(document.querySelector('#an-status').textContent), null, { timeout: 20000 });
  assert.match(await status(page), /not a RenLib library/);
  assert.equal(await line(page), 'h8');
  assert.deepEqual(errors, [], 'no script errors on the page');
});
