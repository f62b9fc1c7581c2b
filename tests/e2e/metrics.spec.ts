import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { E2E_DATA_DIR } from './support/constants.mjs';

// Issue 34, item 4: /metrics on the suite's real server (server/server.mjs, no METRICS_TOKEN):
// this host may read it, and what it counts follows the requests the server answered.

/** One series of a scrape, 0 while it has not appeared. */
async function series(request: APIRequestContext, name: string): Promise<number> {
  const answer = await request.get('/metrics');
  expect(answer.status()).toBe(200);
  const line = (await answer.text()).split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : 0;
}

test('/metrics counts requests by route template and status; API answers carry X-Request-Id, as does their log line', async ({ request, baseURL }) => {
  const contact = 'enclave_http_requests_total{route="/contact",method="POST",status="200"}';
  // Signaling's POSTs take the fast path past Next.js's routing; they are counted all the same.
  const signal = 'enclave_http_requests_total{route="/api/meeting/[id]/signal",method="POST",status="401"}';
  const page = 'enclave_http_requests_total{route="page",method="GET",status="200"}';
  const before = { contact: await series(request, contact), signal: await series(request, signal), page: await series(request, page) };

  const sent = await request.post('/contact', {
    data: { name: 'Metrics Test', email: 'metrics@example.test', message: 'counted' },
    headers: { origin: baseURL!, 'x-forwarded-for': '192.0.2.34' },
  });
  expect(sent.status()).toBe(200);
  const requestId = sent.headers()['x-request-id'];
  expect(requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  const refused = await request.post('/api/meeting/no-such-meeting-1/signal', {
    data: { type: 'leave' },
    headers: { origin: baseURL!, authorization: 'Bearer forged' },
  });
  expect(refused.status()).toBe(401);
  expect(refused.headers()['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect((await request.get('/en/login')).status()).toBe(200);

  // A page's answer is counted when it is done: poll the scrape.
  await expect
    .poll(async () => ({ contact: await series(request, contact), signal: await series(request, signal), page: (await series(request, page)) > before.page }))
    .toEqual({
      contact: before.contact + 1,
      signal: before.signal + 1,
      page: true,
    });

  // The mail the contact form queued was logged during that request, under its id.
  const logged = () =>
    readFileSync(path.join(E2E_DATA_DIR, 'server.log'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { message?: string; requestId?: string })
      .filter((line) => line.requestId === requestId)
      .map((line) => line.message);
  await expect.poll(logged).toContain('mail queued');
});

test('/metrics is never cached, and is refused to a request a proxy forwarded (without a token, only this host reads it)', async ({ request }) => {
  const local = await request.get('/metrics');
  expect(local.status()).toBe(200);
  expect(local.headers()['cache-control']).toBe('no-store');
  expect(local.headers()['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await local.text();
  expect(text).toMatch(/^# HELP enclave_/m);
  // The process's metrics under prom-client's conventional names (issue 48, point 5)
  expect(text).toMatch(/^process_cpu_seconds_total \d/m);
  expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  expect(text).not.toMatch(/^enclave_process_/m);
  // The suite's browsers stand in for a reverse proxy on loopback (TRUSTED_PROXIES): its visitors are not this host.
  const forwarded = await request.get('/metrics', { headers: { 'x-forwarded-for': '192.0.2.35' } });
  expect(forwarded.status()).toBe(401);
  expect((await forwarded.json()).errorCode).toBe('authentication_error');
  // Not a locale page: /de/metrics is no route of the app.
  expect((await request.get('/de/metrics')).status()).toBe(404);
});
