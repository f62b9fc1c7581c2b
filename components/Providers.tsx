'use client';

import { AppContextProvider } from '@/components/AppContext';
import { UpcomingProvider } from '@/components/calendar/UpcomingProvider';
import { ModalProvider } from '@/components/dialog/ModalProvider';
import { modals } from '@/components/modals/registry';
import { NavigationEffects } from '@/components/shell/NavigationEffects';
import { OpenOnStart } from '@/components/dialog/OpenOnStart';
import type { ShellUser } from '@/lib/auth/shell-user';
import { ToastProvider } from '@/components/toast/ToastProvider';

/** What every page shares on the client: app context, toasts, the modal host, route effects. */
export function Providers({ brand, user, children }: { brand: string; user: ShellUser | null; children: React.ReactNode }) {
  return (
    <AppContextProvider value={{ brand, user }}>
      <ToastProvider>
        <UpcomingProvider enabled={user !== null}>
          <ModalProvider modals={modals}>
            <NavigationEffects />
            {/* One dialog at a time: the first-time setup comes before the billing reminder. */}
            {user && (user.timezone === null || !user.hasRoom) ? <OpenOnStart modal="quickSetup" /> : user?.needsBilling && <OpenOnStart modal="billing" />}
            {children}
          </ModalProvider>
        </UpcomingProvider>
      </ToastProvider>
    </AppContextProvider>
  );
}
