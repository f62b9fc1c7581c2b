import 'server-only';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import { billingOn } from '@/lib/configuration/billing-mode';
import type { Transaction } from '@/lib/db/client';
import { attendees, configuration, eventAttendees, eventGroups, groupMembers, groups, users, type User } from '@/lib/db/schema';
import { isUuid } from '@/lib/db/uuid';
import { isLocale, type Locale } from '@/lib/i18n/locales';
import { userEmailIn } from '@/lib/db/user-email';

export interface Participant {
  email: string;
  name: string | null;
  attendeeId: string | null;
  userId: string | null;
  role: 'organizer' | 'attendee';
  lang: Locale;
}

const lang = (value: string | null | undefined, fallback: Locale): Locale => (isLocale(value) ? value : fallback);

/**
 * The organizer and everyone invited: the attendees given (e-mail guests, contacts, account users)
 * and the members of the groups given. SPEC point 5: not the organizer's own address, no
 * duplicates (checked by the schema), at most max_event_attendees from configuration.
 */
export async function resolveParticipants(
  tx: Transaction,
  organizer: User,
  input: { attendees: { email: string; name?: string }[]; groups: string[] },
): Promise<{ participants: Participant[]; groupIds: string[] }> {
  const own = organizer.email.toLowerCase();
  if (input.attendees.some((a) => a.email === own)) throw new ApiError('incorrect_email', { field: 'attendees' });

  const groupIds = [...new Set(input.groups.map((id) => id.toLowerCase()))];
  if (groupIds.some((id) => !isUuid(id))) throw new ApiError('incorrect_data', { field: 'groups' });
  const ownGroups = groupIds.length
    ? await tx
        .select({ id: groups.id })
        .from(groups)
        .where(and(eq(groups.ownerId, organizer.id), inArray(groups.id, groupIds)))
    : [];
  if (ownGroups.length !== groupIds.length) throw new ApiError('incorrect_data', { field: 'groups' });
  const members = groupIds.length
    ? await tx
        .select({ email: attendees.email, name: attendees.name })
        .from(groupMembers)
        .innerJoin(attendees, eq(attendees.id, groupMembers.attendeeId))
        .where(and(inArray(groupMembers.groupId, groupIds), eq(attendees.ownerId, organizer.id)))
    : [];

  const wanted = new Map<string, string | null>();
  for (const a of input.attendees) wanted.set(a.email, a.name?.trim() || null);
  for (const m of members) {
    const email = m.email.toLowerCase();
    if (email !== own && !wanted.has(email)) wanted.set(email, m.name);
  }
  const emails = [...wanted.keys()];

  const [config] = await tx.select({ max: configuration.maxEventAttendees, seats: configuration.participantsPerMeeting }).from(configuration).limit(1);
  // Billing off has one participant limit (issue 48): a meeting invites no more people than its
  // call seats, the organizer being one of them. Billing on keeps SPEC's max_event_attendees.
  const invitable = billingOn() ? (config?.max ?? 100) : (config?.seats ?? 30) - 1;
  if (emails.length > invitable) throw new ApiError('incorrect_data', { field: 'attendees' });

  const contacts = emails.length
    ? await tx
        .select()
        .from(attendees)
        .where(and(eq(attendees.ownerId, organizer.id), inArray(sql`lower(${attendees.email})`, emails)))
    : [];
  const accounts = emails.length
    ? await tx
        .select({ id: users.id, email: users.email, lang: users.lang, firstName: users.firstName, lastName: users.lastName })
        .from(users)
        .where(userEmailIn(emails))
    : [];
  const fallback = lang(organizer.lang, 'en');
  const participants: Participant[] = [
    {
      email: organizer.email,
      name: `${organizer.firstName} ${organizer.lastName}`.trim(),
      attendeeId: null,
      userId: organizer.id,
      role: 'organizer',
      lang: fallback,
    },
  ];
  for (const email of emails) {
    const contact = contacts.find((c) => c.email.toLowerCase() === email);
    const account = accounts.find((u) => u.email.toLowerCase() === email);
    participants.push({
      email,
      name: wanted.get(email) ?? contact?.name ?? (account ? `${account.firstName} ${account.lastName}` : null),
      attendeeId: contact?.id ?? null,
      userId: account?.id ?? null,
      role: 'attendee',
      lang: lang(account?.lang ?? contact?.lang, fallback),
    });
  }
  return { participants, groupIds };
}

/** Replaces the stored attendees and groups of an event. */
export async function writeParticipants(tx: Transaction, eventId: string, participants: Participant[], groupIds: string[]) {
  await tx.delete(eventAttendees).where(eq(eventAttendees.eventId, eventId));
  await tx.delete(eventGroups).where(eq(eventGroups.eventId, eventId));
  await tx
    .insert(eventAttendees)
    .values(participants.map((p) => ({ eventId, email: p.email, name: p.name, attendeeId: p.attendeeId, userId: p.userId, role: p.role })));
  if (groupIds.length) await tx.insert(eventGroups).values(groupIds.map((groupId) => ({ eventId, groupId })));
}

/**
 * The stored participants of an event, with the language each one reads mail in: their account's,
 * their contact entry's, else the organizer's.
 */
export async function loadParticipants(tx: Transaction, eventId: string): Promise<Participant[]> {
  const rows = await tx
    .select({
      email: eventAttendees.email,
      name: eventAttendees.name,
      attendeeId: eventAttendees.attendeeId,
      userId: eventAttendees.userId,
      role: eventAttendees.role,
      contactLang: attendees.lang,
      userLang: users.lang,
    })
    .from(eventAttendees)
    .leftJoin(attendees, eq(attendees.id, eventAttendees.attendeeId))
    .leftJoin(users, eq(users.id, eventAttendees.userId))
    .where(eq(eventAttendees.eventId, eventId));
  const organizer = rows.find((r) => r.role === 'organizer');
  const fallback = lang(organizer?.userLang, 'en');
  return rows.map((r) => ({
    email: r.email,
    name: r.name,
    attendeeId: r.attendeeId,
    userId: r.userId,
    role: r.role,
    lang: lang(r.userLang ?? r.contactLang, fallback),
  }));
}
