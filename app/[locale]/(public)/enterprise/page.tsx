import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { ContactSalesForm } from '@/components/public/ContactSalesForm';
import { config } from '@/lib/environment';
import { islandLabels } from '@/lib/i18n/labels';
import { pageLocale } from '@/lib/i18n/page';
import { publicSiteSettings } from '@/lib/public-site/settings';
import { publicMetadata } from '@/lib/seo/metadata';
import { messageList } from '@/lib/i18n/message-list';

export const generateMetadata = publicMetadata('enterprise');

const CONTACT_LABELS = ['name', 'email', 'message', 'send', 'sending', 'sentTitle', 'sent', 'another', 'failed'] as const;
const OFFERS = ['onPremise', 'whiteLabel', 'negotiable'] as const;

// SPEC points 1 and 2: enterprise customers (on-premise, white-label, rooms and participants
// negotiable) and the contact-sales form. Issue 35: a private server (plain home) has no sales
// page, and the form shows only where SALES_EMAIL says who reads it.
export default async function EnterprisePage({ params }: PageProps<'/[locale]/enterprise'>) {
  await pageLocale(params);
  const [t, labels, site] = await Promise.all([
    getTranslations('Enterprise'),
    islandLabels('ContactForm', CONTACT_LABELS, { email: '{email}' }),
    publicSiteSettings(),
  ]);
  if (site.homePage === 'private') notFound();
  const brand = config.brandName;
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 md:py-16">
      <h1 className="text-4xl font-bold text-slate-900">{t('title', { brand })}</h1>
      <p className="mt-4 max-w-3xl text-lg text-slate-700">{t('intro', { brand })}</p>

      <ul className="mt-10 grid gap-6 md:grid-cols-3">
        {OFFERS.map((offer) => (
          <li key={offer} className="rounded-xl border border-slate-200 p-6">
            <h2 className="text-lg font-semibold text-slate-900">{t(`${offer}Title`)}</h2>
            <p className="mt-2 text-slate-700">{t(offer, { brand })}</p>
          </li>
        ))}
      </ul>

      <div className="mt-12 grid gap-10 md:grid-cols-2">
        <section aria-labelledby="included">
          <h2 id="included" className="text-xl font-semibold text-slate-900">
            {t('includedTitle')}
          </h2>
          <ul className="mt-4 list-disc space-y-2 pl-6 text-slate-700">
            {messageList(t, 'included').map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </section>
        {site.contactEmail && (
          <section id="contact" aria-labelledby="contact-title" className="scroll-mt-4 rounded-xl bg-slate-50 p-6">
            <h2 id="contact-title" className="text-xl font-semibold text-slate-900">
              {t('formTitle')}
            </h2>
            <p className="mt-2 mb-6 text-slate-700">{t('formIntro')}</p>
            <ContactSalesForm labels={labels} />
          </section>
        )}
      </div>
    </div>
  );
}
