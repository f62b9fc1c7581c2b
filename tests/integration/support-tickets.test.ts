import { eq } from 'drizzle-orm';
import { closeDb, getDb } from '@/lib/db/client';
import { auditLog, mailOutbox, supportTickets, ticketAttachments } from '@/lib/db/schema';
import { GET as listTickets, POST as openTicket } from '@/app/api/tickets/route';
import { GET as getTicket } from '@/app/api/tickets/[id]/route';
import { POST as reply } from '@/app/api/tickets/[id]/reply/route';
import { POST as setStatus } from '@/app/api/tickets/[id]/status/route';
import { GET as attachment } from '@/app/api/tickets/[id]/attachments/[attachmentId]/route';
import { call, createUser, sessionCookies } from '../support/api';

beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000200', 'hex');

/** A multipart body as the open-ticket form sends it. */
async function multipart(fields: Record<string, string>, file?: { name: string; type: string; bytes: Uint8Array }) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  if (file) form.set('attachment', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { body: new Uint8Array(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

const valid = { subject: 'Camera not found', category: 'meetings', message: 'The lobby shows no camera.' };

async function open(cookie: string, fields: Record<string, string> = valid, file?: Parameters<typeof multipart>[1]) {
  return call(openTicket, { ...(await multipart(fields, file)), cookies: sessionCookies(cookie) });
}

describe('issue 18: opening a ticket (subject, category, message, optional attachment)', () => {
  it.each([
    { name: 'no subject', fields: { ...valid, subject: '' }, code: 'missing_data', field: 'subject', status: 400 },
    { name: 'a two-letter subject', fields: { ...valid, subject: 'Hi' }, code: 'incorrect_data', field: 'subject', status: 400 },
    { name: 'a subject of 151 characters', fields: { ...valid, subject: 'x'.repeat(151) }, code: 'incorrect_data', field: 'subject', status: 400 },
    { name: 'an unknown category', fields: { ...valid, category: 'sales' }, code: 'incorrect_data', field: 'category', status: 400 },
    { name: 'no category', fields: { subject: valid.subject, message: valid.message }, code: 'missing_data', field: 'category', status: 400 },
    { name: 'an empty message', fields: { ...valid, message: '   ' }, code: 'missing_data', field: 'message', status: 400 },
    { name: 'a message of 5001 characters', fields: { ...valid, message: 'y'.repeat(5001) }, code: 'incorrect_data', field: 'message', status: 400 },
  ])('$name answers $code on $field', async ({ fields, code, field, status }) => {
    const { cookie } = await createUser();
    const answer = await open(cookie, fields);
    expect([answer.status, answer.json.errorCode, answer.json.field]).toEqual([status, code, field]);
  });

  it.each([
    { name: 'an SVG (it can carry script)', file: { name: 'x.svg', type: 'image/svg+xml', bytes: Buffer.from('<svg onload="alert(1)"/>') }, status: 415 },
    { name: 'an HTML page named .png', file: { name: 'x.png', type: 'image/png', bytes: Buffer.from('<html><script>1</script>') }, status: 415 },
    { name: 'a binary named .log', file: { name: 'crash.log', type: 'text/plain', bytes: Buffer.from([0, 1, 2, 3, 0xff]) }, status: 415 },
    { name: 'a file over 2 MiB', file: { name: 'big.log', type: 'text/plain', bytes: Buffer.alloc(2 * 1024 * 1024 + 1, 0x61) }, status: 413 },
  ])('refuses $name as an attachment ($status)', async ({ file, status }) => {
    const { cookie } = await createUser();
    const answer = await open(cookie, valid, file);
    expect([answer.status, answer.json.errorCode]).toEqual([status, 'incorrect_data']);
  });

  it('refuses a login-less request (401) and keeps no ticket', async () => {
    const answer = await call(openTicket, await multipart(valid));
    expect([answer.status, answer.json.errorCode]).toEqual([401, 'authentication_error']);
  });

  it('opens a ticket with a PNG; the list shows subject, category, status and last reply; search filters it', async () => {
    const { cookie } = await createUser();
    const answer = await open(cookie, valid, { name: 'screen.png', type: 'image/png', bytes: PNG });
    expect(answer.status).toBe(200);
    const id = answer.json.id as string;
    await open(cookie, { subject: 'Invoice question', category: 'billing', message: 'Which VAT rate?' });

    const list = await call(listTickets, { cookies: sessionCookies(cookie) });
    expect(list.status).toBe(200);
    expect(list.json).toHaveLength(2);
    const mine = (list.json as unknown as Array<Record<string, unknown>>).find((t) => t.id === id)!;
    expect(mine).toMatchObject({ subject: 'Camera not found', category: 'meetings', status: 'open', lastReply: { byStaff: false } });

    const searched = await call(listTickets, { path: '/api/tickets?q=invoice', cookies: sessionCookies(cookie) });
    expect((searched.json as unknown as Array<{ subject: string }>).map((t) => t.subject)).toEqual(['Invoice question']);

    const detail = await call(getTicket, { params: { id }, cookies: sessionCookies(cookie) });
    expect(detail.json).toMatchObject({ isOwner: true, messages: [{ body: 'The lobby shows no camera.', byStaff: false }] });
    const file = (detail.json.messages as Array<{ attachments: Array<{ id: string; fileName: string }> }>)[0]!.attachments[0]!;
    expect(file.fileName).toBe('screen.png');

    const download = await call(attachment, { params: { id, attachmentId: file.id }, cookies: sessionCookies(cookie) });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="screen.png"/);
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('accepts a .log file as text and a JSON body without a file', async () => {
    const { cookie } = await createUser();
    const withLog = await open(cookie, valid, { name: '../../etc/app.log', type: 'application/octet-stream', bytes: Buffer.from('line 1\nline 2\n') });
    expect(withLog.status).toBe(200);
    const detail = await call(getTicket, { params: { id: withLog.json.id as string }, cookies: sessionCookies(cookie) });
    const file = (detail.json.messages as Array<{ attachments: Array<{ fileName: string; contentType: string }> }>)[0]!.attachments[0]!;
    expect(file).toMatchObject({ fileName: 'app.log', contentType: 'text/plain; charset=utf-8' });
    const json = await call(openTicket, { body: valid, cookies: sessionCookies(cookie) });
    expect(json.status).toBe(200);
  });
});

describe('issue 32, item 8: an attachment is kept and served under the name of its checked type, sandboxed', () => {
  const POLYGLOT = Buffer.concat([PNG, Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>')]);

  async function uploaded(cookie: string, name: string, bytes: Buffer = POLYGLOT, type = 'text/html') {
    const opened = await open(cookie, valid, { name, type, bytes });
    expect(opened.status).toBe(200);
    const id = opened.json.id as string;
    const detail = await call(getTicket, { params: { id }, cookies: sessionCookies(cookie) });
    const file = (detail.json.messages as Array<{ attachments: Array<{ id: string; fileName: string }> }>)[0]!.attachments[0]!;
    const download = await call(attachment, { params: { id, attachmentId: file.id }, cookies: sessionCookies(cookie) });
    return { id, file, download };
  }

  it('a PNG that is also an HTML page, uploaded as poly.html, is kept and downloaded as poly.png, with sandbox and nosniff', async () => {
    const { cookie } = await createUser();
    const { file, download } = await uploaded(cookie, 'poly.html');
    expect(file.fileName).toBe('poly.png');
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="poly.png"; filename*=UTF-8''poly.png`);
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(download.headers.get('content-security-policy')).toMatch(/(^|; )sandbox($|;)/);
    expect(download.headers.get('content-security-policy')).toContain("default-src 'none'");
    const db = await getDb();
    const [row] = await db.select().from(ticketAttachments).where(eq(ticketAttachments.id, file.id));
    expect(row!.fileName).toBe('poly.png');
  });

  it.each([
    ['screenshot', 'screenshot.png'],
    ['photo.PNG', 'photo.PNG'],
    ['x.svg', 'x.png'],
    ['report.html.', 'report.png'],
    ['.htaccess', 'attachment.png'],
  ])('an image named %s is kept as %s', async (name, kept) => {
    const { cookie } = await createUser();
    const { file, download } = await uploaded(cookie, name, PNG, 'image/png');
    expect(file.fileName).toBe(kept);
    expect(download.headers.get('content-disposition')).toContain(`filename="${kept}"`);
  });

  it('a file stored under a wrong name before this check is downloaded under the right one', async () => {
    const { cookie } = await createUser();
    const { id, file } = await uploaded(cookie, 'old.png');
    const db = await getDb();
    await db.update(ticketAttachments).set({ fileName: 'old.html' }).where(eq(ticketAttachments.id, file.id));
    const download = await call(attachment, { params: { id, attachmentId: file.id }, cookies: sessionCookies(cookie) });
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="old.png"; filename*=UTF-8''old.png`);
  });

  it('the header names a file safely: an ASCII fallback without % or ;, the exact name in filename* (RFC 8187)', async () => {
    const { cookie } = await createUser();
    const { download } = await uploaded(cookie, "Grüße 100% '(x)*;.log", Buffer.from('line\n'), 'text/plain');
    expect(download.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="Gr__e 100_ '(x)*_.log"; filename*=UTF-8''Gr%C3%BC%C3%9Fe%20100%25%20%27%28x%29%2A%3B.log`,
    );
  });
});

describe('issue 18: a user sees only their own tickets', () => {
  it("another user's ticket id answers ticket_not_found everywhere, and changes nothing", async () => {
    const alice = await createUser();
    const bob = await createUser();
    const opened = await open(alice.cookie, valid, { name: 'a.png', type: 'image/png', bytes: PNG });
    const id = opened.json.id as string;
    const detail = await call(getTicket, { params: { id }, cookies: sessionCookies(alice.cookie) });
    const fileId = (detail.json.messages as Array<{ attachments: Array<{ id: string }> }>)[0]!.attachments[0]!.id;

    const asBob = sessionCookies(bob.cookie);
    const answers = [
      await call(getTicket, { params: { id }, cookies: asBob }),
      await call(reply, { params: { id }, body: { message: 'hello' }, cookies: asBob }),
      await call(setStatus, { params: { id }, body: { status: 'closed' }, cookies: asBob }),
      await call(attachment, { params: { id, attachmentId: fileId }, cookies: asBob }),
      await call(getTicket, { params: { id: 'not-a-uuid' }, cookies: asBob }),
    ];
    for (const answer of answers) expect([answer.status, answer.json.errorCode]).toEqual([404, 'ticket_not_found']);
    expect((await call(listTickets, { cookies: asBob })).json).toEqual([]);
    const db = await getDb();
    const [row] = await db.select().from(supportTickets).where(eq(supportTickets.id, id));
    expect(row!.status).toBe('open');
  });
});

describe('issue 18: replies and status rules', () => {
  it('the owner closes and reopens; cannot mark it answered; a reply on an answered ticket reopens it', async () => {
    const { cookie } = await createUser();
    const id = (await open(cookie)).json.id as string;
    const cookies = sessionCookies(cookie);
    expect((await call(setStatus, { params: { id }, body: { status: 'closed' }, cookies })).json).toMatchObject({ status: 'ok', ticketStatus: 'closed' });
    expect((await call(getTicket, { params: { id }, cookies })).json.status).toBe('closed');
    expect((await call(setStatus, { params: { id }, body: { status: 'open' }, cookies })).json.status).toBe('ok');
    const answered = await call(setStatus, { params: { id }, body: { status: 'answered' }, cookies });
    expect([answered.status, answered.json.errorCode, answered.json.field]).toEqual([400, 'incorrect_data', 'status']);
    const bad = await call(setStatus, { params: { id }, body: { status: 'gone' }, cookies });
    expect([bad.status, bad.json.errorCode]).toEqual([400, 'incorrect_data']);
    const empty = await call(reply, { params: { id }, body: { message: '' }, cookies });
    expect([empty.status, empty.json.errorCode]).toEqual([400, 'missing_data']);
  });

  it('a staff reply marks the ticket answered, mails the owner in their language, and is audited', async () => {
    const owner = await createUser({ lang: 'de', firstName: 'Greta' });
    const admin = await createUser({ role: 'admin' });
    const id = (await open(owner.cookie)).json.id as string;

    // The admin sees it in full, as staff.
    const seen = await call(getTicket, { params: { id }, cookies: sessionCookies(admin.cookie) });
    expect(seen.json).toMatchObject({ isOwner: false, owner: { email: owner.user.email } });

    const answer = await call(reply, { params: { id }, body: { message: 'Please allow the camera in the browser.' }, cookies: sessionCookies(admin.cookie) });
    expect(answer.json).toMatchObject({ status: 'ok' });
    const detail = await call(getTicket, { params: { id }, cookies: sessionCookies(owner.cookie) });
    expect(detail.json.status).toBe('answered');
    expect((detail.json.messages as Array<{ byStaff: boolean }>).map((m) => m.byStaff)).toEqual([false, true]);
    expect(detail.json.lastReply).toMatchObject({ byStaff: true });

    const db = await getDb();
    const mails = await db.select().from(mailOutbox).where(eq(mailOutbox.to, owner.user.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('AW: Camera not found');
    expect(mails[0]!.text).toContain('Hallo Greta');
    expect(mails[0]!.text).toContain('Please allow the camera in the browser.');
    expect(mails[0]!.text).toContain(`/view-ticket/${id}`);

    const audit = await db.select().from(auditLog).where(eq(auditLog.actorId, admin.user.id));
    expect(audit.map((entry) => entry.action)).toEqual(['ticket_reply']);

    // The owner writing again reopens it; the owner's own reply mails nobody.
    await call(reply, { params: { id }, body: { message: 'It works now, thanks.' }, cookies: sessionCookies(owner.cookie) });
    expect((await call(getTicket, { params: { id }, cookies: sessionCookies(owner.cookie) })).json.status).toBe('open');
    expect(await db.select().from(mailOutbox).where(eq(mailOutbox.to, owner.user.email))).toHaveLength(1);

    // Staff may set any status, audited.
    await call(setStatus, { params: { id }, body: { status: 'closed' }, cookies: sessionCookies(admin.cookie) });
    const entries = await db.select().from(auditLog).where(eq(auditLog.actorId, admin.user.id));
    expect(entries.map((entry) => entry.action).sort()).toEqual(['ticket_reply', 'ticket_status']);
  });

  it('opening tickets is rate-limited per user (too_many_attempts after 10 an hour)', async () => {
    const { cookie } = await createUser();
    for (let i = 0; i < 10; i += 1) expect((await call(openTicket, { body: valid, cookies: sessionCookies(cookie) })).status).toBe(200);
    const refused = await call(openTicket, { body: valid, cookies: sessionCookies(cookie) });
    expect([refused.status, refused.json.errorCode]).toEqual([429, 'too_many_attempts']);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
