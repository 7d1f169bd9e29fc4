// Undo, looking back through the move list, opening a record and continuing from a move, and the link.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newGameViaDialog, waitView, play, statusText } from './lib/harness.mjs';

const suite = serverAndBrowser();

test('undo against the computer takes back to the person\'s last move; in a local game one stone', { timeout: 180000 }, async () => {
  const { page, errors } = suite.browser;
  await page.goto(suite.server.url);
  await waitView(page, () => true);
  await newGameViaDialog(page, { mode: 'computer', player: 'level1', color: 'black', rule: 'freestyle', size: '15' });
  await play(page, 'h8');
  let v = await waitView(page, (g) => g.moves.length === 2 && !g.thinking, { what: "the computer's reply" });
  await play(page, v.moves[1].name === 'h9' ? 'g7' : 'h9');
  v = await waitView(page, (g) => g.moves.length === 4 && !g.thinking, { what: "the computer's second reply" });
  await page.click('#btn-undo');
  v = await waitView(page, (g) => g.moves.length === 2, { what: 'undo to my last move' });
  assert.equal(v.sideToMove, 'black');
  assert.equal(await page.locator('#movelist .mv').count(), 2);
  assert.match(await statusText(page), /Your move/);

  await newGameViaDialog(page, { mode: 'local', rule: 'standard', size: '15' });
  for (const m of ['h8', 'h9', 'i8']) await play(page, m);
  await page.click('#btn-undo');
  v = await waitView(page, (g) => g.moves.length === 2);
  assert.deepEqual(v.moves.map((m) => m.name), ['h8', 'h9']);
  assert.equal(v.sideToMove, 'black');
  assert.deepEqual(errors, []);
});

test('the move list looks back without changing the game; a record opens and play continues from a chosen move', { timeout: 180000 }, async () => {
  const { page, errors } = suite.browser;
  await newGameViaDialog(page, { mode: 'local', rule: 'freestyle', size: '15' });
  const moves = ['h8', 'i9', 'j10', 'h9', 'h10', 'g11'];
  for (const m of moves) await play(page, m);

  // Look back: click move 2, then arrow keys.
  await page.locator('#movelist .mv[data-ply="2"]').click();
  assert.equal(await page.evaluate(() => window.wuzi.store.shownPly()), 2);
  assert.match(await statusText(page), /Viewing move 2 of 6/);
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => window.wuzi.store.shownPly()), 3);
  await page.keyboard.press('Home');
  assert.equal(await page.evaluate(() => window.wuzi.store.shownPly()), 0);
  await page.keyboard.press('End');
  assert.equal(await page.evaluate(() => window.wuzi.store.shownPly()), 6);
  const v = await waitView(page, () => true);
  const onServer = (await suite.server.api('GET', `/api/games/${v.id}`)).body;
  assert.equal(onServer.moves.length, 6, 'looking back changed nothing on the server');

  // A link reopens the game at a move.
  await page.locator('#movelist .mv[data-ply="4"]').click();
  await page.click('#btn-records');
  const link = await page.locator('#record-link').inputValue();
  assert.match(link, new RegExp(`#g=${v.id}&ply=4$`));
  await page.keyboard.press('Escape');
  const other = await page.context().newPage();
  await other.goto(link);
  await waitView(other, (g) => g.id === v.id);
  await other.waitForFunction(() => window.wuzi.store.shownPly() === 4);
  assert.deepEqual(await other.locator('#movelist .mv').allTextContents(), moves);
  await other.close();

  // Continue from here (move 4) starts a new game with those four stones.
  await page.click('#btn-continue-here');
  const cont = await waitView(page, (g) => g.id !== v.id, { what: 'the continued game' });
  assert.deepEqual(cont.moves.map((m) => m.name), moves.slice(0, 4));
  assert.equal(cont.sideToMove, 'black');

  // Open a pasted move list from move 3 and continue playing.
  await page.click('#btn-records');
  await page.fill('#record-text', '1. h8 2. h9 3. i8 4. i9 5. j8');
  await page.fill('#record-ply', '3');
  await page.click('#btn-open-record');
  const opened = await waitView(page, (g) => g.id !== cont.id, { what: 'the opened record' });
  assert.deepEqual(opened.moves.map((m) => m.name), ['h8', 'h9', 'i8']);
  assert.equal(opened.sideToMove, 'white');
  const next = await play(page, 'k8');
  assert.deepEqual(next.moves.map((m) => m.name), ['h8', 'h9', 'i8', 'k8']);

  // Open a file (an SGF of the game above, as the server writes it) and continue from move 5.
  const sgf = await (await fetch(`${suite.server.url}/api/games/${v.id}/record?format=sgf`)).text();
  await page.click('#btn-records');
  await page.setInputFiles('#record-file', { name: 'game.sgf', mimeType: 'application/x-go-sgf', buffer: Buffer.from(sgf) });
  await page.waitForFunction(() => document.querySelector('#record-text').value.length > 0);
  await page.fill('#record-ply', '5');
  await page.click('#btn-open-record');
  const fromFile = await waitView(page, (g) => g.id !== next.id, { what: 'the game from the file' });
  assert.deepEqual(fromFile.moves.map((m) => m.name), moves.slice(0, 5));
  assert.equal(fromFile.sideToMove, 'white');

  // A damaged record gets a clear error and changes nothing.
  await page.click('#btn-records');
  await page.fill('#record-text', 'h8 h8');
  await page.fill('#record-ply', '');
  await page.click('#btn-open-record');
  await page.waitForFunction(() => document.querySelector('#records-error').textContent.length > 0);
  assert.match(await page.locator('#records-error').textContent(), /record|h8|occupied/i);
  await page.keyboard.press('Escape');
  assert.equal((await waitView(page, () => true)).id, fromFile.id, 'still the same game');
  assert.deepEqual(errors, []);
});
