import 'server-only';
import { eq } from 'drizzle-orm';
import { billingOn } from '@/lib/configuration/billing-mode';
import { getDb } from '@/lib/db/client';
import { configuration } from '@/lib/db/schema';
import { config } from '@/lib/environment';
import { defaultHomePage, type HomePageMode } from './home-page';

export interface PublicSiteSettings {
  /** What `/` shows a visitor: the admin's choice, else HOME_PAGE, else what billing implies. */
  homePage: HomePageMode;
  /** The one sentence of the plain home; null: the built-in one. */
  homeSentence: string | null;
  /** The operator's privacy policy; null: the built-in text (messages, "PrivacyDefault"). */
  privacyText: string | null;
  /** The operator's terms of service (issue 48); null: the built-in text (messages, "Terms"). */
  termsText: string | null;
  /** The imprint / legal notice; null: the server has no imprint page. */
  imprintText: string | null;
  /** Where contact-sales mail goes (SALES_EMAIL); null: the form and its links are hidden. */
  contactEmail: string | null;
  billingOn: boolean;
}

/** The environment's default home (HOME_PAGE, else billing on → marketing, off → private), read on every call so tests can switch it. */
export const defaultHomePageMode = (): HomePageMode => defaultHomePage(config.homePage, billingOn());

/** The operator's contact address, or null: never the sender address, which nobody reads. */
export const contactEmail = (): string | null => config.salesEmail ?? null;

export async function publicSiteSettings(): Promise<PublicSiteSettings> {
  const db = await getDb();
  const [row] = await db
    .select({
      homePage: configuration.homePage,
      homeSentence: configuration.homeSentence,
      privacyText: configuration.privacyText,
      termsText: configuration.termsText,
      imprintText: configuration.imprintText,
    })
    .from(configuration)
    .where(eq(configuration.id, 1))
    .limit(1);
  return {
    homePage: row?.homePage ?? defaultHomePageMode(),
    homeSentence: row?.homeSentence?.trim() || null,
    privacyText: row?.privacyText?.trim() || null,
    termsText: row?.termsText?.trim() || null,
    imprintText: row?.imprintText?.trim() || null,
    contactEmail: contactEmail(),
    billingOn: billingOn(),
  };
}
