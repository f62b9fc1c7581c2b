import { desc, eq } from 'drizzle-orm';
import { config } from '@/lib/environment';
import { billingMode } from '@/lib/configuration/billing-mode';
import { billingOf } from '@/lib/billing/summary';
import { closeDb, getDb } from '@/lib/db/client';
import { auditLog, configuration, users, type User } from '@/lib/db/schema';
import { GET as getConfiguration, POST as saveConfiguration } from '@/app/api/admin/configuration/route';
import { POST as grantPlan } from '@/app/api/admin/users/[id]/plan/route';
import { POST as addRoom } from '@/app/api/room/route';
import { POST as paymentSecret } from '@/app/billing/payment/secret/route';
import { GET as meetingInfo } from '@/app/api/meeting/[id]/route';
import { GET as startMeeting } from '@/app/api/startmeeting/[id]/route';
import { call, createUser, sessionCookies } from '../support/api';
import { owner, type Owner } from '../support/address-book';
import { join, makeRoom } from '../support/meeting';

// Issue 35, item 1: billing on (Stripe keys) keeps SPEC; billing off (no keys, the default) has no
// trial and takes its limits from the admin's configuration. The mode is read on every call, so a
// test switches it the way an operator does between restarts: by the settings.
beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

const settings = config as unknown as { billing?: string; onPremise: boolean; stripe: { secretKey?: string; publishableKey?: string } };
function switchBilling(mode: 'on' | 'off') {
  // Keys as an operator would set them; nothing here calls Stripe.
  settings.stripe.secretKey = mode === 'on' ? 'sk_test_switch' : undefined;
  settings.stripe.publishableKey = mode === 'on' ? 'pk_test_switch' : undefined;
}
afterEach(async () => {
  switchBilling('off');
  settings.billing = undefined;
  settings.onPremise = false;
  const db = await getDb();
  await db.update(configuration).set({ roomsPerUser: 10, participantsPerMeeting: 30 }).where(eq(configuration.id, 1));
});

const DAY = 86_400_000;
const addRooms = async (as: Owner, count: number, label: string) => {
  const answers = [];
  for (let n = 1; n <= count; n += 1) answers.push(await as.post(addRoom, { name: `${label} room ${n}` }));
  return answers;
};
async function fresh(id: string): Promise<User> {
  const db = await getDb();
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row!;
}
const info = (meetingId: string) => call(meetingInfo, { params: { id: meetingId } });
async function configure(body: Record<string, unknown>) {
  const admin = await createUser({ role: 'admin' });
  return call(saveConfiguration, { body, cookies: sessionCookies(admin.cookie) });
}

describe('the mode of the test server', () => {
  it('is billing off without Stripe keys, and ON_PREMISE and BILLING=off name the same mode', () => {
    expect(billingMode().mode).toBe('off');
    switchBilling('on');
    expect(billingMode().mode).toBe('stripe');
    settings.onPremise = true;
    expect(billingMode().mode).toBe('off');
    settings.onPremise = false;
    settings.billing = 'off';
    expect(billingMode().mode).toBe('off');
  });

  it('BILLING=off with Stripe keys: no billing call reaches Stripe, they answer billing_not_configured', async () => {
    switchBilling('on');
    settings.billing = 'off';
    const { cookie } = await createUser();
    const answer = await call(paymentSecret, { body: { rooms: 2 }, cookies: sessionCookies(cookie) });
    expect([answer.status, answer.json.errorCode]).toEqual([400, 'billing_not_configured']);
  });
});

describe('billing off: limits from the admin configuration', () => {
  it('a new account adds rooms up to the default of 10, the 11th is room_max_limit', async () => {
    const as = await owner();
    const answers = await addRooms(as, 11, 'Default');
    expect(answers.slice(0, 10).map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect([answers[10]!.status, answers[10]!.json.errorCode]).toEqual([400, 'room_max_limit']);
  });

  it('the configured rooms per user, then an operator grant when it is larger', async () => {
    expect((await configure({ rooms_per_user: 3 })).json).toMatchObject({ status: 'ok', configuration: { rooms_per_user: 3 } });
    const as = await owner();
    const answers = await addRooms(as, 4, 'Configured');
    expect(answers.map((answer) => answer.json.errorCode ?? 'ok')).toEqual(['ok', 'ok', 'ok', 'room_max_limit']);

    const admin = await createUser({ role: 'admin' });
    const granted = await call(grantPlan, {
      body: { accountType: 'executive', numberOfRooms: 5 },
      params: { id: as.user.id },
      cookies: sessionCookies(admin.cookie),
    });
    expect(granted.json).toMatchObject({ status: 'ok', numberOfRooms: 5 });
    const more = await addRooms(as, 3, 'Granted');
    expect(more.map((answer) => answer.json.errorCode ?? 'ok')).toEqual(['ok', 'ok', 'room_max_limit']);
    expect((await billingOf(await fresh(as.user.id))).rooms).toBe(5);
  });

  it('the configured participants per meeting seat a meeting, trial or not', async () => {
    await configure({ participants_per_meeting: 3 });
    const { user, cookie } = await createUser(); // on trial: SPEC would give 2
    const meetingId = await makeRoom(user);
    expect((await info(meetingId)).json).toMatchObject({ maxParticipants: 3 });
    const started = await call(startMeeting, { params: { id: meetingId }, cookies: sessionCookies(cookie) });
    expect(started.json).toMatchObject({ maxParticipants: 3 });
    const seats = [];
    for (const name of ['One', 'Two', 'Three', 'Four']) seats.push(await join(meetingId, { name }));
    expect(seats.map((answer) => answer.json.errorCode ?? 'ok')).toEqual(['ok', 'ok', 'ok', 'meeting_full']);
  });

  it.each([
    ['zero rooms', { rooms_per_user: 0 }, 'rooms_per_user'],
    ['a fraction of a room', { rooms_per_user: 1.5 }, 'rooms_per_user'],
    ['rooms as text', { rooms_per_user: '10' }, 'rooms_per_user'],
    ['10,001 rooms', { rooms_per_user: 10_001 }, 'rooms_per_user'],
    ['one participant', { participants_per_meeting: 1 }, 'participants_per_meeting'],
    ['51 participants', { participants_per_meeting: 51 }, 'participants_per_meeting'],
    ['participants as null', { participants_per_meeting: null }, 'participants_per_meeting'],
  ])('refuses %s with incorrect_data on its field', async (_name, body, field) => {
    const answer = await configure(body);
    expect([answer.status, answer.json.errorCode, answer.json.field]).toEqual([400, 'incorrect_data', field]);
  });

  it('saves both limits, reads them back and writes them to the audit log', async () => {
    const admin = await createUser({ role: 'admin' });
    const answer = await call(saveConfiguration, { body: { rooms_per_user: 10_000, participants_per_meeting: 2 }, cookies: sessionCookies(admin.cookie) });
    expect(answer.json).toMatchObject({ status: 'ok' });
    const read = await call(getConfiguration, { cookies: sessionCookies(admin.cookie) });
    expect(read.json).toMatchObject({ rooms_per_user: 10_000, participants_per_meeting: 2, billingOn: false });
    const db = await getDb();
    const entries = await db.select().from(auditLog).orderBy(desc(auditLog.createdAt)).limit(20);
    expect(entries.find((entry) => entry.actorId === admin.user.id)).toMatchObject({
      action: 'update_configuration',
      details: { rooms_per_user: { from: 10, to: 10_000 }, participants_per_meeting: { from: 30, to: 2 } },
    });
  });
});

describe('billing on: SPEC unchanged', () => {
  it('1 room on the individual plan, 2 participants on a trial, and the configuration does not count', async () => {
    switchBilling('on');
    await configure({ rooms_per_user: 50, participants_per_meeting: 40 });
    const as = await owner();
    const answers = await addRooms(as, 2, 'Spec');
    expect(answers.map((answer) => answer.json.errorCode ?? 'ok')).toEqual(['ok', 'room_max_limit']);
    const meetingId = await makeRoom(as.user);
    expect((await info(meetingId)).json).toMatchObject({ maxParticipants: 2 });
  });
});

describe('switching modes: accounts keep working', () => {
  it('on → off: a trial that ended with billing on can meet once billing is off', async () => {
    switchBilling('on');
    const as = await owner({ role: 'admin', trialEndsAt: new Date(Date.now() - DAY) });
    const { user, cookie } = as;
    const meetingId = await makeRoom(user);
    expect((await info(meetingId)).json.errorCode).toBe('trial_ended');
    expect((await join(meetingId, { name: 'Guest' })).json.errorCode).toBe('trial_ended');
    expect((await billingOf(user)).trialEnded).toBe(true);

    switchBilling('off');
    expect((await info(meetingId)).json).toMatchObject({ maxParticipants: 30 });
    expect((await join(meetingId, { name: 'Guest' })).json).toMatchObject({ admitted: true });
    expect((await join(meetingId, {}, { cookie })).json).toMatchObject({ self: { isHost: true } });
    // And it gets the configured rooms, not the trial's single one.
    expect((await addRooms(as, 2, 'After switch')).map((answer) => answer.json.errorCode ?? 'ok')).toEqual(['ok', 'ok']);
  });

  it('off → on: the trial counts from the account\u2019s creation date, as SPEC says', async () => {
    // Made with billing off: a recent account and one from three weeks ago, each with more rooms than SPEC's 1.
    const recent = await owner({ role: 'admin' });
    const old = await owner({ role: 'admin', registrationDate: new Date(Date.now() - 21 * DAY), trialEndsAt: new Date(Date.now() - 7 * DAY) });
    for (const as of [recent, old]) expect((await addRooms(as, 3, 'Private')).every((answer) => answer.status === 200)).toBe(true);
    const recentMeeting = await makeRoom(recent.user);
    const oldMeeting = await makeRoom(old.user);
    expect((await info(oldMeeting)).json).toMatchObject({ maxParticipants: 30 });

    switchBilling('on');
    // Still within 14 days of creation: the trial runs, 2 participants, no room past the plan.
    expect((await info(recentMeeting)).json).toMatchObject({ maxParticipants: 2 });
    expect((await recent.post(addRoom, { name: 'One more room' })).json.errorCode).toBe('room_max_limit');
    expect(await billingOf(recent.user)).toMatchObject({ isTrial: true, trialEnded: false, trialDaysLeft: 14, billingOn: true });
    // Made three weeks ago: the trial is over, meetings wait for a plan.
    expect((await info(oldMeeting)).json.errorCode).toBe('trial_ended');
    expect(await billingOf(await fresh(old.user.id))).toMatchObject({ trialEnded: true });

    // An operator grant before (or after) the switch spares it, as SPEC's set-plan does.
    const admin = await createUser({ role: 'admin' });
    await call(grantPlan, { body: { accountType: 'executive', numberOfRooms: 4 }, params: { id: old.user.id }, cookies: sessionCookies(admin.cookie) });
    expect((await info(oldMeeting)).json).toMatchObject({ maxParticipants: 30 });

    switchBilling('off');
    expect((await info(oldMeeting)).json).toMatchObject({ maxParticipants: 30 });
    expect((await info(recentMeeting)).json).toMatchObject({ maxParticipants: 30 });
  });
});
