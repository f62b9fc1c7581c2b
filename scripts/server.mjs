#!/usr/bin/env node
// The production HTTP server (`npm start` runs it through scripts/start.mjs): Next.js's request
// handler behind a plain Node server, for one reason: route handlers must know the address of the
// TCP peer for per-client rate limits (lib/security/client-address.ts), and Next.js does not
// expose the socket. The peer's address goes into x-enclave-peer, replacing any value a client
// sent; X-Forwarded-For then counts only from TRUSTED_PROXIES.
import { createServer } from 'node:http';
import path from 'node:path';
import next from 'next';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME || undefined;
const PEER_HEADER = 'x-enclave-peer';

const app = next({ dev: false, dir: root, port, hostname: hostname ?? 'localhost' });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer((request, response) => {
  request.headers[PEER_HEADER] = request.socket.remoteAddress ?? '';
  handle(request, response);
});
// As `next start`: keep-alive longer than common load balancers' idle time-out.
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () => {
  console.log(`Enclave listening on http://${hostname ?? 'localhost'}:${port}`);
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.close();
    void app.close?.().finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 5_000).unref();
  });
}
