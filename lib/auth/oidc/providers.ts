import { z } from 'zod';

// Issue 35, item 3: the OpenID providers an operator offers on the login page, from one setting,
// OIDC_PROVIDERS: a JSON array (docs/self-hosting/sso.md). Pure, so the start-up check and the
// routes read it alike.

const providerSchema = z.strictObject({
  /** In the redirect URI (/api/auth/oidc/{id}/callback) and the account links: never change it. */
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'lower-case letters, digits and hyphens, at most 32'),
  /** Shown as "Sign in with {name}". */
  name: z.string().trim().min(1).max(60),
  issuer: z.url({ protocol: /^https?$/ }),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  /** The operator's word that the provider itself asks for a second factor: local 2FA is skipped. */
  mfa: z.boolean().default(false),
});

export type OidcProvider = z.output<typeof providerSchema>;

/** What the login page shows of a provider: nothing secret. */
export type OidcProviderButton = Pick<OidcProvider, 'id' | 'name'>;

export type ParsedProviders = { providers: OidcProvider[]; problem: null } | { providers: []; problem: string };

/** OIDC_PROVIDERS' value, read; unset or empty is no provider. */
export function parseOidcProviders(text: string | undefined): ParsedProviders {
  if (!text?.trim()) return { providers: [], problem: null };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {
      providers: [],
      problem:
        'OIDC_PROVIDERS is not valid JSON: write an array such as [{"id":"keycloak","name":"Keycloak","issuer":"https://…","clientId":"…","clientSecret":"…"}].',
    };
  }
  const parsed = z.array(providerSchema).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { providers: [], problem: `OIDC_PROVIDERS: ${issue.path.join('.') || 'the value'}: ${issue.message}.` };
  }
  const ids = parsed.data.map((provider) => provider.id);
  const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
  if (repeated) return { providers: [], problem: `OIDC_PROVIDERS: the id "${repeated}" is used twice.` };
  return { providers: parsed.data, problem: null };
}

/** Whether an issuer is on this machine: only such a one may speak plain HTTP (a test provider). */
export function isLoopbackIssuer(issuer: string): boolean {
  const host = new URL(issuer).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::1';
}

/** An http:// issuer elsewhere would send the client secret and tokens in clear: refused at start. */
export function oidcProvidersProblem(text: string | undefined): string | null {
  const parsed = parseOidcProviders(text);
  if (parsed.problem) return `Enclave will not start: ${parsed.problem}`;
  const plain = parsed.providers.find((provider) => provider.issuer.startsWith('http:') && !isLoopbackIssuer(provider.issuer));
  if (plain) return `Enclave will not start: OIDC_PROVIDERS: the issuer of "${plain.id}" must be https:// (${plain.issuer}).`;
  return null;
}
