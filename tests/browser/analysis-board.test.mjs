// Issue 27 items 1–4 in the page: the analysis board (#analysis). Set up a position, play a
// branch, export SGF with the variation and read it back; the threat map of a known position;
// the solver finding a known VCF (from the public mintaka set) and playing it out. Screenshots
// of the board with its overlays at desktop and phone width go to target/screenshots/
// (analysis-*.png) and, when WUZI_SHOTS_DIR is set, there too.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serverAndBrowser, openBrowser, repoRoot, saveScreenshot } from './lib/harness.mjs';
import { layoutProblems } from './lib/layout.mjs';

const suite = serverAndBrowser();

async function shot(page, name) {
  const file = await saveScreenshot(page, name);
  if (process.env.WUZI_SHOTS_DIR) {
    fs.mkdirSync(process.env.WUZI_SHOTS_DIR, { recursive: true });
    fs.copyFileSync(file, path.join(process.env.WUZI_SHOTS_DIR, name));
  }
}

/// Opens the free analysis board with a fresh study and the engine off (tests that need it turn it on).
async function openBoard(page, { engine = false } = {}) {
  await page.goto(`${suite.server.url}/#analysis`);
  await page.locator('#analysis-page').waitFor({ state: 'visible' });
  // A save the last test made may still be on its way (a keepalive PUT): clear until the
  // board opens empty.
  for (let i = 0; ; i++) {
    await page.evaluate(async () => {
      localStorage.removeItem('wuzi.analysis.board');
      await fetch('/api/studies/board', { method: 'DELETE' });
    });
    await page.reload();
    await page.locator('#analysis-page').waitFor({ state: 'visible' });
    await page.waitForFunction(() => document.querySelector('#an-status').textContent.length > 0);
    const empty = await page.evaluate(() => {
      const t = window.wuzi.analysis.tree;
      return t.preorder().length === 0 && t.setup.black.length === 0 && t.setup.white.length === 0;
    });
    if (empty) break;
    assert.ok(i < 10, 'the free board did not open empty');
    await new Promise((r) => setTimeout(r, 200));
  }
  if (!engine) await page.locator('#an-engine').uncheck();
}

async function pointXY(page, name) {
  const canvas = page.locator('#an-board');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  const g = await canvas.evaluate((el) => ({
    cell: Number(el.dataset.cell),
    ox: Number(el.dataset.ox),
    oy: Number(el.dataset.oy),
    size: Number(document.querySelector('#an-size').value),
  }));
  const x = name.charCodeAt(0) - 97;
  const y = g.size - Number(name.slice(1));
  return { x: box.x + g.ox + x * g.cell, y: box.y + g.oy + y * g.cell };
}

async function click(page, name) {
  const { x, y } = await pointXY(page, name);
  await page.mouse.click(x, y);
}

/// Text cut off or overflowing on the analysis page, in each of the three languages.
async function overflowInAllLanguages(page, what) {
  const problems = [];
  for (const lang of ['en', 'zh-Hans', 'zh-Hant']) {
    await page.evaluate(async (c) => (await import('/js/i18n.js')).setLanguage(c), lang);
    await new Promise((r) => setTimeout(r, 100));
    for (const p of await layoutProblems(page, '#analysis-page')) problems.push(`${what} ${lang}: ${p}`);
  }
  await page.evaluate(async () => (await import('/js/i18n.js')).setLanguage('en'));
  return problems;
}

const line = (page) => page.locator('#an-board').evaluate((el) => el.dataset.line);

/// Plays a move on the board and waits until the tree has it (the server judged it).
async function play(page, name) {
  const before = await line(page);
  await click(page, name);
  await page.waitForFunction(
    ([b, n]) => {
      const l = document.querySelector('#an-board').dataset.line;
      return l !== b && l.split(' ').pop() === n;
    },
    [before, name],
  );
}

/// Places set-up stones with the board tools.
async function setUp(page, { rule, toMove, black = [], white = [] }) {
  await page.locator('#an-setup-box summary').click();
  if (rule) await page.locator('#an-rule').selectOption(rule);
  if (toMove) await page.locator('#an-tomove').selectOption(toMove);
  for (const [tool, stones] of [['black', black], ['white', white]]) {
    await page.locator(`[data-tool=${tool}]`).click();
    for (const s of stones) {
      await click(page, s);
      await page.waitForFunction(([c, n]) => window.wuzi.analysis.tree.setup[c].includes(n), [tool, s]);
    }
  }
  await page.locator('[data-tool=play]').click();
  await page.locator('#an-setup-box summary').click();
}

test('set up, branch, export SGF with the variation, read it back', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  await openBoard(page);
  await setUp(page, { rule: 'renju', black: ['a1'], white: ['o15'] });
  for (const m of ['h8', 'i9', 'j10']) await play(page, m);
  // Back to White's i9 and a different third move: a variation.
  await page.locator('.an-move[data-move=i9]').click();
  await page.waitForFunction(() => document.querySelector('#an-board').dataset.line === 'h8 i9');
  await play(page, 'k11');
  assert.equal(await page.locator('.an-variation .an-move[data-move=k11]').count(), 1, 'k11 shows as a variation');
  assert.equal(await line(page), 'h8 i9 k11');
  // An occupied point changes nothing.
  await click(page, 'a1');
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(await line(page), 'h8 i9 k11');

  await page.locator('.an-box summary', { hasText: 'SGF' }).click();
  await page.locator('#an-export').click();
  await page.waitForFunction(() => document.querySelector('#an-sgf').value.includes('('));
  const sgf = await page.locator('#an-sgf').inputValue();
  assert.match(sgf, /AB\[ao\]/, sgf);
  assert.match(sgf, /AW\[oa\]/, sgf);
  assert.match(sgf, /RU\[renju\]/, sgf);
  assert.match(sgf, /\(;B\[jf\]\)\s*\(;B\[ke\]\)/, 'both third moves as variations');

  // Promote k11 to the main line, then read the exported record back: j10 is main again.
  await page.locator('#an-promote').click();
  await page.waitForFunction(() => window.wuzi.analysis.tree.isMainLine(window.wuzi.analysis.tree.current));
  await page.locator('#an-sgf').fill(sgf);
  await page.locator('#an-import').click();
  await page.waitForFunction(() => window.wuzi.analysis.tree.toFlat().nodes[2]?.move === 'j10');
  const tree = await page.evaluate(() => window.wuzi.analysis.tree.toFlat());
  assert.deepEqual(tree.position.black, ['a1']);
  assert.deepEqual(tree.position.white, ['o15']);
  assert.deepEqual(
    tree.nodes.map((n) => [n.parent, n.move]),
    [
      [null, 'h8'],
      [0, 'i9'],
      [1, 'j10'],
      [1, 'k11'],
    ],
  );
  // The study stays in this browser: a reload shows the same tree.
  await page.reload();
  await page.locator('#analysis-page').waitFor({ state: 'visible' });
  await page.waitForFunction(() => window.wuzi.analysis.tree.preorder().length === 4);
  assert.deepEqual(errors, []);
});

test('the threat map of a known position', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  await openBoard(page);
  // Black's open three h8-i8-j8, White's two c3-d3, White to move (freestyle).
  await setUp(page, { rule: 'freestyle', toMove: 'white', black: ['h8', 'i8', 'j8'], white: ['c3', 'd3'] });
  await page.locator('#an-ov-black').check();
  await page.locator('#an-ov-white').check();
  const pts = (side, kind) => page.locator(`#an-threat-list [data-side=${side}] [data-kind=${kind}] .an-threat-points`);
  await pts('black', 'open_four').waitFor();
  assert.equal(await pts('black', 'open_four').textContent(), 'g8 k8');
  assert.equal(await pts('black', 'four').textContent(), 'f8 l8');
  assert.equal(await pts('black', 'five').count(), 0);
  assert.equal(await pts('white', 'open_three').textContent(), 'b3 e3 f3');
  assert.match(await page.locator('#an-status').textContent(), /White to move/);
  await page.locator('#an-ov-heat').check();
  await shot(page, 'analysis-threats-desktop.png');
  assert.deepEqual(errors, []);
});

function puzzle() {
  const text = fs.readFileSync(path.join(repoRoot, 'testdata', 'renju_vcf_puzzles_mintaka.jsonl'), 'utf8');
  const p = JSON.parse(text.split('\n')[0]);
  const black = [];
  const white = [];
  p.board.forEach((row, r) =>
    [...row].forEach((ch, c) => {
      const name = String.fromCharCode(97 + c) + String(p.size - r);
      if (ch === 'X') black.push(name);
      if (ch === 'O') white.push(name);
    }),
  );
  return { ...p, black, white };
}

test('the solver finds a known VCF in the page and plays it out', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  await openBoard(page);
  const p = puzzle();
  // The puzzle comes in as SGF (written by the server from its stones), read by the page.
  const r = await suite.server.api('POST', '/api/analysis/sgf', {
    position: { rule: 'renju', size: p.size, black: p.black, white: p.white, to_move: p.side_to_move },
    nodes: [],
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  await page.locator('.an-box summary', { hasText: 'SGF' }).click();
  await page.locator('#an-sgf').fill(r.body.sgf);
  await page.locator('#an-import').click();
  await page.waitForFunction(
    (n) => window.wuzi.analysis.tree.setup.black.length === n && /Black to move/.test(document.querySelector('#an-status').textContent),
    p.black.length,
  );
  await page.locator('#an-solve-side').selectOption('black');
  await page.locator('#an-vcf').click();
  await page.locator('.an-solve-found').waitFor({ timeout: 30000 });
  const moves = await page.locator('.an-solve-move').allTextContents();
  assert.ok(moves.length % 2 === 1 && moves.length >= 3, `an attacker-first line: ${moves}`);
  assert.match(await page.locator('.an-solve-found').textContent(), /Black wins by VCF/);
  await shot(page, 'analysis-vcf-desktop.png');
  // White has none here: "none" with the nodes searched.
  await page.locator('#an-solve-side').selectOption('white');
  await page.locator('#an-vcf').click();
  await page.locator('.an-solve-none').waitFor({ timeout: 30000 });
  assert.match(await page.locator('.an-solve-none').textContent(), /No VCF for White \([\d,]+ nodes searched\)/);
  // Black's line, played out on the board, wins by the rules.
  await page.locator('#an-solve-side').selectOption('black');
  await page.locator('#an-vcf').click();
  await page.locator('#an-solve-play').click();
  await page.waitForFunction(() => /Game over: black wins/i.test(document.querySelector('#an-status').textContent));
  assert.equal(await line(page), moves.join(' '));
  assert.deepEqual(errors, []);
});

test('live analysis lines, and the board at phone width', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  await openBoard(page, { engine: true });
  await page.locator('#an-multipv').selectOption('3');
  for (const m of ['h8', 'i9', 'h9', 'h10']) await play(page, m);
  // The controls below the lines stay where they are while the engine streams: room for
  // the lines is kept before they arrive and as they grow.
  const overlaysTop = () => page.evaluate(() => document.querySelector('#an-ov-black').getBoundingClientRect().top);
  const before = await overlaysTop();
  await page.waitForFunction(() => document.querySelectorAll('#an-lines .an-pv').length === 3, null, { timeout: 30000 });
  assert.match(await page.locator('#an-engine-info').textContent(), /depth \d+/);
  const depthNow = await page.locator('#an-engine-info').textContent();
  await page.waitForFunction((d) => document.querySelector('#an-engine-info').textContent !== d, depthNow, { timeout: 30000 });
  assert.equal(await overlaysTop(), before, 'the overlay switches did not move as the lines came in');
  await page.locator('#an-ov-heat').check();
  await page.locator('#an-ov-black').check();
  await shot(page, 'analysis-lines-desktop.png');
  assert.deepEqual(await overflowInAllLanguages(page, 'desktop'), []);
  // A line clicked is played on the board. The engine is still streaming and each update
  // redraws the lines, so the first move is read from the very button that is clicked, in
  // one step in the page: a read and a later click could see two different first lines.
  const first = await page.evaluate(() => {
    const b = document.querySelector('#an-lines .an-pv');
    const f = b.querySelector('.an-pv-moves').textContent.split(' ')[0];
    b.click();
    return f;
  });
  await page.waitForFunction((f) => document.querySelector('#an-board').dataset.line.startsWith(`h8 i9 h9 h10 ${f}`), first);
  await page.locator('#an-engine').uncheck();
  assert.deepEqual(errors, []);

  const phone = await openBrowser({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  try {
    await phone.page.goto(`${suite.server.url}/#analysis`);
    await phone.page.locator('#analysis-page').waitFor({ state: 'visible' });
    await phone.page.waitForFunction(() => document.querySelector('#an-status').textContent.length > 0);
    // The same person on another device: the study kept on the server came along.
    await phone.page.waitForFunction(() => document.querySelector('#an-board').dataset.line.startsWith('h8 i9 h9 h10'));
    await phone.page.evaluate(async () => {
      localStorage.clear();
      await fetch('/api/studies/board', { method: 'DELETE' });
    });
    await phone.page.reload();
    await phone.page.locator('#analysis-page').waitFor({ state: 'visible' });
    await phone.page.waitForFunction(() => document.querySelector('#an-board').dataset.line === '');
    const box = await phone.page.locator('#an-board').boundingBox();
    assert.ok(box.width > 300 && box.x >= 0 && box.x + box.width <= 390, `the board fits: ${JSON.stringify(box)}`);
    for (const m of ['h8', 'i9', 'h9', 'h10', 'i8', 'g8']) await play(phone.page, m);
    await phone.page.locator('#an-ov-black').check();
    await phone.page.locator('#an-ov-white').check();
    await phone.page.locator('#an-threat-list [data-side=black] [data-kind]').first().waitFor();
    await shot(phone.page, 'analysis-phone.png');
    assert.deepEqual(await overflowInAllLanguages(phone.page, 'phone'), []);
    assert.deepEqual(phone.errors, []);
  } finally {
    await phone.close();
  }
});

test('from a game: "Analyse" opens its moves as the main line', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  const g = await suite.server.api('POST', '/api/games', { mode: 'local', rule: 'renju' });
  for (const pos of ['h8', 'h9', 'i8']) await suite.server.api('POST', `/api/games/${g.body.id}/moves`, { pos });
  await page.goto(`${suite.server.url}/#g=${g.body.id}`);
  await page.waitForFunction(() => window.wuzi.store.view && window.wuzi.store.view.moves.length === 3);
  await page.locator('#btn-analyse-game').click();
  await page.locator('#analysis-page').waitFor({ state: 'visible' });
  await page.waitForFunction(() => document.querySelector('#an-board').dataset.line === 'h8 h9 i8');
  await page.locator('#an-engine').uncheck();
  await play(page, 'j8');
  await page.locator('#an-back').click();
  await page.locator('#analysis-page').waitFor({ state: 'hidden' });
  // Back on the analysis board of the same game later: the study is still there.
  await page.goto(`${suite.server.url}/#analysis=${g.body.id}`);
  await page.waitForFunction(() => window.wuzi.analysis.tree.preorder().length === 4);
  assert.deepEqual(errors, []);
});

test('a study is kept on the server: it comes back after this browser forgets it', { timeout: 120000 }, async () => {
  const { page, errors } = suite.browser;
  await openBoard(page);
  await setUp(page, { rule: 'freestyle', black: ['a1'] });
  for (const m of ['h8', 'i9']) await play(page, m);
  for (let i = 0; ; i++) {
    const r = await page.evaluate(async () => (await fetch('/api/studies/board')).json());
    if (r.study && r.study.tree.nodes.length === 2) break;
    assert.ok(i < 100, `the study did not reach the server: ${JSON.stringify(r)}`);
    await new Promise((res) => setTimeout(res, 100));
  }
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.locator('#analysis-page').waitFor({ state: 'visible' });
  await page.waitForFunction(() => document.querySelector('#an-board').dataset.line === 'h8 i9');
  assert.deepEqual(await page.evaluate(() => window.wuzi.analysis.tree.setup.black), ['a1']);
  assert.deepEqual(errors, []);
});
