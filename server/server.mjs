#!/usr/bin/env node
// The production HTTP server (`npm start` runs it through server/start.mjs; the container runs it
// directly): Next.js's request handler behind a plain Node server, the server layer of
// docs/architecture.md. It exists because route handlers must know the address of the TCP peer
// for per-client rate limits (lib/security/client-address.ts), and Next.js does not expose the
// socket; being first, it also refuses what must not reach Next.js (refusals.mjs), keeps Next.js's
// internal headers and over-long redirects from the client (answer-headers.mjs), answers the
// fast paths (fast-paths.mjs), turns a page's database outage into a 503 (database-unavailable.mjs)
// gives the pages' scripts their integrity (integrity-html.mjs) and stops gracefully (shutdown.mjs). It meets the app on the seam (lib/server-seam/seam.mjs).
import { createServer } from 'node:http';
import path from 'node:path';
import next from 'next';
import { REQUEST_START, fromSeam } from '../lib/server-seam/seam.mjs';
import { unavailablePages, withRequestState } from './database-unavailable.mjs';
import { answerFast, fastPathFor } from './fast-paths.mjs';
import { limitAnswerHeaders } from './answer-headers.mjs';
import { buildHashes, compressWithIntegrity } from './integrity-html.mjs';
import { refusals, refuser } from './refusals.mjs';
import { stopGracefully } from './shutdown.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME || undefined;
const PEER_HEADER = 'x-enclave-peer';
// What the request said of its forwarded host and scheme before Next.js fills in its own
// (X-Forwarded-Host from the Host header): believed only from a trusted proxy (lib/api/origin.ts).
const FORWARDED_HOST_HEADER = 'x-enclave-forwarded-host';
const FORWARDED_PROTO_HEADER = 'x-enclave-forwarded-proto';

// Read by next.config.mjs (this layer compresses) and proxy.ts (pages may send Integrity-Policy).
process.env.ENCLAVE_SERVER_LAYER = '1';
const app = next({ dev: false, dir: root, port, hostname: hostname ?? 'localhost' });
const handle = app.getRequestHandler();
// A page the database failed answers 503 and a page that tries again (server/database-unavailable.mjs).
const guardUnavailable = unavailablePages(root);
const refused = refusals(root);
const refuse = refuser(root);
// Each build asset's hash, for the pages' <script> and <link> tags (server/integrity-html.mjs).
const hashes = await buildHashes(root);
await app.prepare();

const server = createServer((request, response) => {
  // While stopping, an answer on a kept-alive connection closes it, so the client's next request
  // opens a new connection — to another instance behind the proxy.
  if (shutdown.stopping()) response.setHeader('Connection', 'close');
  withRequestState(() => serve(request, response));
});
const shutdown = stopGracefully(server, app);

function serve(request, response) {
  notePeer(request);
  // No internal header reaches the client, and no redirect echoes an over-long address.
  limitAnswerHeaders(request, response, (answer, status, headers) => refuse(request, answer, status, headers));
  // The request's id (x-request-id, on every log line and in X-Request-Id) and its metrics:
  // lib/metrics/request-start.ts, registered by instrumentation.ts.
  fromSeam(REQUEST_START)?.(request, response);
  if (refused(request, response)) return;
  const fastPath = fastPathFor(request);
  if (fastPath) return void answerFast(fastPath, request, response, toNext);
  toNext(request, response);
}

/** What the request's headers cannot be trusted to say: the TCP peer, and what it sent as forwarded. */
function notePeer(request) {
  request.headers[PEER_HEADER] = request.socket.remoteAddress ?? '';
  request.headers[FORWARDED_HOST_HEADER] = request.headers['x-forwarded-host'] ?? '';
  request.headers[FORWARDED_PROTO_HEADER] = request.headers['x-forwarded-proto'] ?? '';
}

function toNext(request, response) {
  // API handlers answer their own 503 (lib/api/handler.ts); build assets never read the database.
  if (!request.url.startsWith('/api/') && !request.url.startsWith('/_next/static/')) guardUnavailable(request, response);
  compressWithIntegrity(request, response, hashes);
  handle(request, response);
}

// As `next start`: keep-alive longer than common load balancers' idle time-out.
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () => {
  console.log(`Enclave listening on http://${hostname ?? 'localhost'}:${port}`);
});
