// Issue 22, items 16 and 7: the evaluation names the side it favours; on a tablet in portrait the
// game buttons are above the fold; on a phone the new-game dialog shows its choices whole.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, newGameViaDialog, waitView, play } from './lib/harness.mjs';
import { layoutProblems } from './lib/layout.mjs';
import { before, after } from 'node:test';

let server;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

test('the evaluation says whose side it favours ("White +0.99", "Black wins in 7", "Even"), never a bare number', { timeout: 120000 }, async () => {
  const b = await openBrowser();
  try {
    const { page, errors } = b;
    await page.goto(server.url);
    await waitView(page, () => true);
    await page.click('#btn-settings');
    await page.locator('#dlg-settings input[name=showEval]').check();
    await page.locator('#dlg-settings button[value=close]').click();
    await newGameViaDialog(page, { mode: 'local', rule: 'freestyle', size: '15' });
    for (const m of ['h8', 'a1', 'i8', 'a2', 'j8']) await play(page, m);
    await page.waitForFunction(() => document.querySelector('#eval-score').textContent !== '', null, { timeout: 20000 });
    const score = await page.locator('#eval-score').textContent();
    assert.match(score, /^(?:(?:Black|White) \+\d+\.\d\d|Even|(?:Black|White) wins in \d+)$/, `"${score}"`);
    // Black has an open three and White nothing: the score favours Black.
    assert.match(score, /^Black/);
    const shown = await page.evaluate(async () => {
      const m = await import('/js/ui/evalbar.js');
      const i18n = await import('/js/i18n.js');
      const out = [m.scoreText({ kind: 'eval', value: -99 }, 'black'), m.scoreText({ kind: 'loss', value: 7 }, 'white'), m.scoreText({ kind: 'eval', value: 0 }, 'white')];
      i18n.setLanguage('zh-Hans');
      out.push(m.scoreText({ kind: 'eval', value: 35 }, 'white'));
      i18n.setLanguage('en');
      return out;
    });
    assert.deepEqual(shown, ['White +0.99', 'Black wins in 7', 'Even', '白方 +0.35']);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('tablet 800×1000: Undo, Hint and Resign are on screen without scrolling', { timeout: 60000 }, async () => {
  const b = await openBrowser({ viewport: { width: 800, height: 1000 } });
  try {
    const { page, errors } = b;
    await page.goto(server.url);
    await waitView(page, () => true);
    for (const id of ['#btn-undo', '#btn-hint', '#btn-resign']) {
      const box = await page.locator(id).boundingBox();
      assert.ok(box.y + box.height <= 1000, `${id} ends at ${Math.round(box.y + box.height)} of 1000`);
    }
    assert.equal(await page.evaluate(() => window.scrollY), 0);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('phone 390×844: the new-game dialog shows "Two players here" and every other choice whole, in every language', { timeout: 60000 }, async () => {
  const b = await openBrowser({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  try {
    const { page, errors } = b;
    await page.goto(server.url);
    await waitView(page, () => true);
    await page.click('#btn-new');
    await page.locator('#dlg-new').waitFor({ state: 'visible' });
    await page.locator('#dlg-new select[name=clock]').selectOption('side');
    const problems = [];
    for (const lang of ['en', 'zh-Hans', 'zh-Hant']) {
      await page.evaluate(async (c) => (await import('/js/i18n.js')).setLanguage(c), lang);
      const span = page.locator('#dlg-new input[name=mode][value=local] + span');
      const full = await span.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.getBoundingClientRect().right <= el.closest('.segmented').getBoundingClientRect().right + 1);
      if (!full) problems.push(`${lang}: "${await span.textContent()}" is cut`);
      for (const p of await layoutProblems(page, '#dlg-new')) problems.push(`${lang}: ${p}`);
    }
    assert.deepEqual(problems, []);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});
