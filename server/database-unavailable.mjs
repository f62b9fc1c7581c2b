// A page that failed because the database could not be reached answers 503 with Retry-After
// and a translated page that tries again by itself, instead of Next.js's 500 error page (issue
// 20; docs/decisions.md, "A page during a database outage"). The page marks its request
// (instrumentation.ts onRequestError → lib/db/unavailable-request.ts) in the state this module
// gives each request; the answer is swapped here, where the status can still be set.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { everyAnswerHeaders } from '../lib/security/base-headers.mjs';
import { putOnSeam, REQUEST_STATE } from '../lib/server-seam/seam.mjs';

/** As DATABASE_RETRY_AFTER_SECONDS in lib/db/unavailable.ts (the API's 503s). */
const RETRY_AFTER_SECONDS = 5;
// The state lib/db/unavailable-request.ts marks and lib/request-context.ts fills in.
const requestState = putOnSeam(REQUEST_STATE, new AsyncLocalStorage());

/** Runs `handle` with a state of its own, which a page marks when the database is unavailable. */
export function withRequestState(handle) {
  return requestState.run({}, handle);
}

// Tries again after Retry-After, then 2×, 4×… up to a minute, ±20% so that the tabs left open
// during an outage do not come back all at once; counted per tab, from zero after 5 quiet minutes.
const retryScript = `(() => {
  const key = 'enclave-unavailable', now = Date.now();
  let last = null;
  try { last = JSON.parse(sessionStorage.getItem(key)); } catch {}
  const tries = last && now - last.at < 300000 ? last.tries + 1 : 0;
  try { sessionStorage.setItem(key, JSON.stringify({ tries, at: now })); } catch {}
  const base = Number(document.documentElement.dataset.retryAfter) || 5;
  setTimeout(() => location.reload(), Math.min(base * 2 ** tries, 60) * (0.8 + Math.random() * 0.4) * 1000);
})();`;
const style = `body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1e293b;background:#f8fafc}
main{max-width:36rem;margin:0 auto;padding:6rem 1.5rem;text-align:center}
h1{font-size:1.75rem;margin:0 0 1rem}p{color:#475569}
a{display:inline-block;margin-top:1.5rem;padding:.6rem 1.2rem;border-radius:.5rem;background:#1f7a4d;color:#fff;text-decoration:none}
@media (prefers-color-scheme:dark){body{color:#e2e8f0;background:#0f172a}p{color:#cbd5e1}}`;
const hash = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const policy = `default-src 'none'; script-src ${hash(retryScript)}; style-src ${hash(style)}; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;

const KEPT_HEADERS = ['strict-transport-security', 'cross-origin-opener-policy', 'permissions-policy'];
const escape = (text) => text.replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`);
/** The page in each language, from messages/<locale>.json ("Unavailable"). */
function pages(root) {
  const brand = process.env.BRAND_NAME || 'Enclave';
  return new Map(
    readdirSync(path.join(root, 'messages')).map((file) => {
      const locale = file.replace(/\.json$/, '');
      const t = JSON.parse(readFileSync(path.join(root, 'messages', file), 'utf8')).Unavailable;
      const [language, region] = locale.split('-');
      const page = `<!doctype html>
<html lang="${region ? `${language}-${region.toUpperCase()}` : language}" data-retry-after="${RETRY_AFTER_SECONDS}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${escape(`${brand} – ${t.title}`)}</title><style>${style}</style>
<noscript><meta http-equiv="refresh" content="30"></noscript></head>
<body><main role="alert"><h1>${escape(t.title)}</h1><p>${escape(t.body)}</p><p>${escape(t.retrying)}</p>
<a href="">${escape(t.retryNow)}</a></main><script>${retryScript}</script></body>
</html>
`;
      return [locale, Buffer.from(page)];
    }),
  );
}

/**
 * Lets `response` through untouched unless it is an error (5xx) of a request the database failed:
 * then, before any of Next.js's error page is sent, it answers 503, Retry-After and the page in
 * the language of the path ("/de/…"; no prefix is English, as the locale routing does).
 */
export function unavailablePages(root) {
  const byLocale = pages(root);
  return function guard(request, response) {
    const state = requestState.getStore();
    const { writeHead, write, end } = response;
    let swapped = false;
    const swap = (status) => {
      if (swapped) return true;
      if (response.headersSent || status < 500 || !state?.databaseUnavailable) return false;
      swapped = true;
      const first = (request.url ?? '/').split(/[/?]/)[1];
      const body = byLocale.get(first) ?? byLocale.get('en');
      // Next.js's headers describe its error page; only those that hold for any answer stay.
      const kept = Object.fromEntries(KEPT_HEADERS.filter((name) => response.hasHeader(name)).map((name) => [name, response.getHeader(name)]));
      for (const name of response.getHeaderNames()) response.removeHeader(name);
      writeHead.call(response, 503, {
        ...kept,
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Length': body.length,
        'Retry-After': String(RETRY_AFTER_SECONDS),
        'Cache-Control': 'no-store',
        'Content-Security-Policy': policy,
        ...everyAnswerHeaders,
      });
      end.call(response, request.method === 'HEAD' ? undefined : body);
      return true;
    };
    // Next.js's own writes after the swap (its error page, compressed or not) go nowhere.
    const done = (args) => {
      const callback = args.find((arg) => typeof arg === 'function');
      if (callback) process.nextTick(callback);
    };
    response.writeHead = function (status, ...rest) {
      return swap(status) ? this : writeHead.call(this, status, ...rest);
    };
    response.write = function (...args) {
      if (!swap(this.statusCode)) return write.apply(this, args);
      done(args);
      return true;
    };
    response.end = function (...args) {
      if (!swap(this.statusCode)) return end.apply(this, args);
      done(args);
      return this;
    };
  };
}
