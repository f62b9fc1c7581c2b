import type { Draft, DraftErrors } from '@/lib/schedule/draft';

/** What the wizard's page loads on the server for it. */
export interface WizardData {
  timezone: string;
  ownEmail: string;
  rooms: { id: string; name: string; meetingId: string; isDefault: boolean; hasPassword: boolean }[];
  contacts: { id: string; name: string; email: string }[];
  groups: { id: string; name: string; attendees: string[] }[];
}

/** The props every step shares. */
export interface StepProps {
  draft: Draft;
  errors: DraftErrors;
  onChange: (patch: Partial<Draft>) => void;
}
