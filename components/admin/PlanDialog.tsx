'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { Dialog } from '@/components/dialog/Dialog';
import { DialogActions } from '@/components/forms/DialogActions';
import { Field } from '@/components/forms/Field';
import { SelectField } from '@/components/forms/SelectField';
import { useApiFeedback } from '@/components/forms/useApiFeedback';
import { apiPost } from '@/lib/api/browser';
import type { AdminUserView } from '@/lib/admin/users';

const planList = ['individual', 'executive', 'enterprise'] as const;

/** A plan granted outside Stripe: account type and rooms (individual 1, executive 2–30, enterprise ≥ 1). */
export function PlanDialog({ user, onClose }: { user: AdminUserView; onClose: () => void }) {
  const t = useTranslations('AdminUsers');
  const feedback = useApiFeedback();
  const [plan, setPlan] = useState<(typeof planList)[number]>(user.accountType);
  const [rooms, setRooms] = useState(String(user.numberOfRooms));
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    const answer = await apiPost(`/api/admin/users/${user.id}/plan`, { accountType: plan, numberOfRooms: plan === 'individual' ? 1 : Number(rooms) });
    setBusy(false);
    if (answer.status === 'ok') {
      feedback.succeeded();
      onClose();
    } else if (answer.field === 'numberOfRooms') setError(answer.errorCode);
    else feedback.failed(answer.errorCode ?? 'error_contact_us');
  }

  return (
    <Dialog title={t('planTitle', { email: user.email })} onClose={onClose} size="max-w-md">
      <form onSubmit={submit} className="flex flex-col gap-4">
        <SelectField label={t('plan')} value={plan} onChange={(event) => setPlan(event.target.value as (typeof planList)[number])}>
          {planList.map((value) => (
            <option key={value} value={value}>
              {t(`plans.${value}`)}
            </option>
          ))}
        </SelectField>
        <Field
          label={t('planRooms')}
          type="number"
          inputMode="numeric"
          min={plan === 'executive' ? 2 : 1}
          max={plan === 'executive' ? 30 : plan === 'individual' ? 1 : undefined}
          value={plan === 'individual' ? '1' : rooms}
          disabled={plan === 'individual'}
          onChange={(event) => setRooms(event.target.value)}
          hint={t('planHint')}
          error={error}
        />
        <DialogActions onCancel={onClose} busy={busy} />
      </form>
    </Dialog>
  );
}
