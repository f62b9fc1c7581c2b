'use client';

import { useTranslations } from 'next-intl';
import { Dialog } from '@/components/modal/Dialog';
import { useApp } from '@/components/AppContext';

/** The two-step new-meeting modal (SPEC point 4); its steps come with the meeting feature. */
export function NewMeetingModal({ close }: { close: () => void }) {
  const t = useTranslations('NewMeeting');
  const placeholder = useTranslations('Placeholder');
  const { brand } = useApp();
  return (
    <Dialog title={t('title')} onClose={close}>
      <p className="text-slate-700">{placeholder('comingSoon', { brand })}</p>
    </Dialog>
  );
}
