#!/usr/bin/env node
// The production HTTP server (`npm start` runs it through scripts/start.mjs): Next.js's request
// handler behind a plain Node server, for one reason: route handlers must know the address of the
// TCP peer for per-client rate limits (lib/security/client-address.ts), and Next.js does not
// expose the socket. The peer's address goes into x-enclave-peer, replacing any value a client
// sent; X-Forwarded-For then counts only from TRUSTED_PROXIES.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import next from 'next';
import { unavailablePages, withRequestState } from './database-unavailable.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME || undefined;
const PEER_HEADER = 'x-enclave-peer';
// What the request said of its forwarded host and scheme before Next.js fills in its own
// (X-Forwarded-Host from the Host header): believed only from a trusted proxy (lib/api/origin.ts).
const FORWARDED_HOST_HEADER = 'x-enclave-forwarded-host';
const FORWARDED_PROTO_HEADER = 'x-enclave-forwarded-proto';

const app = next({ dev: false, dir: root, port, hostname: hostname ?? 'localhost' });
const handle = app.getRequestHandler();
// A page the database failed answers 503 and a page that tries again (scripts/database-unavailable.mjs).
const guardUnavailable = unavailablePages(root);
await app.prepare();

// What every answer carries (next.config.mjs gives Next's own answers the same).
const closedHeaders = {
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
};

// The catalogue's text for incorrect_data in each language, for the one answer given here.
const incorrectData = Object.fromEntries(
  readdirSync(path.join(root, 'messages')).map((file) => [
    file.replace(/\.json$/, ''),
    JSON.parse(readFileSync(path.join(root, 'messages', file), 'utf8')).Errors.incorrect_data,
  ]),
);
/** The browser's first language that Enclave speaks ("de-AT" → "de"), else English. */
function messageFor(acceptLanguage) {
  for (const tag of (acceptLanguage ?? '').toLowerCase().split(',').map((part) => part.split(';')[0].trim())) {
    if (incorrectData[tag]) return incorrectData[tag];
    if (incorrectData[tag.split('-')[0]]) return incorrectData[tag.split('-')[0]];
  }
  return incorrectData.en;
}

/** A path whose percent-encoding does not decode ("/%", "/api/room/%E2%82"): Next.js answers 500. */
function malformedPath(url) {
  try {
    decodeURIComponent((url ?? '/').split('?')[0]);
    return false;
  } catch {
    return true;
  }
}

// No page or call of the app needs a longer address; a longer one is refused before Next.js
// sees it (issue 32, item 7: a 15 KB unknown path came back as 212 KB of headers).
const MAX_URL_BYTES = 4096;

// Set once the server is stopping (stop() below).
let stopping = false;

const server = createServer((request, response) => {
  // While stopping, an answer on a kept-alive connection closes it, so the client's next request
  // opens a new connection — to another instance behind the proxy.
  if (stopping) response.setHeader('Connection', 'close');
  withRequestState(() => serve(request, response));
});

function serve(request, response) {
  request.headers[PEER_HEADER] = request.socket.remoteAddress ?? '';
  request.headers[FORWARDED_HOST_HEADER] = request.headers['x-forwarded-host'] ?? '';
  request.headers[FORWARDED_PROTO_HEADER] = request.headers['x-forwarded-proto'] ?? '';
  // The request's id (x-request-id, on every log line and in X-Request-Id) and its metrics:
  // lib/metrics/request-start.ts, registered by instrumentation.ts.
  globalThis[Symbol.for('enclave.requestStart')]?.(request, response);
  if (Buffer.byteLength(request.url ?? '') > MAX_URL_BYTES) {
    response.writeHead(414, { ...closedHeaders, 'Content-Type': 'application/json', Connection: 'close' });
    response.end(JSON.stringify({ status: 'error', errorCode: 'incorrect_data', message: messageFor(request.headers['accept-language']) }));
    return;
  }
  if (malformedPath(request.url)) {
    if (request.url.startsWith('/api/')) {
      response.writeHead(400, { ...closedHeaders, 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ status: 'error', errorCode: 'incorrect_data', message: messageFor(request.headers['accept-language']) }));
      return;
    }
    // A page: the localized not-found page, with every header a page gets.
    request.url = '/__malformed-path';
  }
  // A request another site started goes to the route, which refuses it (lib/api/handler.ts).
  if (request.method === 'GET' && request.url.startsWith('/api/events/calendar?') && !crossSite(request)) return void calendarFastPath(request, response);
  if (globalThis[signalFast]?.matches(request.method, request.url)) return void signalFastPath(request, response);
  // API handlers answer their own 503 (lib/api/handler.ts); build assets never read the database.
  if (!request.url.startsWith('/api/') && !request.url.startsWith('/_next/static/')) guardUnavailable(request, response);
  handle(request, response);
}

function crossSite(request) {
  const site = request.headers['sec-fetch-site'];
  return site === 'cross-site' || site === 'same-site';
}

// The calendar's fast path (issue 17, docs/decisions.md "Calendar API under load"): the compact
// form for a logged-in user — 304 on a matching ETag, else its body gzipped once per version — is
// answered by the app's own checks (lib/events/calendar-fast-path.ts, registered by
// instrumentation.ts) without Next.js's routing, which cost more CPU than the rest of a
// revalidation. Whatever it does not answer goes to Next.js (a database error too: the route
// answers its 503).
const fastAnswer = Symbol.for('enclave.calendarFastAnswer');
async function calendarFastPath(request, response) {
  let answer = null;
  try {
    const { cookie, 'if-none-match': ifNoneMatch, 'accept-encoding': acceptEncoding } = request.headers;
    answer = (await globalThis[fastAnswer]?.({ url: request.url, cookie, ifNoneMatch, acceptEncoding })) ?? null;
  } catch {
    answer = null;
  }
  if (!answer) return handle(request, response);
  response.writeHead(answer.status, answer.headers);
  response.end(answer.body);
}

// Signaling's fast path (issue 17, lib/meeting/server/signal-fast-path.ts): a POST to
// /api/meeting/{id}/signal is answered by the route's own handler without Next.js's routing.
// The body is read here up to the handler's limit and a byte, so a longer one reaches the handler
// too long and is refused (413) at once, as through Next.js; the rest of it is not kept (Node
// reads and drops it once the answer is sent, so the connection stays usable).
const signalFast = Symbol.for('enclave.signalFastPath');
async function signalFastPath(request, response) {
  const fast = globalThis[signalFast];
  let body;
  try {
    body = await readBody(request, fast.maxBodyBytes);
  } catch {
    return void response.destroy(); // the client went away mid-body
  }
  let answer;
  try {
    answer = await fast.answer({ url: request.url, headers: request.headers, body });
  } catch {
    // The handler answers every error itself; this is the last resort, never a stack trace.
    answer = { status: 500, headers: { ...closedHeaders, 'Content-Type': 'application/json' }, body: Buffer.from(JSON.stringify({ status: 'error', errorCode: 'error_contact_us' })) };
  }
  response.writeHead(answer.status, answer.headers);
  response.end(answer.body);
}

/** A request's body, or, as soon as it passes `limit` bytes, what came so far. */
function readBody(request, limit) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    request.on('data', (chunk) => {
      if (size > limit) return;
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) resolve(Buffer.concat(chunks));
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
    request.on('aborted', () => reject(new Error('aborted')));
  });
}

// As `next start`: keep-alive longer than common load balancers' idle time-out.
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () => {
  console.log(`Enclave listening on http://${hostname ?? 'localhost'}:${port}`);
});

// Graceful shutdown (docs/self-hosting.md "Stopping"): SIGTERM or SIGINT — or the end of
// scripts/start.mjs, seen as the IPC channel closing — stops taking connections, ends the
// meeting event streams with a retry hint and stops the background jobs (lib/server-shutdown.ts),
// answers the requests in flight, then lets go of Redis and the database, so that nothing holds
// the port or the data folder. Whatever is still running after STOP_DEADLINE_MS is cut off.
const STOP_DEADLINE_MS = 8_000;
const shutdownHooks = Symbol.for('enclave.shutdown');

async function stop(reason) {
  if (stopping) return;
  stopping = true;
  const started = Date.now();
  logLine('info', 'shutting down', { reason });
  setTimeout(() => {
    logLine('error', 'shutdown did not finish in time: exiting anyway', { afterMs: Date.now() - started });
    process.exit(1);
  }, STOP_DEADLINE_MS).unref();
  const closed = new Promise((resolve) => server.close(resolve));
  // A kept-alive connection with no request in flight would otherwise wait out its idle time-out.
  const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
  server.closeIdleConnections();
  await globalThis[shutdownHooks]?.drain().catch((error) => logLine('warn', 'shutdown: drain failed', { error: String(error) }));
  await closed;
  clearInterval(idleSweep);
  await app.close?.();
  await globalThis[shutdownHooks]?.close().catch((error) => logLine('warn', 'shutdown: close failed', { error: String(error) }));
  logLine('info', 'stopped', { afterMs: Date.now() - started });
  process.exit(0);
}

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stop(signal));
// Started by scripts/start.mjs with an IPC channel: if that process dies, even by SIGKILL, the
// channel closes and this server stops rather than keep the port and data folder as an orphan.
process.on('disconnect', () => void stop('parent process ended'));

function logLine(level, message, fields = {}) {
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...fields });
  if (level === 'error') console.error(line);
  else console.log(line);
}
