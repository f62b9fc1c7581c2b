'use client';

import { useTranslations } from 'next-intl';
import { useApp } from '@/components/AppContext';
import { Dialog } from '@/components/dialog/Dialog';
import { PlainTextDocument } from '@/components/public/PlainTextDocument';
import { termsBodyKey, termsSections, TermsText } from '@/components/terms/TermsText';
import { messageList } from '@/lib/i18n/message-list';
import { mediaTextValues } from '@/lib/sfu/public-texts';

/** SPEC point 2, the terms modal: registration shows the terms here instead of in a new tab. */
export function TermsModal({ close }: { close: () => void }) {
  const t = useTranslations('Terms');
  const modal = useTranslations('Modal');
  const { brand, terms } = useApp();
  const server = { billingOn: terms?.billingOn ?? true, hasSfu: terms?.hasSfu ?? false };
  const sections = termsSections(server.billingOn).map((key) => ({
    key,
    title: t(`sections.${key}.title`),
    body: messageList(t, termsBodyKey(key, server), { brand, ...mediaTextValues }),
  }));
  return (
    <Dialog title={t('title')} onClose={close} size="max-w-2xl">
      <div className="max-h-[60vh] overflow-y-auto pr-2">
        {terms?.text ? (
          <PlainTextDocument text={terms.text} />
        ) : (
          <TermsText intro={t('intro', { brand })} sections={sections} closing={t('selfHosted', { brand })} headingLevel={3} />
        )}
      </div>
      <div className="mt-4 flex justify-end">
        <button type="button" className="button-primary" onClick={close}>
          {modal('close')}
        </button>
      </div>
    </Dialog>
  );
}
