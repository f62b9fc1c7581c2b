'use client';

import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import { LazyDialog } from './lazy';

/** A modal of the app: rendered by the host, given a way to close itself. */
export type ModalComponent = React.ComponentType<{ close: () => void }>;

interface ModalApi {
  /** Opens a modal, replacing any open one: dialogs appear one at a time (SPEC point 2). */
  open: (name: string) => void;
  close: () => void;
  current: string | null;
}

const ModalContext = createContext<ModalApi | null>(null);

export function ModalProvider({ modals, children }: { modals: Record<string, ModalComponent>; children: React.ReactNode }) {
  const [current, setCurrent] = useState<string | null>(null);
  const open = useCallback((name: string) => setCurrent(name), []);
  const close = useCallback(() => setCurrent(null), []);
  const api = useMemo(() => ({ open, close, current }), [open, close, current]);
  const Current = current ? modals[current] : undefined;
  return (
    <ModalContext.Provider value={api}>
      {children}
      {/* A modal's code may load when it first opens (components/modals/registry.ts). */}
      {Current && (
        <LazyDialog>
          <Current key={current} close={close} />
        </LazyDialog>
      )}
    </ModalContext.Provider>
  );
}

export function useModal(): ModalApi {
  const api = useContext(ModalContext);
  if (!api) throw new Error('useModal must be used inside ModalProvider');
  return api;
}
