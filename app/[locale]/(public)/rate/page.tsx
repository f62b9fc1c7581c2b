import { getFormatter, getTranslations } from 'next-intl/server';
import { getCurrentUser } from '@/lib/auth/session';
import { RateForm } from '@/components/rate/RateForm';
import { config } from '@/lib/environment';
import { islandLabels } from '@/lib/i18n/labels';
import { pageLocale } from '@/lib/i18n/page';
import { RATE_LABEL_KEYS, starOptions } from '@/lib/ratings/labels';
import { lastRating } from '@/lib/ratings/rate';
import { publicMetadata } from '@/lib/seo/metadata';

export const generateMetadata = publicMetadata('rate');

// SPEC point 2: rate your experience (also offered as a dialog after leaving a meeting).
export default async function RatePage({ params }: PageProps<'/[locale]/rate'>) {
  await pageLocale(params);
  const [t, format, labels, user] = await Promise.all([
    getTranslations('Rate'),
    getFormatter(),
    islandLabels('Rate', RATE_LABEL_KEYS),
    getCurrentUser().catch(() => null),
  ]);
  // A logged-in user sees their last rating again, as app stores show your own review.
  const last = user ? await lastRating(user.id) : null;
  return (
    <div className="mx-auto max-w-xl px-4 py-12 sm:px-6 md:py-16">
      <h1 className="text-4xl font-bold text-slate-900">{t('title')}</h1>
      <p className="mt-4 mb-8 text-lg text-slate-700">{t('intro', { brand: config.brandName })}</p>
      {last && (
        <p className="mb-6 rounded-md bg-slate-100 px-4 py-3 text-slate-700">
          {t('last', { stars: t('stars', { count: last.rating }), date: format.dateTime(last.createdAt, { dateStyle: 'long' }) })}
        </p>
      )}
      <RateForm labels={{ ...labels, options: starOptions(t as never) }} />
    </div>
  );
}
