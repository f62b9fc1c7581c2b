import 'server-only';
import { config } from '@/lib/environment';
import { parseOidcProviders, type OidcProvider, type OidcProviderButton } from './providers';

// OIDC_PROVIDERS as this server runs with it. Read through config on each call (parsed once per
// value), so a test can switch it; a value that does not parse stopped the server at start.
let parsed: { text: string | undefined; providers: OidcProvider[] } | undefined;

export function configuredProviders(): OidcProvider[] {
  const text = config.oidcProviders;
  if (parsed && parsed.text === text) return parsed.providers;
  const providers = parseOidcProviders(text).providers;
  parsed = { text, providers };
  return providers;
}

export const providerById = (id: string): OidcProvider | undefined => configuredProviders().find((provider) => provider.id === id);

/** For the login page: ids and names only. */
export const providerButtons = (): OidcProviderButton[] => configuredProviders().map(({ id, name }) => ({ id, name }));

/** Where the provider sends the browser back; registered at the provider as it is. */
export const redirectUriFor = (provider: Pick<OidcProvider, 'id'>) => `${config.appUrl}/api/auth/oidc/${provider.id}/callback`;
