// Issue 35, item 2: who may register. Pure rules, shared by the server and the register page.

export const registrationModes = ['open', 'domains', 'invitation', 'closed'] as const;
export type RegistrationMode = (typeof registrationModes)[number];

export interface RegistrationPolicy {
  mode: RegistrationMode;
  /** Lower-case domains `domains` admits (exactly: a subdomain only when listed itself). */
  domains: string[];
}

export type RegistrationRefusal = 'registration_closed' | 'registration_domain_not_allowed' | 'registration_invitation_required';

export function isRegistrationMode(value: unknown): value is RegistrationMode {
  return typeof value === 'string' && (registrationModes as readonly string[]).includes(value);
}

/** "Example.org, @example.com ," → ['example.org', 'example.com']: trimmed, lower case, no '@', no repeats. */
export function parseDomains(value: string | readonly string[] | undefined | null): string[] {
  const parts = typeof value === 'string' ? value.split(/[\s,;]+/) : (value ?? []);
  const domains = parts.map((part) => part.trim().toLowerCase().replace(/^@/, '').replace(/\.$/, '')).filter(Boolean);
  return [...new Set(domains)];
}

/** A plausible host name: labels of letters, digits and hyphens, at least one dot. */
export const isDomain = (domain: string) => /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(domain);

/** The domain part of an address, lower case ('' without one). */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0
    ? ''
    : email
        .slice(at + 1)
        .trim()
        .toLowerCase()
        .replace(/\.$/, '');
}

export function domainAllowed(email: string, domains: readonly string[]): boolean {
  const domain = emailDomain(email);
  return domain !== '' && domains.includes(domain);
}

/** The environment's default; an unknown REGISTRATION value is caught at start-up (lib/startup-checks.ts). */
export function policyFromSettings(mode: string | undefined, domains: string | undefined): RegistrationPolicy {
  const chosen = mode?.trim().toLowerCase();
  return { mode: isRegistrationMode(chosen) ? chosen : 'open', domains: parseDomains(domains) };
}

/**
 * Whether `email` may register, and why not. `invited`: a valid, unused invitation for this very
 * address comes with the request. An invitation admits its address in every mode but `closed`
 * (in `domains` the inviter vouches for an outside address).
 */
export function registrationRefusal(policy: RegistrationPolicy, email: string, invited: boolean): RegistrationRefusal | null {
  if (policy.mode === 'closed') return 'registration_closed';
  if (invited || policy.mode === 'open') return null;
  if (policy.mode === 'invitation') return 'registration_invitation_required';
  return domainAllowed(email, policy.domains) ? null : 'registration_domain_not_allowed';
}

/** A REGISTRATION setting that would not do what the operator meant: the server refuses to start. */
export function registrationSettingsProblem(mode: string | undefined, domains: string | undefined): string | null {
  const chosen = mode?.trim().toLowerCase();
  if (chosen && !isRegistrationMode(chosen)) {
    return `Enclave will not start: REGISTRATION=${mode} is not a setting. Write open, domains, invitation or closed.`;
  }
  const bad = parseDomains(domains).filter((domain) => !isDomain(domain));
  if (bad.length)
    return `Enclave will not start: REGISTRATION_DOMAINS has ${bad.join(', ')}, which is not a domain. Write domains such as example.org,example.com.`;
  if (chosen === 'domains' && parseDomains(domains).length === 0) {
    return 'Enclave will not start: REGISTRATION=domains needs REGISTRATION_DOMAINS (e.g. example.org,example.com).';
  }
  return null;
}
