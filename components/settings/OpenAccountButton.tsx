'use client';

import { useModal } from '@/components/dialog/ModalProvider';

/** Opens the "Account & security" modal from the Preferences page (issue 48, point 6). */
export function OpenAccountButton({ label }: { label: string }) {
  const modal = useModal();
  return (
    <button type="button" className="button-secondary" onClick={() => modal.open('account')}>
      {label}
    </button>
  );
}
