// Issue 48, point 5: the support page promises answers by e-mail, so a ticket opened mails every
// active admin (through the outbox, in each admin's language), never the one who opened it.
import { and, eq, like } from 'drizzle-orm';
import { closeDb, getDb } from '@/lib/db/client';
import { mailOutbox } from '@/lib/db/schema';
import { POST as openTicket } from '@/app/api/tickets/route';
import { call, createUser, sessionCookies } from '../support/api';

beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

/** A multipart body as the open-ticket form sends it. */
async function form(fields: Record<string, string>) {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.set(key, value);
  const request = new Request('http://localhost/', { method: 'POST', body });
  return {
    body: new Uint8Array(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}

const valid = {
  subject: 'Echo in every call',
  category: 'meetings',
  message: 'Everyone hears themselves twice.',
};

async function mailsTo(email: string) {
  const db = await getDb();
  return db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, email), like(mailOutbox.subject, '%Echo in every call%')));
}

describe('a new support ticket', () => {
  it('mails each active admin in their language, with the message and a link to the ticket; not a disabled admin, not the opener', async () => {
    const english = await createUser({ role: 'admin', lang: 'en' });
    const german = await createUser({ role: 'admin', lang: 'de' });
    const disabled = await createUser({ role: 'admin', state: 'disabled' });
    const plain = await createUser({ role: 'user' });
    const opener = await createUser({ firstName: 'Pat', lastName: 'Plain' });

    const answer = await call(openTicket, {
      ...(await form(valid)),
      cookies: sessionCookies(opener.cookie),
    });
    expect(answer.status).toBe(200);
    const id = answer.json.id;
    expect(typeof id).toBe('string');

    const [toEnglish] = await mailsTo(english.user.email);
    expect(toEnglish?.subject).toBe('New support ticket: Echo in every call');
    expect(toEnglish?.text).toContain(`Pat Plain <${opener.user.email}> opened the ticket “Echo in every call”:`);
    expect(toEnglish?.text).toContain('> Everyone hears themselves twice.');
    expect(toEnglish?.text).toContain(`http://localhost:3000/view-ticket/${id}`);
    const [toGerman] = await mailsTo(german.user.email);
    expect(toGerman?.subject).toBe('Neues Support-Ticket: Echo in every call');
    for (const nobody of [disabled, plain, opener]) expect(await mailsTo(nobody.user.email)).toEqual([]);
  });

  it("an admin's own ticket goes to the other admins only", async () => {
    const author = await createUser({ role: 'admin' });
    const other = await createUser({ role: 'admin' });
    const answer = await call(openTicket, {
      ...(await form(valid)),
      cookies: sessionCookies(author.cookie),
    });
    expect(answer.status).toBe(200);
    expect(await mailsTo(author.user.email)).toEqual([]);
    expect(await mailsTo(other.user.email)).toHaveLength(1);
  });
});
