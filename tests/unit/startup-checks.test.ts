import { checkStartup, isLoopbackUrl, type StartupEnv } from '@/lib/startup-checks';

// Issue 32, items 2 and 9: settings that would make the server unsafe or half-broken stop it at
// start, named, instead of a server whose health check says ok.
const KEY = 'k'.repeat(32);
const server = (env: StartupEnv, overrides: Partial<Parameters<typeof checkStartup>[0]> = {}) =>
  checkStartup({ production: true, appUrl: 'https://meet.example.org', smtpUrl: 'smtp://127.0.0.1:25', mailLog: false, env, ...overrides });

describe('the checks at start', () => {
  it('a well-configured public server starts, and says nothing about its key', () => {
    expect(server({ DATA_KEY: KEY, TRUSTED_PROXIES: '127.0.0.1, ::1' })).toEqual({ problems: [], notes: [] });
  });

  it.each(['localhost', '127.0.0.1/33', '10.0.0.0/8, nginx'])('TRUSTED_PROXIES=%j stops it, naming the entry', (value) => {
    const { problems } = server({ DATA_KEY: KEY, TRUSTED_PROXIES: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/TRUSTED_PROXIES: "(localhost|127\.0\.0\.1\/33|nginx)"/);
  });

  it('a public production server without DATA_KEY does not start; the message says where to keep it', () => {
    const { problems } = server({});
    expect(problems).toEqual([expect.stringMatching(/without DATA_KEY.*outside DATA_DIR/)]);
  });

  it('a DATA_KEY too short to be a key stops it anywhere', () => {
    expect(server({ DATA_KEY: 'short' }).problems).toEqual([expect.stringContaining('DATA_KEY must be at least 32 characters')]);
    expect(server({ DATA_KEY: 'short' }, { production: false, appUrl: 'http://localhost:3000' }).problems).toHaveLength(1);
  });

  it('the local trial keeps deriving the key, and says so', () => {
    const report = server({}, { appUrl: 'http://localhost:3000' });
    expect(report.problems).toEqual([]);
    expect(report.notes).toEqual([expect.stringContaining('DATA_KEY is not set')]);
  });

  it('every problem is reported at once (mail and key)', () => {
    expect(server({ TRUSTED_PROXIES: 'localhost' }, { smtpUrl: undefined }).problems).toHaveLength(3);
  });

  it.each([
    ['http://localhost:3000', true],
    ['http://app.localhost', true],
    ['http://127.0.0.1:3000', true],
    ['http://[::1]:3000', true],
    ['https://meet.example.org', false],
    ['http://192.168.1.10:3000', false],
    ['http://localhost.example.org', false],
  ])('%s is loopback: %s', (url, expected) => expect(isLoopbackUrl(url)).toBe(expected));
});
