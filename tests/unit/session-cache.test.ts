// The per-process cache of verified session cookies (issue 17): it saves the unsealing only, never
// outlives the seal's expiry, keeps nothing for a forged cookie, and hands out copies.
import { sealData } from 'iron-session';
import { cachedSession, clearSessionCache, rememberSession, sealExpiry } from '@/lib/auth/session-cache';
import { sealSession, unsealSession, type SessionData } from '@/lib/auth/session-cookie';
import { getSessionSecret } from '@/lib/environment';

process.env.SESSION_SECRET ??= 'unit-test-session-secret-0123456789abcdef';
const session: SessionData = { userId: 'u1', version: 3, role: 'user', sid: 's1' };

afterEach(() => {
  jest.restoreAllMocks();
  clearSessionCache();
});

it('reads the expiry an iron seal carries', async () => {
  const before = Date.now();
  const cookie = await sealSession(session);
  const expiry = sealExpiry(cookie)!;
  expect(expiry).toBeGreaterThanOrEqual(before + 7 * 86400_000);
  expect(expiry).toBeLessThanOrEqual(Date.now() + 7 * 86400_000);
  expect(sealExpiry('not a seal')).toBeNull();
  expect(sealExpiry('Fe26.2*1*a*b*c**d*e~2')).toBeNull();
});

it('a verified cookie is served from the cache until its seal expires, then refused as iron refuses it', async () => {
  const cookie = await sealData(session, { password: getSessionSecret(), ttl: 120 });
  const expiry = sealExpiry(cookie)!;
  expect(await unsealSession(cookie)).toEqual(session);
  expect(cachedSession(getSessionSecret(), cookie)).toEqual(session);
  expect(cachedSession(getSessionSecret(), cookie, expiry)).toBeUndefined();
  // iron accepts a seal up to 60 s past its expiry (clock skew); after that both refuse it.
  jest.spyOn(Date, 'now').mockReturnValue(expiry + 61_000);
  expect(await unsealSession(cookie)).toBeNull();
  expect(cachedSession(getSessionSecret(), cookie)).toBeUndefined();
});

it('keeps nothing for a forged or foreign cookie, and a cached entry belongs to its secret', async () => {
  const cookie = await sealSession(session);
  const forged = cookie.replace(/\*([^*]+)~2$/, '*AAAA~2');
  expect(await unsealSession(forged)).toBeNull();
  expect(cachedSession(getSessionSecret(), forged)).toBeUndefined();
  expect(await unsealSession(await sealData(session, { password: 'another-secret-another-secret-0123456789', ttl: 60 }))).toBeNull();
  rememberSession(getSessionSecret(), cookie, session);
  expect(cachedSession('another-secret-another-secret-0123456789', cookie)).toBeUndefined();
});

it('hands out copies: a caller changing its session changes nothing for the next one', async () => {
  const cookie = await sealSession(session);
  const first = (await unsealSession(cookie))!;
  first.pending2fa = true;
  first.userId = 'someone else';
  expect(await unsealSession(cookie)).toEqual({ ...session, sid: 's1' });
});
