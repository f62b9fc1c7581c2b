'use client';

import { useTranslations } from 'next-intl';
import { ConfirmDialog } from '@/components/dialog/ConfirmDialog';

/**
 * "Remove {name}?" before the host removes someone (issue 48 point 7): what it does — out at
 * once, no way back in, a new key for everyone else. The shared ConfirmDialog traps focus, is
 * labelled by its title, and Escape or Cancel leaves the person in the call; it closes once the
 * removal was sent, whatever its answer.
 */
export function RemoveParticipantDialog({ name, onConfirm, onClose }: { name: string; onConfirm: () => Promise<unknown>; onClose: () => void }) {
  const t = useTranslations('Meeting');
  return (
    <ConfirmDialog
      title={t('removeConfirm.title', { name })}
      message={<p>{t('removeConfirm.text', { name })}</p>}
      confirmLabel={t('removeConfirm.confirm')}
      onConfirm={async () => {
        try {
          await onConfirm();
        } finally {
          onClose();
        }
      }}
      onClose={onClose}
    />
  );
}
