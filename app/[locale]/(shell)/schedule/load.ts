import 'server-only';
import type { WizardData } from '@/components/schedule/types';
import type { User } from '@/lib/db/schema';
import { listContacts } from '@/lib/contacts/list';
import { listGroups } from '@/lib/groups/list';
import { listRooms } from '@/lib/rooms/list';
import { normalizeTimezone } from '@/lib/time/timezones';

/** The rooms, contacts and groups the schedule wizard offers, all the user's own. */
export async function wizardData(user: User): Promise<WizardData> {
  const [rooms, contacts, groups] = await Promise.all([listRooms(user.id), listContacts(user.id), listGroups(user.id)]);
  return {
    timezone: normalizeTimezone(user.timezone),
    ownEmail: user.email,
    rooms: rooms.map((r) => ({ id: r.id, name: r.name, meetingId: r.meetingId, isDefault: r.isDefault, hasPassword: r.hasPassword })),
    contacts: contacts.map((c) => ({ id: c.id, name: c.name, email: c.email })),
    groups: groups.map((g) => ({ id: g.id, name: g.name, attendees: g.attendees })),
  };
}
