// Languages: chosen from the browser, switchable, remembered; every table has every string.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, openBrowser, waitView } from './lib/harness.mjs';

let server;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

test('the browser language picks the table; the switch changes every label and is remembered', { timeout: 120000 }, async () => {
  const b = await openBrowser({ locale: 'zh-TW' });
  try {
    const { page, errors } = b;
    await page.goto(server.url);
    await waitView(page, () => true);
    assert.equal(await page.locator('#btn-new').textContent(), '新對局');
    assert.equal(await page.locator('html').getAttribute('lang'), 'zh-Hant');

    await page.selectOption('#lang', 'zh-Hans');
    assert.equal(await page.locator('#btn-new').textContent(), '新对局');
    assert.equal(await page.locator('#btn-undo').textContent(), '悔棋');
    assert.match(await page.locator('#status-text').textContent(), /轮到你/);
    assert.match(await page.title(), /五子棋/);

    await page.selectOption('#lang', 'en');
    assert.equal(await page.locator('#btn-new').textContent(), 'New game');
    assert.match(await page.locator('#status-text').textContent(), /Your move/);

    await page.selectOption('#lang', 'zh-Hans');
    await page.reload();
    await waitView(page, () => true);
    assert.equal(await page.locator('#btn-new').textContent(), '新对局', 'the choice survives a reload');
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('English for other browser languages, and all three tables have the same keys', { timeout: 60000 }, async () => {
  const b = await openBrowser({ locale: 'de-DE' });
  try {
    const { page } = b;
    await page.goto(server.url);
    await waitView(page, () => true);
    assert.equal(await page.locator('#btn-new').textContent(), 'New game');
    const tables = await page.evaluate(async () => {
      const m = await import('/js/i18n.js');
      return Object.fromEntries(Object.entries(m.TABLES).map(([k, v]) => [k, Object.keys(v).sort()]));
    });
    assert.deepEqual(Object.keys(tables).sort(), ['en', 'zh-Hans', 'zh-Hant']);
    assert.deepEqual(tables['zh-Hans'], tables.en, 'zh-Hans has exactly the English keys');
    assert.deepEqual(tables['zh-Hant'], tables.en, 'zh-Hant has exactly the English keys');
    // Every data-i18n key used by the page exists.
    const used = await page.evaluate(() =>
      [...document.querySelectorAll('[data-i18n],[data-i18n-title],[data-i18n-placeholder],[data-i18n-aria]')].map(
        (el) => el.dataset.i18n || el.dataset.i18nTitle || el.dataset.i18nPlaceholder || el.dataset.i18nAria,
      ),
    );
    for (const k of used) assert.ok(tables.en.includes(k), `key ${k} is in the tables`);
  } finally {
    await b.close();
  }
});
