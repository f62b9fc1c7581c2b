'use client';

import { useTranslations } from 'next-intl';
import { useApp } from '@/components/AppContext';
import { Dialog } from '@/components/dialog/Dialog';
import { brandParagraphs, TERMS_SECTIONS, TermsText } from '@/components/terms/TermsText';

/** SPEC point 2, the terms modal: registration shows the terms here instead of in a new tab. */
export function TermsModal({ close }: { close: () => void }) {
  const t = useTranslations('Terms');
  const modal = useTranslations('Modal');
  const { brand } = useApp();
  const sections = TERMS_SECTIONS.map((key) => ({
    key,
    title: t(`sections.${key}.title`),
    body: brandParagraphs(t.raw(`sections.${key}.body`) as string[], brand),
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
