import { closeDb } from '@/lib/db/client';
import * as oidc from '../support/oidc-sign-in';
import { accountsWith, signIn, target } from '../support/oidc-sign-in';
import { portBlock } from '../support/test-ports';

// Issue 44, point 2: the text sweep (text-sweep.test.ts) for what reaches the app from an OpenID
// provider instead of a request body. Every claim the sign-in reads is sent with a NUL, a lone
// UTF-16 surrogate, a right-to-left override and 64 KB of text, by the real provider stand-in. The
// first two are refused with incorrect_data and create nothing; none of the four ever fails inside
// the app ("oidc sign-in failed", the callback's 500), and no value ever reaches the log.

// The provider's port: tests/support/test-ports.ts.
const provider = oidc.useTestIdp(portBlock('oidc-claim-sweep'));

afterAll(async () => {
  await closeDb();
});

const HOSTILE = {
  nul: 'Nul a\u0000b-marker',
  'lone surrogate': 'Lone a\ud800b-marker',
  'right-to-left override': 'Sweep \u202Etxt.exe-marker',
  '64 KB': `${'x'.repeat(64 * 1024)}-marker`,
} as const;
const UNSTORABLE = new Set(['nul', 'lone surrogate']);
// The subject (`sub`) is the provider's login name here, which oidc-provider will not issue with
// these values; its rule (storable, at most 255 characters) is tested in tests/unit/oidc-claims.test.ts.
const CLAIMS = ['email', 'given_name', 'family_name', 'name', 'locale'] as const;
const figures = { signIns: 0, refused: 0, failedInside: 0 };

let serial = 0;
/** The claim set to `value` in an otherwise valid person's claims (an address gets a valid domain). */
function claimsWith(claim: (typeof CLAIMS)[number], value: string) {
  serial += 1;
  const email = `sweep${serial}-${Date.now()}@example.test`;
  return { email, claims: { email, [claim]: claim === 'email' ? `${value}@example.test` : value } };
}

afterAll(() => {
  // The figures of the sweep, for its log (speed is bench/'s business: these are counts).
  console.log(`oidc claim sweep: ${figures.signIns} sign-ins, ${figures.refused} refused, ${figures.failedInside} failed inside`);
});

describe.each(CLAIMS)('the %s claim', (claim) => {
  it.each(Object.keys(HOSTILE) as (keyof typeof HOSTILE)[])('with a %s: a catalogue answer, never a failure inside or a value in the log', async (kind) => {
    const value = HOSTILE[kind];
    const { email, claims } = claimsWith(claim, value);
    const { login } = await oidc.personAtIdp(provider.idp, claims);
    const lines: string[] = [];
    const keep = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
    const spies = [
      jest.spyOn(console, 'log').mockImplementation(keep),
      jest.spyOn(console, 'error').mockImplementation(keep),
      jest.spyOn(console, 'warn').mockImplementation(keep),
    ];
    let answer: Awaited<ReturnType<typeof signIn>>['answer'];
    try {
      answer = (await signIn(login)).answer;
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    figures.signIns += 1;
    const logged = lines.join('\n');
    if (logged.includes('oidc sign-in failed')) figures.failedInside += 1;
    expect(logged).not.toContain('oidc sign-in failed');
    expect(logged).not.toContain('-marker');
    expect(answer.status).toBe(303);
    const where = target(answer);
    if (where !== '/rooms') figures.refused += 1;
    if (UNSTORABLE.has(kind)) {
      expect(where).toBe('/login?error=incorrect_data');
      expect(await accountsWith(email)).toHaveLength(0);
    } else {
      // Taken (a name kept or cut, a locale not ours ignored) or refused with a catalogue code.
      expect(where).toMatch(/^\/rooms$|^\/login\?error=(format_email|incorrect_data)$/);
    }
  });
});
