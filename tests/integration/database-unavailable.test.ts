import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import postgres from 'postgres';

// Issue 20, "Database faults": a database that cannot be reached answers 503
// service_unavailable with Retry-After, quickly, in the request's language — never a hang, never
// error_contact_us (500). The app's own postgres.js client is pointed at a port where nothing
// listens (a stopped database), and at one that answers every connection as PostgreSQL does
// while it starts up or shuts down: FATAL 57P03.

let refusedPort: number;
let starting: Server;
let startingPort: number;

/** PostgreSQL's ErrorResponse message: 'E', its length, then typed NUL-ended fields. */
function errorResponseMessage(fields: Record<string, string>): Buffer {
  const body = Buffer.concat([...Object.entries(fields).map(([type, value]) => Buffer.from(`${type}${value}\0`)), Buffer.from([0])]);
  const head = Buffer.alloc(5);
  head.write('E');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  refusedPort = await freePort();
  starting = createServer((socket) =>
    socket.once('data', () => socket.end(errorResponseMessage({ S: 'FATAL', V: 'FATAL', C: '57P03', M: 'the database system is starting up' }))),
  );
  await new Promise<void>((resolve) => starting.listen(0, '127.0.0.1', resolve));
  startingPort = (starting.address() as AddressInfo).port;
  // Read by lib/environment when the route modules load below.
  process.env.DATABASE_URL = `postgres://postgres@127.0.0.1:${refusedPort}/enclave`;
});

afterAll(async () => {
  await new Promise((resolve) => starting.close(resolve));
});

async function failureOf(port: number): Promise<unknown> {
  const { BOUNDED_WAITS } = await import('@/lib/db/client');
  const client = postgres(`postgres://postgres@127.0.0.1:${port}/enclave`, { max: 1, ...BOUNDED_WAITS });
  try {
    await client`select 1`;
    throw new Error('the query should have failed');
  } catch (error) {
    return error;
  } finally {
    await client.end({ timeout: 1 });
  }
}

describe('database unavailable', () => {
  it('a refused connection and a database starting up are named; an ordinary SQL error is not', async () => {
    const { databaseUnavailableCode } = await import('@/lib/db/unavailable');
    expect(databaseUnavailableCode(await failureOf(refusedPort))).toBe('ECONNREFUSED');
    expect(databaseUnavailableCode(await failureOf(startingPort))).toBe('57P03');
    // As drizzle wraps it, and PostgreSQL's "terminating connection due to administrator command".
    const shutdown = Object.assign(new Error('terminating connection'), { code: '57P01' });
    expect(databaseUnavailableCode(Object.assign(new Error('Failed query'), { cause: shutdown }))).toBe('57P01');
    expect(databaseUnavailableCode(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBeUndefined();
    expect(databaseUnavailableCode(new TypeError('x is undefined'))).toBeUndefined();
  });

  it('a route answers 503 service_unavailable with Retry-After and a localized message, within seconds', async () => {
    const { call, ORIGIN } = await import('../support/api');
    const { POST } = await import('@/app/login/route');
    const started = Date.now();
    const answer = await call(POST, {
      path: '/login',
      body: { email: 'someone@example.test', password: 'correct horse battery' },
      headers: { 'accept-language': 'fr', origin: ORIGIN },
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(answer.json).toEqual({
      status: 'error',
      errorCode: 'service_unavailable',
      message: 'Le service est momentanément indisponible. Veuillez réessayer dans un instant.',
    });
  });

  it('an unexpected error is still error_contact_us (500)', async () => {
    const { errorResponse } = await import('@/lib/api/handler');
    const response = await errorResponse(new TypeError('x is undefined'), 'en');
    expect(response.status).toBe(500);
    expect((await response.json()).errorCode).toBe('error_contact_us');
  });
});
