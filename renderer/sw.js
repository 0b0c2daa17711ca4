// TourDesk's service worker: the app shell stays on the device, so the scanner opens with no network.
// The build replaces the two placeholders with its file list and a version made from it.
const PRECACHE = self.__PRECACHE__;
const CACHE = 'tourdesk-shell-__VERSION__';
const SHELL = '/index.html';
const NAVIGATION_TIMEOUT_MS = 2500;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll([SHELL, ...PRECACHE]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith('tourdesk-shell-') && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  // The API, media and docs always go to the engine: the app keeps its own data (IndexedDB) for offline.
  if (request.method !== 'GET' || url.origin !== self.location.origin || /^\/(v1|latest|media|docs)(\/|$)/.test(url.pathname)) return;
  if (request.mode === 'navigate') {
    // A page: the engine's when it answers soon, else the cached shell (every app route is the same page).
    event.respondWith(
      Promise.race([fetch(request), new Promise((_, reject) => setTimeout(() => reject(new Error('slow')), NAVIGATION_TIMEOUT_MS))])
        .then((response) => (response.ok ? response : caches.match(SHELL).then((cached) => cached || response)))
        .catch(() => caches.match(SHELL).then((cached) => cached || Response.error())),
    );
    return;
  }
  // Built files carry a hash in their name: the cached copy is always right.
  event.respondWith(caches.match(request).then((cached) => cached || fetch(request)));
});
