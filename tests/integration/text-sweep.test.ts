// Billing on (against the Stripe stand-in), so that the billing handlers read their bodies too.
import '../support/billing-env';
import { eq, sql } from 'drizzle-orm';
import { config } from '@/lib/environment';
import { closeDb, getDb } from '@/lib/db/client';
import { configuration } from '@/lib/db/schema';
import { POST as addRoom } from '@/app/api/room/route';
import { POST as addGroup } from '@/app/api/groups/route';
import { POST as openTicket } from '@/app/api/tickets/route';
import { call, createUser, sessionCookies, type Answer } from '../support/api';
import { addContacts, owner, type Owner } from '../support/address-book';
import { startStandIn, type StandIn } from '../support/billing';
import { bodyFields, handlersOf, routeFiles, routePath, segmentsOf, type Handler } from '../support/routes';

// Issue 32, item 1: a standing sweep generated from the route files. Every text field of every
// handler's body, every query parameter and every path segment is sent with a NUL, a lone UTF-16
// surrogate, a right-to-left override and 64 KB of text. The first two are refused with 400
// incorrect_data naming the field, changing nothing; none of the four ever answers 5xx.
let standIn: StandIn;
// The sweep saves valid odd text into the one configuration row; on a PostgreSQL shared by the
// other files it is put back afterwards, so that no later file finds (say) an imprint page.
let savedConfiguration: (typeof configuration.$inferSelect)[] = [];
beforeAll(async () => {
  standIn = await startStandIn();
  savedConfiguration = await (await getDb()).select().from(configuration);
}, 60_000);
afterAll(async () => {
  await standIn.close();
  const db = await getDb();
  for (const { id, ...row } of savedConfiguration) await db.update(configuration).set(row).where(eq(configuration.id, id));
  await closeDb();
});

const NUL = 'Nul a\u0000b';
const LONE_SURROGATE = 'Lone a\ud800b';
const RIGHT_TO_LEFT = 'Sweep \u202Etxt.exe';
const LONG_TEXT = 'x'.repeat(64 * 1024);

const figures = { handlers: 0, fields: 0, requests: 0, refused: 0, fiveHundreds: 0 };

let as: Owner;
let fixtures: { roomId: string; contactId: string; groupId: string; ticketId: string; otherUserId: string };
let serial = 0;

/** Values that pass each field's own rules, so that a request reaches its handler's queries. */
function sampleBody(fields: string[]): Record<string, unknown> {
  serial += 1;
  const samples: Record<string, unknown> = {
    email: `sweep${serial}.${Date.now()}@example.test`,
    password: 'Sweep-Password-2026!',
    passwordConfirm: 'Sweep-Password-2026!',
    oldPassword: 'Sweep-Password-2026!',
    newPassword1: 'Sweep-Password-2027!',
    name: `Sweep ${serial}`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    title: `Sweep meeting ${serial}`,
    description: 'A sweep',
    message: 'A message from the text sweep.',
    comment: 'Fine',
    subject: 'Sweep subject',
    category: 'other',
    color: 3,
    lang: 'en',
    timezone: 'Europe/Paris',
    rating: 5,
    agree: true,
    from: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    duration: 30,
    roomId: fixtures.roomId,
    attendees: JSON.stringify([fixtures.contactId, `sweep-guest${serial}@example.test`]),
    brandName: 'Sweep',
    code: '123456',
    link: 'x'.repeat(20),
  };
  return Object.fromEntries(fields.filter((field) => field in samples).map((field) => [field, samples[field]]));
}

/** Real ids for a route's segments and `id` field, so that the rules past "not found" are reached. */
function idFor(file: string): string {
  if (file.includes('tickets')) return fixtures.ticketId;
  if (file.includes('room')) return fixtures.roomId;
  if (file.includes('attendee')) return fixtures.contactId;
  if (file.includes('groups')) return fixtures.groupId;
  if (file.includes('admin/users')) return fixtures.otherUserId;
  return 'x';
}

/**
 * A fingerprint of every table: equal before and after means the request changed nothing. The
 * rate limits' counters are left out: a refused attempt is still an attempt (opening a ticket
 * counts before its form is read).
 */
async function databaseFingerprint(): Promise<string> {
  const db = await getDb();
  const rowsOf = (result: unknown) => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, string>[];
  const tables = rowsOf(
    await db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_name <> 'rate_limits' order by 1`),
  );
  const parts: string[] = [];
  for (const { table_name: table } of tables) {
    const [row] = rowsOf(await db.execute(sql.raw(`select md5(coalesce(string_agg(t::text, ',' order by t::text), '')) as sum from "${table}" t`)));
    parts.push(`${table}:${row!.sum}`);
  }
  return parts.join(' ');
}

// On PostgreSQL the other test files write to the same database meanwhile: only PGlite's own
// in-memory database (one per test file) can be compared whole.
const wholeDatabaseIsOurs = !config.databaseUrl;

async function send(
  file: string,
  method: string,
  handler: Handler,
  options: { body?: unknown; query?: string; params?: Record<string, string> },
): Promise<Answer> {
  figures.requests += 1;
  const answer = await call(handler, {
    method,
    path: `${routePath(file)}${options.query ?? ''}`,
    body: options.body,
    cookies: sessionCookies(as.cookie),
    params: options.params ?? Object.fromEntries(segmentsOf(file).map((name) => [name, idFor(file)])),
  });
  if (answer.status >= 500) figures.fiveHundreds += 1;
  return answer;
}

function expectRefused(answer: Answer, where: string[], field: string) {
  figures.refused += 1;
  expect([...where, answer.status, answer.json.errorCode, answer.json.field]).toEqual([...where, 400, 'incorrect_data', field]);
}

describe('every text a request carries is stored as sent or refused with incorrect_data', () => {
  beforeAll(async () => {
    // An admin on a plan with rooms to spare, so that admin and room handlers run their queries.
    as = await owner({ accountType: 'executive', numberOfRooms: 30, role: 'admin' });
    const [contactId, secondContact] = await addContacts(as, 2);
    const roomId = ((await as.post(addRoom, { name: 'Sweep room' })).json.room as { id: string }).id;
    const groupId = ((await as.post(addGroup, { name: 'Sweep group', attendees: [contactId, secondContact] })).json.group as { id: string }).id;
    const ticket = await as.post(openTicket, { subject: 'Sweep ticket', category: 'other', message: 'Opened by the sweep.' });
    const { user: other } = await createUser();
    fixtures = { roomId, contactId: contactId!, groupId, ticketId: ticket.json.id as string, otherUserId: other.id };
    expect(Object.values(fixtures).every(Boolean)).toBe(true);
  }, 60_000);

  it('finds the handlers that read a body (the sweep is not empty)', async () => {
    const withBodies = [];
    for (const file of routeFiles) for (const [, handler] of await handlersOf(file)) if (handler.bodySchema) withBodies.push(file);
    expect(withBodies.length).toBeGreaterThan(30);
    expect(withBodies).toEqual(expect.arrayContaining(['contact/route.ts', 'api/attendee/route.ts', 'api/rate/route.ts', 'api/admin/configuration/route.ts']));
  });

  it.each(routeFiles)(
    '%s',
    async (file) => {
      for (const [method, handler] of await handlersOf(file, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])) {
        // Only apiRoute's handlers carry input to the database (the icons, /logout read none of it).
        if (!('bodySchema' in handler)) continue;
        if (!handler.bodySchema && method !== 'GET' && segmentsOf(file).length === 0) continue;
        figures.handlers += 1;
        const fields = bodyFields(handler.bodySchema);
        for (const field of fields) {
          figures.fields += 1;
          const base = { ...sampleBody(fields), ...(fields.includes('id') && field !== 'id' && { id: idFor(file) }) };
          for (const unstorable of [NUL, LONE_SURROGATE]) {
            const before = wholeDatabaseIsOurs ? await databaseFingerprint() : '';
            expectRefused(await send(file, method, handler, { body: { ...base, [field]: unstorable } }), [file, method, field], field);
            // The same text one level down meets the same rule.
            expectRefused(await send(file, method, handler, { body: { ...base, [field]: [unstorable] } }), [file, method, field], `${field}.0`);
            if (wholeDatabaseIsOurs) expect([file, field, await databaseFingerprint()]).toEqual([file, field, before]);
          }
          for (const odd of [RIGHT_TO_LEFT, LONG_TEXT]) {
            const answer = await send(file, method, handler, { body: { ...base, [field]: odd } });
            expect([file, method, field, answer.status < 500, answer.json.status ?? 'not JSON']).toEqual([file, method, field, true, expect.any(String)]);
          }
        }
        if (method === 'GET') {
          expectRefused(await send(file, method, handler, { query: '?q=a%00b' }), [file, method, 'q'], 'q');
        }
        for (const segment of segmentsOf(file)) {
          const params = Object.fromEntries(segmentsOf(file).map((name) => [name, name === segment ? NUL : idFor(file)]));
          expectRefused(await send(file, method, handler, { params }), [file, method, segment], segment);
        }
      }
    },
    120_000,
  );

  it("refuses the text inside a field that carries JSON of its own (a group's attendees)", async () => {
    const [handler] = (await handlersOf('api/groups/route.ts'))[0]!.slice(1) as [Handler];
    const answer = await send('api/groups/route.ts', 'POST', handler, { body: { name: 'Sweep nested', attendees: JSON.stringify([fixtures.contactId, NUL]) } });
    expectRefused(answer, ['nested'], 'attendees.1');
  });

  it('refuses a NUL in a field of the ticket form (multipart)', async () => {
    const form = new FormData();
    form.set('subject', NUL);
    form.set('category', 'other');
    form.set('message', 'Sent as a form.');
    const encoded = new Response(form);
    const before = wholeDatabaseIsOurs ? await databaseFingerprint() : '';
    const answer = await call(openTicket as Handler, {
      method: 'POST',
      body: new Uint8Array(await encoded.arrayBuffer()),
      headers: { 'content-type': encoded.headers.get('content-type')! },
      cookies: sessionCookies(as.cookie),
    });
    expectRefused(answer, ['ticket form'], 'subject');
    if (wholeDatabaseIsOurs) expect(await databaseFingerprint()).toBe(before);
  });

  afterAll(() => {
    // The figures docs/security.md records.
    console.log(`text sweep: ${JSON.stringify(figures)}`);
  });
});
