// SPEC point 4: the admin of a free account whose trial has ended is asked to choose a plan.

export interface TrialState {
  role: 'user' | 'admin';
  isTrial: boolean;
  trialEndsAt: Date;
}

export function trialEnded(user: Pick<TrialState, 'isTrial' | 'trialEndsAt'>, now = new Date()): boolean {
  return user.isTrial && user.trialEndsAt.getTime() <= now.getTime();
}

/** Only admins get the check, and a server without billing (on-premise) skips it. */
export function needsBillingModal(user: TrialState, billingOn: boolean, now = new Date()): boolean {
  return billingOn && user.role === 'admin' && trialEnded(user, now);
}

/** Whole days left of the trial ("ends in N days"), 0 on its last day and after. */
export function trialDaysLeft(user: Pick<TrialState, 'trialEndsAt'>, now = new Date()): number {
  return Math.max(0, Math.ceil((user.trialEndsAt.getTime() - now.getTime()) / 86_400_000));
}
