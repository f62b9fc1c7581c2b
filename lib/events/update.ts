import 'server-only';
import { and, eq, gte, sql } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import { getDb, type Transaction } from '@/lib/db/client';
import { lockOwner } from '@/lib/db/owner-lock';
import { eventExceptions, eventNotifications, events, type Event, type EventException, type User } from '@/lib/db/schema';
import { kickMailWorker } from '@/lib/mail';
import { findOwnEvent } from './find';
import { parseEventId } from '@/lib/event-rules/ids';
import { seriesOf } from '@/lib/recurrence/series';
import { findOccurrence } from './find-occurrence';
import { eventComponents, mailAttendees, occurrenceComponents } from './mail';
import { remapExceptions, ruleEndingBefore, ruleOfFollowingPart } from '@/lib/recurrence/split';
import type { Occurrence } from '@/lib/recurrence/exceptions';
import { loadParticipants, resolveParticipants, writeParticipants, type Participant } from './participants';
import { planReminders } from './reminders';
import { eventValues } from './event-values';
import { writeNotifications } from './notifications';
import { durationMinutes } from '@/lib/event-rules/limits';
import type { EventUpdate } from './schemas';
import { shiftWallClock, wallClockDelta } from '@/lib/time/floating';
import { seriesEnd } from '@/lib/recurrence/expand';
import { eventDetails, type EventDetails } from './details';

type Result = { event: Event; password?: string };
const unix = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * POST /api/event/update (SPEC points 4 and 7). A single meeting or a whole series (its id, or
 * allEvents) changes in place; one occurrence with repeatUpdate 0 becomes an exception
 * (RECURRENCE-ID); with repeatUpdate 1 the series is split: the first part ends before that
 * occurrence, a new series (same repeat uid) starts there, and occurrences edited on their own
 * keep their edits. Attendees get the update, new ones the invitation, removed ones the
 * cancellation; reminders are planned again — all in the transaction of the change.
 */
export async function updateEvent(user: User, input: EventUpdate): Promise<{ event: EventDetails; password?: string }> {
  const parsed = parseEventId(input.id);
  if (!parsed) throw new ApiError('event_not_found');
  const now = new Date();
  const db = await getDb();
  const result = await db.transaction(async (tx): Promise<Result> => {
    const owner = await lockOwner(tx, user.id);
    const event = await findOwnEvent(tx, owner.id, parsed.eventId, { lock: true });
    const occurrence = parsed.occurrence ? await findOccurrence(tx, event, parsed.occurrence) : null;
    if (parsed.occurrence && !occurrence) throw new ApiError('event_not_found');
    if (!occurrence || input.allEvents) return updateWhole(tx, owner, event, occurrence, input, now);
    if (input.repeatUpdate === 1) {
      if (occurrence.originalStart.getTime() === event.startsAt.getTime()) return updateWhole(tx, owner, event, occurrence, input, now);
      return splitFollowing(tx, owner, event, occurrence, input, now);
    }
    return updateOne(tx, event, occurrence, input, now);
  });
  kickMailWorker();
  return { event: await eventDetails(db, result.event, now), ...(result.password ? { password: result.password } : {}) };
}

/** Sends the update to those who stay, the invitation to those added, the cancellation to those removed. */
async function mailChange(tx: Transaction, after: Event, old: Participant[], now: Date) {
  const current = await loadParticipants(tx, after.id);
  const had = new Set(old.map((p) => p.email.toLowerCase()));
  const has = new Set(current.map((p) => p.email.toLowerCase()));
  const stayed = current.filter((p) => had.has(p.email.toLowerCase()));
  const added = current.filter((p) => !had.has(p.email.toLowerCase()));
  const removed = old.filter((p) => !has.has(p.email.toLowerCase()));
  const components = await eventComponents(tx, after, current);
  await mailAttendees(tx, 'eventUpdate', after, stayed, components, { now });
  await mailAttendees(tx, 'eventInvitation', after, added, components, { now });
  if (removed.length) {
    await mailAttendees(tx, 'eventCancellation', after, removed, await eventComponents(tx, after, old), { now });
  }
}

async function updateWhole(tx: Transaction, owner: User, event: Event, occurrence: Occurrence | null, input: EventUpdate, now: Date): Promise<Result> {
  const wanted = new Date(input.from * 1000);
  let from = input.from;
  let checkPast = true;
  if (occurrence) {
    // allEvents from one occurrence: the series moves as that occurrence moved, on the wall clock.
    if (wanted < now && wanted.getTime() !== occurrence.start.getTime()) throw new ApiError('error_is_past_event', { field: 'from' });
    const delta = wallClockDelta(occurrence.originalStart, event.timezone, wanted, input.timezone);
    from = unix(shiftWallClock(event.startsAt, event.timezone, delta, input.timezone));
    checkPast = false;
  } else if (event.rrule && input.from === unix(event.startsAt)) {
    checkPast = false; // a series that has begun keeps its start
  }
  const { values, generatedPassword } = await eventValues(tx, owner, { ...input, from }, { now, previous: event, checkPast });
  const old = await loadParticipants(tx, event.id);
  const { participants, groupIds } = await resolveParticipants(tx, owner, input);
  const [updated] = await tx
    .update(events)
    .set({ ...values, sequence: event.sequence + 1, updatedAt: sql`now()` })
    .where(eq(events.id, event.id))
    .returning();
  await remapAll(tx, event, updated!, await tx.select().from(eventExceptions).where(eq(eventExceptions.eventId, event.id)));
  await writeParticipants(tx, event.id, participants, groupIds);
  await writeNotifications(tx, event.id, input.notifications);
  await planReminders(tx, updated!, { now });
  await mailChange(tx, updated!, old, now);
  return { event: updated!, password: generatedPassword };
}

/** Moves the exceptions along with a changed series; those it no longer has are dropped or detached. */
async function remapAll(tx: Transaction, before: Event, after: Event, exceptions: EventException[]) {
  if (!exceptions.length) return;
  if (!after.rrule) {
    await tx.delete(eventExceptions).where(eq(eventExceptions.eventId, before.id));
    return;
  }
  const { keep, detach, drop } = remapExceptions(seriesOf(before), seriesOf(after), exceptions);
  for (const e of [...drop, ...detach]) await tx.delete(eventExceptions).where(eq(eventExceptions.id, e.id));
  for (const { exception, originalStart } of keep) {
    if (exception.eventId !== after.id || exception.originalStart.getTime() !== originalStart.getTime()) {
      await tx.update(eventExceptions).set({ eventId: after.id, originalStart }).where(eq(eventExceptions.id, exception.id));
    }
  }
  for (const e of detach) await detachException(tx, before, e);
}

/** An occurrence edited on its own that the changed rule no longer has becomes a meeting of its own. */
async function detachException(tx: Transaction, series: Event, e: EventException) {
  const start = e.startsAt ?? e.originalStart;
  const minutes = e.durationMinutes ?? series.durationMinutes;
  const [single] = await tx
    .insert(events)
    .values({
      ownerId: series.ownerId,
      roomId: series.roomId,
      title: e.title ?? series.title,
      description: e.description ?? series.description,
      startsAt: start,
      durationMinutes: minutes,
      timezone: series.timezone,
      repeat: series.repeat,
      repeatType: 'none',
      showAttendees: series.showAttendees,
      passwordMode: series.passwordMode,
      link: series.link,
      endsAt: new Date(start.getTime() + minutes * 60_000),
    })
    .returning();
  const people = await loadParticipants(tx, series.id);
  await writeParticipants(tx, single!.id, people, []);
  const notifications = await tx.select().from(eventNotifications).where(eq(eventNotifications.eventId, series.id));
  await writeNotifications(tx, single!.id, notifications);
  await planReminders(tx, single!);
}

async function updateOne(tx: Transaction, event: Event, occurrence: Occurrence, input: EventUpdate, now: Date): Promise<Result> {
  const start = new Date(input.from * 1000);
  if (start < now) throw new ApiError('error_is_past_event', { field: 'from' });
  const change = {
    startsAt: start,
    durationMinutes: durationMinutes(input.duration),
    title: input.title,
    description: input.description || null,
    cancelled: false,
  };
  await tx
    .insert(eventExceptions)
    .values({ eventId: event.id, originalStart: occurrence.originalStart, ...change })
    .onConflictDoUpdate({ target: [eventExceptions.eventId, eventExceptions.originalStart], set: change });
  const [updated] = await tx
    .update(events)
    .set({ sequence: event.sequence + 1, updatedAt: sql`now()` })
    .where(eq(events.id, event.id))
    .returning();
  await planReminders(tx, updated!, { now });
  const people = await loadParticipants(tx, event.id);
  const changed = { ...occurrence, start, end: new Date(start.getTime() + change.durationMinutes * 60_000) };
  const [exception] = await tx
    .select()
    .from(eventExceptions)
    .where(and(eq(eventExceptions.eventId, event.id), eq(eventExceptions.originalStart, occurrence.originalStart)));
  await mailAttendees(tx, 'eventUpdate', updated!, people, await occurrenceComponents(tx, updated!, { ...changed, exception: exception ?? null }, people), {
    now,
  });
  return { event: updated! };
}

async function splitFollowing(tx: Transaction, owner: User, event: Event, occurrence: Occurrence, input: EventUpdate, now: Date): Promise<Result> {
  const at = occurrence.originalStart;
  const oldSeries = seriesOf(event);
  const { values, generatedPassword } = await eventValues(tx, owner, input, { now, previous: event });
  const rrule = ruleOfFollowingPart(oldSeries, values.rrule, at);
  const following = { ...values, rrule, endsAt: seriesEnd({ ...seriesOf(values), rrule }) };

  const firstRule = ruleEndingBefore(event.rrule!, at);
  const old = await loadParticipants(tx, event.id);
  const [first] = await tx
    .update(events)
    .set({ rrule: firstRule, endsAt: seriesEnd({ ...oldSeries, rrule: firstRule }), sequence: event.sequence + 1, updatedAt: sql`now()` })
    .where(eq(events.id, event.id))
    .returning();
  const [next] = await tx
    .insert(events)
    .values({ ownerId: owner.id, repeat: event.repeat, ...following })
    .returning();

  const later = await tx
    .select()
    .from(eventExceptions)
    .where(and(eq(eventExceptions.eventId, event.id), gte(eventExceptions.originalStart, at)));
  await remapAll(tx, { ...event, startsAt: at }, next!, later);

  const { participants, groupIds } = await resolveParticipants(tx, owner, input);
  await writeParticipants(tx, next!.id, participants, groupIds);
  await writeNotifications(tx, next!.id, input.notifications);
  await planReminders(tx, first!, { now });
  await planReminders(tx, next!, { now });
  await mailAttendees(tx, 'eventUpdate', first!, old, await eventComponents(tx, first!, old), { now });
  await mailAttendees(tx, 'eventInvitation', next!, participants, await eventComponents(tx, next!, participants), { now });
  return { event: next!, password: generatedPassword };
}
