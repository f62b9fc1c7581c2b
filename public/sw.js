// Enclave's service worker (docs/decisions.md "Installable app"). It makes the app installable and
// keeps the shell for offline use: the public pages, when the server marks them with
// X-Enclave-Shell (never a logged-in page), the build's hashed assets (among them, once a call
// has used them, the noise filter's worklet and wasm under /_next/static/media), the language
// picker's flags, and the background effect's files once used. Other API calls, anything but GET
// and anything from another origin are not touched at all. Once the server signs its builds, the
// worker also pins the publisher's key and holds back a build that key did not sign (issue 47,
// public/sw-trust.js), which is why it sees every navigation.
const SHELL_CACHE = 'enclave-shell-v1';
const ASSET_CACHE = 'enclave-assets-v1';
const SHELL_HEADER = 'X-Enclave-Shell';
const LOCALES = ['de', 'fr', 'sk', 'pl', 'el', 'es', 'nl', 'hi', 'zh-cn', 'zh-tw', 'pt'];
// The public pages (lib/seo/pages.ts, offlinePages): the only pages this worker keeps. Every other
// page (the app, meetings, /logout) is fetched as it is asked for, after the release check.
const SHELL_PAGES = ['/', '/enterprise', '/faq', '/download', '/terms-of-service', '/security'];
importScripts('/sw-trust.js');

self.addEventListener('install', () => self.skipWaiting());

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const keep = [SHELL_CACHE, ASSET_CACHE, TRUST_CACHE];
      for (const name of await caches.keys()) if (!keep.includes(name)) await caches.delete(name);
      // No navigation preload: it would send every navigation twice, and some GETs act (an
      // activation link is used up by its first request, /logout ends the session).
      if (self.registration.navigationPreload) await self.registration.navigationPreload.disable();
      await self.clients.claim();
    })(),
  );
});

/** "/de/faq" → "/de", "/faq" → "": the locale prefix of a path. */
function localePrefix(pathname) {
  const first = pathname.split('/')[1];
  return LOCALES.includes(first) ? `/${first}` : '';
}

/** "/de/faq" → "/faq", "/de" → "/". */
const barePath = (url) => url.pathname.slice(localePrefix(url.pathname).length) || '/';
const isShellPage = (url) => SHELL_PAGES.includes(barePath(url)) && !url.searchParams.has('_rsc');

// The background effect's runtime and model live under a versioned path, its pictures under
// /backgrounds/: fetched only once a person turns the effect on, then kept like build assets.
const isAsset = (url) =>
  url.pathname.startsWith('/_next/static/') || url.pathname.startsWith('/api/background-effects/') || /^\/backgrounds\/[a-z-]+\.webp$/.test(url.pathname);
// The language picker's flags (public/flags): not hashed, so kept but checked again each time.
const isFlag = (url) => /^\/flags\/[a-z-]+\.svg$/.test(url.pathname);

/** Keeps a public page and the build assets it names, so it also renders offline. */
async function keepShellPage(url, response) {
  if (!response.ok || response.headers.get(SHELL_HEADER) !== 'public') return;
  const html = await response.clone().text();
  await (await caches.open(SHELL_CACHE)).put(url, response);
  const assets = [...html.matchAll(/(?:src|href)="(\/_next\/static\/[^"]+|\/flags\/[a-z-]+\.svg)"/g)].map((match) => match[1].replaceAll('&amp;', '&'));
  const cache = await caches.open(ASSET_CACHE);
  await Promise.all([...new Set(assets)].map(async (asset) => (await cache.match(asset)) || cache.add(asset).catch(() => {})));
}

async function fetchAndKeep(url) {
  const response = await fetch(url, { credentials: 'same-origin' });
  await keepShellPage(url, response);
}

/** Network first: a page is always fresh online; offline, the kept copy, else the kept home page. */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- called by public/sw-trust.js
async function navigate(event) {
  const url = new URL(event.request.url);
  url.hash = '';
  try {
    const response = await fetch(event.request);
    event.waitUntil(keepShellPage(url.href, response.clone()).catch(() => {}));
    return response;
  } catch (error) {
    const cache = await caches.open(SHELL_CACHE);
    const home = new URL(localePrefix(url.pathname) || '/', url.origin).href;
    const kept = (await cache.match(url.href, { ignoreSearch: true })) || (await cache.match(home));
    if (kept) return kept;
    throw error;
  }
}

/** Hashed build assets never change: the cache first, the network once (code only if the pinned key vouches for it). */
async function asset(request) {
  const cache = await caches.open(ASSET_CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await vouchedAsset(request, await fetch(request));
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

/** A flag: the kept copy at once if there is one, refreshed from the network for next time. */
async function flag(event) {
  const cache = await caches.open(ASSET_CACHE);
  const kept = await cache.match(event.request);
  const fresh = fetch(event.request).then(async (response) => {
    if (response.ok) await cache.put(event.request, response.clone());
    return response;
  });
  if (!kept) return fresh;
  event.waitUntil(fresh.catch(() => {}));
  return kept;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  // A worker's script is left to the network: the build starts every worker with one bootstrap
  // file that reads its chunk list from the URL's fragment, and a copy kept from one worker's
  // request would start the next worker as the first one (the fragment is not part of the cache key).
  if (request.destination === 'worker' || request.destination === 'sharedworker') return;
  if (request.mode === 'navigate') event.respondWith(guardedNavigation(event, url));
  else if (isAsset(url)) event.respondWith(asset(request));
  else if (isFlag(url)) event.respondWith(flag(event));
});

// A public page asks the worker to keep it and its language's home page, if not kept yet: the
// first visit was not under the worker's control (later ones are kept as they pass). Only public
// pages are fetched again here: another page's GET may act (an activation link is used up).
self.addEventListener('message', (event) => {
  if (answerTrustMessage(event)) return;
  if (event.data?.type !== 'keep-shell' || !event.source?.url) return;
  const page = new URL(event.source.url);
  page.hash = '';
  if (!isShellPage(page)) return;
  const home = new URL(localePrefix(page.pathname) || '/', page.origin).href;
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL_CACHE);
      for (const url of new Set([page.href, home])) {
        if (!(await cache.match(url))) await fetchAndKeep(url).catch(() => {});
      }
    })(),
  );
});
