import { ApiError } from '@/lib/errors';
import { isEmailAddress } from '@/lib/email-address';
import { isStorableText } from '@/lib/storable-text';

// What the sign-in takes from a provider's claims, under the rules a form's input gets (issue 44,
// point 2): a provider is another party, and its claims are input like any request's. The refusals
// name the claim (the flow logs its name, never its value: docs/self-hosting/sso.md).

/** What the rest of the sign-in needs to know of the person, from the ID token (and UserInfo). */
export interface OidcIdentity {
  subject: string;
  email: string | null;
  /** Only the provider's own `email_verified: true` counts. */
  emailVerified: boolean;
  givenName: string | null;
  familyName: string | null;
  name: string | null;
  locale: string | null;
}

/** OpenID Connect Core 1.0, 5.1: a subject "MUST NOT exceed 255 ASCII characters". */
const SUBJECT_MAX = 255;

/** The text claims read, by their name in the token. */
const TEXT_CLAIMS = { email: 'email', givenName: 'given_name', familyName: 'family_name', name: 'name', locale: 'locale' } as const;

/** A claim as stored text: trimmed, null when absent, empty or not a string; incorrect_data when it cannot be stored. */
function textClaim(info: Record<string, unknown>, claim: string): string | null {
  const value = info[claim];
  if (typeof value !== 'string') return null;
  if (!isStorableText(value)) throw new ApiError('incorrect_data', { field: claim });
  return value.trim() || null;
}

/**
 * The identity in the claims (`info`: the ID token's, with UserInfo's where the token has none).
 * Every text claim read must be storable (no NUL, no lone surrogate), the subject too, and no
 * longer than the standard allows: it is the key of the account's link (a longer one would not fit
 * its index). The e-mail is checked where it is used (usableEmail).
 */
export function identityFromClaims(subject: string, info: Record<string, unknown>): OidcIdentity {
  if (!subject || subject.length > SUBJECT_MAX || !isStorableText(subject)) throw new ApiError('incorrect_data', { field: 'sub' });
  const text = Object.fromEntries(Object.entries(TEXT_CLAIMS).map(([key, claim]) => [key, textClaim(info, claim)])) as Record<
    keyof typeof TEXT_CLAIMS,
    string | null
  >;
  return { subject, ...text, email: text.email?.toLowerCase() ?? null, emailVerified: info.email_verified === true };
}

/**
 * The address to find or create an account by: one the provider verified (else
 * sso_email_not_verified), under the register form's e-mail rule (else format_email), so that
 * `x@evil.test@corp.test` is neither an account nor a member of `corp.test`.
 */
export function usableEmail(identity: OidcIdentity): string {
  if (!identity.email || !identity.emailVerified) throw new ApiError('sso_email_not_verified');
  if (!isEmailAddress(identity.email)) throw new ApiError('format_email', { field: 'email' });
  return identity.email;
}
