// Issue 44, item 3: behind a trusted proxy that writes the client's port into X-Forwarded-For
// ("198.51.100.7:40001", "[2001:db8::7]:443"), each client keeps its own rate-limit bucket. The
// walk used to stop at such a hop, so every visitor counted as the proxy: 50 wrong logins from
// anyone, and the owner's right password from a new browser answered 429 for 15 minutes.
import { closeDb, getDb } from '@/lib/db/client';
import { POST as login } from '@/app/login/route';
import { call } from '../support/api';
import { activeAccount, fromIp, uniqueEmail } from '../support/accounts';

const PROXY = '192.0.2.201';
// Read at the first rate-limited call (lib/security/client-address.ts), after this line.
process.env.TRUSTED_PROXIES = PROXY;

beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

const through = (hop: string) => ({ ...fromIp(PROXY), 'x-forwarded-for': hop });

describe('a trusted proxy that writes hops with ports', () => {
  it.each([
    ['IPv4 with a port', '198.51.100.7:40001', '203.0.113.9:40002'],
    ['IPv6 in brackets with a port', '[2001:db8::7]:443', '[2001:db8::9]:443'],
  ])(
    '%s: 50 wrong logins from one client leave the owner, through the same proxy, logging in',
    async (_name, attacker, owner) => {
      const { email, password } = await activeAccount();
      const statuses: number[] = [];
      for (let i = 0; i < 51; i += 1) {
        const answer = await call(login, { body: { email: uniqueEmail('nobody'), password: 'Wrong-Password-1' }, headers: through(attacker) });
        statuses.push(answer.status);
      }
      // The attacker meets its own limit…
      expect(statuses.slice(0, 50).every((status) => status === 400)).toBe(true);
      expect(statuses[50]).toBe(429);
      // …under its address with or without the port…
      const samePersonOtherPort = attacker.replace(/\d+$/, '40999');
      expect((await call(login, { body: { email, password }, headers: through(samePersonOtherPort) })).status).toBe(429);
      // …and the owner, another client behind the same proxy, is not in it.
      expect((await call(login, { body: { email, password }, headers: through(owner) })).status).toBe(200);
    },
    120_000,
  ); // 53 logins, each an argon2 check: past 30 s on a loaded machine
});
