import 'server-only';
import * as client from 'openid-client';
import { identityFromClaims, type OidcIdentity } from './claims';
import type { OidcFlow } from './flow-cookie';
import { isLoopbackIssuer, type OidcProvider } from './providers';

// The relying party's side of the authorization code flow, through openid-client (a certified
// implementation): discovery, the authorization URL with PKCE (S256), state and nonce, and the
// code exchange, which checks the ID token's signature, issuer, audience (our client id), expiry
// and nonce. Nothing here logs or returns a token.

const DISCOVERY_TIMEOUT_SECONDS = 10;
// One discovery per provider and process; a failed one is forgotten, so the next sign-in retries.
const configurations = new Map<string, Promise<client.Configuration>>();

function configurationFor(provider: OidcProvider): Promise<client.Configuration> {
  const key = `${provider.id}|${provider.issuer}|${provider.clientId}`;
  let found = configurations.get(key);
  if (!found) {
    // Plain HTTP only to a provider on this very machine (a test provider); start-up refuses others.
    const execute = isLoopbackIssuer(provider.issuer) ? [client.allowInsecureRequests] : [];
    found = client.discovery(new URL(provider.issuer), provider.clientId, provider.clientSecret, undefined, { execute, timeout: DISCOVERY_TIMEOUT_SECONDS });
    found.catch(() => configurations.delete(key));
    configurations.set(key, found);
  }
  return found;
}

/** Where to send the browser, and the secrets its cookie must carry until it comes back. */
export async function startAuthorization(provider: OidcProvider, redirectUri: string, next: string): Promise<{ url: URL; flow: OidcFlow }> {
  const configuration = await configurationFor(provider);
  const flow: OidcFlow = {
    provider: provider.id,
    state: client.randomState(),
    nonce: client.randomNonce(),
    codeVerifier: client.randomPKCECodeVerifier(),
    next,
  };
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid email profile',
    state: flow.state,
    nonce: flow.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(flow.codeVerifier),
    code_challenge_method: 'S256',
  });
  return { url, flow };
}

/**
 * The provider's answer at the callback (`callbackUrl`: the redirect URI with the answer's query),
 * checked against the flow and exchanged for tokens. Throws on any mismatch, and on a claim that
 * breaks the input rules (claims.ts).
 */
export async function finishAuthorization(provider: OidcProvider, callbackUrl: URL, flow: OidcFlow): Promise<OidcIdentity> {
  const configuration = await configurationFor(provider);
  const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
    pkceCodeVerifier: flow.codeVerifier,
    expectedState: flow.state,
    expectedNonce: flow.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims()!;
  let info: Record<string, unknown> = claims;
  // Many providers put e-mail and name only in UserInfo; it must be about the same subject.
  if (typeof claims.email !== 'string' && configuration.serverMetadata().userinfo_endpoint) {
    info = { ...(await client.fetchUserInfo(configuration, tokens.access_token, claims.sub)), ...claims };
  }
  return identityFromClaims(claims.sub, info);
}
