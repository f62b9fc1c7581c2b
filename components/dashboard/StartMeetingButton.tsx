'use client';

import { useModal } from '@/components/dialog/ModalProvider';

export function StartMeetingButton({ label }: { label: string }) {
  const modal = useModal();
  return (
    <button type="button" className="button-primary" onClick={() => modal.open('newMeeting')}>
      {label}
    </button>
  );
}
