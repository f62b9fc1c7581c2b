// The room form and POST /api/room, /api/room/update share these rules (SPEC point 5); each names
// the error code of SPEC point 8 it answers with.
import { z } from 'zod';
import { colorField } from '@/lib/color-field';
import { ROOM_MEDIA_ROUTES } from '@/lib/meeting/protocol';
import { checkPasswordProofFields, passwordProofFields } from '@/lib/meeting/room-password.schema';

export const ROOM_NAME_MIN = 5;
export const ROOM_PASSWORD_MIN = 8;

const name = z.string({ error: 'room_title_length' }).trim().min(ROOM_NAME_MIN, 'room_title_length').max(100, 'incorrect_data');

/** An empty password means none (adding) or "keep the current one" (editing). */
const password = z
  .string({ error: 'incorrect_data' })
  .max(256, 'incorrect_data')
  .refine((value) => value === '' || value.length >= ROOM_PASSWORD_MIN, 'room_password_length');

/**
 * Enclave's own forms send `passwordProof` and `passwordSalt` (lib/meeting/room-password.ts), so
 * the password never reaches the server; a plain `password` is still taken from API clients.
 */
const roomObject = z.object({
  name,
  color: colorField.optional(),
  password: password.optional(),
  ...passwordProofFields,
  isDefault: z.boolean({ error: 'incorrect_data' }).optional(),
  /** "Calls in this room" (issue 38): left out, a new room is 'auto' and an edited one keeps its own. */
  mediaRoute: z.enum(ROOM_MEDIA_ROUTES, { error: 'incorrect_data' }).optional(),
});

export const roomSchema = roomObject.superRefine(checkPasswordProofFields);
export type RoomInput = z.output<typeof roomSchema>;

/** Every field but the id may be left out (unchanged); `password: null` removes the password. */
export const roomUpdateSchema = roomObject
  .partial()
  .extend({
    id: z.string({ error: 'missing_data' }).max(64, 'room_not_found'),
    password: password.nullable().optional(),
  })
  .superRefine(checkPasswordProofFields);
export type RoomUpdate = z.output<typeof roomUpdateSchema>;
