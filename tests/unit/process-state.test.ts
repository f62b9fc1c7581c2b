import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// Process-wide state lives in a process slot (lib/process-slot.ts). Next.js loads a module once
// per route bundle, and Turbopack inlines one module into several server chunks: the build of
// 2026-11-30 had lib/sfu/ticket.ts in the ticket route's chunk and the meeting stream's, each with
// its own set of checked rooms, and an in-memory database's random session secret would have been
// one per copy. A module-level `let` or empty Map/Set on the server is either a slot or a cache
// listed here, whose copies can only repeat each other's work.

const CACHES: Record<string, string> = {
  'lib/auth/oidc/configured.ts#parsed': 'OIDC_PROVIDERS parsed',
  'lib/auth/oidc/client.ts#configurations': "each provider's discovery document",
  'lib/auth/common-passwords.ts#list': 'the list read from disk',
  'lib/auth/session.ts#prepared': 'prepared statements per database',
  'lib/auth/device-cookie.ts#key': 'derived from the session secret',
  'lib/recurrence/compile.ts#ruleCache': 'compiled rules',
  'lib/api/fast-answer.ts#headers': 'headers built once',
  'lib/configuration/brand.ts#cached': 'the brand name for a minute',
  'lib/configuration/brand.ts#refreshing': 'one read of it at a time',
  'lib/release/manifest.ts#served': 'the release manifest read once',
  'lib/meeting/background-assets.ts#kept': 'model files read once',
  'lib/events/calendar-answer.ts#inflight': 'one load of a window at a time',
  'lib/events/calendar-fast-path.ts#headers': 'headers built once',
  'lib/events/calendar-version.ts#prepared': 'prepared statements per database',
  'lib/events/ics/vtimezone.ts#cache': 'time zone blocks',
  'lib/billing/stripe.ts#client': "Stripe's client",
  'lib/sfu/janus-http.ts#transactions': 'numbers requests; Janus answers each HTTP request on its own',
  'lib/sfu/nodes.ts#parsed': 'SFU_URLS parsed',
  'lib/time/clock.ts#cycles': 'hour cycles per locale',
  'lib/time/clock.ts#formats': 'formatters',
  'lib/time/offset.ts#formatters': 'formatters',
  'lib/time/offset.ts#offsetsByDay': 'time zone offsets',
  'lib/meeting-server/token.ts#key': 'derived from the session secret',
  'lib/security/client-address.ts#unreadableHopLogged': 'a warning logged once',
  'lib/security/client-address.ts#configured': 'TRUSTED_PROXIES parsed',
  'lib/security/data-key.ts#keys': 'derived from DATA_KEY or the session secret',
  'lib/security/rate-limit.ts#redisLimiters': 'limiter objects; their counts are in Redis',
  'lib/meeting/e2ee/sender-data.ts#dataKeys': 'imported keys per secret',
  'lib/meeting/e2ee/sender-data.ts#proofKeys': 'imported keys per secret',
};

/** The browser's own modules: one page instantiates a module once, by its id. */
const browserOnly = (file: string) => file.startsWith('lib/meeting/client/') || file === 'lib/api/browser.ts';

const STATE = /^(?:export )?(?:let ([A-Za-z_$][\w$]*)|const ([A-Za-z_$][\w$]*)(?:: [^=]+)? = new (?:Map|Set|WeakMap)(?:<.*>)?\(\))/gm;

function serverState(): string[] {
  const files = readdirSync('lib', { recursive: true, encoding: 'utf8' })
    .map((file) => path.posix.join('lib', file.split(path.sep).join('/')))
    .filter((file) => /\.tsx?$/.test(file) && !browserOnly(file));
  return files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(STATE)].map((match) => `${file}#${match[1] ?? match[2]}`));
}

describe('process-wide state on the server', () => {
  it('is found by the scan (a slot is not, a cache is)', () => {
    const found = serverState();
    expect(found).toContain('lib/sfu/nodes.ts#parsed');
    expect(found).not.toContain('lib/sfu/ticket.ts#verified');
  });

  it('is a process slot, or a cache whose copies can only repeat work', () => {
    const unlisted = serverState().filter((name) => !(name in CACHES));
    expect(unlisted).toEqual([]);
  });

  it('lists no cache that is gone', () => {
    const found = new Set(serverState());
    expect(Object.keys(CACHES).filter((name) => !found.has(name))).toEqual([]);
  });
});
