import { sealData, unsealData } from 'iron-session';
import { getSessionSecret } from '@/lib/environment';

// The browser's half of one sign-in at a provider: state, nonce and the PKCE verifier, sealed
// (encrypted and signed) with the session secret in a cookie only this browser sends back. The
// callback finishes a sign-in only when its `state` matches this cookie's, so another site cannot
// start or finish one in the person's name (login CSRF), and a code alone is worth nothing.

export const OIDC_FLOW_COOKIE = 'enclave_oidc';
/** Long enough to log in at the provider, short enough that a left-over cookie soon expires. */
export const OIDC_FLOW_TTL_SECONDS = 10 * 60;
/** Sent only to the sign-in routes, not with every request. */
export const OIDC_FLOW_PATH = '/api/auth/oidc';

export interface OidcFlow {
  provider: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Where the login page was to go afterwards (already checked by safeNextPath). */
  next: string;
}

export function sealFlow(flow: OidcFlow): Promise<string> {
  return sealData(flow, { password: getSessionSecret(), ttl: OIDC_FLOW_TTL_SECONDS });
}

/** The flow in the cookie, or null when it is missing, forged or expired. */
export async function unsealFlow(value: string | undefined): Promise<OidcFlow | null> {
  if (!value) return null;
  try {
    const data = await unsealData<Partial<OidcFlow>>(value, { password: getSessionSecret(), ttl: OIDC_FLOW_TTL_SECONDS });
    const fields = [data.provider, data.state, data.nonce, data.codeVerifier, data.next];
    return fields.every((field) => typeof field === 'string' && field.length > 0) ? (data as OidcFlow) : null;
  } catch {
    return null;
  }
}

/** HttpOnly; SameSite=Lax, so it comes back on the provider's top-level redirect to the callback. */
export function flowCookieOptions(secure: boolean, maxAge = OIDC_FLOW_TTL_SECONDS) {
  return { httpOnly: true, sameSite: 'lax' as const, secure, path: OIDC_FLOW_PATH, maxAge };
}
