// Records: download the game in each format, open a file or pasted text and continue from any move,
// and a link that reopens the position.

import { api } from '../api.js';
import { t } from '../i18n.js';
import { errorText } from './status.js';

const EXT = { psq: 'psq', sgf: 'sgf', txt: 'txt', json: 'json', pos: 'txt' };

export function formatFromName(name) {
  const m = /\.([a-z0-9]+)$/i.exec(name || '');
  if (!m) return undefined;
  const ext = m[1].toLowerCase();
  return { psq: 'psq', sgf: 'sgf', txt: 'txt', json: 'json', pos: 'pos' }[ext];
}

/// The link that reopens a game at a move: the page's address with #g=<id>&ply=<n>.
export function gameLink(id, ply, total) {
  const base = `${location.origin}${location.pathname}`;
  const plyPart = ply != null && ply !== total ? `&ply=${ply}` : '';
  return `${base}#g=${encodeURIComponent(id)}${plyPart}`;
}

export function parseHash(hash) {
  const params = new URLSearchParams((hash || '').replace(/^#/, ''));
  const out = {};
  for (const [k, v] of params) out[k] = v;
  return out;
}

export function initRecords(dialog, store, { onOpened, toast }) {
  const errorEl = dialog.querySelector('#records-error');
  const text = dialog.querySelector('#record-text');
  const file = dialog.querySelector('#record-file');
  const plyInput = dialog.querySelector('#record-ply');
  const link = dialog.querySelector('#record-link');
  let fileFormat;

  for (const b of dialog.querySelectorAll('[data-format]')) {
    b.addEventListener('click', async () => {
      const v = store.view;
      if (!v) return;
      const format = b.dataset.format;
      errorEl.textContent = '';
      try {
        const rec = await api.record(v.id, format);
        const blob = new Blob([rec.text], { type: rec.type });
        const a = document.createElement('a');
        a.href = URL.createObjectURL(blob);
        a.download = rec.filename || `wuzi-${v.id}.${EXT[format]}`;
        document.body.append(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(a.href), 10000);
      } catch (e) {
        // bad_record here means the format cannot hold this game (not an unreadable record).
        errorEl.textContent = e && e.body && e.body.code === 'bad_record'
          ? t('records.cannot_download', { format: t(`records.format.${format}`) })
          : errorText(e);
      }
    });
  }

  file.addEventListener('change', async () => {
    const f = file.files && file.files[0];
    if (!f) return;
    text.value = await f.text();
    fileFormat = formatFromName(f.name);
  });
  text.addEventListener('input', () => {
    fileFormat = undefined;
  });

  dialog.querySelector('#btn-copy-link').addEventListener('click', async () => {
    link.select();
    try {
      await navigator.clipboard.writeText(link.value);
    } catch {
      document.execCommand('copy');
    }
    toast(t('records.link_copied'));
  });

  dialog.querySelector('#btn-open-record').addEventListener('click', async () => {
    const body = { text: text.value };
    if (!body.text.trim()) {
      errorEl.textContent = t('records.empty');
      return;
    }
    if (fileFormat) body.format = fileFormat;
    // Move lists and position strings carry no rule or size: use the current game's.
    const v = store.view;
    if (v) {
      body.rule = v.rule;
      body.size = v.width === v.height ? v.width : { width: v.width, height: v.height };
      body.k = v.k;
    }
    if (plyInput.value !== '') body.ply = Number(plyInput.value);
    errorEl.textContent = '';
    try {
      const view = await api.importGame(body);
      dialog.close();
      text.value = '';
      plyInput.value = '';
      file.value = '';
      onOpened(view);
      toast(t('records.opened'));
    } catch (e) {
      errorEl.textContent = errorText(e);
    }
  });

  return {
    open() {
      const v = store.view;
      // A board not started yet (no id) has nothing to download or link to.
      const created = !!(v && v.id);
      for (const b of dialog.querySelectorAll('[data-format]')) b.disabled = !created;
      dialog.querySelector('#btn-copy-link').disabled = !created;
      link.value = created ? gameLink(v.id, store.shownPly(), v.moves.length) : '';
      errorEl.textContent = '';
      dialog.showModal();
    },
  };
}
