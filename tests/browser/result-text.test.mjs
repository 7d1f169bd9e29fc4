// Issue 22, item 4 (and 16's stray space): the reason a game ended is always readable in full, in
// every language and at every window size; nothing in the status line is cut off.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newGameViaDialog, waitView, play, statusText } from './lib/harness.mjs';
import { layoutProblems } from './lib/layout.mjs';

const suite = serverAndBrowser();

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 800, height: 1000 },
  { width: 390, height: 844 },
];
const LANGS = ['en', 'zh-Hans', 'zh-Hant'];

async function setLanguage(page, code) {
  await page.evaluate(async (c) => (await import('/js/i18n.js')).setLanguage(c), code);
}

/// The status line shows `expected` (a regexp per language) whole, at every size and in every language.
async function checkEveryWhere(page, expected) {
  const problems = [];
  for (const vp of VIEWPORTS) {
    await page.setViewportSize(vp);
    for (const lang of LANGS) {
      await setLanguage(page, lang);
      const text = await statusText(page);
      assert.match(text, expected[lang], `${lang} at ${vp.width}×${vp.height}`);
      for (const p of await layoutProblems(page, '#status')) problems.push(`${lang} ${vp.width}×${vp.height}: ${p}`);
    }
  }
  await page.setViewportSize(VIEWPORTS[0]);
  await setLanguage(page, 'en');
  assert.deepEqual(problems, []);
}

test('renju, a forbidden click loses: "White wins — Black played a forbidden double-three at i9" shows whole', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  await page.goto(suite.server.url);
  await waitView(page, () => true);
  await newGameViaDialog(page, { mode: 'local', rule: 'renju', forbidden_policy: 'lose', size: '15' });
  for (const m of ['g9', 'a1', 'h9', 'c1', 'i7', 'o15', 'i8', 'o1', 'i9']) await play(page, m);
  const v = await waitView(page, (g) => !!g.result);
  assert.equal(v.result.reason, 'forbidden');
  await checkEveryWhere(page, {
    en: /^White wins — Black played a forbidden double-three at i9$/,
    'zh-Hans': /^白方胜 — 黑方在 i9 走了禁手（三三）$/,
    'zh-Hant': /^白方勝 — 黑方在 i9 走了禁手（三三）$/,
  });
  assert.deepEqual(errors, []);
});

test('connect-6: "Black wins — 6 in a row" shows whole', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  await newGameViaDialog(page, { mode: 'local', rule: 'freestyle', size: '15', k: '6' });
  for (const m of ['c8', 'a1', 'd8', 'a3', 'e8', 'a5', 'f8', 'a7', 'g8', 'a9', 'h8']) await play(page, m);
  await waitView(page, (g) => !!g.result);
  await checkEveryWhere(page, {
    en: /^Black wins — 6 in a row$/,
    'zh-Hans': /^黑方胜 — 6 子连珠$/,
    'zh-Hant': /^黑方勝 — 6 子連珠$/,
  });
  assert.deepEqual(errors, []);
});

test('against the computer the verdict and the result join without a stray space in Chinese', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  await newGameViaDialog(page, { mode: 'computer', player: 'level1', color: 'black', rule: 'freestyle', size: '15' });
  await play(page, 'h8');
  await waitView(page, (g) => !g.thinking && g.moves.length === 2, { what: "the computer's reply" });
  await page.click('#btn-resign');
  await page.click('#btn-resign');
  await waitView(page, (g) => !!g.result);
  assert.equal(await statusText(page), 'You lose. White wins — Black resigned');
  await setLanguage(page, 'zh-Hans');
  assert.equal(await statusText(page), '你输了。白方胜 — 黑方认输');
  await setLanguage(page, 'zh-Hant');
  assert.equal(await statusText(page), '你輸了。白方勝 — 黑方認輸');
  await setLanguage(page, 'en');
  assert.deepEqual(errors, []);
});
