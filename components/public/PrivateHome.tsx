import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import type { Locale } from '@/lib/i18n/locales';
import { localizedPath } from '@/lib/seo/pages';
import { BrandMark } from './BrandMark';
import { JoinMeetingForm } from './JoinMeetingForm';

const JOIN_LABELS = ['title', 'label', 'hint', 'submit', 'checking', 'empty', 'invalid', 'otherServer', 'notFound'] as const;

/**
 * `/` for a visitor of a private server (issue 35): the brand, the operator's sentence, sign in,
 * register (when a visitor may) and joining a meeting. No prices, plans or sales copy.
 */
export async function PrivateHome({
  locale,
  brand,
  sentence,
  registrationOpen,
}: {
  locale: Locale;
  brand: string;
  sentence: string | null;
  registrationOpen: boolean;
}) {
  const t = await getTranslations('PrivateHome');
  const join = Object.fromEntries(JOIN_LABELS.map((key) => [key, t(`join.${key}`, { example: 'https://…/now/abc123' })])) as Record<
    (typeof JOIN_LABELS)[number],
    string
  >;
  const prefix = localizedPath(locale, '/') === '/' ? '' : localizedPath(locale, '/');
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-10 px-4 py-12 sm:px-6 md:py-20">
      <section className="flex flex-col items-start gap-4">
        <BrandMark className="h-14 w-14" />
        <h1 className="text-4xl font-bold break-words text-slate-900">{brand}</h1>
        <p className="text-lg break-words text-slate-700">{sentence ?? t('sentence', { brand })}</p>
        <div className="flex flex-wrap gap-3">
          <Link href={localizedPath(locale, '/login')} className="button-primary px-5 py-2.5">
            {t('signIn')}
          </Link>
          {registrationOpen && (
            <Link href={localizedPath(locale, '/register')} className="button-secondary px-5 py-2.5">
              {t('register')}
            </Link>
          )}
        </div>
      </section>
      <section className="rounded-xl border border-slate-200 p-5 sm:p-6">
        <JoinMeetingForm labels={join} localePrefix={prefix} />
      </section>
    </div>
  );
}
