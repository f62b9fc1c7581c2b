import type { ModalComponent } from '@/components/modal/ModalProvider';
import { AccountModal } from './AccountModal';
import { AppInfoModal } from './AppInfoModal';
import { BillingModal } from './BillingModal';
import { NewMeetingModal } from './NewMeetingModal';
import { QuickSetupModal } from './QuickSetupModal';
import { RateModal } from './RateModal';
import { TermsModal } from './TermsModal';

/** Every modal the host can show, by name (SPEC point 2, "Modals"). */
export const modals: Record<string, ModalComponent> = {
  appInfo: AppInfoModal,
  account: AccountModal,
  newMeeting: NewMeetingModal,
  billing: BillingModal,
  quickSetup: QuickSetupModal,
  rate: RateModal,
  terms: TermsModal,
};
