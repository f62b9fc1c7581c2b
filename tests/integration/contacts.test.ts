import { eq } from 'drizzle-orm';
import { DEFAULT_COLOR } from '@/lib/colors';
import { closeDb, getDb } from '@/lib/db/client';
import { attendees } from '@/lib/db/schema';
import { GET as listContacts } from '@/app/api/attendees/route';
import { POST as addContact } from '@/app/api/attendee/route';
import { POST as updateContact } from '@/app/api/attendee/update/route';
import { DELETE as deleteContact } from '@/app/api/attendee/[id]/route';
import { GET as listGroups, POST as addGroup } from '@/app/api/groups/route';
import { addContacts, contactBody, owner, type Owner } from '../support/address-book';

// Opening and migrating the database takes a while on a busy machine.
beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

type ContactAnswer = { id: string; name: string; email: string; phoneNumber: string | null };

async function add(as: Owner, overrides: Record<string, unknown> = {}): Promise<ContactAnswer> {
  const answer = await as.post(addContact, contactBody(overrides));
  if (answer.status !== 200) throw new Error(answer.text);
  return answer.json.attendee as ContactAnswer;
}

async function stored(id: string) {
  const db = await getDb();
  const [row] = await db.select().from(attendees).where(eq(attendees.id, id));
  return row;
}

const invalidFields = [
  { name: 'missing name', body: { name: undefined }, code: 'missing_data', field: 'name' },
  { name: 'blank name', body: { name: '   ' }, code: 'missing_data', field: 'name' },
  { name: 'a very long name', body: { name: 'x'.repeat(101) }, code: 'incorrect_data', field: 'name' },
  { name: 'missing e-mail', body: { email: undefined }, code: 'email_required', field: 'email' },
  { name: 'empty e-mail', body: { email: '' }, code: 'email_required', field: 'email' },
  { name: 'an e-mail without @', body: { email: 'ann.example.test' }, code: 'incorrect_email_format', field: 'email' },
  { name: 'an e-mail without domain', body: { email: 'ann@' }, code: 'incorrect_email_format', field: 'email' },
  { name: 'letters for a phone number', body: { phoneNumber: 'call me' }, code: 'incorrect_data', field: 'phoneNumber' },
  { name: 'a phone number too short', body: { phoneNumber: '12' }, code: 'incorrect_data', field: 'phoneNumber' },
  { name: 'a US number given as British', body: { phoneNumber: '202-555-0143', countryCode: 'GB' }, code: 'incorrect_data', field: 'phoneNumber' },
  { name: 'a phone number that is not text', body: { phoneNumber: 2025550143 }, code: 'incorrect_data', field: 'phoneNumber' },
  { name: 'a country that is not ISO alpha-2', body: { countryCode: 'USA' }, code: 'incorrect_data', field: 'countryCode' },
  { name: 'colour 0', body: { color: 0 }, code: 'incorrect_data', field: 'color' },
  { name: 'colour 21', body: { color: 21 }, code: 'incorrect_data', field: 'color' },
  { name: 'a language that is not one of the 12', body: { lang: 'ja' }, code: 'incorrect_data', field: 'lang' },
  { name: 'a time zone that does not exist', body: { timezone: 'Mars/Olympus_Mons' }, code: 'incorrect_data', field: 'timezone' },
];

describe('POST /api/attendee: SPEC point 5 rules', () => {
  it.each(invalidFields)('$name → 400 $code on $field, and nothing is created', async ({ body, code, field }) => {
    const as = await owner();
    const answer = await as.post(addContact, contactBody(body));
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ status: 'error', errorCode: code, field, message: expect.any(String) });
    expect((await as.get(listContacts)).json).toEqual([]);
  });

  it("the attendee e-mail message is the spec's own wording", async () => {
    const as = await owner();
    const answer = await as.post(addContact, contactBody({ email: 'nope' }));
    expect(answer.json.message).toBe('Email address must have a valid format');
  });

  it('stores the phone number in E.164 with its country and dial code; the default country is US', async () => {
    const as = await owner();
    const contact = await as.post(addContact, contactBody({ name: 'Ann', phoneNumber: '(202) 555-0143', dialCode: '+99' }));
    expect(contact.json.attendee).toMatchObject({ name: 'Ann', phoneNumber: '+12025550143', countryCode: 'US', dialCode: '+1' });
  });

  it.each([
    { name: 'a national number with its country', body: { phoneNumber: '020 7946 0958', countryCode: 'GB' } },
    { name: 'an international number, whatever the country given', body: { phoneNumber: '+44 20 7946 0958', countryCode: 'US' } },
  ])('$name', async ({ body }) => {
    const as = await owner();
    expect((await add(as, body)) as unknown).toMatchObject({ phoneNumber: '+442079460958', countryCode: 'GB', dialCode: '+44' });
  });

  it('keeps the name, lower-cases the e-mail, and takes language, time zone and colour', async () => {
    const as = await owner();
    const contact = await add(as, { name: '  Zoë Ångström ', email: 'Zoe.Angstrom@Example.TEST', lang: 'sk', timezone: 'America/New_York', color: 20 });
    expect(contact).toMatchObject({
      name: 'Zoë Ångström',
      email: 'zoe.angstrom@example.test',
      lang: 'sk',
      timezone: 'America/New_York',
      color: 20,
      phoneNumber: null,
      countryCode: null,
      dialCode: null,
    });
  });

  it('defaults: English, the neutral colour, no time zone; "UTC" is kept as Europe/London (SPEC point 4)', async () => {
    const as = await owner();
    // Issue 33: red (colour 1) read as an error beside a name; a new contact is slate.
    expect(await add(as)).toMatchObject({ lang: 'en', color: DEFAULT_COLOR, timezone: null });
    expect(DEFAULT_COLOR).not.toBe(1);
    expect(await add(as, { timezone: 'UTC' })).toMatchObject({ timezone: 'Europe/London' });
  });

  it("the user's own e-mail is refused, whatever its case", async () => {
    const as = await owner();
    const answer = await as.post(addContact, contactBody({ email: as.user.email.toUpperCase() }));
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ errorCode: 'incorrect_email', field: 'email' });
  });

  it('contact_exists (409) for an e-mail already in the contacts, whatever its case; another user may add it', async () => {
    const as = await owner();
    await add(as, { email: 'bob@example.test' });
    const again = await as.post(addContact, contactBody({ email: 'BOB@example.test' }));
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ errorCode: 'contact_exists', field: 'email' });
    const other = await owner();
    expect((await other.post(addContact, contactBody({ email: 'bob@example.test' }))).status).toBe(200);
  });

  it('GET /api/attendees lists the contacts by name', async () => {
    const as = await owner();
    await add(as, { name: 'carol' });
    await add(as, { name: 'Alice' });
    await add(as, { name: 'Bob' });
    const answer = await as.get(listContacts);
    expect((answer.json as unknown as ContactAnswer[]).map((c) => c.name)).toEqual(['Alice', 'Bob', 'carol']);
  });
});

describe('POST /api/attendee/update', () => {
  let as: Owner;
  let contact: ContactAnswer;
  beforeEach(async () => {
    as = await owner();
    contact = await add(as, { name: 'Dana', email: 'dana@example.test', phoneNumber: '202-555-0143', lang: 'de', color: 4 });
  });

  it.each([
    // A field left out is kept on update, so only the rows that send a value apply.
    ...invalidFields.filter((row) => Object.values(row.body).every((value) => value !== undefined)),
    { name: 'missing id', body: { id: undefined }, code: 'missing_data', field: 'id' },
  ])('$name → 400 $code, and the contact is unchanged', async ({ body, code }) => {
    const before = await stored(contact.id);
    const answer = await as.post(updateContact, { id: contact.id, ...body });
    expect(answer.status).toBe(400);
    expect(answer.json.errorCode).toBe(code);
    expect(await stored(contact.id)).toEqual(before);
  });

  it.each([
    { name: 'an unknown id', id: '0b6f3f5e-3c1b-4a77-9d43-5a0f3e6f2c11' },
    { name: 'a malformed id', id: '42' },
    { name: 'a very long id', id: 'x'.repeat(65) },
  ])('$name → 404 attendee_not_found', async ({ id }) => {
    const answer = await as.post(updateContact, { id, name: 'Someone' });
    expect(answer.status).toBe(404);
    expect(answer.json.errorCode).toBe('attendee_not_found');
  });

  it('changes only the fields given', async () => {
    const answer = await as.post(updateContact, { id: contact.id, name: 'Dana Scully' });
    expect(answer.json.attendee).toMatchObject({ name: 'Dana Scully', email: 'dana@example.test', phoneNumber: '+12025550143', lang: 'de', color: 4 });
  });

  it('an empty phone number removes the phone, its country and dial code; an empty time zone removes the zone', async () => {
    await as.post(updateContact, { id: contact.id, timezone: 'Asia/Tokyo' });
    const answer = await as.post(updateContact, { id: contact.id, phoneNumber: '', timezone: '' });
    expect(answer.json.attendee).toMatchObject({ phoneNumber: null, countryCode: null, dialCode: null, timezone: null });
  });

  it("the same e-mail in another case is fine; another contact's e-mail is contact_exists; the user's own is refused", async () => {
    await add(as, { email: 'other@example.test' });
    expect((await as.post(updateContact, { id: contact.id, email: 'DANA@example.test' })).status).toBe(200);
    const taken = await as.post(updateContact, { id: contact.id, email: 'other@example.test' });
    expect([taken.status, taken.json.errorCode]).toEqual([409, 'contact_exists']);
    const own = await as.post(updateContact, { id: contact.id, email: as.user.email });
    expect([own.status, own.json.errorCode]).toEqual([400, 'incorrect_email']);
  });

  it('an update with nothing to change answers the contact as it is', async () => {
    expect((await as.post(updateContact, { id: contact.id })).json.attendee).toMatchObject({ id: contact.id, name: 'Dana' });
  });
});

describe('DELETE /api/attendee/{id}', () => {
  it.each([
    { name: 'an unknown id', id: '0b6f3f5e-3c1b-4a77-9d43-5a0f3e6f2c11' },
    { name: 'a malformed id', id: 'abc' },
  ])('$name → 404 attendee_not_found', async ({ id }) => {
    const as = await owner();
    const answer = await as.remove(deleteContact, id);
    expect([answer.status, answer.json.errorCode]).toEqual([404, 'attendee_not_found']);
  });

  it('removes the contact', async () => {
    const as = await owner();
    const contact = await add(as);
    expect((await as.remove(deleteContact, contact.id)).json).toEqual({ status: 'ok' });
    expect(await stored(contact.id)).toBeUndefined();
  });

  it('the contact leaves its groups; a group left with fewer than two contacts stays, marked incomplete', async () => {
    const as = await owner();
    const [a, b, c] = await addContacts(as, 3);
    await as.post(addGroup, { name: 'Three', attendees: JSON.stringify([a, b, c]) });
    await as.post(addGroup, { name: 'Two', attendees: JSON.stringify([a, b]) });
    expect((await as.remove(deleteContact, a!)).status).toBe(200);
    const groups = (await as.get(listGroups)).json as unknown as { name: string; attendees: string[]; incomplete: boolean }[];
    expect(groups.map((g) => [g.name, [...g.attendees].sort(), g.incomplete])).toEqual([
      ['Three', [b, c].sort(), false],
      ['Two', [b], true],
    ]);
  });
});
