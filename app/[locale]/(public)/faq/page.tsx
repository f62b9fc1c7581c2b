import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { roomPriceLabel } from '@/lib/billing/room-price';
import { privateLimits } from '@/lib/rooms/private-limits';
import { config } from '@/lib/environment';
import { pageLocale } from '@/lib/i18n/page';
import { publicMetadata } from '@/lib/seo/metadata';
import { localizedPath } from '@/lib/seo/pages';
import { sfuConfigured } from '@/lib/sfu/nodes';
import { mediaTextKey } from '@/lib/sfu/public-texts';

export const generateMetadata = publicMetadata('faq');

// SPEC point 1: the FAQ lists supported browsers and operating systems (and the minimum system).
const GROUPS = {
  browsers: ['browsers', 'os', 'install'],
  system: ['minimum', 'participants', 'network'],
  e2ee: ['e2ee', 'server', 'safety', 'password', 'recording'],
  billing: ['trial', 'price', 'rooms', 'enterprise'],
} as const;
type Question = (typeof GROUPS)[keyof typeof GROUPS][number];

/** Questions in native <details> disclosures: keyboard and screen-reader ready, no JavaScript. */
export default async function FaqPage({ params }: PageProps<'/[locale]/faq'>) {
  const locale = await pageLocale(params);
  // Without billing (issue 35) there is no trial, price or plan to ask about, and the participant
  // limit is the one the admin set; without SALES_EMAIL there is no sales team to contact.
  const [t, price, limits] = await Promise.all([getTranslations('Faq'), roomPriceLabel(locale), privateLimits()]);
  const groups = Object.entries(GROUPS).filter(([group]) => !(limits && group === 'billing'));
  // With an SFU (issue 48) the server does more than pass connection messages: its answer says so.
  const hasSfu = sfuConfigured();
  const answer = (question: Question) =>
    limits && question === 'participants' ? 'participantsANoBilling' : question === 'server' ? mediaTextKey('serverA', hasSfu) : (`${question}A` as const);
  const href = (path: string) => localizedPath(locale, path);
  const link = (path: string) =>
    function FaqLink(chunks: React.ReactNode) {
      return (
        <Link href={path} className="font-medium text-brand underline underline-offset-2">
          {chunks}
        </Link>
      );
    };
  const values = { brand: config.brandName, price };
  const rich = {
    security: link(href('/security')),
    download: link(href('/download')),
    enterprise: link(`${href('/enterprise')}#contact`),
    support: link(href('/support')),
    sales: link(`${href('/enterprise')}#contact`),
    ...values,
  };

  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 md:py-16">
      <h1 className="text-4xl font-bold text-slate-900">{t('title')}</h1>
      <p className="mt-4 text-lg text-slate-700">{t.rich(config.salesEmail ? 'intro' : 'introNoSales', rich)}</p>
      {groups.map(([group, questions]) => (
        <section key={group} aria-labelledby={`faq-${group}`} className="mt-10">
          <h2 id={`faq-${group}`} className="text-2xl font-semibold text-slate-900">
            {t(`groups.${group as keyof typeof GROUPS}`)}
          </h2>
          <div className="mt-4 divide-y divide-slate-200 rounded-xl border border-slate-200">
            {questions.map((question) => (
              <details key={question} id={question} className="group px-5 py-4">
                <summary className="cursor-pointer list-none font-medium text-slate-900 marker:hidden">
                  <span className="flex items-center justify-between gap-4">
                    {t(`${question}Q`, values)}
                    <svg
                      aria-hidden="true"
                      viewBox="0 0 20 20"
                      className="h-5 w-5 shrink-0 text-slate-500 transition group-open:rotate-180"
                      fill="currentColor"
                    >
                      <path d="M5.3 7.3 10 12l4.7-4.7 1.1 1.1L10 14.2 4.2 8.4z" />
                    </svg>
                  </span>
                </summary>
                <p className="mt-3 text-slate-700">{t.rich(answer(question), { ...rich, count: limits?.participantsPerMeeting ?? 0 })}</p>
              </details>
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}
