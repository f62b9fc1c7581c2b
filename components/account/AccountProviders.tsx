'use client';

import { AppContextProvider } from '@/components/AppContext';
import { lazyComponent } from '@/components/dialog/lazy';
import { ModalProvider, type ModalComponent } from '@/components/dialog/ModalProvider';
import { NavigationEffects } from '@/components/shell/NavigationEffects';
import type { ShellUser } from '@/lib/auth/shell-user';

/**
 * The modals an account page can open: app info (the drawer) and the terms (registration). A
 * logged-in user who lands here gets the app's other entries in the drawer; they open on the
 * app's own pages.
 */
const modals: Record<string, ModalComponent> = {
  appInfo: lazyComponent(() => import('@/components/modals/AppInfoModal').then((m) => m.AppInfoModal)),
  terms: lazyComponent(() => import('@/components/modals/TermsModal').then((m) => m.TermsModal)),
};

/** The account pages' share of components/Providers: app context, two modals, route effects. */
export function AccountProviders({
  brand,
  user,
  terms,
  children,
}: {
  brand: string;
  user: ShellUser | null;
  /** What the terms dialog shows: the operator's text or the built-in one for this billing mode. */
  terms: { text: string | null; billingOn: boolean; hasSfu: boolean };
  children: React.ReactNode;
}) {
  return (
    <AppContextProvider value={{ brand, user, terms }}>
      <ModalProvider modals={modals}>
        <NavigationEffects />
        {children}
      </ModalProvider>
    </AppContextProvider>
  );
}
