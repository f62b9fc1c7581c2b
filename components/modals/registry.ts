import type { ModalComponent } from '@/components/dialog/ModalProvider';
import { lazyComponent } from '@/components/dialog/lazy';

/**
 * Every modal the host can show, by name (SPEC point 2, "Modals"). Each one's code loads when it
 * first opens: the frame of every page names them all, and together with what they import (the
 * account's 2FA set-up, the meeting link's key, zod for an invitation's address) they were a
 * quarter of an app page's own JavaScript.
 */
export const modals: Record<string, ModalComponent> = {
  appInfo: lazyComponent(() => import('./AppInfoModal').then((m) => m.AppInfoModal)),
  account: lazyComponent(() => import('./AccountModal').then((m) => m.AccountModal)),
  newMeeting: lazyComponent(() => import('./NewMeetingModal').then((m) => m.NewMeetingModal)),
  billing: lazyComponent(() => import('./BillingModal').then((m) => m.BillingModal)),
  quickSetup: lazyComponent(() => import('./QuickSetupModal').then((m) => m.QuickSetupModal)),
  rate: lazyComponent(() => import('./RateModal').then((m) => m.RateModal)),
  terms: lazyComponent(() => import('./TermsModal').then((m) => m.TermsModal)),
};
