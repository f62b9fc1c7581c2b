'use client';

import { useEffect } from 'react';
import { useModal } from './ModalProvider';

/** Opens a modal once when the app starts (e.g. billing after the trial, SPEC point 4). */
export function OpenOnStart({ modal }: { modal: string }) {
  const { open } = useModal();
  useEffect(() => open(modal), [open, modal]);
  return null;
}
