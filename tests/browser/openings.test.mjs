// Swap and swap2 openings: the page offers the colour choices the server asks for.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newGameViaDialog, waitView, play, statusText } from './lib/harness.mjs';

const suite = serverAndBrowser();

test('swap2 between two players: three stones, "place two more", two stones, then a colour choice', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  await page.goto(suite.server.url);
  await waitView(page, () => true);
  await newGameViaDialog(page, { mode: 'local', rule: 'freestyle', size: '15', opening: 'swap2' });
  for (const m of ['h8', 'h9', 'j8']) await play(page, m);
  let v = await waitView(page, (g) => g.opening && g.opening.phase === 'choose', { what: 'the choice' });
  assert.equal(v.opening.seat, 'second');
  await page.locator('#opening-panel').waitFor({ state: 'visible' });
  const labels = await page.locator('#opening-choices button').allTextContents();
  assert.deepEqual(labels, ['Take Black', 'Take White', 'Place two more stones']);
  assert.match(await statusText(page), /Second player chooses/);

  await page.click('#opening-choices button[data-choice=place2]');
  v = await waitView(page, (g) => g.opening && g.opening.phase === 'place', { what: 'placing two more' });
  await page.locator('#opening-panel').waitFor({ state: 'hidden' });
  for (const m of ['i9', 'g7']) await play(page, m);
  v = await waitView(page, (g) => g.opening && g.opening.phase === 'choose', { what: 'the second choice' });
  assert.equal(v.opening.seat, 'first');
  assert.deepEqual(await page.locator('#opening-choices button').allTextContents(), ['Take Black', 'Take White']);

  await page.click('#opening-choices button[data-choice=white]');
  v = await waitView(page, (g) => !g.opening, { what: 'the opening to end' });
  assert.equal(v.sideToMove, 'white', 'White plays move 6');
  await page.locator('#opening-panel').waitFor({ state: 'hidden' });
  assert.match(await statusText(page), /White to move/);
  const after6 = await play(page, 'k10');
  assert.equal(after6.moves.length, 6);
  assert.deepEqual(errors, []);
});

test('swap against the computer: the computer chooses its colour, and play goes on', { timeout: 180000 }, async () => {
  const { page, errors } = suite.browser;
  await newGameViaDialog(page, { mode: 'computer', player: 'level1', color: 'black', rule: 'freestyle', size: '15', opening: 'swap' });
  for (const m of ['h8', 'h9', 'j8']) await play(page, m);
  // The computer (second seat) chooses; then whoever is White plays move 4.
  const v = await waitView(page, (g) => !g.opening && !g.thinking && g.moves.length >= 3, { what: "the computer's choice", timeout: 120000 });
  assert.ok(v.players.black && v.players.white, 'colours are assigned');
  assert.notEqual(v.players.black, v.players.white);
  await page.locator('#opening-panel').waitFor({ state: 'hidden' });
  const me = v.players.black === 'human' ? 'black' : 'white';
  assert.equal(await page.locator(`#player-${me} .player-name`).textContent(), 'You');
  assert.deepEqual(errors, []);
});
