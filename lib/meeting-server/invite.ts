import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { emailField } from '@/lib/email-field';
import { ApiError } from '@/lib/errors';
import { getDb } from '@/lib/db/client';
import { attendees, rooms, type User } from '@/lib/db/schema';
import { isLocale, type Locale } from '@/lib/i18n/locales';
import { enqueueMail, kickMailWorker } from '@/lib/mail';
import { meetingLink } from '@/lib/rooms/view';
import { consumeAttempt, limits } from '@/lib/security/rate-limit';
import { sfuConfigured } from '@/lib/sfu/nodes';

const email = emailField({ invalid: 'invite_incorrect_email_format' });

/**
 * GET /api/invite/{hash}/{email} (SPEC point 7): invites someone by e-mail to the meeting of one
 * of the user's rooms ({hash} is its meeting id). The mailed link never carries the room
 * secret (docs/e2ee-crypto.md "Who gets S"); the password, if any, is never mailed either.
 */
export async function inviteByEmail(user: User, meetingId: string, rawEmail: string, fallbackLocale: Locale) {
  const parsed = email.safeParse(rawEmail);
  if (!parsed.success) throw new ApiError('invite_incorrect_email_format', { field: 'email' });
  const to = parsed.data;
  await consumeAttempt(limits.invite, user.id);
  const db = await getDb();
  const [room] =
    meetingId.length <= 64
      ? await db
          .select()
          .from(rooms)
          .where(and(eq(rooms.ownerId, user.id), eq(rooms.meetingId, meetingId)))
          .limit(1)
      : [];
  if (!room) throw new ApiError('invite_not_found');
  // A contact of the user is written to in their own language.
  const [contact] = await db
    .select({ lang: attendees.lang })
    .from(attendees)
    .where(and(eq(attendees.ownerId, user.id), sql`lower(${attendees.email}) = ${to}`))
    .limit(1);
  const locale = contact?.lang && isLocale(contact.lang) ? contact.lang : fallbackLocale;
  await enqueueMail(db, {
    to,
    locale,
    template: 'meetingInvite',
    data: {
      inviterName: `${user.firstName} ${user.lastName}`.trim(),
      roomName: room.name,
      link: meetingLink(room.meetingId),
      needsPassword: room.passwordHash !== null,
      // Where an SFU is configured a room not pinned to the mesh may use it: the mail says so (issue 48).
      viaSfu: sfuConfigured() && room.mediaRoute !== 'mesh',
    },
  });
  kickMailWorker();
  return {};
}
