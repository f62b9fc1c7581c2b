// What a login session's cookie carries (sealed by session-cookie.ts, kept decoded by
// session-cache.ts): its own module, so that neither of those two imports the other for it.
export interface SessionData {
  userId: string;
  /** Must equal the user's sessionVersion; raising that revokes this cookie. */
  version: number;
  role: 'user' | 'admin';
  /** Set between the password step and the two-factor step of a login. */
  pending2fa?: boolean;
  /**
   * This cookie's own id, which logging out revokes (lib/auth/logout.ts). Every cookie sealed
   * since issue 16 has one; older cookies without it end with a raised session version.
   */
  sid?: string;
}
