// Helpers for the meeting's integration tests: rooms straight in the database, joins through
// the real handler, and event streams read from the handler's Response as a browser would.
import { PEER_HEADER } from '@/lib/security/client-address';
import { randomBytes } from 'node:crypto';
import { NextRequest } from 'next/server';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { rooms, type User } from '@/lib/db/schema';
import type { JoinAnswer, ServerEvent } from '@/lib/meeting/protocol';
import { roomPasswordSecrets, stretchRoomPassword } from '@/lib/meeting/room-password';
import { NO_PASSWORD, roomPasswordColumns } from '@/lib/rooms/password';
import { parseEventStream } from '@/lib/meeting/client/signaling/event-stream';
import { POST as joinRoute } from '@/app/api/meeting/[id]/join/route';
import { GET as signalStream, POST as signalPost } from '@/app/api/meeting/[id]/signal/route';
import { call, ORIGIN, sessionCookies, type Answer } from './api';

export async function makeRoom(owner: User, options: { password?: string; askToJoin?: boolean } = {}) {
  const db = await getDb();
  const meetingId = randomBytes(12).toString('base64url');
  await db.insert(rooms).values({
    ownerId: owner.id,
    name: `Room ${meetingId.slice(0, 6)}`,
    meetingId,
    ...((await roomPasswordColumns({ password: options.password })) ?? NO_PASSWORD),
    askToJoin: options.askToJoin ?? false,
  });
  return meetingId;
}

let ipCounter = 0;
/** A fresh client address, so per-IP limits of one test do not spill into another. */
export const freshIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

export function join(meetingId: string, body: Record<string, unknown>, options: { cookie?: string; ip?: string } = {}): Promise<Answer> {
  return call(joinRoute as never, {
    body,
    params: { id: meetingId },
    headers: { [PEER_HEADER]: options.ip ?? freshIp() },
    cookies: options.cookie ? sessionCookies(options.cookie) : undefined,
  });
}

/** What the lobby sends for a typed password: the proof made with the room's salt, as a browser does. */
export async function proofFor(meetingId: string, password: string): Promise<string> {
  const db = await getDb();
  const [room] = await db.select({ salt: rooms.passwordSalt }).from(rooms).where(eq(rooms.meetingId, meetingId));
  if (!room?.salt) throw new Error('the room has no password');
  return (await roomPasswordSecrets(await stretchRoomPassword(password, room.salt))).proof;
}

/** A proof that is well formed but made from no password: a wrong guess, without the stretching. */
export const wrongProof = () => randomBytes(32).toString('base64url');

export async function joined(meetingId: string, name: string, options: { cookie?: string; password?: string; keyRequest?: string } = {}): Promise<JoinAnswer> {
  const passwordProof = options.password ? await proofFor(meetingId, options.password) : undefined;
  const answer = await join(meetingId, { name, passwordProof, keyRequest: options.keyRequest }, options);
  if (answer.status !== 200) throw new Error(`join failed: ${answer.text}`);
  return answer.json as unknown as JoinAnswer;
}

export function send(meetingId: string, token: string | null, body: unknown): Promise<Answer> {
  return call(signalPost as never, {
    body,
    params: { id: meetingId },
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

export interface Stream {
  status: number;
  /** The next event that matches, or a failure after `timeout` ms. */
  next: (type: ServerEvent['type'], timeout?: number) => Promise<ServerEvent & { id: string | null }>;
  /** Events received so far that nobody asked for yet. */
  pending: () => (ServerEvent & { id: string | null })[];
  close: () => void;
}

/** Opens GET /signal and reads it in the background. */
export async function openStream(meetingId: string, token: string | null, lastEventId?: string): Promise<Stream> {
  const abort = new AbortController();
  const headers = new Headers({ host: 'localhost:3000' });
  if (token) headers.set('authorization', `Bearer ${token}`);
  if (lastEventId) headers.set('last-event-id', lastEventId);
  const request = new NextRequest(new URL(`/api/meeting/${meetingId}/signal`, ORIGIN), { headers, signal: abort.signal });
  const response = await signalStream(request, { params: Promise.resolve({ id: meetingId }) } as never);
  return readStream(response, abort);
}

/**
 * POST /join asking for the event stream, as the lobby does (signaling.ts postJoin): the
 * response's content type, and its events (`joined` first) — or, for a refusal, its JSON.
 */
export async function joinStreaming(
  meetingId: string,
  body: Record<string, unknown>,
): Promise<{ status: number; type: string | null; stream: Stream; json: Answer['json'] }> {
  const abort = new AbortController();
  const headers = new Headers({
    host: 'localhost:3000',
    origin: ORIGIN,
    'content-type': 'application/json',
    accept: 'text/event-stream, application/json',
    [PEER_HEADER]: freshIp(),
  });
  const request = new NextRequest(new URL(`/api/meeting/${meetingId}/join`, ORIGIN), {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    signal: abort.signal,
  });
  const response = await joinRoute(request, { params: Promise.resolve({ id: meetingId }) } as never);
  const type = response.headers.get('content-type');
  const json = type?.startsWith('application/json') ? ((await response.json()) as Answer['json']) : {};
  return { status: response.status, type, json, stream: await readStream(response, abort) };
}

/** Reads an event stream in the background (nothing, if the response is not one). */
async function readStream(response: Response, abort: AbortController): Promise<Stream> {
  const queue: (ServerEvent & { id: string | null })[] = [];
  const waiters: (() => void)[] = [];
  if (response.ok && response.body && !response.bodyUsed && response.headers.get('content-type')?.startsWith('text/event-stream')) {
    void (async () => {
      try {
        for await (const message of parseEventStream(response.body!)) {
          // The event's name as its type: `joined` (the join's answer) has no type of its own.
          const event = JSON.parse(message.data) as Partial<ServerEvent>;
          queue.push({ ...event, type: event.type ?? message.event, id: message.id } as ServerEvent & { id: string | null });
          waiters.splice(0).forEach((wake) => wake());
        }
      } catch {
        // aborted
      }
    })();
  }
  return {
    status: response.status,
    pending: () => [...queue],
    close: () => abort.abort(),
    next: async (type, timeout = 5000) => {
      const deadline = Date.now() + timeout;
      for (;;) {
        const index = queue.findIndex((event) => event.type === type);
        if (index >= 0) return queue.splice(index, 1)[0]!;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no "${type}" event within ${timeout} ms; got ${JSON.stringify(queue.map((e) => e.type))}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
  };
}
