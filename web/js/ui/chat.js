// Chat in a game between people: the players' room, or the spectators' for everyone else (the
// server decides which). Messages are people's text: always set as text. The opponent's messages
// can be muted; the muted identities are kept in localStorage.

import { api } from '../api.js';
import { t } from '../i18n.js';
import { errorText } from './status.js';

const $ = (id) => document.getElementById(id);
const MUTED_KEY = 'wuzi.chat.muted';

function loadMuted() {
  try {
    const list = JSON.parse(localStorage.getItem(MUTED_KEY) || '[]');
    return new Set(Array.isArray(list) ? list : []);
  } catch {
    return new Set();
  }
}

/// The other seat's owner in a game between people, for this page's player (null for a spectator).
function opponentOf(store) {
  const v = store.view;
  const seat = store.mySeat();
  if (!v || !seat || !v.owners) return null;
  return v.owners[seat === 'first' ? 'second' : 'first'] || null;
}

export function initChat(store, { toast }) {
  const box = $('chat');
  const list = $('chat-list');
  const input = $('chat-input');
  let gameId = null;
  /// The room's messages, by id (the socket and the answer to our own can both bring one).
  let messages = new Map();
  const muted = loadMuted();

  async function load() {
    const id = gameId;
    try {
      const got = await api.chat(id);
      if (id !== gameId) return;
      for (const m of got || []) messages.set(m.id, m);
      render();
    } catch {
      /* the room shows what the socket brings */
    }
  }

  function add(m) {
    if (!m || m.id == null) return;
    messages.set(m.id, m);
    render();
  }

  function render() {
    const v = store.view;
    const online = !!v && v.mode === 'online' && !v.draft && !!v.id;
    box.hidden = !online;
    if (!online) return;
    if (v.id !== gameId) {
      gameId = v.id;
      messages = new Map();
      load();
    }
    const spectator = store.watching();
    $('chat-title').textContent = t(spectator ? 'chat.spectators' : 'chat.players');
    const opponent = opponentOf(store);
    const mute = $('btn-mute');
    mute.hidden = !opponent;
    const isMuted = !!opponent && muted.has(opponent);
    mute.textContent = t(isMuted ? 'chat.unmute' : 'chat.mute');
    mute.classList.toggle('armed', isMuted);
    const me = store.me && store.me.identity;
    const shown = [...messages.values()].sort((a, b) => a.id - b.id).filter((m) => !muted.has(m.author));
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 8;
    list.replaceChildren(
      ...shown.map((m) => {
        const li = document.createElement('li');
        li.className = m.author === me ? 'chat-msg mine' : 'chat-msg';
        const who = document.createElement('span');
        who.className = 'chat-who';
        who.textContent = m.author === me ? t('player.you') : m.name || t('lobby.guest');
        const text = document.createElement('span');
        text.className = 'chat-text';
        text.textContent = m.text;
        li.append(who, text);
        return li;
      }),
    );
    if (atBottom) list.scrollTop = list.scrollHeight;
    $('chat-empty').hidden = shown.length > 0;
    if (isMuted) $('chat-empty').textContent = t('chat.muted');
    else $('chat-empty').textContent = t('chat.empty');
    if (isMuted) $('chat-empty').hidden = false;
  }

  $('chat-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text || !gameId) return;
    $('chat-send').disabled = true;
    try {
      add(await api.sendChat(gameId, text));
      input.value = '';
    } catch (err) {
      toast(errorText(err));
    } finally {
      $('chat-send').disabled = false;
    }
  });
  $('btn-mute').addEventListener('click', () => {
    const opponent = opponentOf(store);
    if (!opponent) return;
    if (muted.has(opponent)) muted.delete(opponent);
    else muted.add(opponent);
    localStorage.setItem(MUTED_KEY, JSON.stringify([...muted]));
    render();
  });

  return {
    render,
    /// A `chat` message from the game's socket.
    onMessage: (msg) => add(msg.message),
    /// After a reconnect: what was said meanwhile.
    reload: () => gameId && load(),
  };
}
