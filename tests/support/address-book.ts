// Calls to the rooms, contacts and groups endpoints as one logged-in user.
import { POST as addContact } from '@/app/api/attendee/route';
import { call, createUser, sessionCookies, type Answer } from './api';

type Handler = Parameters<typeof call>[0];

/** A user and the calls their session makes. */
export async function owner(overrides: Parameters<typeof createUser>[0] = {}) {
  const { user, cookie } = await createUser(overrides);
  const cookies = sessionCookies(cookie);
  return {
    user,
    cookie,
    get: (handler: unknown, params?: Record<string, string>) => call(handler as Handler, { cookies, params }),
    post: (handler: unknown, body: unknown) => call(handler as Handler, { method: 'POST', body, cookies }),
    remove: (handler: unknown, id: string) => call(handler as Handler, { method: 'DELETE', cookies, params: { id } }),
  };
}
export type Owner = Awaited<ReturnType<typeof owner>>;

let counter = 0;

/** A valid POST /api/attendee body with a fresh address. */
export function contactBody(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return { name: `Contact ${counter}`, email: `contact${counter}.${Date.now()}@example.test`, ...overrides };
}

/** Adds `count` contacts and answers their ids. */
export async function addContacts(as: Owner, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const answer: Answer = await as.post(addContact, contactBody());
    if (answer.status !== 200) throw new Error(`contact not created: ${answer.text}`);
    ids.push((answer.json.attendee as { id: string }).id);
  }
  return ids;
}
