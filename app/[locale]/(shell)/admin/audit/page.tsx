import { getFormatter, getMessages, getTimeZone, getTranslations } from 'next-intl/server';
import { AuditDetails } from '@/components/admin/AuditDetails';
import { describeAudit } from '@/lib/admin/audit-details';
import { AdminFrame } from '@/components/admin/AdminFrame';
import { listAudit } from '@/lib/audit/audit-log';
import { adminMetadata, requireAdminPage } from '@/lib/admin/page';
import { pageLocale } from '@/lib/i18n/page';
import { ZoneNote } from '@/components/time/ZoneNote';
import { hourCycleOf } from '@/lib/time/clock';

export const generateMetadata = adminMetadata('audit');

const knownActions = [
  'grant_admin',
  'revoke_admin',
  'set_plan',
  'disable_account',
  'enable_account',
  'issue_card',
  'update_configuration',
  'ticket_reply',
  'ticket_status',
  'send_invitation',
] as const;

export default async function AdminAuditPage({ params }: PageProps<'/[locale]/admin/audit'>) {
  const locale = await pageLocale(params);
  await requireAdminPage(locale, 'audit');
  const [entries, t, format, messages, timeZone] = await Promise.all([
    listAudit(),
    getTranslations('AdminAudit'),
    getFormatter(),
    getMessages(),
    getTimeZone(),
  ]);
  const actionName = (action: string) =>
    (knownActions as readonly string[]).includes(action) ? t(`actions.${action as (typeof knownActions)[number]}`) : action;
  return (
    <AdminFrame current="audit">
      {entries.length === 0 ? (
        <p className="text-slate-600">{t('empty')}</p>
      ) : (
        <>
          <ZoneNote />
          {/* Five columns of data: on narrow screens the table scrolls sideways on purpose (data-scroll-x
              for the layout sweep), as a region that takes focus so keys can scroll it. Relative, so that
              the screen-reader-only text inside is clipped with it instead of widening the page. */}
          <div className="relative overflow-x-auto" data-scroll-x role="region" aria-label={t('listLabel')} tabIndex={0}>
            <table className="w-full min-w-[48rem] border-collapse text-left text-sm" aria-label={t('listLabel')}>
              <thead>
                <tr className="border-b border-slate-200 text-slate-600">
                  <th scope="col" className="py-2 pr-3">
                    {t('when')}
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    {t('who')}
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    {t('what')}
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    {t('target')}
                  </th>
                  <th scope="col" className="py-2">
                    {t('details')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {entries.map((entry) => (
                  <tr key={entry.id} className="border-b border-slate-100 align-top">
                    <td className="py-2 pr-3 whitespace-nowrap">
                      {format.dateTime(new Date(entry.createdAt), {
                        dateStyle: 'medium',
                        timeStyle: 'medium',
                        hourCycle: hourCycleOf(locale),
                      })}
                    </td>
                    <td className="py-2 pr-3 break-all">{entry.actor}</td>
                    <td className="py-2 pr-3">{actionName(entry.action)}</td>
                    <td className="py-2 pr-3 break-all">{entry.target}</td>
                    <td className="py-2">
                      <AuditDetails lines={describeAudit(entry.action, entry.details, messages, locale, timeZone)} changedTo={t('changedTo')} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </AdminFrame>
  );
}
