import { DEFAULT_COLOR } from '@/lib/colors';
import { closeDb, getDb } from '@/lib/db/client';
import { GET as listContacts } from '@/app/api/attendees/route';
import { GET as listGroups, POST as addGroup } from '@/app/api/groups/route';
import { POST as updateGroup } from '@/app/api/groups/update/route';
import { DELETE as deleteGroup } from '@/app/api/groups/[id]/route';
import { addContacts, owner, type Owner } from '../support/address-book';

// Opening and migrating the database takes a while on a busy machine.
beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

type GroupAnswer = { id: string; name: string; color: number; attendees: string[]; incomplete: boolean };
const UNKNOWN = '0b6f3f5e-3c1b-4a77-9d43-5a0f3e6f2c11';

async function groupsOf(as: Owner) {
  return (await as.get(listGroups)).json as unknown as GroupAnswer[];
}

async function emailOf(as: Owner, id: string) {
  const contacts = (await as.get(listContacts)).json as unknown as { id: string; email: string }[];
  return contacts.find((contact) => contact.id === id)!.email;
}

describe('POST /api/groups: SPEC point 5 rules', () => {
  let as: Owner;
  let ids: string[];
  beforeAll(async () => {
    as = await owner();
    ids = await addContacts(as, 3);
  });

  const cases: { name: string; body: (ids: string[]) => Record<string, unknown>; status: number; code: string; field?: string }[] = [
    { name: 'missing name', body: (ids) => ({ attendees: ids }), status: 400, code: 'group_name_required', field: 'name' },
    { name: 'empty name', body: (ids) => ({ name: '', attendees: ids }), status: 400, code: 'group_name_required', field: 'name' },
    { name: 'blank name', body: (ids) => ({ name: '   ', attendees: ids }), status: 400, code: 'group_name_required', field: 'name' },
    { name: 'a very long name', body: (ids) => ({ name: 'g'.repeat(101), attendees: ids }), status: 400, code: 'incorrect_data', field: 'name' },
    { name: 'colour 0', body: (ids) => ({ name: 'Team', color: 0, attendees: ids }), status: 400, code: 'incorrect_data', field: 'color' },
    { name: 'colour 21', body: (ids) => ({ name: 'Team', color: 21, attendees: ids }), status: 400, code: 'incorrect_data', field: 'color' },
    { name: 'no attendees', body: () => ({ name: 'Team' }), status: 400, code: 'incorrect_data', field: 'attendees' },
    { name: 'attendees that are not JSON', body: () => ({ name: 'Team', attendees: '[oops' }), status: 400, code: 'incorrect_data', field: 'attendees' },
    { name: 'an empty list', body: () => ({ name: 'Team', attendees: '[]' }), status: 400, code: 'incorrect_data', field: 'attendees' },
    {
      name: 'one contact',
      body: (ids) => ({ name: 'Team', attendees: JSON.stringify(ids.slice(0, 1)) }),
      status: 400,
      code: 'incorrect_data',
      field: 'attendees',
    },
    {
      name: 'one contact twice',
      body: (ids) => ({ name: 'Team', attendees: [ids[0], ids[0]!.toUpperCase()] }),
      status: 400,
      code: 'incorrect_data',
      field: 'attendees',
    },
    { name: 'numbers for ids', body: () => ({ name: 'Team', attendees: '[1,2]' }), status: 400, code: 'incorrect_data', field: 'attendees.0' },
    { name: 'an object for the list', body: () => ({ name: 'Team', attendees: '{"a":1,"b":2}' }), status: 400, code: 'incorrect_data', field: 'attendees' },
    {
      name: 'an unknown contact id',
      body: (ids) => ({ name: 'Team', attendees: [ids[0], UNKNOWN] }),
      status: 404,
      code: 'attendee_not_found',
      field: 'attendees',
    },
    {
      name: 'a malformed contact id',
      body: (ids) => ({ name: 'Team', attendees: [ids[0], 'contact-2'] }),
      status: 404,
      code: 'attendee_not_found',
      field: 'attendees',
    },
    {
      name: 'an e-mail that is not a contact',
      body: (ids) => ({ name: 'Team', attendees: [ids[0], 'stranger@example.test'] }),
      status: 404,
      code: 'attendee_not_found',
      field: 'attendees',
    },
  ];

  it.each(cases)('$name → $status $code, and no group is created', async ({ body, status, code, field }) => {
    const answer = await as.post(addGroup, body(ids));
    expect(answer.status).toBe(status);
    expect(answer.json).toMatchObject({ status: 'error', errorCode: code, field, message: expect.any(String) });
    expect(await groupsOf(as)).toEqual([]);
  });

  it("the missing-name message is the spec's own wording", async () => {
    expect((await as.post(addGroup, { name: '', attendees: ids })).json.message).toBe('Add a group name');
  });

  it('the same contact by id and by e-mail counts once', async () => {
    const answer = await as.post(addGroup, { name: 'Team', attendees: [ids[0], await emailOf(as, ids[0]!)] });
    expect([answer.status, answer.json.errorCode, answer.json.field]).toEqual([400, 'incorrect_data', 'attendees']);
  });
});

describe('POST /api/groups: creating', () => {
  it.each([
    { name: 'a JSON string of ids (SPEC point 3)', attendees: (ids: string[]) => JSON.stringify(ids) },
    { name: 'a real array of ids', attendees: (ids: string[]) => ids },
  ])('takes attendees as $name', async ({ attendees }) => {
    const as = await owner();
    const ids = await addContacts(as, 2);
    const answer = await as.post(addGroup, { name: ' Board ', color: 9, attendees: attendees(ids) });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ status: 'ok', group: { name: 'Board', color: 9, incomplete: false } });
    expect([...(answer.json.group as GroupAnswer).attendees].sort()).toEqual([...ids].sort());
  });

  it('a group created without a colour gets the neutral one, not red (issue 33)', async () => {
    const as = await owner();
    const ids = await addContacts(as, 2);
    const answer = await as.post(addGroup, { name: 'No colour', attendees: ids });
    expect(answer.json).toMatchObject({ status: 'ok', group: { color: DEFAULT_COLOR } });
    expect(DEFAULT_COLOR).not.toBe(1);
  });

  it("maps e-mails of the user's contacts to their ids, whatever their case", async () => {
    const as = await owner();
    const ids = await addContacts(as, 2);
    const emails = await Promise.all(ids.map((id) => emailOf(as, id)));
    const answer = await as.post(addGroup, { name: 'By mail', attendees: JSON.stringify([emails[0]!.toUpperCase(), ids[1]]) });
    expect([...(answer.json.group as GroupAnswer).attendees].sort()).toEqual([...ids].sort());
  });

  it('group_name_exists (409) for a name the user already has, whatever its case; another user may use it', async () => {
    const as = await owner();
    const ids = await addContacts(as, 2);
    await as.post(addGroup, { name: 'Family', attendees: ids });
    const again = await as.post(addGroup, { name: 'FAMILY', attendees: ids });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ errorCode: 'group_name_exists', field: 'name' });
    const other = await owner();
    expect((await other.post(addGroup, { name: 'Family', attendees: await addContacts(other, 2) })).status).toBe(200);
  });
});

describe('POST /api/groups/update and DELETE /api/groups/{id}', () => {
  let as: Owner;
  let ids: string[];
  let group: GroupAnswer;
  beforeEach(async () => {
    as = await owner();
    ids = await addContacts(as, 4);
    group = (await as.post(addGroup, { name: 'Project', color: 3, attendees: ids.slice(0, 2) })).json.group as GroupAnswer;
  });

  it.each([
    { name: 'missing id', body: () => ({ id: undefined, name: 'Other' }), status: 400, code: 'missing_data' },
    { name: 'an unknown id', body: () => ({ id: UNKNOWN, name: 'Other' }), status: 404, code: 'attendee_not_found' },
    { name: 'a malformed id', body: () => ({ id: 'group-1', name: 'Other' }), status: 404, code: 'attendee_not_found' },
    { name: 'an empty name', body: () => ({ name: '' }), status: 400, code: 'group_name_required' },
    { name: 'colour 21', body: () => ({ color: 21 }), status: 400, code: 'incorrect_data' },
    { name: 'one contact', body: () => ({ attendees: JSON.stringify(ids.slice(0, 1)) }), status: 400, code: 'incorrect_data' },
    { name: 'an unknown contact', body: () => ({ attendees: [ids[0], UNKNOWN] }), status: 404, code: 'attendee_not_found' },
  ])('$name → $status $code, and the group is unchanged', async ({ body, status, code }) => {
    const answer = await as.post(updateGroup, { id: group.id, ...body() });
    expect([answer.status, answer.json.errorCode]).toEqual([status, code]);
    expect(await groupsOf(as)).toEqual([group]);
  });

  it('renames, recolours and replaces the contacts', async () => {
    const answer = await as.post(updateGroup, { id: group.id, name: 'Project X', color: 11, attendees: JSON.stringify(ids.slice(1)) });
    expect(answer.json).toMatchObject({ status: 'ok', group: { id: group.id, name: 'Project X', color: 11 } });
    const [saved] = await groupsOf(as);
    expect([...saved!.attendees].sort()).toEqual(ids.slice(1).sort());
  });

  it('changes only the fields given', async () => {
    await as.post(updateGroup, { id: group.id, color: 12 });
    expect(await groupsOf(as)).toEqual([{ ...group, color: 12 }]);
    expect((await as.post(updateGroup, { id: group.id })).json.group).toEqual({ ...group, color: 12 });
  });

  it("group_name_exists for another group's name; its own name in another case is fine", async () => {
    await as.post(addGroup, { name: 'Other', attendees: ids.slice(2) });
    const taken = await as.post(updateGroup, { id: group.id, name: 'other' });
    expect([taken.status, taken.json.errorCode]).toEqual([409, 'group_name_exists']);
    expect((await as.post(updateGroup, { id: group.id, name: 'PROJECT' })).status).toBe(200);
  });

  it('deleting a group keeps its contacts', async () => {
    expect((await as.remove(deleteGroup, group.id)).json).toEqual({ status: 'ok' });
    expect(await groupsOf(as)).toEqual([]);
    expect((await as.get(listContacts)).json).toHaveLength(4);
  });

  it.each([UNKNOWN, 'nope'])('deleting %s → 404 attendee_not_found', async (id) => {
    const answer = await as.remove(deleteGroup, id);
    expect([answer.status, answer.json.errorCode]).toEqual([404, 'attendee_not_found']);
  });
});
