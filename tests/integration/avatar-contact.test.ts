import { eq } from 'drizzle-orm';
import { closeDb, getDb } from '@/lib/db/client';
import { config } from '@/lib/environment';
import { contactRequests, mailOutbox, users } from '@/lib/db/schema';
import { POST as upload } from '@/app/api/avatar/route';
import { GET as download } from '@/app/api/avatar/[avatar]/route';
import { POST as contact } from '@/app/contact/route';
import { call, createUser, sessionCookies } from '../support/api';
import { fromIp } from '../support/accounts';

afterAll(() => closeDb());

// The smallest valid PNG: 1×1 transparent pixel.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

function multipart(file: Buffer, type = 'image/png', field = 'avatar') {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(file)], { type }), 'picture');
  return new Response(form);
}

async function uploadAs(cookie: string, file: Buffer, type?: string, field?: string) {
  const body = multipart(file, type, field);
  const bytes = Buffer.from(await body.arrayBuffer());
  return call(upload, {
    method: 'POST',
    body: new Uint8Array(bytes),
    headers: { 'content-type': body.headers.get('content-type')! },
    cookies: sessionCookies(cookie),
  });
}

describe('avatar upload: POST /api/avatar and GET /api/avatar/{avatar}', () => {
  it('stores a PNG and serves it back with its type', async () => {
    const { user, cookie } = await createUser();
    const answer = await uploadAs(cookie, PNG);
    expect(answer.json).toMatchObject({ status: 'ok', avatar: expect.stringMatching(/^[\w-]{22}$/) });
    const db = await getDb();
    const [saved] = await db.select({ avatar: users.avatar }).from(users).where(eq(users.id, user.id));
    expect(saved?.avatar).toBe(answer.json.avatar);
    const image = await download(new (await import('next/server')).NextRequest('http://localhost:3000/x'), {
      params: Promise.resolve({ avatar: String(answer.json.avatar) }),
    });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('a new upload replaces the old picture', async () => {
    const { cookie } = await createUser();
    const first = String((await uploadAs(cookie, PNG)).json.avatar);
    await uploadAs(cookie, PNG);
    const old = await call(download as never, { params: { avatar: first } });
    expect(old.status).toBe(404);
  });

  it.each([
    ['an SVG (could carry script)', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'image/svg+xml', 415],
    ['HTML declared as PNG', Buffer.from('<html><script>alert(1)</script></html>'), 'image/png', 415],
    ['more than 2 MiB', Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]), 'image/png', 413],
  ])('refuses %s', async (_name, file, type, status) => {
    const { user, cookie } = await createUser();
    const answer = await uploadAs(cookie, file, type);
    expect(answer.status).toBe(status);
    expect(answer.json.errorCode).toBe('incorrect_data');
    const db = await getDb();
    const [saved] = await db.select({ avatar: users.avatar }).from(users).where(eq(users.id, user.id));
    expect(saved?.avatar).toBeNull();
  });

  it('refuses a JSON body and a form without the avatar field', async () => {
    const { cookie } = await createUser();
    expect((await call(upload, { body: { avatar: 'x' }, cookies: sessionCookies(cookie) })).status).toBe(415);
    expect((await uploadAs(cookie, PNG, 'image/png', 'picture')).json.errorCode).toBe('missing_data');
  });

  it('needs a session', async () => {
    expect((await call(upload, { method: 'POST' })).status).toBe(401);
  });
});

describe('POST /contact (contact sales)', () => {
  // Issue 35: the form works only where the operator named a sales address (public-site.test.ts
  // covers a server without one).
  const env = config as unknown as { salesEmail?: string };
  beforeAll(() => {
    env.salesEmail = 'sales@example.test';
  });
  afterAll(() => {
    env.salesEmail = undefined;
  });

  it('keeps the request and mails it to sales', async () => {
    const email = `buyer.${Date.now()}@example.test`;
    const answer = await call(contact, { body: { name: 'Big Company', email, message: 'We need 200 rooms.' }, headers: fromIp() });
    expect(answer.json).toEqual({ status: 'ok' });
    const db = await getDb();
    expect(await db.select().from(contactRequests).where(eq(contactRequests.email, email))).toHaveLength(1);
    const mails = await db.select().from(mailOutbox).where(eq(mailOutbox.to, 'sales@example.test'));
    expect(mails.some((mail) => mail.text.includes('We need 200 rooms.') && mail.text.includes(email))).toBe(true);
  });

  it.each([
    [{ email: 'a@example.test', message: 'hi' }, 'missing_data'],
    [{ name: 'Bo Bo', email: 'nope', message: 'hi' }, 'format_email'],
    [{ name: 'Bo Bo', email: 'a@example.test', message: '' }, 'missing_data'],
    [{ name: 'Bo Bo', email: 'a@example.test', message: 'x'.repeat(5001) }, 'incorrect_data'],
  ])('%j → %s', async (body, code) => {
    expect((await call(contact, { body, headers: fromIp() })).json.errorCode).toBe(code);
  });

  it('is rate limited per address', async () => {
    const headers = fromIp('192.0.2.77');
    let last;
    for (let i = 0; i < 6; i++) last = await call(contact, { body: { name: 'Spam Bot', email: 'bot@example.test', message: 'buy' }, headers });
    expect(last!.status).toBe(429);
  });
});
