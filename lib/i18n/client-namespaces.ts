// Which message namespaces the browser gets, per frame and per page (issue 17 goal 4). The
// server renders with every message; the client providers carry only what the client
// components under them ask for, so a page's HTML does not repeat the whole catalogue.
// tests/unit/client-messages.test.ts follows each page's imports and fails when a client
// component asks for a namespace its page and frame do not provide.
import type { Messages } from './messages';

type Namespace = keyof Messages;

/**
 * The app's frame (components/shell/ShellFrame): sidebar, drawer, toasts and the modals its
 * host can open on any page (account, app info, new meeting, billing, quick setup, rate, terms).
 */
export const frameNamespaces = [
  'Nav',
  'Language',
  'Theme',
  'Toast',
  'Modal',
  'Errors',
  'Forms',
  'Login',
  'AppInfo',
  'AccountModal',
  'NewMeeting',
  'Billing',
  'QuickSetup',
  'Rate',
  'Terms',
  // Times and titles as every page shows them: the zone note, the localized "(No Title)".
  'Display',
] as const satisfies readonly Namespace[];

/**
 * The account pages' frame (components/account/AccountFrame, issue 33): the sidebar and drawer,
 * the app-info and terms modals, and the forms' errors and labels.
 */
export const accountFrameNamespaces = [
  'Nav',
  'Language',
  'Theme',
  'Modal',
  'Errors',
  'Forms',
  'Login',
  'AppInfo',
  'Terms',
  'Billing',
] as const satisfies readonly Namespace[];

/**
 * The meeting's frame (app/[locale]/now/layout.tsx), whose one page is the meeting: the modal
 * host and toasts without the sidebar, the meeting's texts, and Manage for the shared
 * ConfirmDialog (components/dialog/ConfirmDialog.tsx) that asks before removing someone.
 */
export const meetingFrameNamespaces: readonly Namespace[] = [
  ...frameNamespaces.filter((namespace) => !['Nav', 'Language', 'Theme'].includes(namespace)),
  'Meeting',
  'Manage',
  // The call's polls (components/meeting/features/polls/): their own namespace, beside the call's.
  'Polls',
  'Whiteboard',
  // The breakout rooms' banner and the host's dialog (components/meeting/features/breakout/).
  'Breakout',
  // Captions' dialog (components/meeting/features/captions/).
  'Captions',
];

/** Each page's own client namespaces, beside its frame's (components/shell/PageMessages). */
export const pageNamespaces = {
  dashboard: ['Calendar', 'Colors', 'RoomLink'],
  calendar: ['Calendar'],
  schedule: ['Schedule'],
  attendees: ['Contacts', 'Groups', 'Manage', 'Colors', 'InviteSomeone'],
  rooms: ['Rooms', 'Manage', 'Colors', 'RoomLink'],
  settings: ['Settings'],
  support: ['Support', 'AdminSupport'],
  openTicket: ['Support', 'OpenTicket'],
  viewTicket: ['Support', 'ViewTicket'],
  adminUsers: ['AdminArea', 'AdminUsers', 'Manage'],
  adminConfiguration: ['AdminConfiguration', 'InviteSomeone'],
  adminSupport: ['Support', 'AdminSupport'],
  firstAdmin: ['FirstAdmin'],
  login: [],
  register: ['Register'],
  forgotPassword: ['ForgotPassword'],
  resetPassword: ['ResetPassword'],
  verifyAccount: ['Verification'],
} as const satisfies Record<string, readonly Namespace[]>;

export type PageMessagesName = keyof typeof pageNamespaces;
