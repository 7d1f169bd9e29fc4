// Who you are: the header's name and account buttons, the sign-in and registration dialogs, and
// the account settings in the profile (password, sign out everywhere, API tokens, deletion).
// Everything a person typed (names, usernames, token names) is shown as text, never as markup.

import { api } from '../api.js';
import { t } from '../i18n.js';
import { errorText } from './status.js';

const $ = (id) => document.getElementById(id);

/// The name to show for `me` (`GET /api/me`): the display name, else the username, else "Guest".
export function meName(me) {
  if (!me || me.kind !== 'account') return t('account.guest');
  return me.display_name || me.username || t('account.guest');
}

/// At most `n` characters (whole code points), with "…" when cut.
export function shorten(text, n) {
  const chars = Array.from(String(text));
  return chars.length > n ? `${chars.slice(0, n - 1).join('')}…` : chars.join('');
}

/// A refusal of an account request in the page's language: by status and the field the server names.
export function accountErrorText(e, { login = false } = {}) {
  const code = e && e.body && e.body.code;
  const message = String((e && e.message) || '');
  if (e && e.status === 429 && /sign-in/.test(message)) {
    const m = /(\d+)\s*s\b/.exec(message);
    return t('account.error.throttled', { n: m ? m[1] : '?' });
  }
  if (code === 'unauthorized' || (e && e.status === 401)) return t(login ? 'account.error.wrong' : 'account.error.wrong_password');
  if (code === 'conflict') return t(/signed in/i.test(message) ? 'account.error.signed_in' : 'account.error.taken');
  if (e && e.status === 400) {
    const field = (/^([a-z_]+):/.exec(message) || [])[1];
    const key = { username: 'username', password: 'password', new_password: 'password', display_name: 'display_name', email: 'email', name: 'token_name' }[field];
    if (key) return t(`account.error.${key}`);
  }
  return errorText(e);
}

function when(ms) {
  try {
    return new Date(ms).toLocaleString(document.documentElement.lang, { dateStyle: 'short', timeStyle: 'short' });
  } catch {
    return new Date(ms).toLocaleString();
  }
}

/// Wires the header, the sign-in and registration dialogs and the account settings.
/// `store.me` holds `GET /api/me`; `onChange()` runs after it changes; `openProfile()` shows the profile.
export function initAccount(store, { onChange, openProfile, toast }) {
  const signin = $('dlg-signin');
  const register = $('dlg-register');
  const settings = $('dlg-account');

  async function refresh() {
    try {
      store.me = await api.me();
    } catch {
      /* offline: keep what we knew */
    }
    renderHeader();
    onChange();
    return store.me;
  }

  function renderHeader() {
    const me = store.me;
    const account = !!me && me.kind === 'account';
    const btn = $('btn-me');
    const name = meName(me);
    const phone = window.matchMedia('(max-width: 480px)').matches;
    // A tablet's header also holds Play online: a shorter name leaves the logo its room.
    const narrow = window.matchMedia('(max-width: 820px)').matches;
    $('me-name').textContent = shorten(name, phone ? 5 : narrow ? 10 : 16);
    btn.title = account && me.username ? `${name} (@${me.username})` : name;
    btn.classList.toggle('account', account);
    $('btn-signin').hidden = account;
    $('btn-register').hidden = account;
    $('btn-signout').hidden = !account;
    $('profile-signin').hidden = account;
    $('profile-register').hidden = account;
    $('profile-signout').hidden = !account;
    $('profile-settings').hidden = !account;
  }

  function show(dialog) {
    for (const d of [signin, register, $('dlg-profile'), settings]) if (d !== dialog && d.open) d.close();
    dialog.querySelector('.form-error').textContent = '';
    dialog.showModal();
    dialog.querySelector('input').focus();
  }

  async function signOut() {
    try {
      await api.logout();
    } catch (e) {
      toast(errorText(e));
      return;
    }
    for (const d of [$('dlg-profile'), settings]) if (d.open) d.close();
    await refresh();
    toast(t('account.signed_out'));
  }

  async function submit(form, errorEl, action) {
    const buttons = form.querySelectorAll('button');
    buttons.forEach((b) => (b.disabled = true));
    errorEl.textContent = '';
    try {
      await action();
      form.closest('dialog').close();
      form.reset();
      await refresh();
      toast(t('account.signed_in', { name: meName(store.me) }));
    } catch (e) {
      errorEl.textContent = accountErrorText(e, { login: form.id === 'form-signin' });
    } finally {
      buttons.forEach((b) => (b.disabled = false));
    }
  }

  $('form-signin').addEventListener('submit', (e) => {
    e.preventDefault();
    const f = e.target;
    submit(f, $('signin-error'), () => api.login(f.username.value.trim(), f.password.value));
  });
  $('form-register').addEventListener('submit', (e) => {
    e.preventDefault();
    const f = e.target;
    const body = { username: f.username.value.trim(), password: f.password.value };
    if (f.display_name.value.trim()) body.display_name = f.display_name.value.trim();
    if (f.email.value.trim()) body.email = f.email.value.trim();
    submit(f, $('register-error'), () => api.register(body));
  });
  $('signin-cancel').addEventListener('click', () => signin.close());
  $('register-cancel').addEventListener('click', () => register.close());
  $('signin-to-register').addEventListener('click', () => show(register));
  $('register-to-signin').addEventListener('click', () => show(signin));
  for (const id of ['btn-signin', 'profile-signin']) $(id).addEventListener('click', () => show(signin));
  for (const id of ['btn-register', 'profile-register']) $(id).addEventListener('click', () => show(register));
  for (const id of ['btn-signout', 'profile-signout']) $(id).addEventListener('click', signOut);
  $('btn-me').addEventListener('click', () => openProfile());
  window.matchMedia('(max-width: 480px)').addEventListener('change', renderHeader);

  // ------------------------------------------------------------ account settings (in the profile)
  async function renderTokens() {
    const list = $('token-list');
    let tokens;
    try {
      tokens = await api.tokens();
    } catch (e) {
      $('token-msg').textContent = accountErrorText(e);
      return;
    }
    if (!tokens.length) {
      const li = document.createElement('li');
      li.className = 'games-empty';
      li.textContent = t('account.tokens_none');
      list.replaceChildren(li);
      return;
    }
    list.replaceChildren(
      ...tokens.map((tok) => {
        const li = document.createElement('li');
        li.className = 'token-item';
        li.dataset.id = tok.id;
        const text = document.createElement('span');
        text.className = 'token-text';
        const name = document.createElement('span');
        name.className = 'token-name';
        name.textContent = tok.name;
        const whenEl = document.createElement('span');
        whenEl.className = 'token-when';
        whenEl.textContent = [t('account.token_made', { when: when(tok.created_at) }), tok.last_used_at ? t('account.token_used', { when: when(tok.last_used_at) }) : t('account.token_never')].join(' · ');
        text.append(name, whenEl);
        const revoke = document.createElement('button');
        revoke.type = 'button';
        revoke.className = 'btn small token-revoke';
        revoke.textContent = t('account.token_revoke');
        revoke.addEventListener('click', async () => {
          try {
            await api.revokeToken(tok.id);
          } catch (e) {
            $('token-msg').textContent = accountErrorText(e);
          }
          renderTokens();
        });
        li.append(text, revoke);
        return li;
      }),
    );
  }

  $('btn-token-create').addEventListener('click', async () => {
    $('token-msg').textContent = '';
    try {
      const tok = await api.createToken($('token-name').value.trim());
      $('token-value').value = tok.token;
      $('token-new').hidden = false;
      $('token-name').value = '';
      $('token-value').select();
    } catch (e) {
      $('token-msg').textContent = accountErrorText(e);
    }
    renderTokens();
  });

  $('btn-change-password').addEventListener('click', async () => {
    const msg = $('password-msg');
    msg.textContent = '';
    msg.classList.remove('ok');
    try {
      await api.changePassword($('password-current').value, $('password-new').value);
      $('password-current').value = '';
      $('password-new').value = '';
      msg.textContent = t('account.password_changed');
      msg.classList.add('ok');
    } catch (e) {
      msg.textContent = accountErrorText(e);
    }
  });

  $('btn-signout-all').addEventListener('click', async () => {
    try {
      await api.logoutAll();
    } catch (e) {
      toast(errorText(e));
      return;
    }
    settings.close();
    await refresh();
    toast(t('account.signed_out'));
  });

  let deleteArmed = null;
  const del = $('btn-delete-account');
  function disarm() {
    clearTimeout(deleteArmed);
    deleteArmed = null;
    del.classList.remove('armed');
    del.textContent = t('account.delete');
  }
  del.addEventListener('click', async () => {
    $('delete-msg').textContent = '';
    if (!deleteArmed) {
      del.classList.add('armed');
      del.textContent = t('account.delete_confirm');
      deleteArmed = setTimeout(disarm, 5000);
      return;
    }
    disarm();
    try {
      await api.deleteAccount($('delete-password').value);
    } catch (e) {
      $('delete-msg').textContent = accountErrorText(e);
      return;
    }
    $('delete-password').value = '';
    settings.close();
    await refresh();
    toast(t('account.deleted'));
  });

  $('account-close').addEventListener('click', () => settings.close());
  $('profile-settings').addEventListener('click', () => {
    $('dlg-profile').close();
    openSettings();
  });

  /// The account settings dialog (accounts only).
  function openSettings() {
    const account = !!store.me && store.me.kind === 'account';
    if (!account) return;
    $('token-new').hidden = true;
    $('token-value').value = '';
    for (const id of ['password-msg', 'token-msg', 'delete-msg']) $(id).textContent = '';
    disarm();
    renderTokens();
    settings.showModal();
  }

  return {
    refresh,
    renderHeader,
    openSettings,
    /// After a language change: the token list's words.
    rerender() {
      if (settings.open) renderTokens();
      if (deleteArmed) del.textContent = t('account.delete_confirm');
    },
  };
}
