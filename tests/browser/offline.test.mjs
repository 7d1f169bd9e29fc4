// The engine in the browser and the page offline: a game against the computer goes on with the
// network cut (the WebAssembly engine in a Web Worker judges the moves and answers them) and goes
// back to the server when the network returns, and the page loads again from its service worker
// with the server gone, where a new game against the computer is played the same way. Needs a binary built with the page's engine (WUZI_WASM=1, as
// scripts/test-browser.sh and scripts/test-all.sh build it; release builds always have it).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, waitView, clickPoint, play, view, newGameViaDialog, saveScreenshot } from './lib/harness.mjs';

const suite = serverAndBrowser();

/// A point for the person: the first empty, allowed one spiralling out from the centre (the test
/// plays to keep the game going, not to win; the page's engine judges it all the same).
function nextPoint(v) {
  const taken = new Set(v.moves.map((m) => `${m.x},${m.y}`));
  const forbidden = new Set(v.forbidden.map((f) => `${f.x},${f.y}`));
  const cx = Math.floor(v.width / 2);
  const cy = Math.floor(v.height / 2);
  for (let r = 0; r < v.width; r++) {
    for (let dy = -r; dy <= r; dy++) {
      for (let dx = -r; dx <= r; dx++) {
        if (Math.max(Math.abs(dx), Math.abs(dy)) !== r) continue;
        const x = cx + dx;
        const y = cy + dy;
        if (x < 0 || y < 0 || x >= v.width || y >= v.height) continue;
        if (!taken.has(`${x},${y}`) && !forbidden.has(`${x},${y}`)) return String.fromCharCode(97 + x) + String(v.height - y);
      }
    }
  }
  return null;
}

/// Waits until the page's service worker controls it (it has cached the page's files then).
async function controlledByServiceWorker(page) {
  await page.waitForFunction(() => navigator.serviceWorker && navigator.serviceWorker.controller !== null, null, { timeout: 60000 });
  return page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    const keys = await caches.keys();
    const cache = await caches.open(keys.find((k) => k.startsWith('wuzi-')));
    return { scope: reg.scope, cached: (await cache.keys()).map((r) => new URL(r.url).pathname) };
  });
}

test('with the network cut, the game against the computer goes on with the engine in the browser', { timeout: 300000 }, async () => {
  const { page, context, errors } = suite.browser;
  await page.goto(suite.server.url);
  await waitView(page, () => true, { what: 'the page' });
  const sw = await controlledByServiceWorker(page);
  for (const f of ['/', '/index.html', '/js/main.js', '/js/engine.js', '/js/engine-worker.js', '/wasm/wuzi.wasm', '/manifest.webmanifest']) {
    assert.ok(sw.cached.includes(f), `the service worker cached ${f}: ${sw.cached.join(' ')}`);
  }
  // Installable: the page links a manifest with a name, a start URL and an icon.
  const manifest = await page.evaluate(async () => {
    const link = document.querySelector('link[rel=manifest]');
    return (await fetch(link.href)).json();
  });
  assert.equal(manifest.short_name, 'wuzi');
  assert.equal(manifest.display, 'standalone');
  assert.ok(manifest.start_url && manifest.icons.length > 0);

  // Renju against the computer, the person Black; the first moves go through the server (the
  // computer's reply searched in this browser, as an unrated game's is).
  let v = await newGameViaDialog(page, { mode: 'computer', player: 'level3', color: 'black', rule: 'renju', size: '15' });
  const id = v.id;
  assert.ok(id, 'the server made the game');
  await play(page, 'h8');
  v = await waitView(page, (g) => g.moves.length === 2 && !g.thinking, { what: "the server's reply" });
  assert.equal(v.local, false);

  // The network goes: the next move cannot reach the server, and the game goes on here.
  await context.setOffline(true);
  const mine = nextPoint(v);
  await clickPoint(page, mine);
  v = await waitView(page, (g) => g.local && g.moves.length === 4 && !g.thinking, { what: "the browser engine's reply", timeout: 60000 });
  assert.equal(v.moves[2].name, mine);
  assert.equal(v.moves[3].color, 'white');
  assert.equal(v.computer.player, 'level3');
  assert.match(await page.locator('#game-meta').textContent(), /in this browser/);

  // Two more moves each: every stone is judged and answered in the page.
  for (let i = 0; i < 2 && !v.result; i++) {
    const before = v.moves.length;
    await clickPoint(page, nextPoint(v));
    v = await waitView(page, (g) => !!g.result || (g.moves.length === before + 2 && !g.thinking), { what: 'the next reply', timeout: 60000 });
  }
  // Under renju the page knows Black's forbidden points from the rules compiled in (none needed
  // here; the list exists and holds only empty points).
  const taken = new Set(v.moves.map((m) => `${m.x},${m.y}`));
  assert.ok(v.forbidden.every((f) => !taken.has(`${f.x},${f.y}`)));

  // The server never saw the offline moves: its game stops where the network went.
  const server = (await suite.server.api('GET', `/api/games/${id}`)).body;
  assert.equal(server.moves.length, 2);

  // Undo takes back the person's move and the reply.
  const n = v.moves.length;
  if (!v.result) {
    await page.click('#btn-undo');
    v = await waitView(page, (g) => g.moves.length === n - 2 && !g.thinking, { what: 'the undo' });
  }
  await saveScreenshot(page, 'offline-game.png');

  // The network returns: the game goes back to the server as it stands here (a new game there,
  // its computer still in this browser), and goes on there.
  const here = v.moves.map((m) => m.name);
  await context.setOffline(false);
  v = await waitView(page, (g) => !g.local && !!g.id && g.id !== id, { what: 'the game back on the server', timeout: 30000 });
  assert.deepEqual(v.moves.map((m) => m.name), here);
  assert.equal(v.computer.in_browser, true);
  const back = (await suite.server.api('GET', `/api/games/${v.id}`)).body;
  assert.deepEqual(back.moves.map((m) => m.name), here, 'the server holds the moves played offline');
  if (!v.result) {
    const before = v.moves.length;
    await clickPoint(page, nextPoint(v));
    v = await waitView(page, (g) => !!g.result || (g.moves.length === before + 2 && !g.thinking), { what: 'the reply online again', timeout: 60000 });
    assert.equal(v.local, false);
    assert.equal((await suite.server.api('GET', `/api/games/${v.id}`)).body.moves.length, v.moves.length);
  }
  assert.deepEqual(errors, [], 'no script errors on the page');
});

test('the server goes away while the computer thinks: after a few seconds the engine here plays its move', { timeout: 300000 }, async () => {
  const { page, context, errors } = suite.browser;
  await context.setOffline(false);
  // Level 10 thinks 5 s on the server (chosen there, not in this browser): time enough to pull the plug.
  let v = await newGameViaDialog(page, { mode: 'computer', player: 'level10', color: 'black', rule: 'freestyle', size: '15', engine: 'server' });
  assert.ok(v.id && !v.local);
  await clickPoint(page, 'h8');
  await waitView(page, (g) => g.thinking, { what: 'the server to think' });
  await suite.server.crash();
  await page.waitForFunction(() => /cannot be reached/.test(document.querySelector('#status-text').textContent), null, { timeout: 10000 });
  v = await waitView(page, (g) => g.local && g.moves.length === 2 && !g.thinking, { what: 'the move from the engine here', timeout: 60000 });
  assert.equal(v.moves[1].color, 'white');
  assert.equal(v.computer.player, 'level10');
  assert.deepEqual(errors, [], 'no script errors on the page');
});

test('the page loads again from its service worker with the server gone, and plays the computer there', { timeout: 300000 }, async () => {
  const { page, context, errors } = suite.browser;
  await context.setOffline(true);
  await suite.server.crash();
  const res = await page.reload();
  assert.ok(res, 'the page answered');
  assert.ok(res.fromServiceWorker(), 'the page came from the service worker');
  let v = await waitView(page, (g) => g.draft, { what: 'a fresh board' });
  await page.evaluate(() => document.fonts.ready);

  // The person (Black by default) starts: the server cannot make the game, the page plays it.
  await clickPoint(page, 'h8');
  v = await waitView(page, (g) => g.local && g.moves.length === 2 && !g.thinking, { what: 'the reply from the cached engine', timeout: 60000 });
  assert.equal(v.moves[0].name, 'h8');
  assert.equal(v.mode, 'computer');
  v = await play(page, nextPoint(v));
  v = await waitView(page, (g) => g.moves.length === 4 && !g.thinking, { what: 'the next reply', timeout: 60000 });
  assert.ok(v.local);
  assert.deepEqual(errors, [], 'no script errors on the page');
});
