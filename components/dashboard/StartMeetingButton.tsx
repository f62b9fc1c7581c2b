'use client';

import { useModal } from '@/components/dialog/ModalProvider';

/** Opens the new-meeting modal: another room than the default one, or a password. */
export function StartMeetingButton({ label, primary = false }: { label: string; primary?: boolean }) {
  const modal = useModal();
  return (
    <button type="button" className={primary ? 'button-primary' : 'button-secondary'} onClick={() => modal.open('newMeeting')}>
      {label}
    </button>
  );
}
