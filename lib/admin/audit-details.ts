// What an audit entry changed, in words (issue 33, point 10): each entry's details, whatever
// their shape, become lines "field: before → after" or "field: value", with the labels and values
// the admin area already uses where there are some. Never raw JSON. Pure: no server-only imports,
// so the unit test runs it against the English catalogue.

type Tree = { [key: string]: unknown };

/** One line of an entry's details, ready to show. */
export type AuditLine =
  { key: string; label: string; kind: 'change'; before: string; after: string } | { key: string; label: string; kind: 'value'; value: string };

/** Which field a bare `{from, to}` is about, by action; the state actions imply their outcome. */
const TOP_LEVEL_FIELD: Record<string, { field: string; after?: string }> = {
  grant_admin: { field: 'role' },
  revoke_admin: { field: 'role' },
  disable_account: { field: 'state', after: 'disabled' },
  enable_account: { field: 'state', after: 'active' },
  ticket_status: { field: 'status' },
};

/** Where each known field's label and value names live in the catalogue. */
const FIELD_LABELS: Record<string, { label: string; values?: string; kind?: 'money' | 'text' }> = {
  role: { label: 'AdminUsers.role', values: 'AdminUsers.roles' },
  state: { label: 'AdminUsers.state', values: 'AdminUsers.states' },
  accountType: { label: 'AdminUsers.plan', values: 'AdminUsers.plans' },
  numberOfRooms: { label: 'AdminUsers.rooms' },
  isTrial: { label: 'AdminAudit.fields.isTrial' },
  product_price: { label: 'AdminConfiguration.price', kind: 'money' },
  max_event_attendees: { label: 'AdminConfiguration.maxAttendees' },
  enable2fa: { label: 'AdminConfiguration.enable2fa' },
  rooms_per_user: { label: 'AdminConfiguration.roomsPerUser' },
  participants_per_meeting: { label: 'AdminConfiguration.participantsPerMeeting' },
  brandName: { label: 'AdminConfiguration.brandName' },
  home_page: { label: 'AdminConfiguration.homePage', values: 'AdminConfiguration.homePageModes' },
  home_sentence: { label: 'AdminConfiguration.homeSentence' },
  // The long texts are logged as their length ("812 characters", lib/admin/configuration.ts).
  privacy_text: { label: 'AdminConfiguration.privacyText', kind: 'text' },
  imprint_text: { label: 'AdminConfiguration.imprintText', kind: 'text' },
  terms_text: { label: 'AdminAudit.fields.termsText', kind: 'text' },
  expiresAt: { label: 'AdminAudit.fields.expiresAt' },
  registration: { label: 'AdminConfiguration.registrationMode', values: 'AdminConfiguration.registrationModes' },
  registration_domains: { label: 'AdminConfiguration.registrationDomains' },
  users_may_invite: { label: 'AdminConfiguration.usersMayInvite' },
  status: { label: 'Support.status', values: 'Support.statuses' },
  created: { label: 'AdminAudit.fields.created' },
  ticketId: { label: 'AdminAudit.fields.ticketId' },
};

function lookup(messages: Tree, path: string): string | undefined {
  let node: unknown = messages;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null || !(part in node)) return undefined;
    node = (node as Tree)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** An ISO 8601 instant as the server writes them (Date.toISOString()): shown in the reader's zone. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const TEXT_LENGTH = /^(\d+) characters$/;

const isPlainObject = (value: unknown): value is Tree => typeof value === 'object' && value !== null && !Array.isArray(value);
const isChange = (value: unknown): value is { from?: unknown; to?: unknown } =>
  isPlainObject(value) && Object.keys(value).length > 0 && Object.keys(value).every((k) => k === 'from' || k === 'to');

/**
 * Turns an entry's details into lines, labelled from `messages` (the locale's catalogue); times
 * in the reader's `timeZone` and language (issue 48: raw ISO times and `imprint_text` were shown).
 */
export function describeAudit(action: string, details: unknown, messages: Tree, locale: string, timeZone = 'UTC'): AuditLine[] {
  const number = new Intl.NumberFormat(locale);
  const time = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
  const characters = (count: number) => (lookup(messages, 'AdminAudit.characters') ?? '{count}').replace('{count}', number.format(count));
  const money = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const empty = lookup(messages, 'AdminAudit.none') ?? '—';

  const label = (key: string): string => {
    const known = FIELD_LABELS[key];
    if (known) return lookup(messages, known.label) ?? key;
    const platform = /^downloads\.(\w+)$/.exec(key)?.[1];
    if (platform) return lookup(messages, `AdminConfiguration.platforms.${platform}`) ?? key;
    return key;
  };

  const value = (key: string, raw: unknown): string => {
    if (raw === null || raw === undefined || raw === '') return empty;
    if (typeof raw === 'boolean') return lookup(messages, raw ? 'AdminAudit.yes' : 'AdminAudit.no') ?? String(raw);
    if (typeof raw === 'number') return FIELD_LABELS[key]?.kind === 'money' ? money.format(raw) : number.format(raw);
    if (typeof raw === 'string') {
      if (ISO_INSTANT.test(raw) && !Number.isNaN(Date.parse(raw))) return time.format(new Date(raw));
      const length = FIELD_LABELS[key]?.kind === 'text' ? TEXT_LENGTH.exec(raw) : null;
      if (length) return characters(Number(length[1]));
      const names = FIELD_LABELS[key]?.values;
      return (names && lookup(messages, `${names}.${raw}`)) || raw;
    }
    if (Array.isArray(raw)) return raw.length ? raw.map((item) => value(key, item)).join(', ') : empty;
    // A nested object where a value was expected: its own key/value pairs, in words.
    if (isPlainObject(raw))
      return (
        Object.entries(raw)
          .map(([k, v]) => `${label(k)}: ${value(k, v)}`)
          .join('; ') || empty
      );
    return String(raw);
  };

  const change = (key: string, before: unknown, after: unknown): AuditLine => ({
    key,
    label: label(key),
    kind: 'change',
    before: value(key, before),
    after: value(key, after),
  });

  if (!isPlainObject(details))
    return details === undefined || details === null ? [] : [{ key: 'details', label: 'details', kind: 'value', value: value('details', details) }];

  const lines: AuditLine[] = [];
  const rest: Tree = { ...details };
  const top = TOP_LEVEL_FIELD[action];
  if ('from' in rest || 'to' in rest) {
    const { from, to } = rest;
    delete rest.from;
    delete rest.to;
    if (isPlainObject(from) || isPlainObject(to)) {
      // { from: {a, b}, to: {a, c} }: one line per field of either side (set_plan).
      const before = isPlainObject(from) ? from : {};
      const after = isPlainObject(to) ? to : {};
      for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) lines.push(change(key, before[key], after[key]));
    } else {
      lines.push(change(top?.field ?? 'value', from, to === undefined ? top?.after : to));
    }
  }
  for (const [key, item] of Object.entries(rest)) {
    if (isChange(item)) lines.push(change(key, item.from, item.to));
    else if (isPlainObject(item)) {
      for (const [sub, v] of Object.entries(item)) {
        const path = `${key}.${sub}`;
        lines.push(isChange(v) ? change(path, v.from, v.to) : { key: path, label: label(path), kind: 'value', value: value(path, v) });
      }
    } else lines.push({ key, label: label(key), kind: 'value', value: value(key, item) });
  }
  return lines;
}
