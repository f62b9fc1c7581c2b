import { getFormatter, getTranslations } from 'next-intl/server';
import { AdminFrame } from '@/components/admin/AdminFrame';
import { adminMetadata, requireAdminPage } from '@/lib/admin/page';
import { ratingsSummary } from '@/lib/admin/ratings';
import { pageLocale } from '@/lib/i18n/page';

export const generateMetadata = adminMetadata('ratings');

const stars = [5, 4, 3, 2, 1] as const;

export default async function AdminRatingsPage({ params }: PageProps<'/[locale]/admin/ratings'>) {
  await requireAdminPage(await pageLocale(params), 'ratings');
  const [summary, t, format] = await Promise.all([ratingsSummary(), getTranslations('AdminRatings'), getFormatter()]);
  return (
    <AdminFrame current="ratings">
      {summary.count === 0 ? (
        <p className="text-slate-600">{t('none')}</p>
      ) : (
        <div className="grid gap-6 md:grid-cols-2">
          <section aria-labelledby="ratings-average" className="rounded-lg border border-slate-200 bg-white p-4">
            <h2 id="ratings-average" className="text-lg font-semibold">
              {t('average')}
            </h2>
            <p className="text-3xl font-bold" data-testid="ratings-average">
              {t('averageValue', { average: format.number(summary.average ?? 0, { maximumFractionDigits: 2 }) })}
            </p>
            <p className="text-sm text-slate-600">{t('count', { count: summary.count })}</p>
            <h3 className="mt-4 font-medium">{t('distribution')}</h3>
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              {stars.map((count) => (
                <div key={count} className="contents">
                  <dt>{t('stars', { count })}</dt>
                  <dd>{summary.distribution[count]}</dd>
                </div>
              ))}
            </dl>
          </section>
          <section aria-labelledby="ratings-comments" className="rounded-lg border border-slate-200 bg-white p-4">
            <h2 id="ratings-comments" className="text-lg font-semibold">
              {t('comments')}
            </h2>
            {summary.comments.length === 0 ? (
              <p className="text-slate-600">{t('noComments')}</p>
            ) : (
              <ul className="mt-2 flex flex-col gap-3">
                {summary.comments.map((comment, index) => (
                  <li key={index} className="border-b border-slate-100 pb-2">
                    <p className="text-sm text-slate-600">
                      {t('stars', { count: comment.rating })} · {format.dateTime(new Date(comment.createdAt), { dateStyle: 'medium' })}
                    </p>
                    <p className="whitespace-pre-wrap break-words">{comment.comment}</p>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      )}
    </AdminFrame>
  );
}
