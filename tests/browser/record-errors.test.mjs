// Issue 22, item 14: a text that is no record gets one sentence in the page's language saying so,
// never a half-English guess about rows and columns.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, waitView } from './lib/harness.mjs';

const suite = serverAndBrowser();

async function openText(page, text) {
  await page.click('#btn-records');
  await page.fill('#record-text', text);
  await page.click('#btn-open-record');
  await page.waitForFunction(() => document.querySelector('#records-error').textContent !== '');
  const error = await page.locator('#records-error').textContent();
  await page.locator('#dlg-records button[value=close]').click();
  return error;
}

test('pasted garbage: "not a record wuzi can read", in each language', { timeout: 60000 }, async () => {
  const { page, errors } = suite.browser;
  await page.goto(suite.server.url);
  await waitView(page, () => true);
  const garbage = 'Hello! This is a shopping list: milk, eggs.';
  assert.equal(await openText(page, garbage), 'This text is not a record wuzi can read (PSQ, SGF, text, JSON, a move list or a position string)');
  await page.selectOption('#lang', 'zh-Hans');
  assert.equal(await openText(page, garbage), '无法读取：这段文字不是 wuzi 能识别的棋谱（PSQ、SGF、文本、JSON、着法或局面串）');
  await page.selectOption('#lang', 'zh-Hant');
  assert.equal(await openText(page, garbage), '無法讀取：這段文字不是 wuzi 能識別的棋譜（PSQ、SGF、文字、JSON、著法或局面字串）');
  // A move list that cannot be replayed names the move, in the page's language.
  assert.equal(await openText(page, 'h8 i9 h8'), '棋譜無法重播：第 3 手（h8）不能落子');
  await page.selectOption('#lang', 'en');
  assert.deepEqual(errors, []);
});

test('a format that cannot hold the game says so in the page\'s language; a board not started offers no download', { timeout: 60000 }, async () => {
  const { page, errors } = suite.browser;
  await page.goto('about:blank');
  await page.goto(suite.server.url);
  await waitView(page, (v) => v.id === null);
  await page.click('#btn-records');
  assert.ok(await page.locator('#dlg-records [data-format=psq]').isDisabled(), 'nothing to download before the game exists');
  assert.equal(await page.locator('#record-link').inputValue(), '');
  await page.locator('#dlg-records button[value=close]').click();

  // k = 6 does not fit PSQ.
  const created = await suite.server.api('POST', '/api/games', { mode: 'local', k: 6 });
  await page.goto(`${suite.server.url}/#g=${created.body.id}`);
  await waitView(page, (v) => v.id === created.body.id);
  await page.selectOption('#lang', 'zh-Hans');
  await page.click('#btn-records');
  await page.click('#dlg-records [data-format=psq]');
  await page.waitForFunction(() => document.querySelector('#records-error').textContent !== '');
  assert.equal(await page.locator('#records-error').textContent(), '本局无法保存为 PSQ（Piskvork），JSON 可保存全部内容');
  await page.locator('#dlg-records button[value=close]').click();
  await page.selectOption('#lang', 'en');
  assert.deepEqual(errors, []);
});
