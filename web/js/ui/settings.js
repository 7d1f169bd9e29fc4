// Display settings (not rules): remembered in localStorage, edited in the settings dialog.

import { LANGUAGES, language, setLanguage } from '../i18n.js';

const KEY = 'wuzi.settings';
const DEFAULTS = {
  moveNumbers: false,
  coordinates: true,
  showEval: false,
  forbiddenMarks: true,
  confirmTouch: true,
};

export function loadSettings() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || '{}') };
  } catch {
    return { ...DEFAULTS };
  }
}

function saveSettings(s) {
  localStorage.setItem(KEY, JSON.stringify(s));
}

export function fillLanguageSelect(select) {
  select.replaceChildren(
    ...LANGUAGES.map((l) => {
      const o = document.createElement('option');
      o.value = l.code;
      o.textContent = l.name;
      return o;
    }),
  );
  select.value = language();
  select.addEventListener('change', () => setLanguage(select.value));
}

/// Wires the settings dialog; `onChange(settings)` runs after every change.
export function initSettings(dialog, openButton, settings, onChange) {
  const form = dialog.querySelector('form');
  const langSelect = dialog.querySelector('#settings-lang');
  fillLanguageSelect(langSelect);
  openButton.addEventListener('click', () => {
    for (const [k, v] of Object.entries(settings)) {
      const input = form.elements[k];
      if (input) input.checked = !!v;
    }
    langSelect.value = language();
    dialog.showModal();
  });
  form.addEventListener('change', (e) => {
    const input = e.target;
    if (input.type === 'checkbox' && input.name in settings) {
      settings[input.name] = input.checked;
      saveSettings(settings);
      onChange(settings);
    }
  });
}
