import type { Group } from '@/lib/db/schema';
import { GROUP_MIN_CONTACTS } from './schemas';

/** A group as the API answers it (SPEC point 3): its contacts as a sorted list of ids. */
export function groupView(group: Group, attendees: string[]) {
  return {
    id: group.id,
    name: group.name,
    color: group.color,
    attendees: [...attendees].sort(),
    // Left with fewer than two contacts after a contact was deleted (docs/decisions.md).
    incomplete: attendees.length < GROUP_MIN_CONTACTS,
    createdAt: group.createdAt.toISOString(),
  };
}
export type GroupView = ReturnType<typeof groupView>;
