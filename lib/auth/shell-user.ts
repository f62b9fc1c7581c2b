// What the page frame knows of the request's user (lib/page/shell-state.ts makes it on the
// server, the shell's client components read it): no secret, nothing the frame does not show.
export interface ShellUser {
  firstName: string;
  lastName: string;
  email: string;
  enableMCard: boolean;
  /** Role "admin": the sidebar offers the instance's administration (issue 48, point 5). */
  isAdmin: boolean;
  /** The trial of this admin's free account has ended: the billing modal opens. */
  needsBilling: boolean;
  /** The free trial's days left, or that it ended; null when not on trial. */
  trial: { daysLeft: number; ended: boolean } | null;
  /** Saved time zone, or null before the first-time setup. */
  timezone: string | null;
  hasRoom: boolean;
}
