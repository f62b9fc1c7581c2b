'use client';

import { useState } from 'react';
import { useFormatter, useTranslations } from 'next-intl';
import { ConfirmDialog } from '@/components/dialog/ConfirmDialog';
import { useApiFeedback } from '@/components/forms/useApiFeedback';
import { apiPost } from '@/lib/api/client';
import type { AdminUserView } from '@/lib/admin/users';
import { matchesSearch } from '@/lib/search';
import { LazyDialog, lazyComponent } from '@/components/dialog/lazy';

// The plan form loads when it opens.
const PlanDialog = lazyComponent(() => import('./PlanDialog').then((m) => m.PlanDialog));

/** The instance's accounts: search; role, plan, rooms, trial end, state; change role, plan, state. */
export function UsersScreen({ users, currentUserId }: { users: AdminUserView[]; currentUserId: string }) {
  const t = useTranslations('AdminUsers');
  const a = useTranslations('AdminArea');
  const format = useFormatter();
  const feedback = useApiFeedback();
  const [query, setQuery] = useState('');
  const [disabling, setDisabling] = useState<AdminUserView | null>(null);
  const [planFor, setPlanFor] = useState<AdminUserView | null>(null);
  const shown = users.filter((user) => matchesSearch(query, user.email, user.firstName, user.lastName, t(`states.${user.state}`), t(`plans.${user.accountType}`), t(`roles.${user.role}`)));

  async function post(path: string, body: unknown): Promise<boolean> {
    const answer = await apiPost(path, body);
    if (answer.status === 'ok') {
      feedback.succeeded();
      return true;
    }
    feedback.failed(answer.errorCode ?? 'error_contact_us');
    return false;
  }

  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-slate-600" aria-live="polite">
        {t('total', { count: users.length })}
      </p>
      <label htmlFor="admin-user-search" className="sr-only">
        {t('search')}
      </label>
      <input
        id="admin-user-search"
        type="search"
        value={query}
        placeholder={t('search')}
        onChange={(event) => setQuery(event.target.value)}
        className="rounded-md border border-slate-300 px-3 py-2"
      />
      <p className="text-xs text-slate-500">{t('roleNote')}</p>
      {shown.length === 0 && <p className="text-slate-600">{t('noMatch')}</p>}
      {/* Eight columns of data: on narrow screens the table scrolls sideways on purpose
          (data-scroll-x for the layout sweep), as a region that takes focus so keys can scroll it. */}
      <div className="overflow-x-auto" data-scroll-x role="region" aria-label={t('listLabel')} tabIndex={0}>
        <table className="w-full min-w-[56rem] border-collapse text-left text-sm" aria-label={t('listLabel')}>
          <thead>
            <tr className="border-b border-slate-200 text-slate-600">
              <th scope="col" className="py-2 pr-3">{t('name')}</th>
              <th scope="col" className="py-2 pr-3">{t('email')}</th>
              <th scope="col" className="py-2 pr-3">{t('role')}</th>
              <th scope="col" className="py-2 pr-3">{t('plan')}</th>
              <th scope="col" className="py-2 pr-3">{t('rooms')}</th>
              <th scope="col" className="py-2 pr-3">{t('trialEnds')}</th>
              <th scope="col" className="py-2 pr-3">{t('state')}</th>
              <th scope="col" className="py-2">{t('actions')}</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((user) => {
              const self = user.id === currentUserId;
              return (
                <tr key={user.id} className="border-b border-slate-100 align-top">
                  <td className="py-2 pr-3">
                    {`${user.firstName} ${user.lastName}`.trim()} {self && <span className="text-slate-500">{a('you')}</span>}
                    {user.enableMCard && <span className="ml-1 rounded bg-slate-100 px-1.5 py-0.5 text-xs">{t('meetingCard')}</span>}
                  </td>
                  <td className="py-2 pr-3 break-all">{user.email}</td>
                  <td className="py-2 pr-3">{t(`roles.${user.role}`)}</td>
                  <td className="py-2 pr-3">{t(`plans.${user.accountType}`)}</td>
                  <td className="py-2 pr-3">{user.numberOfRooms}</td>
                  <td className="py-2 pr-3">{user.isTrial ? format.dateTime(new Date(user.trialEndsAt), { dateStyle: 'medium' }) : t('noTrial')}</td>
                  <td className="py-2 pr-3">{t(`states.${user.state}`)}</td>
                  <td className="py-2">
                    <div className="flex flex-wrap gap-1">
                      {!self && (
                        <button
                          type="button"
                          className="button-secondary"
                          aria-label={user.role === 'admin' ? t('makeUserNamed', { email: user.email }) : t('makeAdminNamed', { email: user.email })}
                          onClick={() => post(`/api/admin/users/${user.id}/role`, { role: user.role === 'admin' ? 'user' : 'admin' })}
                        >
                          {user.role === 'admin' ? t('makeUser') : t('makeAdmin')}
                        </button>
                      )}
                      <button type="button" className="button-secondary" aria-label={t('editPlanNamed', { email: user.email })} onClick={() => setPlanFor(user)}>
                        {t('editPlan')}
                      </button>
                      {!self &&
                        (user.state === 'disabled' ? (
                          <button type="button" className="button-secondary" aria-label={t('enableNamed', { email: user.email })} onClick={() => post(`/api/admin/users/${user.id}/state`, { state: 'active' })}>
                            {t('enable')}
                          </button>
                        ) : (
                          <button type="button" className="button-danger" aria-label={t('disableNamed', { email: user.email })} onClick={() => setDisabling(user)}>
                            {t('disable')}
                          </button>
                        ))}
                      {!self && user.state !== 'disabled' && user.state !== 'active' && (
                        <button type="button" className="button-secondary" aria-label={t('enableNamed', { email: user.email })} onClick={() => post(`/api/admin/users/${user.id}/state`, { state: 'active' })}>
                          {t('enable')}
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {disabling && (
        <ConfirmDialog
          title={t('disableTitle')}
          message={t('disableConfirm', { email: disabling.email })}
          confirmLabel={t('disable')}
          onConfirm={async () => {
            if (await post(`/api/admin/users/${disabling.id}/state`, { state: 'disabled' })) setDisabling(null);
          }}
          onClose={() => setDisabling(null)}
        />
      )}
      {planFor && (
        <LazyDialog>
          <PlanDialog user={planFor} onClose={() => setPlanFor(null)} />
        </LazyDialog>
      )}
    </div>
  );
}
