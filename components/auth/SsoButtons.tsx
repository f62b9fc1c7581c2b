import { useTranslations } from 'next-intl';
import type { OidcProviderButton } from '@/lib/auth/oidc/providers';

/**
 * "Sign in with …", one link per OpenID provider the operator configured (issue 35, item 3).
 * Plain links, not client navigation: the browser leaves for the provider and comes back.
 */
export function SsoButtons({ providers, next }: { providers: OidcProviderButton[]; next: string }) {
  const t = useTranslations('Login');
  if (providers.length === 0) return null;
  const query = next === '/' ? '' : `?next=${encodeURIComponent(next)}`;
  return (
    <div className="flex flex-col gap-3">
      <ul className="flex flex-col gap-2">
        {providers.map((provider) => (
          <li key={provider.id}>
            <a href={`/api/auth/oidc/${provider.id}/start${query}`} className="button-secondary flex w-full text-center break-words">
              {t('ssoWith', { name: provider.name })}
            </a>
          </li>
        ))}
      </ul>
      <p className="flex items-center gap-3 text-sm text-slate-600" aria-hidden="true">
        <span className="h-px flex-1 bg-slate-300" />
        {t('ssoOr')}
        <span className="h-px flex-1 bg-slate-300" />
      </p>
    </div>
  );
}
