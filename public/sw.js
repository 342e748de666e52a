// dcsim's service worker: makes the app work offline once it has been
// loaded (the classroom may lose its network). Network first, so a new
// build is picked up whenever the server is reachable; the cached copy of
// every same-origin file (page, scripts, the engine's .wasm) otherwise.
const CACHE = 'dcsim-v1';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== self.location.origin) return;
  e.respondWith(
    fetch(req)
      .then((res) => {
        if (res.ok) {
          const copy = res.clone();
          caches.open(CACHE).then((c) => c.put(req, copy));
        }
        return res;
      })
      .catch(() => caches.match(req, { ignoreSearch: true }).then((r) => r ?? Response.error())),
  );
});
