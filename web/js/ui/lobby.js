// Playing people: the lobby (quick pairing, creating a seek, the open seeks live from the lobby
// socket, challenging a friend), challenges arriving on any page, a challenge link's page, and the
// list of games to watch. The server pairs and starts games; `game_started` on the lobby socket
// says which game to open. People's names are their text: always set as text, never as markup.

import { api, GameSocket } from '../api.js';
import { t } from '../i18n.js';
import { ratingText } from './ratings.js';
import { errorText } from './status.js';

const $ = (id) => document.getElementById(id);

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

/// "5+3", or "30 s / move".
export function clockText(clock) {
  if (!clock) return '';
  if (clock.kind === 'move') return t('lobby.per_move', { s: clock.seconds });
  const min = Number(clock.initial_seconds) / 60;
  return `${Number.isInteger(min) ? min : min.toFixed(1)}+${clock.increment_seconds}`;
}

/// "Renju 15×15 · Swap2 · 5+5 · Rated".
export function termsText(terms) {
  const bits = [`${t(`rule.short.${terms.rule}`)} ${terms.size}×${terms.size}`];
  if (terms.opening && terms.opening !== 'free') bits.push(t(`opening.${terms.opening}`));
  bits.push(clockText(terms.clock));
  bits.push(t(terms.rated ? 'seek.rated' : 'seek.casual'));
  return bits.join(' · ');
}

/// A person as the lobby shows them: their name (a guest has none) and rating.
export function personText(p) {
  if (!p) return t('lobby.guest');
  const name = p.name || t('lobby.guest');
  return p.rating != null ? `${name} (${ratingText(p.rating, p.provisional)})` : name;
}

/// `openGame(id)` opens a game; `knowMe()` asks who this page is (the first request that changes
/// something makes the browser a guest); `toast(text)` says something briefly.
export function initLobby(store, { openGame, knowMe, toast }) {
  const dialog = $('dlg-lobby');
  const seekDialog = $('dlg-seek');
  const challengeDialog = $('dlg-challenge');
  const watchDialog = $('dlg-watch');
  /// The open seeks, by id, as the lobby socket tells them.
  const seeks = new Map();
  /// Challenges to this page's player, by id.
  const challenges = new Map();
  /// Challenges this page's player made and that are open, by id.
  const outgoing = new Map();
  /// Seeks of ours that wait (a seek or a quick pairing), by id: `{ preset }`.
  const mine = new Map();
  let presets = [];
  let socket = null;
  let socketIdentity;
  let challengeMode = false;
  let shownChallenge = null;

  const meId = () => (store.me && store.me.identity) || null;

  function showError(box, e) {
    box.hidden = !e;
    box.textContent = e ? errorText(e) : '';
  }

  // ------------------------------------------------------------ the lobby socket
  function connect() {
    if (socket) socket.close();
    socketIdentity = meId();
    socket = new GameSocket(null, onMessage, () => {}, '/api/lobby/ws');
  }

  function onMessage(msg) {
    switch (msg.type) {
      case 'seeks': {
        // A (re)connection: the challenges to us follow this message, one by one.
        challenges.clear();
        renderNotices();
        seeks.clear();
        for (const s of msg.seeks || []) seeks.set(s.id, s);
        // A seek of ours that went while this socket was not there (opened again as a new guest)
        // was taken: find its game.
        const gone = [...mine.keys()].filter((id) => !seeks.has(id));
        for (const id of gone) mine.delete(id);
        if (gone.length) findStartedGame();
        break;
      }
      case 'seek_added':
        seeks.set(msg.seek.id, msg.seek);
        break;
      case 'seek_removed': {
        seeks.delete(msg.id);
        // A seek of ours made before this page was anyone (the socket then hears no
        // `game_started`): it went because it was taken, so look for the game it started.
        if (mine.has(msg.id) && socketIdentity !== meId()) findStartedGame();
        mine.delete(msg.id);
        break;
      }
      case 'challenge':
        challenges.set(msg.challenge.id, msg.challenge);
        renderNotices();
        break;
      case 'challenge_gone':
        if (challenges.delete(msg.id)) renderNotices();
        if (outgoing.delete(msg.id)) renderOutgoing();
        if (msg.why === 'declined') toast(t('lobby.declined'));
        break;
      case 'game_started': {
        mine.clear();
        const id = msg.game && typeof msg.game === 'object' ? msg.game.id : msg.game;
        if (id) started(id);
        break;
      }
      default:
        break;
    }
    renderSeeks();
    renderPairing();
  }

  async function findStartedGame() {
    try {
      const games = await api.profileGames(meId(), { result: 'playing', limit: 1 });
      const g = Array.isArray(games) ? games[0] : games && games.games && games.games[0];
      if (g && g.id && Date.now() - g.created_at < 120000) started(g.id);
    } catch {
      /* the player finds it in their games */
    }
  }

  function started(id) {
    for (const d of [dialog, seekDialog, challengeDialog, watchDialog]) if (d.open) d.close();
    openGame(id);
  }

  /// After an action: who we are now (a guest may have just been made), and the socket as them.
  async function afterAction() {
    await knowMe();
    if (socketIdentity !== meId()) connect();
  }

  // ------------------------------------------------------------ quick pairing
  async function loadPairing() {
    try {
      presets = await api.pairing();
    } catch {
      /* keep the last */
    }
    renderPairing();
  }

  function renderPairing() {
    // While a seek of ours waits, the header's Play online says so (the lobby may be closed).
    const waiting = [...mine.keys()].some((id) => seeks.has(id) || mine.get(id).preset);
    $('btn-play').classList.toggle('waiting', waiting);
    const box = $('pairing');
    const waitingFor = new Set([...mine.values()].map((m) => m.preset).filter(Boolean));
    box.replaceChildren(
      ...presets.map((p) => {
        const b = el('button', 'btn pair-btn');
        b.type = 'button';
        b.dataset.id = p.id;
        const wait = waitingFor.has(p.id);
        b.classList.toggle('waiting', wait);
        b.append(el('span', 'pair-clock', clockText(p.terms.clock)));
        const rule = [t(`rule.short.${p.terms.rule}`)];
        if (p.terms.opening !== 'free') rule.push(t(`opening.${p.terms.opening}`));
        b.append(el('span', 'pair-rule', rule.join(' · ')));
        b.append(el('span', 'pair-waiting', wait ? t('lobby.searching') : t('lobby.waiting', { n: p.waiting })));
        return b;
      }),
    );
  }

  $('pairing').addEventListener('click', async (e) => {
    const b = e.target.closest('.pair-btn');
    if (!b) return;
    const id = b.dataset.id;
    showError($('lobby-error'), null);
    // A second click cancels the wait.
    const waiting = [...mine.entries()].find(([, m]) => m.preset === id);
    if (waiting) {
      mine.delete(waiting[0]);
      renderPairing();
      try {
        await api.cancelSeek(waiting[0]);
      } catch {
        /* taken meanwhile: game_started follows */
      }
      loadPairing();
      return;
    }
    try {
      const r = await api.pair(id);
      if (r.game) {
        await knowMe();
        started(r.game.id);
        return;
      }
      if (r.seek) mine.set(r.seek.id, { preset: id });
      renderPairing();
      await afterAction();
      loadPairing();
    } catch (err) {
      showError($('lobby-error'), err);
    }
  });

  // ------------------------------------------------------------ the open seeks
  function renderSeeks() {
    const list = $('seek-list');
    const me = meId();
    const rows = [...seeks.values()].sort((a, b) => a.created_at - b.created_at);
    list.replaceChildren(
      ...rows.map((s) => {
        const li = el('li', 'seek');
        li.dataset.id = s.id;
        const own = s.by && s.by.id === me;
        li.classList.toggle('own', own);
        li.append(el('span', 'seek-who', personText(s.by)));
        li.append(el('span', 'seek-terms', termsText(s.terms)));
        li.append(el('span', 'seek-color', t(`seek.color_${s.terms.color || 'random'}`)));
        const b = el('button', `btn small ${own ? 'seek-cancel' : 'primary seek-accept'}`, t(own ? 'btn.cancel' : 'lobby.play'));
        b.type = 'button';
        li.append(b);
        return li;
      }),
    );
    $('seek-empty').hidden = rows.length > 0;
  }

  $('seek-list').addEventListener('click', async (e) => {
    const b = e.target.closest('button');
    if (!b) return;
    const id = b.closest('li').dataset.id;
    showError($('lobby-error'), null);
    b.disabled = true;
    try {
      if (b.classList.contains('seek-cancel')) {
        mine.delete(id);
        await api.cancelSeek(id);
        seeks.delete(id);
        renderSeeks();
        renderPairing();
      } else {
        const view = await api.acceptSeek(id);
        await knowMe();
        started(view.id);
      }
    } catch (err) {
      b.disabled = false;
      showError($('lobby-error'), err);
    }
  });

  // ------------------------------------------------------------ creating a seek or a challenge
  const form = $('form-seek');
  function seekTexts() {
    $('seek-title').textContent = t(challengeMode ? 'seek.challenge_title' : 'seek.title');
    $('seek-submit').textContent = t(challengeMode ? 'seek.challenge_submit' : 'seek.submit');
  }
  function openSeekDialog(challenge) {
    challengeMode = challenge;
    seekDialog.classList.toggle('challenge', challenge);
    seekTexts();
    $('seek-submit').hidden = false;
    $('challenge-link').hidden = true;
    showError($('seek-error'), null);
    seekDialog.showModal();
  }

  function formTerms() {
    const f = new FormData(form);
    const clock = String(f.get('clock'));
    let c;
    if (clock === 'custom') {
      c = { kind: 'side', initial_seconds: Math.round(Number(f.get('minutes')) * 60), increment_seconds: Number(f.get('increment')) };
    } else if (clock.startsWith('move:')) {
      c = { kind: 'move', seconds: Number(clock.split(':')[1]) };
    } else {
      const [, base, inc] = clock.split(':');
      c = { kind: 'side', initial_seconds: Number(base), increment_seconds: Number(inc) };
    }
    return {
      rule: f.get('rule'),
      size: Number(f.get('size')),
      opening: f.get('opening'),
      clock: c,
      rated: f.get('rated') === 'rated',
      color: f.get('color'),
    };
  }

  $('seek-clock').addEventListener('change', () => {
    $('seek-custom').hidden = $('seek-clock').value !== 'custom';
  });
  $('seek-cancel').addEventListener('click', () => seekDialog.close());
  $('seek-submit').addEventListener('click', async () => {
    const terms = formTerms();
    showError($('seek-error'), null);
    $('seek-submit').disabled = true;
    try {
      if (challengeMode) {
        const to = $('seek-to').value.trim();
        const c = await api.challenge(to || null, terms);
        outgoing.set(c.id, c);
        renderOutgoing();
        await afterAction();
        if (to) {
          toast(t('lobby.challenge_sent', { name: to }));
          seekDialog.close();
        } else {
          // An open challenge: a link to send to a friend.
          const link = challengeLink(c.id);
          $('challenge-link-text').value = link;
          $('challenge-link').hidden = false;
          $('seek-submit').hidden = true;
        }
      } else {
        const s = await api.addSeek(terms);
        mine.set(s.id, { preset: null });
        seeks.set(s.id, s);
        await afterAction();
        seekDialog.close();
        renderSeeks();
      }
    } catch (err) {
      showError($('seek-error'), err);
    } finally {
      $('seek-submit').disabled = false;
    }
  });
  $('btn-copy-challenge').addEventListener('click', async () => {
    const input = $('challenge-link-text');
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      toast(t('records.link_copied'));
    } catch {
      /* selected: the player copies it */
    }
  });
  $('btn-create-seek').addEventListener('click', () => openSeekDialog(false));
  $('btn-challenge-friend').addEventListener('click', () => openSeekDialog(true));

  // ------------------------------------------------------------ our own open challenges
  const challengeLink = (id) => `${location.origin}${location.pathname}#challenge=${encodeURIComponent(id)}`;

  async function loadOutgoing() {
    try {
      const all = await api.challenges();
      outgoing.clear();
      for (const c of all || []) if (c.by && c.by.id === meId()) outgoing.set(c.id, c);
    } catch {
      /* keep what we knew */
    }
    renderOutgoing();
  }

  function renderOutgoing() {
    const rows = [...outgoing.values()].sort((a, b) => a.created_at - b.created_at);
    $('my-challenges-box').hidden = rows.length === 0;
    $('my-challenges').replaceChildren(
      ...rows.map((c) => {
        const li = el('li', 'seek own');
        li.dataset.id = c.id;
        li.append(el('span', 'seek-who', c.to ? t('lobby.to', { name: personText(c.to) }) : t('lobby.open_link')));
        li.append(el('span', 'seek-terms', termsText(c.terms)));
        if (!c.to) {
          const copy = el('button', 'btn small challenge-copy', t('btn.copy_link'));
          copy.type = 'button';
          li.append(copy);
        }
        const cancel = el('button', 'btn small challenge-cancel', t('btn.cancel'));
        cancel.type = 'button';
        li.append(cancel);
        return li;
      }),
    );
  }

  $('my-challenges').addEventListener('click', async (e) => {
    const b = e.target.closest('button');
    if (!b) return;
    const id = b.closest('li').dataset.id;
    if (b.classList.contains('challenge-copy')) {
      try {
        await navigator.clipboard.writeText(challengeLink(id));
        toast(t('records.link_copied'));
      } catch {
        toast(challengeLink(id));
      }
      return;
    }
    outgoing.delete(id);
    renderOutgoing();
    try {
      await api.cancelChallenge(id);
    } catch {
      /* gone already */
    }
  });

  // ------------------------------------------------------------ challenges to us, on any page
  function renderNotices() {
    const box = $('notices');
    box.replaceChildren(
      ...[...challenges.values()].map((c) => {
        const n = el('div', 'notice challenge-notice');
        n.dataset.id = c.id;
        n.append(el('span', 'notice-text', t('lobby.challenged_by', { name: personText(c.by) })));
        n.append(el('span', 'notice-terms', termsText(c.terms)));
        const buttons = el('span', 'notice-buttons');
        const yes = el('button', 'btn small primary notice-accept', t('online.accept'));
        const no = el('button', 'btn small notice-decline', t('online.decline'));
        yes.type = 'button';
        no.type = 'button';
        buttons.append(yes, no);
        n.append(buttons);
        return n;
      }),
    );
  }

  $('notices').addEventListener('click', async (e) => {
    const b = e.target.closest('button');
    if (!b) return;
    const id = b.closest('.notice').dataset.id;
    challenges.delete(id);
    renderNotices();
    try {
      if (b.classList.contains('notice-accept')) {
        const view = await api.acceptChallenge(id);
        started(view.id);
      } else {
        await api.declineChallenge(id);
      }
    } catch (err) {
      toast(errorText(err));
    }
  });

  // ------------------------------------------------------------ a challenge link's page
  async function openChallenge(id) {
    shownChallenge = null;
    showError($('challenge-error'), null);
    $('challenge-by').textContent = '';
    $('challenge-terms').textContent = '';
    $('challenge-accept').hidden = true;
    if (!challengeDialog.open) challengeDialog.showModal();
    try {
      const c = await api.getChallenge(id);
      shownChallenge = c;
      $('challenge-by').textContent = t('lobby.challenged_by', { name: personText(c.by) });
      $('challenge-terms').textContent = `${termsText(c.terms)} · ${t(`seek.color_${c.terms.color || 'random'}`)}`;
      const own = c.by && c.by.id === meId();
      $('challenge-accept').hidden = own;
      if (own) showError($('challenge-error'), { message: t('lobby.own_challenge') });
    } catch (err) {
      showError($('challenge-error'), err);
    }
  }
  $('challenge-accept').addEventListener('click', async () => {
    if (!shownChallenge) return;
    $('challenge-accept').disabled = true;
    try {
      const view = await api.acceptChallenge(shownChallenge.id);
      await afterAction();
      started(view.id);
    } catch (err) {
      showError($('challenge-error'), err);
    } finally {
      $('challenge-accept').disabled = false;
    }
  });
  $('challenge-close').addEventListener('click', () => challengeDialog.close());

  // ------------------------------------------------------------ games to watch
  let watchTimer = null;
  async function renderLive() {
    let games = [];
    try {
      games = await api.live();
    } catch {
      /* keep trying */
    }
    $('live-list').replaceChildren(
      ...games.map((g) => {
        const li = el('li', 'seek live-game');
        li.dataset.id = g.id;
        const names = el('a', 'live-names', `${personText(g.black)} – ${personText(g.white)}`);
        names.href = `#g=${encodeURIComponent(g.id)}`;
        li.append(names);
        const bits = [`${t(`rule.short.${g.rule}`)} ${g.size}×${g.size}`, t(g.rated ? 'seek.rated' : 'seek.casual'), t('watch.moves', { n: g.ply })];
        if (g.spectators) bits.push(t('online.spectators', { n: g.spectators }));
        li.append(el('span', 'seek-terms', bits.join(' · ')));
        return li;
      }),
    );
    $('live-empty').hidden = games.length > 0;
  }
  function openWatch() {
    if (!watchDialog.open) watchDialog.showModal();
    renderLive();
    clearInterval(watchTimer);
    watchTimer = setInterval(renderLive, 3000);
  }
  watchDialog.addEventListener('close', () => clearInterval(watchTimer));
  $('live-list').addEventListener('click', (e) => {
    const a = e.target.closest('a');
    if (!a) return;
    e.preventDefault();
    watchDialog.close();
    openGame(a.closest('li').dataset.id);
  });
  $('btn-watch').addEventListener('click', () => {
    dialog.close();
    openWatch();
  });
  $('watch-close').addEventListener('click', () => watchDialog.close());

  // ------------------------------------------------------------ the lobby dialog
  let pairingTimer = null;
  $('lobby-close').addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => clearInterval(pairingTimer));

  connect();

  return {
    open() {
      showError($('lobby-error'), null);
      renderSeeks();
      renderPairing();
      loadPairing();
      if (meId()) loadOutgoing();
      clearInterval(pairingTimer);
      pairingTimer = setInterval(loadPairing, 4000);
      if (!dialog.open) dialog.showModal();
    },
    openChallenge,
    openWatch,
    /// After a sign-in, sign-out or a new guest: the lobby socket as the page's identity now.
    identityChanged() {
      if (socketIdentity !== meId()) connect();
    },
    rerender() {
      seekTexts();
      renderSeeks();
      renderOutgoing();
      renderPairing();
      renderNotices();
      if (shownChallenge && challengeDialog.open) openChallenge(shownChallenge.id);
    },
  };
}
