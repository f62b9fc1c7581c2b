// The service worker's trust on first use (issue 47 point 4; docs/security.md "The installed app
// trusts the first key it saw"), loaded by public/sw.js. A server that signs its builds names its
// publisher's Ed25519 key at /.well-known/enclave/release.json (lib/release/signature.ts). The
// first key seen is pinned, as SSH pins a host key; a later build goes ahead only when that key
// signed its manifest. Otherwise the worker holds the new build back: navigations get the pages it
// kept of the last trusted build, code files the pinned manifest does not list are refused, and the
// pages show the warning (components/public/BuildTrustNotice.tsx). A server that does not sign is
// never pinned and works as before. Whatever fails here lets the page through as if there were no
// worker: a bug in this file must never keep anyone from logging in or joining a call.
const TRUST_CACHE = 'enclave-trust-v1';
// The pin's key in TRUST_CACHE: a name, never requested from the server.
const PIN_KEY = '/.well-known/enclave/pinned-release';
const RELEASE_URL = '/.well-known/enclave/release.json';
const MANIFEST_URL = '/.well-known/enclave/build.json';
// What the manifest does not list, as lib/security/build-manifest.mjs (NOT_CODE) and lib/release/manifest.ts (the model) decide.
const NOT_CODE = /\.(?:png|jpe?g|gif|webp|avif|svg|ico|woff2?|ttf|otf|eot|map|txt|tflite)$/;
// A server that does not sign is asked again at most this often.
const UNPINNED_PAUSE_MS = 60_000;
let lastUnpinnedCheck = 0;

async function readPin() {
  const kept = await (await caches.open(TRUST_CACHE)).match(PIN_KEY);
  return kept ? kept.json() : null;
}

async function writePin(pin) {
  const cache = await caches.open(TRUST_CACHE);
  if (pin) await cache.put(PIN_KEY, new Response(JSON.stringify(pin), { headers: { 'Content-Type': 'application/json' } }));
  else await cache.delete(PIN_KEY);
  return pin;
}

const fromBase64 = (text) => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
const base64 = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)));
const digest = async (algorithm, bytes) => base64(await crypto.subtle.digest(algorithm, bytes));

/** Whether `key` (SPKI, base64) signed `bytes`. A browser without WebCrypto's Ed25519 verifies nothing. */
async function signedBy(key, signature, bytes) {
  try {
    const publicKey = await crypto.subtle.importKey('spki', fromBase64(key), { name: 'Ed25519' }, false, ['verify']);
    return await crypto.subtle.verify({ name: 'Ed25519' }, publicKey, fromBase64(signature), bytes);
  } catch {
    return false;
  }
}

/** The server's release answer; 'refused' when it answers without one; null when there is no connection. */
async function releaseAnswer() {
  let response;
  try {
    response = await fetch(RELEASE_URL, { cache: 'no-store', credentials: 'omit' });
  } catch {
    return null;
  }
  const answer = response.ok ? await response.json().catch(() => null) : null;
  return typeof answer?.manifest === 'string' ? answer : 'refused';
}

/** The manifest the answer names, read from the server, if its bytes are those (and, with `key`, that key signed them). */
async function manifestOf(answer, key) {
  try {
    const bytes = new Uint8Array(await (await fetch(MANIFEST_URL, { cache: 'no-store', credentials: 'omit' })).arrayBuffer());
    if (`sha256-${await digest('SHA-256', bytes)}` !== answer.manifest) return null;
    if (key && !(answer.signature && (await signedBy(key, answer.signature, bytes)))) return null;
    const manifest = JSON.parse(new TextDecoder().decode(bytes));
    return { key: key ?? answer.key, manifest: answer.manifest, commit: manifest.commit, assets: manifest.assets, held: null };
  } catch {
    return null;
  }
}

/**
 * Compares the server's build with the pin: 'unpinned' (the server does not sign, or nothing to
 * learn yet), 'trusted', 'held', or 'unanswered' (pinned, no connection). `reachable`: the caller
 * knows the server answers pages, so a release answer lost on the way counts as refused (a server
 * cannot slip past by dropping that one request).
 */
async function checkRelease(reachable = false) {
  const pin = await readPin();
  if (!pin && Date.now() - lastUnpinnedCheck < UNPINNED_PAUSE_MS) return 'unpinned';
  let answer = await releaseAnswer();
  if (!pin) {
    lastUnpinnedCheck = Date.now();
    const first = answer && answer !== 'refused' && answer.key ? await manifestOf(answer, answer.key) : null;
    return first ? (await writePin(first), 'trusted') : 'unpinned';
  }
  if (answer === null && !reachable) return pin.held ? 'held' : 'unanswered';
  answer ??= 'refused';
  if (answer !== 'refused' && answer.manifest === pin.manifest) {
    if (pin.held) await writePin({ ...pin, held: null });
    return 'trusted';
  }
  // A new build: it goes ahead when the pinned key signed it.
  const next = answer !== 'refused' && (await manifestOf(answer, pin.key));
  if (next) return (await writePin(next), 'trusted');
  await writePin({ ...pin, held: answer === 'refused' ? 'refused' : answer.manifest });
  return 'held';
}

/** The user re-trusts the server as it is now, after confirming (BuildTrustNotice): its key, or none if it stopped signing. */
async function trustServerAsItIs() {
  const answer = await releaseAnswer();
  if (!answer || answer === 'refused') return 'held';
  if (!answer.key) return (await writePin(null), 'unpinned');
  const pin = await manifestOf(answer, null);
  return pin ? (await writePin(pin), 'trusted') : 'held';
}

/** What to show instead of a held build's page: the kept copy, else a redirect to a kept security page (the warning). */
async function heldPage(url) {
  const cache = await caches.open(SHELL_CACHE);
  if (isShellPage(url)) {
    const kept = await cache.match(url.href, { ignoreSearch: true });
    if (kept) return kept;
  }
  for (const page of new Set([`${localePrefix(url.pathname)}/security`, '/security'])) {
    const target = new URL(page, url.origin).href;
    if (target !== url.href && (await cache.match(target))) return Response.redirect(target, 302);
  }
  return null;
}

/** Keeps the security page of the language in use (with credentials omitted: the visitor's page), for heldPage. */
async function keepWarningPage(url) {
  const page = new URL(`${localePrefix(url.pathname)}/security`, url.origin).href;
  if (await (await caches.open(SHELL_CACHE)).match(page)) return;
  await keepShellPage(page, await fetch(page, { credentials: 'omit' }));
}

/** Every navigation: the release check first, then the page as before, or what was kept if the build is held. */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- called by public/sw.js
async function guardedNavigation(event, url) {
  const network = () => (isShellPage(url) ? navigate(event) : fetch(event.request));
  // An API answer or the manifest opened in a tab runs no script: nothing to hold back.
  if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/.well-known/')) return fetch(event.request);
  let state;
  try {
    state = await checkRelease();
    if (state === 'held') return (await heldPage(url)) ?? (await network());
  } catch {
    return network();
  }
  const response = await network();
  try {
    // The release answer was lost but the page came: asked again, as one that knows the server is up.
    if (state === 'unanswered' && (await checkRelease(true)) === 'held') return (await heldPage(url)) ?? response;
    if (state !== 'unpinned') event.waitUntil(keepWarningPage(url).catch(() => {}));
  } catch {
    // The page as it came.
  }
  return response;
}

/**
 * A code file from the network, when a pin exists: only with the hash the pinned manifest gives
 * it. A file it does not list may be a signed update not checked yet: checked once, then refused.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- called by public/sw.js
async function vouchedAsset(request, response) {
  try {
    const path = new URL(request.url).pathname;
    let pin = await readPin();
    if (!pin || !response.ok || NOT_CODE.test(path)) return response;
    const hash = `sha384-${await digest('SHA-384', await response.clone().arrayBuffer())}`;
    if (pin.assets[path] !== hash && !pin.held && (await checkRelease()) === 'trusted') pin = await readPin();
    if (pin.assets[path] === hash) return response;
    return new Response('', { status: 409, statusText: 'Held back: not in the pinned release' });
  } catch {
    return response;
  }
}

/** The pages' questions (components/public/BuildTrustNotice.tsx): the state, or re-trust the server. Answers whether it was one. */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- called by public/sw.js
function answerTrustMessage(event) {
  const type = event.data?.type;
  const port = event.ports?.[0];
  if ((type !== 'trust-state' && type !== 'trust-server') || !port) return false;
  const work = (type === 'trust-state' ? checkRelease() : trustServerAsItIs()).then(
    (state) => port.postMessage({ state }),
    () => port.postMessage({ state: 'unknown' }),
  );
  event.waitUntil(work);
  return true;
}
