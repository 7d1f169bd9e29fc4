// Issue 22, item 8: swap2 against the computer reads well: who must act, what the choices are,
// and which side is yours (never "You chooses", never "Black / Black").

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newGameViaDialog, waitView, statusText } from './lib/harness.mjs';

const suite = serverAndBrowser();

async function setLanguage(page, code) {
  await page.evaluate(async (c) => (await import('/js/i18n.js')).setLanguage(c), code);
}

async function cards(page) {
  return page.evaluate(() =>
    ['black', 'white'].map((c) => {
      const el = document.querySelector(`#player-${c}`);
      return `${el.querySelector('.player-name').textContent} / ${el.querySelector('.player-detail').textContent}`;
    }),
  );
}

test('swap2, you play White against the computer: the computer places, you choose, the cards then say which is you', { timeout: 180000 }, async () => {
  const { page, errors } = suite.browser;
  await page.goto(suite.server.url);
  await waitView(page, () => true);
  // "You play White": in a swap opening that is the second seat; the computer places the first three stones.
  await newGameViaDialog(page, { mode: 'computer', player: 'level1', color: 'white', rule: 'renju', size: '15', opening: 'swap2' });
  const v = await waitView(page, (g) => g.opening && g.opening.phase === 'choose' && !g.thinking, { what: 'the choice', timeout: 120000 });
  assert.equal(v.moves.length, 3);
  await page.locator('#opening-panel').waitFor({ state: 'visible' });

  assert.equal(await statusText(page), 'Opening: your choice — pick one below');
  assert.deepEqual(await page.locator('#opening-choices button').allTextContents(), ['Take Black', 'Take White', 'Place two more stones']);
  assert.equal(await page.locator('#opening-title').textContent(), 'Colours are not chosen yet. Whoever takes White plays the next move.');
  assert.ok(await page.locator('#opening-title').isVisible());
  assert.deepEqual(await cards(page), ['Black / Not chosen yet', 'White / Not chosen yet']);
  assert.ok(await page.locator('#btn-undo').isDisabled(), 'none of the stones is yours to take back');

  await setLanguage(page, 'zh-Hans');
  assert.equal(await statusText(page), '开局：轮到你选择，请在下方选一项');
  assert.deepEqual(await cards(page), ['黑方 / 尚未选定', '白方 / 尚未选定']);
  await setLanguage(page, 'zh-Hant');
  assert.equal(await statusText(page), '開局：輪到你選擇，請在下方選一項');
  await setLanguage(page, 'en');

  await page.click('#opening-choices button[data-choice=black]');
  const after = await waitView(page, (g) => !g.opening && g.players && g.players.black === 'human', { what: 'the choice to be taken' });
  assert.equal(after.players.white, 'computer');
  const [black, white] = await cards(page);
  assert.equal(black, 'You / Black');
  assert.match(white, /^Computer \/ Level 1 · White$/);
  assert.deepEqual(errors, []);
});

test('swap2 where you place the stones: the status says "you place", and the computer\'s choice is named', { timeout: 180000 }, async () => {
  const { page, errors } = suite.browser;
  await newGameViaDialog(page, { mode: 'computer', player: 'level1', color: 'black', rule: 'freestyle', size: '15', opening: 'swap2' });
  assert.equal(await statusText(page), 'Opening: you place stone 1 (Black)');
  assert.deepEqual(await cards(page), ['Black / Not chosen yet', 'White / Not chosen yet']);
  assert.deepEqual(errors, []);
});
