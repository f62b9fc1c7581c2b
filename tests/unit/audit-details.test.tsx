/** @jest-environment jsdom */
import { render } from '@testing-library/react';
import { AuditDetails } from '@/components/admin/AuditDetails';
import { describeAudit } from '@/lib/admin/audit-details';
import en from '@/messages/en.json';
import de from '@/messages/de.json';

// Issue 33, point 11: the audit tab showed each entry's details as raw JSON.
function shown(action: string, details: unknown, messages: object = en, locale = 'en', timeZone = 'UTC') {
  const { container } = render(
    <AuditDetails lines={describeAudit(action, details, messages as Record<string, unknown>, locale, timeZone)} changedTo="changed to" />,
  );
  const rows = [...container.querySelectorAll('dt')].map(
    (dt) => `${dt.textContent}: ${dt.nextElementSibling?.textContent?.replace(/\s+/g, ' ').replace(' changed to ', ' ').trim()}`,
  );
  expect(container.textContent).not.toMatch(/[{}"]/);
  return rows;
}

describe('audit log details, in words', () => {
  it('a role change: the field and both values with their labels', () => {
    expect(shown('grant_admin', { from: 'user', to: 'admin' })).toEqual(['Role: User → Admin']);
  });

  it('disabling names the state before and the state it led to', () => {
    expect(shown('disable_account', { from: 'active' })).toEqual(['State: Active → Disabled']);
  });

  it('a plan change: one line per field, missing values shown as none, booleans as words', () => {
    expect(
      shown('set_plan', { from: { accountType: 'individual', numberOfRooms: 1, isTrial: true }, to: { accountType: 'executive', numberOfRooms: 12 } }),
    ).toEqual(['Plan: Individual → Executive', 'Rooms: 1 → 12', 'On trial: Yes → (none)']);
  });

  it('configuration: localized labels, money with two decimals, download platforms by name', () => {
    expect(
      shown('update_configuration', {
        product_price: { from: 34.95, to: 40 },
        enable2fa: { from: true, to: false },
        'downloads.linux': { from: null, to: 'https://example.com/app.AppImage' },
      }),
    ).toEqual(['Price per room and month: 34.95 → 40.00', 'Offer two-factor authentication: Yes → No', 'Linux app: (none) → https://example.com/app.AppImage']);
  });

  it('who may register (issue 35): the mode by name, the domains as a list', () => {
    expect(
      shown('update_configuration', {
        registration: { from: null, to: 'invitation' },
        registration_domains: { from: null, to: ['example.org', 'example.com'] },
        users_may_invite: { from: false, to: true },
      }),
    ).toEqual(['Registration: (none) → By invitation only', 'Allowed e-mail domains: (none) → example.org, example.com', 'Users may invite people: No → Yes']);
  });

  it('the public texts and the home page by their labels, not `imprint_text` (issue 48)', () => {
    expect(
      shown('update_configuration', {
        imprint_text: { from: null, to: '812 characters' },
        privacy_text: { from: '1200 characters', to: '1300 characters' },
        home_sentence: { from: null, to: 'Meet in private.' },
        home_page: { from: 'private', to: 'marketing' },
      }),
    ).toEqual([
      'Legal notice (imprint): (none) → 812 characters',
      'Privacy policy: 1,200 characters → 1,300 characters',
      'Sentence on the plain home: (none) → Meet in private.',
      `What the home page shows visitors: ${en.AdminConfiguration.homePageModes.private} → ${en.AdminConfiguration.homePageModes.marketing}`,
    ]);
    expect(shown('update_configuration', { imprint_text: { from: '10 characters', to: null } }, de, 'de')).toEqual([
      `${de.AdminConfiguration.imprintText}: 10 Zeichen → ${de.AdminAudit.none}`,
    ]);
  });

  it("times in the reader's zone and language, never ISO (issue 48)", () => {
    const details = { expiresAt: '2026-12-13T08:05:00.000Z' };
    expect(shown('send_invitation', details, en, 'en', 'America/New_York')).toEqual(['Expires: Dec 13, 2026, 3:05 AM']);
    expect(shown('send_invitation', details, de, 'de', 'Europe/Berlin')).toEqual([`${de.AdminAudit.fields.expiresAt}: 13.12.2026, 09:05`]);
  });

  it('a ticket status change keeps the ticket and the status names', () => {
    expect(shown('ticket_status', { ticketId: 't-1', from: 'open', to: 'answered' })).toEqual(['Status: Open → Answered', 'Ticket: t-1']);
  });

  it("in the reader's language and number format", () => {
    expect(shown('set_plan', { from: { numberOfRooms: 1200 }, to: { numberOfRooms: 1500 } }, de, 'de')).toEqual(['Räume: 1.200 → 1.500']);
  });

  it('unknown shapes become a key/value list, never JSON', () => {
    expect(shown('something_new', { note: 'hello', nested: { a: 1, list: [true, 'x'] }, flag: false })).toEqual([
      'note: hello',
      'nested.a: 1',
      'nested.list: Yes, x',
      'flag: No',
    ]);
    expect(shown('odd', ['a', 'b'])).toEqual(['details: a, b']);
    expect(shown('empty', {})).toEqual([]);
  });
});
