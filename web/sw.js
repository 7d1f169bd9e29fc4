// The service worker: the page loads offline after one visit. It caches every file of the page
// (the list and the version come from /assets.json; the server writes the version of its
// embedded files into this script, so a new binary's page installs a new worker, which fills a
// new cache and drops the old one). Requests go to the network first, so an online page always
// has the server's files; the cache answers only when the network or the server does not. The
// API and the WebSocket are never touched.

const VERSION = '__WUZI_VERSION__';
const CACHE = `wuzi-${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const res = await fetch('assets.json', { cache: 'no-store' });
      const { files } = await res.json();
      const cache = await caches.open(CACHE);
      await cache.addAll(files.map((f) => new Request(f, { cache: 'no-store' })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) {
        if (key.startsWith('wuzi-') && key !== CACHE) await caches.delete(key);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  const api = new URL('api/', self.registration.scope).pathname;
  if (req.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith(api)) return;
  event.respondWith(
    (async () => {
      try {
        const res = await fetch(req);
        if (res.ok && res.type === 'basic' && !url.pathname.endsWith('/assets.json')) {
          const copy = res.clone();
          caches.open(CACHE).then((c) => c.put(req.mode === 'navigate' ? './' : req, copy)).catch(() => {});
        }
        return res;
      } catch (e) {
        const cache = await caches.open(CACHE);
        // A page route (a game link) is the page itself.
        const hit = req.mode === 'navigate' ? await cache.match('./') : await cache.match(req, { ignoreSearch: true });
        if (hit) return hit;
        throw e;
      }
    })(),
  );
});
