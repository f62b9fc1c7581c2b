import { isLoopbackIssuer, oidcProvidersProblem, parseOidcProviders } from '@/lib/auth/oidc/providers';
import { checkStartup } from '@/lib/startup-checks';

// Issue 35, item 3: OIDC_PROVIDERS, read the same by the start-up check and the sign-in routes.
const keycloak = { id: 'keycloak', name: 'Keycloak', issuer: 'https://sso.example.org/realms/staff', clientId: 'enclave', clientSecret: 's3cret' };
const text = (value: unknown) => JSON.stringify(value);

describe('OIDC_PROVIDERS', () => {
  it('unset or empty: no provider, no problem', () => {
    expect(parseOidcProviders(undefined)).toEqual({ providers: [], problem: null });
    expect(parseOidcProviders('  ')).toEqual({ providers: [], problem: null });
  });

  it('reads providers; mfa is false unless the operator says true', () => {
    const { providers, problem } = parseOidcProviders(text([keycloak, { ...keycloak, id: 'entra', name: 'Entra ID', mfa: true }]));
    expect(problem).toBeNull();
    expect(providers.map(({ id, mfa }) => [id, mfa])).toEqual([
      ['keycloak', false],
      ['entra', true],
    ]);
  });

  it.each([
    ['not JSON', '{id:', /not valid JSON/],
    ['an object, not an array', text(keycloak), /OIDC_PROVIDERS: the value/],
    ['an id with capitals (it is part of the redirect URI)', text([{ ...keycloak, id: 'Keycloak' }]), /0\.id/],
    ['no client secret', text([{ ...keycloak, clientSecret: undefined }]), /0\.clientSecret/],
    ['an issuer that is not a URL', text([{ ...keycloak, issuer: 'sso.example.org' }]), /0\.issuer/],
    ['a misspelt key', text([{ ...keycloak, mfaa: true }]), /mfaa/],
    ['an id twice', text([keycloak, keycloak]), /"keycloak" is used twice/],
  ])('%s is a problem that names it', (_case, value, message) => {
    const parsed = parseOidcProviders(value);
    expect(parsed.providers).toEqual([]);
    expect(parsed.problem).toMatch(message);
  });

  it('plain http only for an issuer on this machine', () => {
    expect(isLoopbackIssuer('http://127.0.0.1:3780')).toBe(true);
    expect(isLoopbackIssuer('http://localhost:8080/realms/x')).toBe(true);
    expect(isLoopbackIssuer('http://sso.example.org')).toBe(false);
    expect(oidcProvidersProblem(text([{ ...keycloak, issuer: 'http://127.0.0.1:3780' }]))).toBeNull();
    expect(oidcProvidersProblem(text([{ ...keycloak, issuer: 'http://sso.example.org' }]))).toMatch(/"keycloak" must be https/);
  });

  it('a setting the server cannot use stops it at start, naming OIDC_PROVIDERS', () => {
    const start = (value: string) =>
      checkStartup({ production: false, appUrl: 'http://localhost:3000', mailLog: false, env: { OIDC_PROVIDERS: value } }).problems;
    expect(start(text([keycloak]))).toEqual([]);
    expect(start('[{')).toEqual([expect.stringMatching(/^Enclave will not start: OIDC_PROVIDERS is not valid JSON/)]);
  });
});
