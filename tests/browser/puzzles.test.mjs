// Issue 27 items 8–10 in the page: puzzles (#puzzles). Solving one by playing the tree's moves
// (the computer answers with the defender's replies), failing the next with a wrong move (refuted
// with a line, the solution shown), the rating and the streak moving on the server, a theme
// chosen, the page in three languages and on a phone. Screenshots go to target/screenshots/
// (puzzle-*.png) and, when WUZI_SHOTS_DIR is set, there too (lib/harness.mjs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, openBrowser, saveScreenshot } from './lib/harness.mjs';
import { layoutProblems } from './lib/layout.mjs';

const suite = serverAndBrowser();

const board = (page) => page.locator('#pz-board');
const data = (page) =>
  board(page).evaluate((el) => ({ id: el.dataset.puzzle, state: el.dataset.state, moves: el.dataset.moves }));

async function click(page, name, size) {
  const canvas = board(page);
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  const g = await canvas.evaluate((el) => ({ cell: Number(el.dataset.cell), ox: Number(el.dataset.ox), oy: Number(el.dataset.oy) }));
  const x = name.charCodeAt(0) - 97;
  const y = size - Number(name.slice(1));
  await page.mouse.click(box.x + g.ox + x * g.cell, box.y + g.oy + y * g.cell);
}

/// The puzzle on screen, as the server has it (its record with the solution tree).
async function shown(page) {
  await page.waitForFunction(() => document.querySelector('#pz-board').dataset.state === 'solving');
  const { id } = await data(page);
  return page.evaluate(async (i) => (await (await fetch(`/api/puzzles/${i}`)).json()).puzzle, id);
}

/// Plays the solution's main line (the first accepted move; the page answers with the first reply).
async function solve(page, puzzle) {
  const size = puzzle.record.size;
  let step = puzzle.record.solution;
  const played = [];
  for (;;) {
    await click(page, step.moves[0], size);
    played.push(step.moves[0]);
    const reply = step.replies && step.replies[0];
    if (!reply) break;
    played.push(reply.move);
    await page.waitForFunction((m) => document.querySelector('#pz-board').dataset.moves === m, played.join(' '));
    await page.waitForFunction(() => document.querySelector('#pz-board').dataset.state === 'solving');
    step = reply.next;
  }
  return played;
}

async function player(page) {
  return page.evaluate(async () => (await (await fetch('/api/puzzles')).json()).player);
}

test('solve a puzzle, fail the next: refutation, solution, rating and streak', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  await page.goto(`${suite.server.url}/#puzzles`);
  await page.locator('#puzzle-page').waitFor({ state: 'visible' });
  await page.locator('#pz-theme').selectOption('vcf');
  let puzzle = await shown(page);
  assert.equal(puzzle.record.theme, 'vcf');
  assert.match(await page.locator('#pz-status').textContent(), /to move: win with continuous fours/);
  // An occupied point is no move.
  await click(page, puzzle.record.black[0], puzzle.record.size);
  assert.equal((await data(page)).moves, '');

  const played = await solve(page, puzzle);
  await page.waitForFunction(() => document.querySelector('#pz-board').dataset.state === 'solved');
  assert.equal((await data(page)).moves, played.join(' '));
  await page.waitForFunction(() => document.querySelector('#pz-change').textContent.startsWith('+'));
  assert.equal(await page.locator('#pz-streak').textContent(), '1');
  let me = await player(page);
  assert.equal(me.plays, 1);
  assert.equal(me.streak, 1);
  assert.ok(me.rating > 1500, JSON.stringify(me));
  await saveScreenshot(page, 'puzzle-desktop-solved.png');

  // The next one, failed: a move the tree does not accept.
  await page.locator('#pz-next').click();
  await page.waitForFunction((id) => document.querySelector('#pz-board').dataset.puzzle !== id, puzzle.id);
  puzzle = await shown(page);
  const r = puzzle.record;
  const taken = new Set([...r.black, ...r.white, ...r.solution.moves]);
  let wrong = null;
  for (let y = 1; y <= r.size && !wrong; y++) {
    for (let x = 0; x < r.size && !wrong; x++) {
      const name = String.fromCharCode(97 + x) + y;
      if (!taken.has(name)) wrong = name;
    }
  }
  await click(page, wrong, r.size);
  await page.waitForFunction(() => document.querySelector('#pz-board').dataset.state === 'failed');
  assert.match(await page.locator('#pz-status').textContent(), new RegExp(`${wrong} is not it`));
  const solution = `Solution: ${r.solution.moves[0]}`;
  await page.waitForFunction(
    (s) => {
      const t = document.querySelector('#pz-lines').textContent;
      return t.includes(s) && (t.includes('the opponent wins') || t.includes('The opponent answers'));
    },
    solution,
  );
  await page.waitForFunction(() => document.querySelector('#pz-change').textContent.startsWith('-'));
  assert.equal(await page.locator('#pz-streak').textContent(), '0');
  assert.equal(await page.locator('#pz-best').textContent(), '1');
  me = await player(page);
  assert.equal(me.plays, 2);
  assert.equal(me.solved, 1);
  await saveScreenshot(page, 'puzzle-desktop-failed.png');

  // Trying it again is allowed but not rated.
  await page.locator('#pz-retry').click();
  await solve(page, puzzle);
  await page.waitForFunction(() => document.querySelector('#pz-board').dataset.state === 'solved');
  await new Promise((res) => setTimeout(res, 300));
  assert.equal((await player(page)).plays, 2);
  assert.deepEqual(errors, []);
});

test('a defence puzzle by its link; the page in three languages and on a phone', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  const first = await page.evaluate(async () => (await (await fetch('/api/puzzles/next?theme=defence')).json()).puzzle);
  await page.goto(`${suite.server.url}/#puzzle=${first.id}`);
  await page.locator('#puzzle-page').waitFor({ state: 'visible' });
  const puzzle = await shown(page);
  assert.equal(puzzle.id, first.id);
  assert.match(await page.locator('#pz-status').textContent(), /find the only move/);
  await solve(page, puzzle);
  await page.waitForFunction(() => document.querySelector('#pz-board').dataset.state === 'solved');
  const problems = [];
  for (const lang of ['en', 'zh-Hans', 'zh-Hant']) {
    await page.evaluate(async (c) => (await import('/js/i18n.js')).setLanguage(c), lang);
    await new Promise((r) => setTimeout(r, 100));
    for (const p of await layoutProblems(page, '#puzzle-page')) problems.push(`desktop ${lang}: ${p}`);
  }
  await page.evaluate(async () => (await import('/js/i18n.js')).setLanguage('en'));
  assert.deepEqual(problems, []);
  // "Analyse" opens the puzzle's position, with the moves played, on the analysis board.
  await page.locator('#pz-analyse').click();
  await page.locator('#analysis-page').waitFor({ state: 'visible' });
  await page.waitForFunction((n) => window.wuzi.analysis.tree.setup.black.length === n, puzzle.record.black.length);
  assert.deepEqual(await page.evaluate(() => window.wuzi.analysis.tree.setup.white), puzzle.record.white);
  assert.equal(await page.locator('#an-board').evaluate((el) => el.dataset.line), puzzle.record.solution.moves[0]);
  assert.deepEqual(errors, []);

  const phone = await openBrowser({ viewport: { width: 390, height: 844 }, locale: 'zh-CN', isMobile: true, hasTouch: true });
  try {
    await phone.page.goto(`${suite.server.url}/#puzzle=${first.id}`);
    await phone.page.locator('#puzzle-page').waitFor({ state: 'visible' });
    await phone.page.waitForFunction(() => document.querySelector('#pz-board').dataset.state === 'solving');
    assert.match(await phone.page.locator('#pz-status').textContent(), /唯一/);
    const small = await layoutProblems(phone.page, '#puzzle-page');
    assert.deepEqual(small, []);
    await saveScreenshot(phone.page, 'puzzle-phone-zh.png');
    // No room for the puzzle piece in a phone's top bar: it is beside "Analyse" in the move list.
    await phone.page.goto(`${suite.server.url}/`);
    assert.equal(await phone.page.locator('#btn-puzzles').isVisible(), false);
    await phone.page.locator('#btn-puzzles-game').click();
    await phone.page.locator('#puzzle-page').waitFor({ state: 'visible' });
    await phone.page.waitForFunction(() => document.querySelector('#pz-board').dataset.state === 'solving');
    assert.deepEqual(phone.errors, []);
  } finally {
    await phone.close();
  }
});

test('offline: a kept puzzle is solved with the network cut, the try counts once back online', { timeout: 120000 }, async () => {
  const b = await openBrowser();
  try {
    const { page, context, errors } = b;
    await page.goto(`${suite.server.url}/#puzzles`);
    await page.locator('#puzzle-page').waitFor({ state: 'visible' });
    const online = await shown(page);
    await page.waitForFunction(() => (JSON.parse(localStorage.getItem('wuzi.puzzles.queue') || '{}').puzzles || []).length >= 3);
    const before = (await player(page)).plays;

    await context.setOffline(true);
    await page.locator('#pz-next').click();
    await page.waitForFunction((id) => document.querySelector('#pz-board').dataset.puzzle !== id, online.id);
    await page.waitForFunction(() => document.querySelector('#pz-board').dataset.state === 'solving');
    const { id } = await data(page);
    const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('wuzi.puzzles.pending') || '[]'));
    assert.deepEqual(kept, []);
    // The page has the kept copy with its tree: solve it with the network still cut.
    const record = await page.evaluate(() => ({ id: window.wuzi.puzzles.state.id, record: window.wuzi.puzzles.state.record }));
    assert.equal(record.id, id);
    await solve(page, record);
    await page.waitForFunction(() => document.querySelector('#pz-board').dataset.state === 'solved');
    await page.waitForFunction(() => document.querySelector('#pz-lines').textContent.includes('Offline: this try is kept'));
    assert.deepEqual(
      await page.evaluate(() => JSON.parse(localStorage.getItem('wuzi.puzzles.pending') || '[]')),
      [{ id, solved: true }],
    );

    await context.setOffline(false);
    await page.waitForFunction(() => JSON.parse(localStorage.getItem('wuzi.puzzles.pending') || '[]').length === 0);
    const me = await player(page);
    assert.equal(me.plays, before + 1);
    assert.equal(me.streak, 1);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('while the next puzzle loads the one on screen takes no moves, and it comes back when none arrives', { timeout: 120000 }, async () => {
  const b = await openBrowser();
  try {
    const { page, errors } = b;
    await page.goto(`${suite.server.url}/#puzzles`);
    await page.locator('#puzzle-page').waitFor({ state: 'visible' });
    const first = await shown(page);
    const plays = (await player(page)).plays;
    // The next theme's puzzles are held on the way, then refused.
    let held;
    const arrived = new Promise((resolve) => {
      page.route('**/api/puzzles/batch**', (route) => {
        held = route;
        resolve();
      });
    });
    const other = first.record.theme === 'defence' ? 'vcf' : 'defence';
    await page.locator('#pz-theme').selectOption(other);
    await arrived;
    assert.equal((await data(page)).state, 'loading');
    assert.equal((await data(page)).id, first.id);
    assert.ok(await page.locator('#pz-solution').isDisabled());
    await click(page, first.record.solution.moves[0], first.record.size);
    assert.equal((await data(page)).moves, '');
    assert.equal((await player(page)).plays, plays);

    await held.abort('connectionfailed');
    await page.waitForFunction(() => document.querySelector('#pz-board').dataset.state === 'solving');
    assert.equal((await data(page)).id, first.id);
    // It says why (the refused request reads as the network being down).
    assert.equal(await page.locator('#pz-status').textContent(), 'Offline, and no puzzle is kept in this browser yet: go online once to get some.');
    assert.equal(await page.locator('#pz-status').getAttribute('data-kind'), 'error');
    await click(page, first.record.solution.moves[0], first.record.size);
    await page.waitForFunction((m) => document.querySelector('#pz-board').dataset.moves.startsWith(m), first.record.solution.moves[0]);

    // With the network back, the theme's puzzle comes.
    await page.unroute('**/api/puzzles/batch**');
    await page.locator('#pz-theme').selectOption('any');
    await page.locator('#pz-theme').selectOption(other);
    await page.waitForFunction((t) => document.querySelector('#pz-board').dataset.state === 'solving' && window.wuzi.puzzles.state.record.theme === t, other);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});
