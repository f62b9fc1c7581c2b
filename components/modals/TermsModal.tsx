'use client';

import { useTranslations } from 'next-intl';
import { useApp } from '@/components/AppContext';
import { Dialog } from '@/components/dialog/Dialog';
import { TERMS_SECTIONS, TermsText } from '@/components/terms/TermsText';
import { messageList } from '@/lib/i18n/message-list';

/** SPEC point 2, the terms modal: registration shows the terms here instead of in a new tab. */
export function TermsModal({ close }: { close: () => void }) {
  const t = useTranslations('Terms');
  const modal = useTranslations('Modal');
  const { brand } = useApp();
  const sections = TERMS_SECTIONS.map((key) => ({
    key,
    title: t(`sections.${key}.title`),
    body: messageList(t, `sections.${key}.body`, { brand }),
  }));
  return (
    <Dialog title={t('title')} onClose={close} size="max-w-2xl">
      <div className="max-h-[60vh] overflow-y-auto pr-2">
        <TermsText intro={t('intro', { brand })} sections={sections} closing={t('selfHosted', { brand })} headingLevel={3} />
      </div>
      <div className="mt-4 flex justify-end">
        <button type="button" className="button-primary" onClick={close}>
          {modal('close')}
        </button>
      </div>
    </Dialog>
  );
}
