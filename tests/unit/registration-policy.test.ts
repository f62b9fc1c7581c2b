import { domainAllowed, emailDomain, parseDomains, policyFromSettings, registrationRefusal, registrationSettingsProblem } from '@/lib/registration/policy';

// Issue 35, item 2: who may register, decided without a database.

describe('domain matching', () => {
  const domains = parseDomains('Example.org, @example.com ; sub.example.net');

  it('normalises the list: lower case, no @, no repeats', () => {
    expect(domains).toEqual(['example.org', 'example.com', 'sub.example.net']);
    expect(parseDomains(['A.org', 'a.org', ' '])).toEqual(['a.org']);
    expect(parseDomains(undefined)).toEqual([]);
  });

  it('matches the domain case-insensitively', () => {
    expect(domainAllowed('Ann@EXAMPLE.ORG', domains)).toBe(true);
    expect(domainAllowed('bob@example.com', domains)).toBe(true);
  });

  it('matches the exact domain only: a subdomain only when listed, never a look-alike', () => {
    expect(domainAllowed('ann@mail.example.org', domains)).toBe(false);
    expect(domainAllowed('ann@sub.example.net', domains)).toBe(true);
    expect(domainAllowed('ann@example.net', domains)).toBe(false);
    expect(domainAllowed('ann@notexample.org', domains)).toBe(false);
    expect(domainAllowed('ann@example.org.evil.test', domains)).toBe(false);
    // The domain is after the last @: a quoted local part cannot smuggle one in.
    expect(domainAllowed('"x@example.org"@evil.test', domains)).toBe(false);
    expect(emailDomain('no-at-sign')).toBe('');
    expect(domainAllowed('no-at-sign', domains)).toBe(false);
  });
});

describe('the decision', () => {
  const email = 'ann@example.org';
  const policy = (mode: string, domains = 'example.org') => policyFromSettings(mode, domains);

  it('open admits anyone', () => {
    expect(registrationRefusal(policy('open'), 'x@other.test', false)).toBeNull();
  });

  it('closed refuses everyone, an invitation too', () => {
    expect(registrationRefusal(policy('closed'), email, false)).toBe('registration_closed');
    expect(registrationRefusal(policy('closed'), email, true)).toBe('registration_closed');
  });

  it('domains admits listed domains, and an invited outside address', () => {
    expect(registrationRefusal(policy('domains'), email, false)).toBeNull();
    expect(registrationRefusal(policy('domains'), 'x@other.test', false)).toBe('registration_domain_not_allowed');
    expect(registrationRefusal(policy('domains'), 'x@other.test', true)).toBeNull();
  });

  it('invitation admits only with an invitation', () => {
    expect(registrationRefusal(policy('invitation'), email, false)).toBe('registration_invitation_required');
    expect(registrationRefusal(policy('invitation'), email, true)).toBeNull();
  });

  it('the environment default is open, and reads any letter case', () => {
    expect(policyFromSettings(undefined, undefined)).toEqual({ mode: 'open', domains: [] });
    expect(policyFromSettings('Invitation', undefined).mode).toBe('invitation');
  });
});

describe('start-up check of REGISTRATION', () => {
  it('accepts the four modes and an unset value', () => {
    for (const mode of [undefined, 'open', 'invitation', 'closed']) expect(registrationSettingsProblem(mode, undefined)).toBeNull();
    expect(registrationSettingsProblem('domains', 'example.org,example.com')).toBeNull();
  });

  it('stops a misspelt mode, domains without domains, and a domain that is none', () => {
    expect(registrationSettingsProblem('invitaton', undefined)).toMatch(/REGISTRATION=invitaton is not a setting/);
    expect(registrationSettingsProblem('domains', undefined)).toMatch(/needs REGISTRATION_DOMAINS/);
    expect(registrationSettingsProblem('domains', 'example')).toMatch(/example, which is not a domain/);
  });
});
