// Test harness: starts the real wuzi server on a free port with a temporary database, and Debian's
// chromium (through playwright-core) with a fresh profile; helpers to read and click the board.

import { before, after } from 'node:test';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..', '..', '..');
// Screenshots go to target/screenshots/ (ignored by git) so a test run leaves the tree clean;
// UPDATE_SCREENSHOTS=1 writes the README's copies in docs/screenshots/ instead.
export const screenshotDir = process.env.UPDATE_SCREENSHOTS === '1'
  ? path.join(repoRoot, 'docs', 'screenshots')
  : path.join(process.env.CARGO_TARGET_DIR || path.join(repoRoot, 'target'), 'screenshots');

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/// The wuzi binary: $WUZI_BIN, else the release build, else the debug build.
export function wuziBinary() {
  if (process.env.WUZI_BIN) {
    if (!fs.existsSync(process.env.WUZI_BIN)) throw new Error(`WUZI_BIN=${process.env.WUZI_BIN} does not exist`);
    return process.env.WUZI_BIN;
  }
  for (const profile of ['release', 'debug']) {
    const p = path.join(repoRoot, 'target', profile, 'wuzi');
    if (fs.existsSync(p)) return p;
  }
  throw new Error('no wuzi binary: run `cargo build --release -p wuzi` first (or set WUZI_BIN)');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/// Starts `wuzi serve --addr 127.0.0.1:<port> --db <temp file>` and waits until /api/health answers.
/// `crash()` kills it (SIGKILL, as a crash or a pulled cable would) and `resume()` starts it again
/// on the same port with the same database, for tests of what the page does meanwhile.
/// `args`: more `wuzi serve` options (e.g. `['--workers', '1']`).
export async function startServer({ args = [] } = {}) {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuzi-test-'));
  const db = path.join(dir, 'wuzi.sqlite3');
  const bin = wuziBinary();
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  let proc = null;
  let exited = null;

  async function launch() {
    exited = null;
    proc = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--db', db, ...args], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, RUST_LOG: process.env.RUST_LOG || 'warn' },
    });
    proc.stdout.on('data', (d) => (log += d));
    proc.stderr.on('data', (d) => (log += d));
    const me = proc;
    me.on('exit', (code, signal) => {
      if (proc === me) exited = code ?? signal;
    });
    me.on('error', (e) => {
      exited = 'spawn error';
      log += `cannot start ${bin}: ${e.message}\n`;
    });
    const deadline = Date.now() + 30000;
    for (;;) {
      if (exited !== null) throw new Error(`wuzi serve exited with ${exited}:\n${log}`);
      try {
        const res = await fetch(`${url}/api/health`);
        if (res.ok) break;
      } catch {
        /* not up yet */
      }
      if (Date.now() > deadline) {
        proc.kill('SIGKILL');
        throw new Error(`wuzi serve did not answer within 30 s:\n${log}`);
      }
      await sleep(100);
    }
  }

  async function halt(signal) {
    if (proc && exited === null) {
      proc.kill(signal);
      for (let i = 0; i < 50 && exited === null; i++) await sleep(100);
      if (exited === null) proc.kill('SIGKILL');
      for (let i = 0; i < 50 && exited === null; i++) await sleep(100);
    }
  }

  await launch();
  let session = null;
  return {
    url,
    log: () => log,
    /// A request as the browsers of this test: the same session (a game's seats belong to the
    /// identity that made it, so games made here are the page's to play).
    async api(method, p, body) {
      if (!session) {
        for (const c of contexts) {
          const k = (await c.cookies(url)).find((k) => k.name === SESSION_COOKIE);
          if (k) {
            session = k.value;
            break;
          }
        }
      }
      const headers = body ? { 'content-type': 'application/json' } : {};
      if (session) headers.cookie = `${SESSION_COOKIE}=${session}`;
      const res = await fetch(url + p, {
        method,
        headers,
        body: body ? JSON.stringify(body) : undefined,
      });
      const set = res.headers.get('set-cookie');
      if (set && set.startsWith(`${SESSION_COOKIE}=`)) session = set.split(';')[0].slice(SESSION_COOKIE.length + 1);
      if (session) {
        shared = { url, value: session };
        for (const c of contexts) await c.addCookies([{ name: SESSION_COOKIE, value: session, url }]);
      }
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    crash: () => halt('SIGKILL'),
    resume: launch,
    async stop() {
      await halt('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png' };

/// WUZI_WEB_DIR=<dir>: the page's files come from <dir> instead of the binary (the API still from
/// the server). For working on the page without rebuilding, and for running a new test against
/// an older page (`git archive <commit> web | tar -x -C /tmp/old`) to see it fail.
async function serveWebFrom(context, dir) {
  await context.route(
    (url) => !url.pathname.startsWith('/api/') && (url.hostname === '127.0.0.1' || url.hostname === 'localhost'),
    async (route) => {
      const url = new URL(route.request().url());
      let rel = decodeURIComponent(url.pathname).replace(/^\/+/, '');
      if (!rel || rel.endsWith('/')) rel += 'index.html';
      const file = path.join(path.resolve(dir), rel);
      if (!file.startsWith(path.resolve(dir)) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
        return route.fulfill({ status: 200, contentType: 'text/html', body: fs.readFileSync(path.join(dir, 'index.html')) });
      }
      return route.fulfill({ status: 200, contentType: TYPES[path.extname(file)] || 'application/octet-stream', body: fs.readFileSync(file) });
    },
  );
}

/// The server's session cookie, and the open browser contexts (`server.api` shares its
/// session with them).
const SESSION_COOKIE = 'wuzi_session';
const contexts = new Set();
/// The session `server.api` last used, given to browsers opened later.
let shared = null;

/// A fresh browser profile (own user-data-dir, so no localStorage carries over) on one page.
export async function openBrowser({ viewport = { width: 1280, height: 800 }, locale = 'en-US', isMobile = false, hasTouch = false } = {}) {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wuzi-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    // Pages fulfilled by the test (WUZI_WEB_DIR) count as public to chromium, which then blocks
    // their WebSocket to 127.0.0.1 as a local-network access.
    args: process.env.WUZI_WEB_DIR ? [...CHROMIUM_ARGS, '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests'] : CHROMIUM_ARGS,
    viewport,
    locale,
    isMobile,
    hasTouch,
    deviceScaleFactor: isMobile ? 2 : 1,
    acceptDownloads: true,
  });
  if (process.env.WUZI_WEB_DIR) await serveWebFrom(context, process.env.WUZI_WEB_DIR);
  contexts.add(context);
  if (shared) await context.addCookies([{ name: SESSION_COOKIE, value: shared.value, url: shared.url }]);
  const page = context.pages()[0] || (await context.newPage());
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return {
    context,
    page,
    errors,
    async close() {
      contexts.delete(context);
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/// Everything the page knows about the game (read from the page's store, which holds the server's view).
export function view(page) {
  return page.evaluate(() => {
    const v = window.wuzi.store.view;
    return v && JSON.parse(JSON.stringify(v));
  });
}

/// Waits until `pred(view)` holds for the page's game view.
export async function waitView(page, pred, { timeout = 60000, what = 'condition' } = {}) {
  const deadline = Date.now() + timeout;
  let v;
  for (;;) {
    v = await view(page);
    if (v && pred(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; view: ${JSON.stringify(v && { ply: v.ply, moves: v.moves.map((m) => m.name), result: v.result, thinking: v.thinking })}`);
    await sleep(50);
  }
}

/// Page coordinates of a point given in renju notation ("h8").
export async function pointXY(page, name) {
  const canvas = page.locator('#board');
  const box = await canvas.boundingBox();
  const g = await canvas.evaluate((el) => ({
    cell: Number(el.dataset.cell),
    ox: Number(el.dataset.ox),
    oy: Number(el.dataset.oy),
    height: window.wuzi.store.view.height,
  }));
  const x = name.toLowerCase().charCodeAt(0) - 97;
  const y = g.height - Number(name.slice(1));
  return { x: box.x + g.ox + x * g.cell, y: box.y + g.oy + y * g.cell };
}

export async function clickPoint(page, name) {
  const { x, y } = await pointXY(page, name);
  await page.mouse.click(x, y);
}

/// Clicks a point and waits until the server has the stone (the move list grows).
export async function play(page, name) {
  const before = (await view(page)).moves.length;
  await clickPoint(page, name);
  return waitView(page, (v) => v.moves.length > before || !!v.result, { what: `move ${name} to be taken` });
}

export async function statusText(page) {
  return (await page.locator('#status-text').textContent()).trim();
}

/// Starts a new game through the dialog. `choices` maps form field names to values.
export async function newGameViaDialog(page, choices) {
  await page.click('#btn-new');
  const dlg = page.locator('#dlg-new');
  await dlg.waitFor({ state: 'visible' });
  const before = await page.evaluate(() => window.wuzi.store.view && window.wuzi.store.view.id);
  for (const [name, value] of Object.entries(choices)) {
    const radio = dlg.locator(`input[type=radio][name="${name}"][value="${value}"]`);
    if (await radio.count()) {
      await radio.check({ force: true });
    } else if ((await dlg.locator(`select[name=${name}]`).count()) > 0) {
      await dlg.locator(`select[name=${name}]`).selectOption(String(value));
    } else {
      await dlg.locator(`input[name=${name}]`).fill(String(value));
    }
  }
  await page.click('#new-start');
  await dlg.waitFor({ state: 'hidden' });
  return waitView(page, (v) => v.id !== before, { what: 'the new game' });
}

export function pointName(p, height) {
  return String.fromCharCode(97 + p.x) + String(height - p.y);
}

export async function saveScreenshot(page, name, options = {}) {
  fs.mkdirSync(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, name);
  await page.screenshot({ path: file, ...options });
  // A copy for whoever collects them (the closing notes' screenshots).
  if (process.env.WUZI_SHOTS_DIR) {
    fs.mkdirSync(process.env.WUZI_SHOTS_DIR, { recursive: true });
    fs.copyFileSync(file, path.join(process.env.WUZI_SHOTS_DIR, name));
  }
  return file;
}

// Registers the usual suite setup: one real server and one browser for the file's tests,
// both closed at the end. Returns an object whose `server` and `browser` are set in `before`.
export function serverAndBrowser() {
  const suite = { server: null, browser: null };
  before(async () => {
    suite.server = await startServer();
    suite.browser = await openBrowser();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
  });
  return suite;
}
