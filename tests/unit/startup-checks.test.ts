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

// Issue 45: SFU_URLS has one parser, and a value it cannot read stops the server at start, where
// it once answered 500 on every rooms page and made calls ask for a ticket every 30 s.
describe('the SFU settings at start', () => {
  const withSfu = (sfuUrls?: string, sfuSecret?: string) => server({ DATA_KEY: KEY }, { sfuSettings: { sfuUrls, sfuSecret } });
  const NODE = 'wss://meet.example.org/sfu|http://127.0.0.1:8088/janus';

  it('no SFU starts, and the log says calls stay peer to peer', () => {
    expect(withSfu()).toEqual({ problems: [], notes: [expect.stringMatching(/^SFU: off .*peer to peer/)] });
  });

  it('a node and its secret start, and the log names the node', () => {
    expect(withSfu(NODE, 's'.repeat(32))).toEqual({
      problems: [],
      notes: ['SFU: 1 Janus node (wss://meet.example.org/sfu): calls of 6 or more go through it, end-to-end encrypted.'],
    });
  });

  it.each([
    ['wss://meet.example.org/sfu', 'node 1 must be'],
    ['https://meet.example.org/sfu|http://127.0.0.1:8088/janus', 'must start with wss://'],
    [`${NODE},${NODE}`, 'appears twice'],
  ])('SFU_URLS=%j stops it, naming what is wrong', (value, message) => {
    const { problems } = withSfu(value, 's'.repeat(32));
    expect(problems).toEqual([expect.stringContaining(message)]);
  });

  it('nodes without the secret stop it; the secret without nodes is said in the log', () => {
    expect(withSfu(NODE, undefined).problems).toEqual([expect.stringContaining('SFU_URLS is set without SFU_SECRET')]);
    expect(withSfu(undefined, 'secret')).toEqual({ problems: [], notes: [expect.stringMatching(/^SFU: off .*SFU_SECRET is set but not used/)] });
  });
});
