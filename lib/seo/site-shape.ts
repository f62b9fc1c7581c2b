import 'server-only';
import { registrationSettings } from '@/lib/registration/settings';
import type { SiteShape } from './pages';
import { publicSiteSettings, type PublicSiteSettings } from '@/lib/public-site/settings';

export type PublicSite = PublicSiteSettings & SiteShape;

/** The operator's settings and what follows from them for the public pages, in one read. */
export async function publicSite(): Promise<PublicSite> {
  const [settings, registration] = await Promise.all([publicSiteSettings(), registrationSettings()]);
  return {
    ...settings,
    hasImprint: settings.imprintText !== null,
    registrationOpen: registration.mode === 'open' || registration.mode === 'domains',
  };
}
