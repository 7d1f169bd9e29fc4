// Two players at one screen under renju: Black's forbidden point is refused or loses, per the setting.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serverAndBrowser, newGameViaDialog, waitView, play, clickPoint, statusText, pointName, repoRoot } from './lib/harness.mjs';

const suite = serverAndBrowser();

// After these moves Black to move has a double-three at i8 (g8 h8 _ across, i9 i10 down).
const OPENING = ['g8', 'a1', 'h8', 'a3', 'i10', 'a5', 'i9', 'o1'];

async function setUp(page, policy) {
  await page.goto(suite.server.url);
  await waitView(page, () => true, { what: 'the page' });
  await newGameViaDialog(page, { mode: 'local', rule: 'renju', forbidden_policy: policy, size: '15' });
  for (const m of OPENING) await play(page, m);
  const v = await waitView(page, (g) => g.moves.length === OPENING.length);
  assert.equal(v.sideToMove, 'black');
  const f = v.forbidden.find((p) => p.name === 'i8' || (p.x === 8 && p.y === 7));
  assert.ok(f, `the server marks i8 forbidden: ${JSON.stringify(v.forbidden)}`);
  assert.equal(String(f.kind), '33');
  return v;
}

test('policy "refuse": a click on the forbidden point is refused and changes nothing', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  await setUp(page, 'refuse');
  await clickPoint(page, 'i8');
  await page.waitForFunction(() => document.querySelector('#status').classList.contains('error'));
  const status = await statusText(page);
  assert.match(status, /i8/);
  assert.match(status, /forbidden/i);
  assert.match(status, /double-three/);
  // Nothing changed on the server either.
  const v = await waitView(page, () => true);
  const s = (await suite.server.api('GET', `/api/games/${v.id}`)).body;
  assert.equal(s.moves.length, OPENING.length);
  assert.equal(s.result, null);
  // Black can still play elsewhere.
  const after = await play(page, 'j7');
  assert.equal(after.moves.length, OPENING.length + 1);
  assert.equal(after.result, null);
  assert.deepEqual(errors, []);
});

test('policy "lose": the forbidden move is played and Black loses, as the rules say', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  await setUp(page, 'lose');
  await clickPoint(page, 'i8');
  const v = await waitView(page, (g) => !!g.result, { what: 'the result' });
  assert.equal(v.result.winner, 'white');
  assert.equal(v.result.reason, 'forbidden');
  const status = await statusText(page);
  assert.match(status, /White wins/);
  assert.match(status, /forbidden double-three at i8/);
  assert.equal(await page.locator('#player-white').evaluate((el) => el.classList.contains('winner')), true);
  assert.deepEqual(errors, []);
});

test('policy "refuse": when every empty point is forbidden, the click goes through and Black loses', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  // 224 moves; the one empty point left, h5, is forbidden for Black (Black to move).
  const record = fs.readFileSync(path.join(repoRoot, 'testdata', 'full_board_renju.txt'), 'utf8').trim();
  const moves = record.match(/[a-o]\d+/g);
  assert.equal(moves.length, 224);
  await page.goto(suite.server.url);
  await waitView(page, () => true, { what: 'the page' });
  await newGameViaDialog(page, { mode: 'local', rule: 'renju', forbidden_policy: 'refuse', size: '15' });
  await play(page, moves[0]);
  const { id } = await waitView(page, (g) => !!g.id && g.moves.length === 1);
  // The rest through the API in the page's own session (the game is its), then the page catches up.
  const failed = await page.evaluate(async ({ id, rest }) => {
    for (const pos of rest) {
      const r = await fetch(`/api/games/${id}/moves`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pos }) });
      if (!r.ok) return `${pos}: ${r.status} ${await r.text()}`;
    }
    return null;
  }, { id, rest: moves.slice(1) });
  assert.equal(failed, null);
  await page.reload();
  const v = await waitView(page, (g) => g.id === id && g.moves.length === 224, { what: 'the full board' });
  assert.equal(v.sideToMove, 'black');
  assert.deepEqual(v.forbidden.map((f) => pointName(f, v.height)), ['h5']);
  assert.equal(await statusText(page), 'Every empty point is forbidden for Black: any move loses');
  await clickPoint(page, 'h5');
  const end = await waitView(page, (g) => !!g.result, { what: 'the result' });
  assert.equal(end.result.winner, 'white');
  assert.equal(end.result.reason, 'forbidden');
  assert.deepEqual(errors, []);
});
