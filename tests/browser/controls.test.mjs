// The other game controls: hint, resign (with its confirming second click), restart, and the
// display settings (move numbers, remembered across a reload).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newGameViaDialog, waitView, play, statusText } from './lib/harness.mjs';

const suite = serverAndBrowser();

test('hint names the engine\'s move; resign needs a second click and ends the game; restart empties the board', { timeout: 180000 }, async () => {
  const { page, errors } = suite.browser;
  await page.goto(suite.server.url);
  await waitView(page, () => true);
  await newGameViaDialog(page, { mode: 'local', rule: 'freestyle', size: '15' });
  for (const m of ['h8', 'h9', 'i8', 'i9', 'j8', 'j9']) await play(page, m);

  // Black has three in a row with both ends open: the hint is one of the two winning extensions.
  await page.click('#btn-hint');
  await page.locator('#toast').waitFor({ state: 'visible' });
  const toast = await page.locator('#toast').textContent();
  const hint = /Hint: ([a-o]\d+)/.exec(toast);
  assert.ok(hint, `the toast names a move: "${toast}"`);
  assert.ok(['g8', 'k8'].includes(hint[1]), `the hint ${hint[1]} makes an open four`);
  const hinted = await page.evaluate(() => window.wuzi.store.hint && window.wuzi.store.hint.best);
  assert.ok(hinted, 'the hint is kept to be drawn on the board');

  // Resign: the first click only asks.
  await page.click('#btn-resign');
  assert.match(await page.locator('#btn-resign').textContent(), /Resign this game\?/);
  assert.equal((await waitView(page, () => true)).result, null);
  await page.click('#btn-resign');
  let v = await waitView(page, (g) => !!g.result, { what: 'the resignation' });
  assert.equal(v.result.reason, 'resignation');
  assert.equal(v.result.winner, 'white', 'in a local game the side to move (Black) resigns');
  assert.match(await statusText(page), /White wins — Black resigned/);
  assert.ok(await page.locator('#btn-resign').isDisabled());

  // Restart: same game, empty board, play again.
  const id = v.id;
  await page.click('#btn-restart');
  v = await waitView(page, (g) => g.moves.length === 0 && !g.result, { what: 'the restart' });
  assert.equal(v.id, id);
  assert.equal(await page.locator('#movelist .mv').count(), 0);
  await play(page, 'h8');
  assert.deepEqual(errors, []);
});

test('move numbers and the evaluation bar are settings, remembered across a reload', { timeout: 60000 }, async () => {
  const { page, errors } = suite.browser;
  await page.click('#btn-settings');
  const numbers = page.locator('#dlg-settings input[name=moveNumbers]');
  const evalBox = page.locator('#dlg-settings input[name=showEval]');
  assert.equal(await numbers.isChecked(), false);
  await numbers.check();
  await evalBox.check();
  await page.locator('#dlg-settings button[value=close]').click();
  assert.ok(await page.locator('#evalbox').isVisible());
  await page.reload();
  await waitView(page, () => true);
  assert.ok(await page.locator('#evalbox').isVisible(), 'the evaluation bar stays on');
  await page.click('#btn-settings');
  assert.equal(await numbers.isChecked(), true, 'move numbers stay on');
  await evalBox.uncheck();
  await page.locator('#dlg-settings button[value=close]').click();
  assert.equal(await page.locator('#evalbox').isVisible(), false);
  assert.deepEqual(errors, []);
});

test('the new-game dialog shows only the fields that apply', { timeout: 60000 }, async () => {
  const { page, errors } = suite.browser;
  await page.click('#btn-new');
  const dlg = page.locator('#dlg-new');
  await dlg.locator('input[name=mode][value=local]').check({ force: true });
  assert.equal(await page.locator('#new-player').isVisible(), false, 'no computer level for two players');
  await dlg.locator('input[name=mode][value=computer]').check({ force: true });
  assert.equal(await page.locator('#new-player').isVisible(), true);
  await dlg.locator('select[name=rule]').selectOption('freestyle');
  assert.equal(await page.locator('#new-forbidden').isVisible(), false, 'the forbidden policy is for renju only');
  await dlg.locator('select[name=rule]').selectOption('renju');
  assert.equal(await page.locator('#new-forbidden').isVisible(), true);
  assert.ok(await page.locator('#new-k').isDisabled(), 'renju is five in a row only');
  await dlg.locator('select[name=clock]').selectOption('side');
  assert.equal(await page.locator('#new-minutes').isVisible(), true);
  assert.equal(await page.locator('#new-move-seconds').isVisible(), false);
  await dlg.locator('select[name=size]').selectOption('custom');
  assert.equal(await page.locator('#new-width').isVisible(), true);
  const id = (await waitView(page, () => true)).id;
  await page.fill('#new-width', '30');
  await page.click('#new-start');
  assert.equal(await page.locator('#new-width').evaluate((el) => el.validity.valid), false, 'a board over 26 is refused');
  assert.ok(await dlg.isVisible(), 'the dialog stays open');
  assert.equal((await waitView(page, () => true)).id, id, 'no game was created');
  await page.click('#new-cancel');
  assert.deepEqual(errors, []);
});

test('"Move now" while the computer thinks makes it play its best move so far', { timeout: 180000 }, async () => {
  const { page, errors } = suite.browser;
  await newGameViaDialog(page, { mode: 'computer', player: 'level10', color: 'black', rule: 'freestyle', size: '15', clock: 'none' });
  await play(page, 'h8');
  const reply = await waitView(page, (g) => !g.thinking && g.moves.length === 2, { what: 'the first reply', timeout: 120000 });
  await play(page, reply.moves[1].name === 'i9' ? 'g7' : 'i9');
  await page.waitForFunction(() => document.querySelector('#status').dataset.state === 'thinking');
  const button = page.locator('#btn-move-now');
  assert.ok(await button.isVisible(), 'the button shows while the computer thinks');
  await button.click({ timeout: 5000 }).catch(() => {
    /* the reply came first */
  });
  const v = await waitView(page, (g) => !g.thinking && g.moves.length === 4, { what: "the computer's move", timeout: 120000 });
  assert.equal(v.sideToMove, 'black');
  assert.equal(await button.isVisible(), false, 'hidden again on my turn');
  assert.deepEqual(errors, []);
});
