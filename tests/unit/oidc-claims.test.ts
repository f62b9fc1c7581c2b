import { ApiError } from '@/lib/errors';
import { identityFromClaims, usableEmail } from '@/lib/auth/oidc/claims';

// Issue 44, point 2: a provider's claims under the forms' input rules (lib/auth/oidc/claims.ts).

const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return [error.code, error.field];
    throw error;
  }
  return null;
};

describe('identityFromClaims', () => {
  it('trims, lower-cases the address and keeps only text claims', () => {
    expect(
      identityFromClaims('sub-1', { email: ' Ada@Example.TEST ', email_verified: true, given_name: ' Ada ', family_name: 7, name: '', locale: 'de' }),
    ).toEqual({
      subject: 'sub-1',
      email: 'ada@example.test',
      emailVerified: true,
      givenName: 'Ada',
      familyName: null,
      name: null,
      locale: 'de',
    });
  });

  it.each(['email', 'given_name', 'family_name', 'name', 'locale'])('refuses a NUL or a lone surrogate in %s, naming the claim', (claim) => {
    expect(codeOf(() => identityFromClaims('sub', { [claim]: 'a\u0000b' }))).toEqual(['incorrect_data', claim]);
    expect(codeOf(() => identityFromClaims('sub', { [claim]: 'a\ud800b' }))).toEqual(['incorrect_data', claim]);
  });

  it('refuses a subject that cannot be stored or is longer than OpenID Connect allows', () => {
    expect(codeOf(() => identityFromClaims('a\u0000b', {}))).toEqual(['incorrect_data', 'sub']);
    expect(codeOf(() => identityFromClaims('x'.repeat(256), {}))).toEqual(['incorrect_data', 'sub']);
    expect(identityFromClaims('x'.repeat(255), {}).subject).toHaveLength(255);
  });
});

describe('usableEmail', () => {
  const identity = (email: string | null, emailVerified = true) => ({ ...identityFromClaims('sub', {}), email, emailVerified });

  it('answers a verified address the register form takes', () => {
    expect(usableEmail(identity('ada@corp.test'))).toBe('ada@corp.test');
  });

  it('refuses an unverified or missing address with sso_email_not_verified', () => {
    expect(codeOf(() => usableEmail(identity('ada@corp.test', false)))).toEqual(['sso_email_not_verified', undefined]);
    expect(codeOf(() => usableEmail(identity(null)))).toEqual(['sso_email_not_verified', undefined]);
  });

  it.each([
    ['not an address', 'not-an-email'],
    ['a quoted local part', '"a b"@corp.test'],
    ['310 characters', `${'a'.repeat(300)}@corp.test`],
    ['two at-signs', 'x@evil.test@corp.test'],
  ])('refuses %s with format_email', (_, email) => {
    expect(codeOf(() => usableEmail(identity(email)))).toEqual(['format_email', 'email']);
  });
});
