import type { Answer } from '../support/api';

// Issue 34, item 4: GET /metrics through its real route handler, on the test's own database.
// METRICS_TOKEN is read once, with the configuration: set before anything imports it.
const TOKEN = 'metrics-token-for-the-integration-test';
process.env.METRICS_TOKEN = TOKEN;

let api: typeof import('../support/api');
let meeting: typeof import('../support/meeting');
let metrics: typeof import('@/app/metrics/route');
let closeDb: () => Promise<void>;

beforeAll(async () => {
  api = await import('../support/api');
  meeting = await import('../support/meeting');
  metrics = await import('@/app/metrics/route');
  const client = await import('@/lib/db/client');
  closeDb = client.closeDb;
  await client.getDb();
}, 60_000);
afterAll(() => closeDb());

const scrape = (authorization?: string): Promise<Answer> =>
  api.call(metrics.GET as never, { path: '/metrics', headers: authorization === undefined ? {} : { authorization } });

/** The value of one series in the text format, or undefined when the series is absent. */
function valueOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const FAMILIES = [
  'enclave_http_requests_total',
  'enclave_http_request_duration_seconds',
  'enclave_meeting_joins_total',
  'enclave_meeting_join_duration_seconds',
  'enclave_meetings_live',
  'enclave_meeting_participants_live',
  'enclave_signal_messages_relayed_total',
  'enclave_signal_messages_refused_total',
  'enclave_mail_outbox_depth',
  'enclave_mail_outbox_oldest_age_seconds',
  'enclave_mail_outbox_failed',
  'enclave_reminder_lag_seconds',
  'enclave_reminder_last_lag_seconds',
  'enclave_reminder_oldest_overdue_seconds',
  'enclave_db_pool_size',
  'enclave_db_errors_total',
  // prom-client's defaults under their conventional names, as Node.js dashboards expect (issue 48, point 5)
  'process_cpu_seconds_total',
  'process_resident_memory_bytes',
  'nodejs_eventloop_lag_seconds',
  'nodejs_heap_size_used_bytes',
];

describe('GET /metrics', () => {
  it('is refused (401) without the token and with a wrong one, in the error envelope, never cached', async () => {
    for (const authorization of [undefined, `Bearer wrong-${TOKEN}`, `Bearer ${TOKEN.slice(0, -1)}`, TOKEN]) {
      const answer = await scrape(authorization);
      expect([authorization, answer.status, answer.json.errorCode]).toEqual([authorization, 401, 'authentication_error']);
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.text).not.toContain('enclave_');
    }
  });

  it('answers every metric family in Prometheus text format with the token', async () => {
    const answer = await scrape(`Bearer ${TOKEN}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    for (const family of FAMILIES) expect([family, answer.text.includes(`# TYPE ${family} `)]).toEqual([family, true]);
    // ...and not also under the app's prefix
    expect(answer.text).not.toMatch(/^# TYPE enclave_(process|nodejs)_/m);
    // The embedded database has one connection; postgres.js a pool of 10.
    const driver = process.env.DATABASE_URL ? 'postgres' : 'pglite';
    expect(valueOf(answer.text, `enclave_db_pool_size{driver="${driver}"}`)).toBe(driver === 'postgres' ? 10 : 1);
    // The refusals above were counted under the route, not under a page.
    expect(valueOf(answer.text, 'enclave_http_requests_total{route="/metrics",method="GET",status="401"}')).toBe(4);
  });

  it('follows the app: a join, a live participant, a refused signal, the outbox', async () => {
    const { createUser } = api;
    const { getDb } = await import('@/lib/db/client');
    const { mailOutbox } = await import('@/lib/db/schema');
    const { sql } = await import('drizzle-orm');
    const { user } = await createUser({ isTrial: false });
    const meetingId = await meeting.makeRoom(user);

    const { POST: joinRoute } = await import('@/app/api/meeting/[id]/join/route');
    const { POST: signalRoute } = await import('@/app/api/meeting/[id]/signal/route');
    const { PEER_HEADER } = await import('@/lib/security/client-address');
    const path = `/api/meeting/${meetingId}`;
    const joined = await api.call(joinRoute as never, {
      path: `${path}/join`,
      body: { name: 'Guest' },
      params: { id: meetingId },
      headers: { [PEER_HEADER]: meeting.freshIp() },
    });
    expect(joined.status).toBe(200);
    expect(joined.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const refused = await api.call(signalRoute as never, {
      path: `${path}/signal`,
      body: { type: 'leave' },
      params: { id: meetingId },
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(refused.status).toBe(401);
    // A mail queued an hour ago and due since: the outbox is behind by an hour.
    const db = await getDb();
    await db.insert(mailOutbox).values({
      to: 'late@mail.test',
      subject: 's',
      html: 'h',
      text: 't',
      createdAt: sql`now() - interval '1 hour'`,
      sendAfter: sql`now() - interval '1 hour'`,
    });

    const { text } = await scrape(`Bearer ${TOKEN}`);
    expect(valueOf(text, 'enclave_meeting_joins_total{outcome="admitted",reason=""}')).toBe(1);
    expect(valueOf(text, 'enclave_meeting_join_duration_seconds_count')).toBe(1);
    expect(valueOf(text, 'enclave_meetings_live')).toBe(1);
    expect(valueOf(text, 'enclave_meeting_participants_live{state="joining"}')).toBe(1);
    expect(valueOf(text, 'enclave_signal_messages_refused_total{reason="token"}')).toBe(1);
    // Routes by template: the meeting's id is in no label.
    expect(valueOf(text, 'enclave_http_requests_total{route="/api/meeting/[id]/join",method="POST",status="200"}')).toBe(1);
    expect(valueOf(text, 'enclave_http_requests_total{route="/api/meeting/[id]/signal",method="POST",status="401"}')).toBe(1);
    expect(text).not.toContain(meetingId);
    // (With PostgreSQL, other test files may queue mail in the same database meanwhile.)
    expect(valueOf(text, 'enclave_mail_outbox_depth')).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'enclave_mail_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(3599);
  });

  it('every log line of a request carries the id its answer names in X-Request-Id', async () => {
    const { apiRoute } = await import('@/lib/api/handler');
    const { log } = await import('@/lib/log');
    const handler = apiRoute({ auth: 'none' }, async () => {
      log.info('handling');
      await new Promise((resolve) => setTimeout(resolve, 5));
      throw new Error('a bug');
    });
    const logged: string[] = [];
    const out = jest.spyOn(console, 'log').mockImplementation((line: string) => void logged.push(line));
    const err = jest.spyOn(console, 'error').mockImplementation((line: string) => void logged.push(line));
    try {
      const answer = await api.call(handler as never, { path: '/api/test' });
      const id = answer.headers.get('x-request-id');
      expect(answer.status).toBe(500);
      // The id the error answer gives for support is the request's id.
      expect(answer.json.requestId).toBe(id);
      const lines = logged.map((line) => JSON.parse(line) as { message: string; requestId?: string });
      expect(lines.map(({ message, requestId }) => [message, requestId])).toEqual([
        ['handling', id],
        ['unhandled error in route handler', id],
      ]);
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  });
});
