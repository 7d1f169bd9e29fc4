// Issue 27, items 5–7 and 14: the post-game review of a short game with a known blunder. White
// ignores Black's open three (a1); the review marks that move a blunder in its list and in the move
// list, names the better move (a block) and the forced win it allowed; clicking the graph or a mark
// shows that position; a spectator who opens the link sees the same review.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openBrowser, newGameViaDialog, waitView, play, saveScreenshot } from './lib/harness.mjs';

const suite = serverAndBrowser();
const BLUNDER_GAME = ['h8', 'h9', 'i8', 'i9', 'j8', 'a1', 'k8', 'a2', 'l8'];

const shown = (page) => page.evaluate(() => window.wuzi.store.shownPly());

test('a review marks the blunder, and the graph and the marks jump to their moves', { timeout: 240000 }, async () => {
  const { page, errors } = suite.browser;
  await page.goto(suite.server.url);
  await waitView(page, () => true);
  await newGameViaDialog(page, { mode: 'local', rule: 'freestyle', size: '15' });
  for (const m of BLUNDER_GAME) await play(page, m);
  const v = await waitView(page, (g) => !!g.result);
  assert.equal(v.result.winner, 'black');

  // The panel offers the review once the game is over; it runs and finishes.
  await page.locator('#review-panel').waitFor({ state: 'visible' });
  await page.click('#btn-review');
  const blunder = page.locator('#review-marks li[data-ply="6"]');
  await blunder.waitFor({ state: 'visible', timeout: 180000 });
  await page.locator('.review-progress:empty').waitFor({ state: 'attached', timeout: 180000 });
  assert.match(await blunder.getAttribute('class'), /\bblunder\b/);
  assert.match(await blunder.textContent(), /6\. a1 Blunder/);
  assert.equal(await page.locator('#movelist .mv[data-ply="6"]').getAttribute('data-mark'), 'blunder');
  assert.match(await page.locator('.review-accuracy').textContent(), /Accuracy: Black \d+\.\d% · White \d+\.\d%/);

  // Clicking the graph near the start shows an early position; clicking the mark shows the blunder
  // with the better move and the forced win it allowed.
  const box = await page.locator('#review-graph').boundingBox();
  await page.mouse.click(box.x + (box.width * 3) / 9, box.y + box.height / 2);
  assert.equal(await shown(page), 3);
  await blunder.click();
  assert.equal(await shown(page), 6);
  const detail = await page.locator('#review-detail').textContent();
  assert.match(detail, /6\. a1 — Blunder/);
  assert.match(detail, /Better: (f8|g8|k8|l8) — line/);
  assert.match(detail, /allowed Black a forced win \(VCF\)/);
  // A dot of the graph jumps too.
  await page.locator('#review-graph circle[data-ply="6"]').waitFor();
  await page.click('#nav-first');
  assert.equal(await shown(page), 0);
  await page.locator('#review-graph circle[data-ply="6"]').dispatchEvent('click');
  assert.equal(await shown(page), 6);
  await saveScreenshot(page, 'review-desktop.png');

  // A spectator with the link sees the same review, in Chinese too.
  const other = await openBrowser({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  try {
    await other.page.goto(`${suite.server.url}/#g=${v.id}&ply=6`);
    await other.page.locator('#review-marks li[data-ply="6"]').waitFor({ state: 'visible', timeout: 30000 });
    await other.page.evaluate(async () => (await import('/js/i18n.js')).setLanguage('zh-Hans'));
    await other.page.locator('#review-panel').scrollIntoViewIfNeeded();
    assert.match(await other.page.locator('#review-marks li[data-ply="6"]').textContent(), /败着/);
    await saveScreenshot(other.page, 'review-phone-zh.png', { fullPage: true });
    assert.deepEqual(other.errors, []);
  } finally {
    await other.close();
  }
  assert.deepEqual(errors, []);
});
