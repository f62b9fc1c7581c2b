'use client';

import { lazy, Suspense } from 'react';

/**
 * A component whose code is fetched the first time it renders, not with the page: dialogs and
 * pickers, which a page shows only when asked (issue 17: a page's first load carries what it
 * draws). `load` names the module's export, so the component keeps its name at the call site.
 */
export function lazyComponent<P extends object>(load: () => Promise<React.ComponentType<P>>) {
  return lazy(async () => ({ default: await load() }));
}

/**
 * What shows while a dialog's code is on its way: a spinner in the middle of the window, after a
 * short delay so that a quick load shows nothing. It takes no focus and is hidden from assistive
 * technology: the dialog takes focus when it opens, as it always did. A failed load is a chunk
 * error, which the error boundary and the chunk watchdog already report (lib/chunk-watchdog.ts).
 */
export function DialogLoading() {
  return (
    <div aria-hidden="true" className="pointer-events-none fixed inset-0 z-50 grid place-items-center">
      <span className="dialog-loading h-8 w-8 rounded-full border-4 border-slate-300 border-t-brand" />
    </div>
  );
}

/** Renders a lazily loaded dialog, with the spinner above while its code loads. */
export function LazyDialog({ children }: { children: React.ReactNode }) {
  return <Suspense fallback={<DialogLoading />}>{children}</Suspense>;
}
