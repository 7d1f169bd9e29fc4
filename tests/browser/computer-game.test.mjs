// A full game against the computer in the browser: the page shows the server's result, and the
// downloaded records hold the moves that were played.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { serverAndBrowser, newGameViaDialog, waitView, play, statusText, pointName } from './lib/harness.mjs';

const suite = serverAndBrowser();

/// The test's own player (not the page's, which never judges): complete its longest line,
/// else block the opponent's, else grow its own; moves near the stones.
function chooseMove(v) {
  const me = v.sideToMove;
  const at = new Map(v.moves.map((m) => [`${m.x},${m.y}`, m.color]));
  for (const w of v.walls) at.set(`${w.x},${w.y}`, 'wall');
  const line = (x, y, color) => {
    let best = 0;
    for (const [dx, dy] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
      let n = 1;
      for (const s of [1, -1]) {
        let cx = x + dx * s;
        let cy = y + dy * s;
        while (at.get(`${cx},${cy}`) === color) {
          n++;
          cx += dx * s;
          cy += dy * s;
        }
      }
      best = Math.max(best, n);
    }
    return best;
  };
  const opp = me === 'black' ? 'white' : 'black';
  let best = null;
  for (let y = 0; y < v.height; y++) {
    for (let x = 0; x < v.width; x++) {
      if (at.has(`${x},${y}`)) continue;
      const near = v.moves.some((m) => Math.abs(m.x - x) <= 1 && Math.abs(m.y - y) <= 1);
      if (!near && v.moves.length) continue;
      const mine = line(x, y, me);
      const theirs = line(x, y, opp);
      const score = (mine >= v.k ? 1000 : 0) + (theirs >= v.k ? 500 : 0) + (theirs >= v.k - 1 ? 100 : 0) + mine * 10 + theirs * 3 - (Math.abs(x - 7) + Math.abs(y - 7)) * 0.01;
      if (!best || score > best.score) best = { x, y, score };
    }
  }
  return best ? pointName(best, v.height) : null;
}

test('a full game against the computer ends with the server\'s result on the page, and the records hold the game', { timeout: 600000 }, async () => {
  const { page, errors } = suite.browser;
  await page.goto(suite.server.url);
  await waitView(page, () => true, { what: 'the page' });
  const first = await waitView(page, () => true);
  // The defaults: 15×15 freestyle against the computer at level 5, the person playing Black.
  assert.equal(first.width, 15);
  assert.equal(first.rule, 'freestyle');
  assert.equal(first.mode, 'computer');
  assert.equal(first.computer.player, 'level5');
  assert.equal(first.computer.color, 'white');

  await newGameViaDialog(page, { mode: 'computer', player: 'level1', color: 'black', rule: 'freestyle', size: '15' });
  let v = await waitView(page, (g) => g.moves.length === 0);
  while (!v.result) {
    v = await waitView(page, (g) => !!g.result || (!g.thinking && g.sideToMove === 'black'), { what: "the computer's reply", timeout: 120000 });
    if (v.result) break;
    const move = chooseMove(v);
    assert.ok(move, 'a move is available');
    v = await play(page, move);
  }
  v = await waitView(page, (g) => !!g.result && !g.thinking);

  // The page shows the server's verdict (checked against the API, never judged by the test).
  const server_view = (await suite.server.api('GET', `/api/games/${v.id}`)).body;
  assert.ok(server_view.result, 'the server says the game is over');
  assert.equal(v.result.winner, server_view.result.winner);
  const status = await statusText(page);
  const verdict = server_view.result.winner === 'black' ? 'You win!' : server_view.result.winner === 'white' ? 'You lose.' : 'Draw';
  assert.ok(status.includes(verdict), `status "${status}" names the outcome`);
  if (server_view.result.reason === 'five') assert.match(status, /in a row/);
  assert.equal(await page.locator('#status').getAttribute('data-state'), 'over');

  // The move list on the page is the server's game.
  const names = await page.locator('#movelist .mv').allTextContents();
  assert.deepEqual(names, server_view.moves.map((m) => m.name));

  // Download the records through the Records dialog.
  await page.click('#btn-records');
  const download = async (format) => {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`#dlg-records [data-format=${format}]`)]);
    const file = await dl.path();
    return { name: dl.suggestedFilename(), text: fs.readFileSync(file, 'utf8') };
  };
  const txt = await download('txt');
  assert.match(txt.name, /\.txt$/);
  const txtMoves = txt.text.match(/\b[a-o](?:1[0-5]|[1-9])\b/g) || [];
  const found = txtMoves.some((_, i) => names.every((n, j) => txtMoves[i + j] === n));
  assert.ok(found, `the text record lists the moves in order:\n${txt.text}`);

  const psq = await download('psq');
  assert.match(psq.name, /\.psq$/);
  const psqMoves = psq.text
    .split(/\r?\n/)
    .map((l) => /^\s*(\d+)\s*,\s*(\d+)\s*,/.exec(l))
    .filter(Boolean)
    .map((m) => pointName({ x: Number(m[1]) - 1, y: Number(m[2]) - 1 }, 15));
  assert.deepEqual(psqMoves, names, 'the PSQ record (1-based x,y) holds the same moves');

  const json = await download('json');
  const rec = JSON.parse(json.text);
  assert.ok(JSON.stringify(rec).includes(names[names.length - 1]) || Array.isArray(rec.moves), 'the JSON record holds the moves');
  await page.keyboard.press('Escape');

  assert.deepEqual(errors, [], 'no script errors on the page');
});
