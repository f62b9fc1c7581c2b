'use client';

import { useState } from 'react';
import { useFormatter, useTranslations } from 'next-intl';
import { ConfirmDialog } from '@/components/dialog/ConfirmDialog';
import { useApiFeedback } from '@/components/forms/useApiFeedback';
import { apiPost } from '@/lib/api/browser';
import type { AdminUserView } from '@/lib/admin/users';
import { matchesSearch } from '@/lib/search';
import { LazyDialog, lazyComponent } from '@/components/dialog/lazy';

// The plan form loads when it opens.
const PlanDialog = lazyComponent(() => import('./PlanDialog').then((m) => m.PlanDialog));

/**
 * The instance's accounts: search; role, plan, rooms, trial end, state; change role, plan, state.
 * Without billing (issue 48) there is no plan and no trial: the rooms column shows what each
 * account may have (the configured rooms per user, or a larger grant; null: no limit).
 */
export function UsersScreen({
  users,
  currentUserId,
  billingOn = true,
  roomsPerUser = null,
}: {
  users: AdminUserView[];
  currentUserId: string;
  billingOn?: boolean;
  roomsPerUser?: number | null;
}) {
  const t = useTranslations('AdminUsers');
  const format = useFormatter();
  const feedback = useApiFeedback();
  const [query, setQuery] = useState('');
  const [disabling, setDisabling] = useState<AdminUserView | null>(null);
  const [planFor, setPlanFor] = useState<AdminUserView | null>(null);
  const shown = users.filter((user) =>
    matchesSearch(
      query,
      user.email,
      user.firstName,
      user.lastName,
      t(`states.${user.state}`),
      billingOn ? t(`plans.${user.accountType}`) : '',
      t(`roles.${user.role}`),
    ),
  );

  async function post(path: string, body: unknown): Promise<boolean> {
    const answer = await apiPost(path, body);
    if (answer.status === 'ok') {
      feedback.succeeded();
      return true;
    }
    feedback.failed(answer.errorCode ?? 'error_contact_us');
    return false;
  }

  /** What an admin can do to an account: role, plan, state (never their own role or state). */
  function actions(user: AdminUserView) {
    const self = user.id === currentUserId;
    return (
      <div className="flex flex-wrap gap-1">
        {!self && (
          <button
            type="button"
            className="button-secondary"
            aria-label={user.role === 'admin' ? t('makeUserNamed', { email: user.email }) : t('makeAdminNamed', { email: user.email })}
            onClick={() =>
              post(`/api/admin/users/${user.id}/role`, {
                role: user.role === 'admin' ? 'user' : 'admin',
              })
            }
          >
            {user.role === 'admin' ? t('makeUser') : t('makeAdmin')}
          </button>
        )}
        {billingOn && (
          <button type="button" className="button-secondary" aria-label={t('editPlanNamed', { email: user.email })} onClick={() => setPlanFor(user)}>
            {t('editPlan')}
          </button>
        )}
        {/* Disable any account not yet disabled; enable any that is not active (disabled, or
            never activated). Never one's own. */}
        {!self && user.state !== 'disabled' && (
          <button type="button" className="button-danger" aria-label={t('disableNamed', { email: user.email })} onClick={() => setDisabling(user)}>
            {t('disable')}
          </button>
        )}
        {!self && user.state !== 'active' && (
          <button
            type="button"
            className="button-secondary"
            aria-label={t('enableNamed', { email: user.email })}
            onClick={() => post(`/api/admin/users/${user.id}/state`, { state: 'active' })}
          >
            {t('enable')}
          </button>
        )}
      </div>
    );
  }

  const rooms = (user: AdminUserView) =>
    billingOn ? String(user.numberOfRooms) : roomsPerUser === null ? t('noRoomLimit') : String(Math.max(roomsPerUser, user.numberOfRooms));
  const trialEnd = (user: AdminUserView) => (user.isTrial ? format.dateTime(new Date(user.trialEndsAt), { dateStyle: 'medium' }) : t('noTrial'));

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
      {/* Eight columns of data: a table where it fits (lg and up), a card per account below,
          so a phone never scrolls sideways (issue 33). Both are drawn; CSS shows one. */}
      <ul className="flex flex-col gap-2 lg:hidden" aria-label={t('listLabel')}>
        {shown.map((user) => (
          <li key={user.id} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
            <p className="font-medium">
              <UserName user={user} self={user.id === currentUserId} />
            </p>
            <p className="break-all text-slate-600">{user.email}</p>
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
              <dt className="text-slate-500">{t('role')}</dt>
              <dd>{t(`roles.${user.role}`)}</dd>
              {billingOn && (
                <>
                  <dt className="text-slate-500">{t('plan')}</dt>
                  <dd>{t(`plans.${user.accountType}`)}</dd>
                </>
              )}
              <dt className="text-slate-500">{t('rooms')}</dt>
              <dd>{rooms(user)}</dd>
              {billingOn && (
                <>
                  <dt className="text-slate-500">{t('trialEnds')}</dt>
                  <dd>{trialEnd(user)}</dd>
                </>
              )}
              <dt className="text-slate-500">{t('state')}</dt>
              <dd>{t(`states.${user.state}`)}</dd>
            </dl>
            <div className="mt-2">{actions(user)}</div>
          </li>
        ))}
      </ul>
      <div className="hidden lg:block">
        <table className="w-full border-collapse text-left text-sm" aria-label={t('listLabel')}>
          <thead>
            <tr className="border-b border-slate-200 text-slate-600">
              <th scope="col" className="py-2 pr-3">
                {t('name')}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t('email')}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t('role')}
              </th>
              {billingOn && (
                <th scope="col" className="py-2 pr-3">
                  {t('plan')}
                </th>
              )}
              <th scope="col" className="py-2 pr-3">
                {t('rooms')}
              </th>
              {billingOn && (
                <th scope="col" className="py-2 pr-3">
                  {t('trialEnds')}
                </th>
              )}
              <th scope="col" className="py-2 pr-3">
                {t('state')}
              </th>
              <th scope="col" className="py-2">
                {t('actions')}
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((user) => (
              <tr key={user.id} className="border-b border-slate-100 align-top">
                <td className="py-2 pr-3">
                  <UserName user={user} self={user.id === currentUserId} />
                </td>
                <td className="py-2 pr-3 break-all">{user.email}</td>
                <td className="py-2 pr-3">{t(`roles.${user.role}`)}</td>
                {billingOn && <td className="py-2 pr-3">{t(`plans.${user.accountType}`)}</td>}
                <td className="py-2 pr-3">{rooms(user)}</td>
                {billingOn && <td className="py-2 pr-3">{trialEnd(user)}</td>}
                <td className="py-2 pr-3">{t(`states.${user.state}`)}</td>
                <td className="py-2">{actions(user)}</td>
              </tr>
            ))}
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

/** The account's name, marked when it is the admin's own or a meeting card. */
function UserName({ user, self }: { user: AdminUserView; self: boolean }) {
  const t = useTranslations('AdminUsers');
  const a = useTranslations('AdminArea');
  return (
    <>
      {`${user.firstName} ${user.lastName}`.trim()} {self && <span className="text-slate-500">{a('you')}</span>}
      {user.enableMCard && <span className="ml-1 rounded bg-slate-100 px-1.5 py-0.5 text-xs">{t('meetingCard')}</span>}
    </>
  );
}
