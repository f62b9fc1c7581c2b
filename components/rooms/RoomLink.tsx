'use client';

import { useTranslations } from 'next-intl';
import { useToast } from '@/components/toast/ToastProvider';
import { shortLink } from '@/lib/rooms/short-link';

/**
 * A room's meeting link, shortened to "host/now/AbCdEf…" (the whole link in its title and href),
 * with a button that copies the whole link. `roomName` names the button for screen readers when
 * a page lists several rooms.
 */
export function RoomLink({ link, roomName }: { link: string; roomName: string }) {
  const t = useTranslations('RoomLink');
  const toast = useToast();

  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      toast.success(t('copied'));
    } catch {
      toast.error(t('copyFailed'));
    }
  }

  return (
    <div className="flex min-w-0 items-center gap-2">
      <a href={link} title={link} className="min-w-0 flex-1 truncate font-mono text-sm text-brand underline">
        {shortLink(link)}
      </a>
      <button type="button" className="button-secondary shrink-0" aria-label={t('copyNamed', { room: roomName })} onClick={() => void copy()}>
        {t('copy')}
      </button>
    </div>
  );
}
