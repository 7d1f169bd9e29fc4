// Issue 22, items 12 and 13: a visit without a game link creates nothing on the server until the
// player starts; the logo leaves a game, and "Games" brings back unfinished and recent ones.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newGameViaDialog, waitView, play, statusText } from './lib/harness.mjs';

const suite = serverAndBrowser();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test('visits to / create no game; the first stone does', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  const creates = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/games') creates.push(r.url());
  });
  await page.goto(suite.server.url);
  await waitView(page, () => true);
  await page.reload();
  await waitView(page, () => true);
  await sleep(1000);
  assert.equal(creates.length, 0, 'no game created by loading the page');
  let v = await waitView(page, () => true);
  assert.equal(v.id, null);
  assert.equal(await statusText(page), 'Your move (Black)');
  assert.ok(await page.locator('#btn-undo').isDisabled());
  assert.ok(await page.locator('#btn-resign').isDisabled());

  await page.click('#btn-settings');
  await page.locator('#dlg-settings button[value=close]').click();
  assert.equal(creates.length, 0);

  const { clickPoint } = await import('./lib/harness.mjs');
  await clickPoint(page, 'h8');
  v = await waitView(page, (g) => !!g.id && g.moves.length >= 1, { what: 'the first stone' });
  assert.equal(creates.length, 1, 'one game, created by the first stone');
  assert.equal(v.moves[0].name, 'h8');
  assert.match(page.url(), new RegExp(`#g=${v.id}$`));
  assert.deepEqual(errors, []);
});

test('the computer moves first: nothing is created until Start', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  await newGameViaDialog(page, { mode: 'computer', player: 'level1', color: 'white', rule: 'freestyle', size: '15', opening: 'free' });
  await page.click('a.brand');
  await page.waitForURL((u) => !u.hash);
  let v = await waitView(page, (g) => g.id === null);
  assert.equal(await statusText(page), 'The computer moves first: press Start');
  await page.click('#btn-start-draft');
  v = await waitView(page, (g) => !!g.id && g.moves.length === 1 && !g.thinking, { what: "the computer's first stone", timeout: 60000 });
  assert.equal(v.moves[0].color, 'black');
  assert.deepEqual(errors, []);
});

test('after the logo, "Games" lists the unfinished game and opens it again', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  const a = await newGameViaDialog(page, { mode: 'local', rule: 'renju', size: '15', forbidden_policy: 'refuse' });
  for (const m of ['h8', 'h9']) await play(page, m);
  await page.click('a.brand');
  await page.waitForURL((u) => !u.hash);
  await waitView(page, (g) => g.id === null);

  await page.click('#btn-games');
  const item = page.locator(`#games-list li[data-id="${a.id}"]`);
  await item.waitFor({ state: 'visible' });
  const text = await item.textContent();
  assert.match(text, /Renju · 15×15 · Two players here/);
  assert.match(text, /Unfinished · 2 moves/);
  // Unfinished games come first.
  assert.equal(await page.locator('#games-list li').first().getAttribute('data-id'), a.id);
  await item.locator('a').click();
  const v = await waitView(page, (g) => g.id === a.id, { what: 'the old game' });
  assert.deepEqual(v.moves.map((m) => m.name), ['h8', 'h9']);
  assert.equal(await statusText(page), 'Black to move');
  assert.deepEqual(errors, []);
});

test('a link to a game the server does not have: a fresh board and "Game not found", nothing created', { timeout: 60000 }, async () => {
  const { page, errors } = suite.browser;
  const creates = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/games') creates.push(r.url());
  });
  await page.goto('about:blank');
  await page.goto(`${suite.server.url}/#g=nosuchgame`);
  await page.waitForFunction(() => document.querySelector('#status-text').textContent === 'Game not found', null, { timeout: 5000 });
  assert.equal((await waitView(page, () => true)).id, null);
  assert.equal(creates.length, 0);
  assert.deepEqual(errors, []);
});
