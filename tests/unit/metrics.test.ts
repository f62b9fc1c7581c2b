import { ApiError } from '@/lib/errors';
import { log } from '@/lib/log';
import { isLoopback, mayReadMetrics, sameSecret } from '@/lib/metrics/access';
import { databaseErrorKind } from '@/lib/metrics/database';
import { countHttpRequest, fallbackRoute, methodLabel } from '@/lib/metrics/http';
import { metricsRegistry } from '@/lib/metrics/registry';
import { routeTemplate } from '@/lib/metrics/route-template';
import { countLive, type RosterEntry } from '@/lib/meeting-server/hub';
import { chooseRequestId, requestStorage } from '@/lib/request-context';
import { parseTrustedProxies, PEER_HEADER } from '@/lib/security/client-address';

// Issue 34, item 4: the labels of /metrics name routes, never ids; who may read it.
describe('route templates', () => {
  it.each([
    ['/api/meeting/abc123/signal', { id: 'abc123' }, '/api/meeting/[id]/signal'],
    ['/api/meeting/abc123', { id: 'abc123' }, '/api/meeting/[id]'],
    ['/api/admin/users/7f0c/plan', { id: '7f0c' }, '/api/admin/users/[id]/plan'],
    ['/api/me', {}, '/api/me'],
    ['/metrics', {}, '/metrics'],
    ['/api/no/such/thing', { rest: ['no', 'such', 'thing'] }, '/api/[...rest]'],
    // An encoded id is matched as Next.js decoded it.
    ['/api/avatar/a%20b', { avatar: 'a b' }, '/api/avatar/[avatar]'],
    // A param equal to a static segment: the label holds only the route's own words.
    ['/api/meeting/signal/signal', { id: 'signal' }, '/api/meeting/signal/[id]'],
  ])('%s → its template', (path, params, template) => {
    expect(routeTemplate(path, params)).toBe(template);
  });

  it('a thousand meetings are one series', () => {
    const labels = new Set(Array.from({ length: 1000 }, (_, i) => routeTemplate(`/api/meeting/m${i}/signal`, { id: `m${i}` })));
    expect([...labels]).toEqual(['/api/meeting/[id]/signal']);
  });

  it('methods a client invents are one label; requests no handler named are grouped', () => {
    expect([methodLabel('get'), methodLabel('BREW'), methodLabel(undefined)]).toEqual(['GET', 'other', 'other']);
    expect([fallbackRoute('/_next/static/chunks/a.js'), fallbackRoute('/api/%'), fallbackRoute('/de/login'), fallbackRoute(undefined)]).toEqual([
      'static',
      '/api/unrouted',
      'page',
      'page',
    ]);
  });
});

describe('the registry', () => {
  it('is one per process, however often its module is loaded', async () => {
    const first = metricsRegistry();
    let again: typeof first | undefined;
    let counterAgain: unknown;
    await jest.isolateModulesAsync(async () => {
      // A second copy of the modules, as Next.js's bundles may hold.
      const copy = await import('@/lib/metrics/registry');
      expect(copy.metricsRegistry).not.toBe(metricsRegistry); // truly another copy of the module
      again = copy.metricsRegistry();
      await import('@/lib/metrics/http');
      counterAgain = again.getSingleMetric('enclave_http_requests_total');
    });
    expect(again).toBe(first);
    expect(counterAgain).toBe(first.getSingleMetric('enclave_http_requests_total'));
  });

  it('counts a request under its route, method and status, with its latency', async () => {
    countHttpRequest('/api/unit-test', 'POST', 201, 0.02);
    countHttpRequest('/api/unit-test', 'POST', 201, 0.2);
    const text = await metricsRegistry().metrics();
    expect(text).toContain('enclave_http_requests_total{route="/api/unit-test",method="POST",status="201"} 2');
    expect(text).toContain('enclave_http_request_duration_seconds_bucket{le="0.025",route="/api/unit-test",method="POST"} 1');
    expect(text).toContain('enclave_http_request_duration_seconds_count{route="/api/unit-test",method="POST"} 2');
    // collectDefaultMetrics, under the same prefix.
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).not.toMatch(/^enclave_process_/m);
  });
});

describe('who may read /metrics', () => {
  const headers = (entries: Record<string, string>) => new Headers(entries);

  it('with METRICS_TOKEN: exactly the bearer of the token, from anywhere', () => {
    const token = 's3cret-token-of-enough-length';
    expect(mayReadMetrics(headers({ authorization: `Bearer ${token}`, [PEER_HEADER]: '203.0.113.5' }), token, true)).toBe(true);
    expect(mayReadMetrics(headers({ authorization: `bearer ${token}` }), token, undefined)).toBe(true);
    for (const authorization of [`Bearer ${token}x`, `Bearer ${token.slice(1)}`, token, 'Bearer', `Basic ${token}`, '']) {
      expect([authorization, mayReadMetrics(headers({ authorization, [PEER_HEADER]: '127.0.0.1' }), token, false)]).toEqual([authorization, false]);
    }
    // A loopback peer without the token is refused too once a token is set.
    expect(mayReadMetrics(headers({ [PEER_HEADER]: '127.0.0.1' }), token, false)).toBe(false);
  });

  it('without a token: a loopback peer that no proxy forwarded, nobody else', () => {
    for (const peer of ['127.0.0.1', '127.8.9.1', '::1', '::ffff:127.0.0.1'])
      expect([peer, mayReadMetrics(headers({ [PEER_HEADER]: peer }), undefined, false)]).toEqual([peer, true]);
    for (const peer of ['10.0.0.1', '::2', '2001:db8::1', '::ffff:10.0.0.1', '', 'unknown'])
      expect([peer, mayReadMetrics(headers({ [PEER_HEADER]: peer }), undefined, false)]).toEqual([peer, false]);
    // `next start` sets no peer header and no server state: nobody can be proved local.
    expect(mayReadMetrics(headers({}), undefined, undefined)).toBe(false);
    expect(mayReadMetrics(headers({ [PEER_HEADER]: '127.0.0.1' }), undefined, undefined)).toBe(false);
    // A reverse proxy on the same host makes every visitor's peer loopback: forwarded, refused.
    expect(mayReadMetrics(headers({ [PEER_HEADER]: '127.0.0.1' }), undefined, true)).toBe(false);
  });

  it('compares secrets whole, whatever their lengths', () => {
    expect(sameSecret('abc', 'abc')).toBe(true);
    expect(sameSecret('abc', 'abd')).toBe(false);
    expect(sameSecret('', '')).toBe(false);
    expect(sameSecret('a'.repeat(1000), 'a')).toBe(false);
    expect([isLoopback(null), isLoopback('0:0:0:0:0:0:0:1')]).toEqual([false, true]);
  });
});

describe('request ids in the log', () => {
  const lines = (spy: jest.SpyInstance) => spy.mock.calls.map(([line]) => JSON.parse(line as string) as Record<string, unknown>);

  it('every line logged during a request names it; lines outside a request do not', async () => {
    const spy = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      await requestStorage().run({ requestId: 'req-1' }, async () => {
        log.info('first');
        await new Promise((resolve) => setTimeout(resolve, 1));
        log.info('after a wait', { room: 'r' });
      });
      log.info('outside');
      expect(lines(spy).map(({ message, requestId }) => [message, requestId])).toEqual([
        ['first', 'req-1'],
        ['after a wait', 'req-1'],
        ['outside', undefined],
      ]);
    } finally {
      spy.mockRestore();
    }
  });

  it('a client cannot choose its id; a trusted proxy can pass its own on', () => {
    const proxy = parseTrustedProxies('127.0.0.1');
    const ask = (peer: string, id: string) => chooseRequestId(new Headers({ 'x-request-id': id, [PEER_HEADER]: peer }), proxy);
    expect(ask('198.51.100.7', 'chosen-by-me')).toMatch(/^[0-9a-f]{8}-[0-9a-f-]{27}$/);
    expect(ask('127.0.0.1', 'from-proxy-42')).toBe('from-proxy-42');
    // Even from the proxy, an id that is too long or could break a log reader's parsing is replaced.
    expect(ask('127.0.0.1', 'x'.repeat(129))).not.toBe('x'.repeat(129));
    expect(ask('127.0.0.1', 'a"b')).not.toBe('a"b');
  });
});

describe('what the metrics read', () => {
  it('counts live meetings and participants by state, stale seats left out', () => {
    const now = 1_000_000;
    const entry = (state: RosterEntry['state'], age: number): RosterEntry => ({
      id: `${state}${age}`,
      name: 'n',
      isHost: false,
      state,
      seen: now - age,
      joinedAt: 0,
      instance: null,
    });
    const census = countLive(
      [[entry('admitted', 0), entry('waiting', 1000), entry('admitted', 60_000)], [entry('joining', 1000)], [entry('admitted', 60_000)]],
      now,
    );
    expect(census).toEqual({ meetings: 2, participants: { admitted: 1, waiting: 1, joining: 1 } });
  });

  it('tells database errors from others', () => {
    const postgres = Object.assign(new Error('duplicate key'), { name: 'PostgresError', code: '23505' });
    expect(databaseErrorKind(Object.assign(new Error('Failed query'), { name: 'DrizzleQueryError', cause: postgres }))).toBe('query');
    expect(databaseErrorKind(Object.assign(new Error('x'), { cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }) }))).toBe('unavailable');
    expect(databaseErrorKind(new ApiError('incorrect_data'))).toBeUndefined();
    expect(databaseErrorKind(new TypeError('bug'))).toBeUndefined();
  });
});
