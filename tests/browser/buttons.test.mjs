// Issue 22, items 5, 6 and 10: buttons that cannot act are disabled and every refused action says
// why; the armed "Resign this game?" stays inside the panel; undo and clicks while looking back.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newGameViaDialog, waitView, play, clickPoint, statusText } from './lib/harness.mjs';
import { layoutProblems } from './lib/layout.mjs';

const suite = serverAndBrowser();

async function setLanguage(page, code) {
  await page.evaluate(async (c) => (await import('/js/i18n.js')).setLanguage(c), code);
}

test('after a resignation Undo is disabled, and a click on the board says the game is over', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  await page.goto(suite.server.url);
  await waitView(page, () => true);
  await newGameViaDialog(page, { mode: 'local', rule: 'freestyle', size: '15' });
  for (const m of ['h8', 'h9', 'i8', 'i9']) await play(page, m);
  assert.equal(await page.locator('#btn-undo').isDisabled(), false, 'undo works during the game');
  await page.click('#btn-resign');
  await page.click('#btn-resign');
  await waitView(page, (g) => !!g.result);
  assert.ok(await page.locator('#btn-undo').isDisabled(), 'the server refuses undo after a resignation: the button says so first');
  assert.ok(await page.locator('#btn-resign').isDisabled());
  assert.ok(await page.locator('#btn-hint').isDisabled());
  await clickPoint(page, 'a1');
  await page.locator('#toast').waitFor({ state: 'visible', timeout: 3000 });
  assert.equal(await page.locator('#toast').textContent(), 'The game is over');
  assert.match(await statusText(page), /White wins — Black resigned/, 'the result stays in the status line');
  assert.deepEqual(errors, []);
});

test('after a loss on time Undo is disabled', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  await newGameViaDialog(page, { mode: 'local', rule: 'freestyle', size: '15', clock: 'move', move_seconds: '1' });
  await play(page, 'h8');
  await waitView(page, (g) => !!g.result, { timeout: 30000, what: 'the flag to fall' });
  assert.ok(await page.locator('#btn-undo').isDisabled());
  assert.deepEqual(errors, []);
});

test('the armed "Resign this game?" stays inside the panel, in every language, desktop and phone', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  await newGameViaDialog(page, { mode: 'local', rule: 'freestyle', size: '15', clock: 'none' });
  await play(page, 'h8');
  const problems = [];
  for (const vp of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(vp);
    for (const lang of ['en', 'zh-Hans', 'zh-Hant']) {
      await setLanguage(page, lang);
      await page.click('#btn-resign');
      assert.ok(await page.locator('#btn-resign').evaluate((b) => b.classList.contains('armed')));
      const side = await page.locator('.side').boundingBox();
      const row = await page.locator('.controls').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      const btn = await page.locator('#btn-resign').boundingBox();
      if (row.scroll > row.client + 1) problems.push(`${lang} ${vp.width}: the button row is ${row.scroll} px wide in ${row.client}`);
      if (btn.x + btn.width > side.x + side.width + 1) problems.push(`${lang} ${vp.width}: Resign ends at ${btn.x + btn.width}, the panel at ${side.x + side.width}`);
      for (const p of await layoutProblems(page, '.controls')) problems.push(`${lang} ${vp.width}: ${p}`);
      await page.waitForFunction(() => !document.querySelector('#btn-resign').classList.contains('armed'), null, { timeout: 5000 });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await setLanguage(page, 'en');
  assert.deepEqual(problems, []);
  assert.equal((await waitView(page, () => true)).result, null, 'never resigned');
  assert.deepEqual(errors, []);
});

test('Undo while looking back shows the live game it changed; a click while looking back says why nothing happens', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  await newGameViaDialog(page, { mode: 'local', rule: 'freestyle', size: '15' });
  for (const m of ['h8', 'h9', 'i8', 'i9', 'j8', 'j9']) await play(page, m);
  await page.keyboard.press('Home');
  assert.equal(await statusText(page), 'Viewing the empty board');

  await clickPoint(page, 'a1');
  await page.waitForFunction(() => /earlier position/.test(document.querySelector('#status-text').textContent), null, { timeout: 3000 });
  assert.equal((await waitView(page, () => true)).moves.length, 6, 'the click played nothing');

  await page.click('#btn-undo');
  const v = await waitView(page, (g) => g.moves.length === 5, { what: 'the undo' });
  const shown = await page.evaluate(() => ({ browsing: window.wuzi.store.browsing(), stones: window.wuzi.store.shownMoves().length }));
  assert.deepEqual(shown, { browsing: false, stones: 5 }, 'the board shows the game as it is now');
  assert.equal(v.sideToMove, 'white');
  assert.equal(await statusText(page), 'White to move');
  assert.deepEqual(errors, []);
});
