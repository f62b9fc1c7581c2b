import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { roomPriceLabel } from '@/lib/billing/room-price';
import { config } from '@/lib/environment';
import type { Locale } from '@/lib/i18n/locales';
import { localizedPath } from '@/lib/seo/pages';
import { PlanCard, type Plan } from './PlanCard';
import { messageList } from '@/lib/i18n/message-list';
import { mediaTextKey, mediaTextValues } from '@/lib/sfu/public-texts';

const FEATURES = ['p2p', 'e2ee', 'password', 'schedule', 'recording', 'languages'] as const;
const PLANS = ['trial', 'individual', 'executive', 'enterprise'] as const;
export const WHITE_PAPER_URL = '/white-paper.pdf';

/**
 * SPEC point 2, home for visitors: hero, info banner, plans, trusted-by, the white paper. Plans,
 * prices and the trusted-by strip belong to the hosted service: shown only with billing on (issue 35).
 */
export async function MarketingHome({
  locale,
  billingOn,
  contactSales,
  hasSfu,
}: {
  locale: Locale;
  billingOn: boolean;
  contactSales: boolean;
  /** An SFU is configured (lib/sfu/nodes.ts): the texts about the media route say so. */
  hasSfu: boolean;
}) {
  const [t, price] = await Promise.all([getTranslations('Home'), roomPriceLabel(locale)]);
  const brand = config.brandName;
  const href = (path: string) => localizedPath(locale, path);

  const plans: Plan[] = PLANS.map((key) => ({
    key,
    name: t(`plans.${key}.name`),
    price: key === 'trial' || key === 'enterprise' ? t(`plans.${key}.price`) : price,
    period: key === 'trial' ? t('plans.trial.period') : key === 'enterprise' ? null : t('perRoomMonth'),
    features: messageList(t, `plans.${key}.features`),
    cta: {
      label: t(`plans.${key}.cta`),
      href: key === 'enterprise' ? `${href('/enterprise')}${contactSales ? '#contact' : ''}` : href('/register'),
    },
    highlight: key === 'executive' ? t('mostPopular') : null,
  }));

  return (
    <>
      <section className="bg-gradient-to-b from-brand-soft to-white">
        <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-16 sm:px-6 md:grid-cols-[3fr_2fr] md:py-24">
          <div>
            <h1 className="text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">{t('heroTitle')}</h1>
            <p className="mt-6 text-lg text-slate-700">{t(mediaTextKey('heroText', hasSfu), { brand, ...mediaTextValues })}</p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link href={href('/register')} className="button-primary px-6 py-3 text-lg">
                {billingOn ? t('ctaTrial') : t('ctaRegister')}
              </Link>
              {billingOn && (
                <a href="#plans" className="button-secondary px-6 py-3 text-lg">
                  {t('ctaPlans')}
                </a>
              )}
            </div>
            {billingOn && <p className="mt-4 text-sm text-slate-600">{t('noCard')}</p>}
          </div>
          <CallIllustration />
        </div>
      </section>

      <div className="bg-brand text-white">
        <p className="mx-auto max-w-6xl px-4 py-3 text-center text-sm sm:px-6">
          {t.rich('banner', {
            link: (chunks) => (
              <Link href={href('/security')} className="font-semibold underline underline-offset-2">
                {chunks}
              </Link>
            ),
          })}
        </p>
      </div>

      <section aria-labelledby="features" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <h2 id="features" className="text-3xl font-bold text-slate-900">
          {t('featuresTitle', { brand })}
        </h2>
        <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map((key) => (
            <li key={key} className="rounded-xl border border-slate-200 p-6">
              <h3 className="text-lg font-semibold text-slate-900">{t(`features.${key}.title`)}</h3>
              <p className="mt-2 text-slate-700">
                {t(key === 'p2p' ? mediaTextKey('features.p2p.body', hasSfu) : `features.${key}.body`, { brand, ...mediaTextValues })}
              </p>
            </li>
          ))}
        </ul>
      </section>

      {billingOn && (
        <section id="plans" aria-labelledby="plans-title" className="scroll-mt-4 bg-slate-50">
          <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
            <h2 id="plans-title" className="text-3xl font-bold text-slate-900">
              {t('plansTitle')}
            </h2>
            <p className="mt-2 text-slate-700">{t('plansIntro')}</p>
            <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
              {plans.map((plan) => (
                <PlanCard key={plan.key} plan={plan} />
              ))}
            </ul>
          </div>
        </section>
      )}

      {billingOn && (
        <section aria-labelledby="trusted" className="mx-auto max-w-6xl px-4 py-16 text-center sm:px-6">
          <h2 id="trusted" className="text-xl font-semibold text-slate-900">
            {t('trustedTitle')}
          </h2>
          <ul className="mt-6 flex flex-wrap justify-center gap-x-8 gap-y-3 text-lg font-medium text-slate-600">
            {messageList(t, 'trusted').map((sector) => (
              <li key={sector}>{sector}</li>
            ))}
          </ul>
        </section>
      )}

      <section aria-labelledby="white-paper" className="bg-slate-900 text-white">
        <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-16 sm:px-6 md:flex-row md:items-center md:justify-between">
          <div className="max-w-2xl">
            <h2 id="white-paper" className="text-2xl font-bold">
              {t('whitePaperTitle', { brand })}
            </h2>
            <p className="mt-3 text-slate-300">{t('whitePaperText')}</p>
            <p className="mt-2 text-sm text-slate-400">{t('whitePaperNote')}</p>
          </div>
          <div className="flex flex-wrap gap-3">
            <a href={WHITE_PAPER_URL} className="inline-flex items-center rounded-md bg-white px-4 py-2 font-medium text-slate-900 hover:bg-slate-200">
              {t('whitePaperView')}
            </a>
            <a
              href={WHITE_PAPER_URL}
              download
              className="inline-flex items-center rounded-md border border-slate-500 px-4 py-2 font-medium text-white hover:bg-slate-800"
            >
              {t('whitePaperDownload')}
            </a>
          </div>
        </div>
      </section>
    </>
  );
}

/** A call of four, drawn in CSS: no image to download, nothing to shift the layout. */
function CallIllustration() {
  const tiles = ['bg-emerald-200', 'bg-sky-200', 'bg-amber-200', 'bg-rose-200'];
  return (
    <div aria-hidden="true" className="hidden rounded-2xl bg-slate-900 p-3 shadow-xl md:block">
      <div className="grid aspect-video grid-cols-2 gap-2">
        {tiles.map((colour) => (
          <div key={colour} className={`flex items-end rounded-lg ${colour} p-2`}>
            <span className="h-2 w-12 rounded-full bg-slate-900/30" />
          </div>
        ))}
      </div>
      <div className="mt-3 flex justify-center gap-2">
        <span className="h-8 w-8 rounded-full bg-slate-700" />
        <span className="h-8 w-8 rounded-full bg-slate-700" />
        <span className="h-8 w-8 rounded-full bg-red-600" />
      </div>
    </div>
  );
}
