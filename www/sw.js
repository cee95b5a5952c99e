// Keeps the calculator working offline after one visit. Network first: when
// the network answers, the page gets the newest files and the cache is
// refreshed with them (so a new build is picked up on the next load, never
// mixed with old files); when it does not, the cached copy is served.
// Everything is relative to this file, so the page works from any folder.
const CACHE = 'dlt-calc-3';
const FILES = [
  './', 'index.html', 'style.css', 'manifest.webmanifest', 'icon.svg',
  'js/app.js', 'js/cache.js', 'js/compute.js', 'js/core.js', 'js/dom.js', 'js/exercises.js', 'js/fields.js', 'js/form.js',
  'js/link.js', 'js/machines.js', 'js/measurements.js', 'js/notice.js', 'js/pooled.js', 'js/result.js', 'js/section.js', 'js/wide.js', 'js/worker.js',
  'js/star.js', 'js/originator.js', 'js/star-worker.js',
  'pkg/dlt_calc.js', 'pkg/dlt_calc_bg.wasm',
];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = await fetch(request);
      if (response.ok) await cache.put(stripped(request), response.clone());
      return response;
    } catch (err) {
      // Offline: the cached file; a link with inputs gets the cached page.
      const cached = await cache.match(stripped(request));
      if (cached) return cached;
      throw err;
    }
  })());
});

/** The request without its query, so every link to the page shares one
 * cached copy (the inputs live in the query). */
function stripped(request) {
  const url = new URL(request.url);
  url.search = '';
  return url.href;
}
