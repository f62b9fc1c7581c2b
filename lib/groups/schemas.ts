// The group form and POST /api/groups, /api/groups/update share these rules (SPEC point 5).
import { z } from 'zod';
import { colorField } from '@/lib/color-field';
import { GROUP_MIN_CONTACTS } from './limits';

export { GROUP_MIN_CONTACTS } from './limits';

/** SPEC point 3: `attendees` arrives as a JSON string; a real array is accepted too. */
function parseList(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** Contact ids, or e-mails of the user's contacts; fewer than two is incorrect_data on the field. */
const attendeeList = z.preprocess(
  parseList,
  z
    .array(z.string({ error: 'incorrect_data' }).trim().min(1, 'incorrect_data').max(254, 'incorrect_data'), {
      error: 'incorrect_data',
    })
    .max(1000, 'incorrect_data')
    // Ids and e-mails are both case-insensitive; the same contact twice counts once.
    .transform((list) => [...new Set(list.map((entry) => entry.toLowerCase()))])
    .refine((list) => list.length >= GROUP_MIN_CONTACTS, 'incorrect_data'),
);

const groupObject = z.object({
  name: z.string({ error: 'group_name_required' }).trim().min(1, 'group_name_required').max(100, 'incorrect_data'),
  color: colorField.optional(),
  attendees: attendeeList,
});

export const groupSchema = groupObject;
export type GroupInput = z.output<typeof groupSchema>;

/** Fields left out stay as they are. */
export const groupUpdateSchema = groupObject.partial().extend({ id: z.string({ error: 'missing_data' }).max(64, 'attendee_not_found') });
export type GroupUpdate = z.output<typeof groupUpdateSchema>;
