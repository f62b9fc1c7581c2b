import { NextRequest } from 'next/server';
import { getDb } from '@/lib/db/client';
import { SESSION_COOKIE, sealSession } from '@/lib/auth/session-cookie';
import type { User } from '@/lib/db/schema';
import { insertUser } from '@/lib/users/create';

export const ORIGIN = 'http://localhost:3000';

type Handler = (request: NextRequest, context: { params: Promise<never> }) => Promise<Response>;

interface CallOptions {
  method?: string;
  path?: string;
  /** A value sent as JSON, or a string or bytes sent as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
  params?: Record<string, string>;
  /** The Origin header; null sends none. Defaults to the app's own origin. */
  origin?: string | null;
}

export interface Answer {
  status: number;
  json: Record<string, unknown> & { status?: string; errorCode?: string; message?: string };
  headers: Headers;
  text: string;
}

/** Calls a route handler the way Next.js does, with a real Request. */
export async function call(handler: Handler, options: CallOptions = {}): Promise<Answer> {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  const headers = new Headers({ host: 'localhost:3000', ...options.headers });
  if (options.origin !== null && method !== 'GET') headers.set('origin', options.origin ?? ORIGIN);
  if (options.body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
  const cookies = Object.entries(options.cookies ?? {});
  if (cookies.length) headers.set('cookie', cookies.map(([k, v]) => `${k}=${v}`).join('; '));
  const raw = options.body;
  const body = raw === undefined ? undefined : typeof raw === 'string' || raw instanceof Uint8Array ? raw : JSON.stringify(raw);
  const request = new NextRequest(new URL(options.path ?? '/api/test', ORIGIN), { method, headers, body: body as BodyInit });
  const response = await handler(request, { params: Promise.resolve((options.params ?? {}) as never) });
  const text = await response.text();
  let json: Answer['json'] = {};
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: leave json empty, the test reads text
  }
  return { status: response.status, json, headers: response.headers, text };
}

let counter = 0;

/** An active user straight in the database, and a session cookie for them. */
export async function createUser(overrides: Partial<User> = {}): Promise<{ user: User; cookie: string }> {
  const db = await getDb();
  counter += 1;
  const user = await insertUser(db, {
    email: `user${counter}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`,
    firstName: 'Test',
    lastName: 'User',
    passwordHash: 'not-a-real-hash',
    state: 'active',
    // An active account proved its address, as the activation link does (lib/auth/accounts.ts).
    verifiedAt: (overrides.state ?? 'active') === 'active' ? new Date() : null,
    ...overrides,
  });
  const cookie = await sealSession({ userId: user.id, version: user.sessionVersion, role: user.role });
  return { user, cookie };
}

export const sessionCookies = (cookie: string) => ({ [SESSION_COOKIE]: cookie });

/** The value a Set-Cookie header of an answer gives `name` ('' when it clears it). */
export function cookieFrom(answer: Answer, name: string): string | undefined {
  const header = answer.headers.getSetCookie?.() ?? [answer.headers.get('set-cookie') ?? ''];
  for (const line of header) {
    const match = new RegExp(`(?:^|, )${name}=([^;]*)`).exec(line);
    if (match) return match[1];
  }
  return undefined;
}
