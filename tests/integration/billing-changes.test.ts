// Billing with Stripe after subscribing, against the stand-in: a crash between Stripe and our
// write, changing the number of rooms, and expiry.
import '../support/billing-env';
import { eq } from 'drizzle-orm';
import { closeDb, getDb } from '@/lib/db/client';
import { stripeRequests, subscriptions, users } from '@/lib/db/schema';
import { reconcileBilling } from '@/lib/billing/reconcile';
import { GET as getPayment, POST as postPayment } from '@/app/billing/payment/route';
import { POST as paymentSecret } from '@/app/billing/payment/secret/route';
import { GET as getUpgrade } from '@/app/billing/upgrade/route';
import { GET as upgradeSecret } from '@/app/billing/upgrade/secret/route';
import { POST as upgradeSetup } from '@/app/billing/upgrade/setup/route';
import { POST as upgradeFinish } from '@/app/billing/upgrade/finish/route';
import { POST as downgrade } from '@/app/billing/downgrade/route';
import { POST as createRoom } from '@/app/api/room/route';
import { GET as me } from '@/app/api/me/route';
import { GET as meetingInfo } from '@/app/api/meeting/[id]/route';
import { POST as login } from '@/app/login/route';
import { hashPassword } from '@/lib/auth/password';
import { call, createUser, type Answer } from '../support/api';
import { deliver, startStandIn, type StandIn } from '../support/billing';
import { as, records, subscribed, userRow } from '../support/billing-kit';

let standIn: StandIn;
// The database opens here, not in the first test that needs it: an embedded one can take longer
// than a test's 30 s to start on a busy machine.
beforeAll(async () => {
  standIn = await startStandIn();
  await getDb();
}, 60_000);
afterAll(async () => {
  await standIn.close();
  await closeDb();
});

const newEventsSince = (mark: number) => standIn.state.events.slice(mark);

describe('a crash between Stripe and our write', () => {
  it('a retry after a lost answer reuses the idempotency key: one subscription', async () => {
    const { user, cookie } = await createUser();
    // Stripe creates the subscription, but the answer never comes back (nor to the client's own retries).
    standIn.controls.loseAnswers({ count: 3, path: '/v1/subscriptions' });
    const lost = await call(paymentSecret, { body: { rooms: 3 }, ...as(cookie) });
    expect(lost.json.errorCode).toBe('error_setting_up_payment');
    const retry = await call(paymentSecret, { body: { rooms: 3 }, ...as(cookie) });
    expect(retry.status).toBe(200);

    const db = await getDb();
    const [row] = await db.select().from(subscriptions).where(eq(subscriptions.userId, user.id));
    const creates = standIn.state.requests.filter((r) => r.path === '/v1/subscriptions' && r.method === 'POST' && r.params.customer === row!.stripeCustomerId);
    expect(creates.length).toBeGreaterThanOrEqual(2);
    expect(new Set(creates.map((r) => r.idempotencyKey)).size).toBe(1);
    const theirs = standIn.snapshot().subscriptions.filter((s) => s.customer === row!.stripeCustomerId);
    expect(theirs).toHaveLength(1);
    expect(retry.json.subscription).toBe(theirs[0]!.id);
  });

  it('a payment whose report never arrived is picked up by the reconcile job', async () => {
    const { user, cookie } = await createUser();
    const start = await call(paymentSecret, { body: { rooms: 2 }, ...as(cookie) });
    standIn.controls.pay({ clientSecret: start.json.clientSecret as string });
    // Our row still says incomplete; no webhook, no report from the browser.
    const db = await getDb();
    await db.update(subscriptions).set({ stripeSubscriptionId: null }).where(eq(subscriptions.userId, user.id));
    expect(await userRow(user.id)).toMatchObject({ isTrial: true });
    // A call left unfinished two minutes ago makes the job look at the account.
    await db.insert(stripeRequests).values({
      idempotencyKey: `lost-${user.id}`,
      userId: user.id,
      operation: 'subscribe',
      fingerprint: 'x',
      createdAt: new Date(Date.now() - 5 * 60_000),
    });
    await reconcileBilling();
    expect(await userRow(user.id)).toMatchObject({ isTrial: false, numberOfRooms: 2 });
  });
});

describe('changing the number of rooms', () => {
  it('an upgrade is charged now, pro rata, and the allowance follows at once', async () => {
    const { user, cookie } = await subscribed(standIn, 1);
    const quote = (await call(getUpgrade, as(cookie))).json;
    expect(quote).toMatchObject({ rooms: 1, minRooms: 1, maxRooms: 30, unitAmount: 3495 });
    const answer = await call(upgradeSetup, { body: { rooms: 4 }, ...as(cookie) });
    expect(answer.json).toMatchObject({ status: 'ok', state: 'complete' });
    expect(await userRow(user.id)).toMatchObject({ numberOfRooms: 4, accountType: 'executive' });
    expect(await records(user.id)).toBe(2);
  });

  it('an upgrade the bank wants confirmed (3-D Secure): requires_action, then finish', async () => {
    const { user, cookie } = await subscribed(standIn, 1);
    const db = await getDb();
    const [row] = await db.select().from(subscriptions).where(eq(subscriptions.userId, user.id));
    standIn.controls.setCard({
      subscription: row!.stripeSubscriptionId!,
      card: '4000002500003155',
    });
    const setup = await call(upgradeSetup, { body: { rooms: 2 }, ...as(cookie) });
    expect(setup.json).toMatchObject({ state: 'requires_action' });
    expect(await userRow(user.id)).toMatchObject({ numberOfRooms: 1 });
    standIn.controls.pay({ clientSecret: setup.json.clientSecret as string });
    const finish = await call(upgradeFinish, {
      body: { paymentIntent: setup.json.paymentIntent },
      ...as(cookie),
    });
    expect(finish.json).toMatchObject({ state: 'complete' });
    expect(await userRow(user.id)).toMatchObject({ numberOfRooms: 2 });
  });

  it('an upgrade on a declined card changes nothing and names the transaction', async () => {
    const { user, cookie, subscription } = await subscribed(standIn, 2);
    standIn.controls.setCard({ subscription, card: '4000000000000002' });
    const answer = await call(upgradeSetup, { body: { rooms: 5 }, ...as(cookie) });
    expect(answer.json).toMatchObject({
      errorCode: 'payment_failed',
      transactionId: expect.stringMatching(/^pi_/),
    });
    expect(await userRow(user.id)).toMatchObject({ numberOfRooms: 2 });
  });

  it('a new card through a SetupIntent pays from then on', async () => {
    const { cookie } = await subscribed(standIn, 1);
    const secret = await call(upgradeSecret, as(cookie));
    expect(secret.json.clientSecret).toMatch(/^seti_/);
    standIn.controls.saveCard({
      clientSecret: secret.json.clientSecret as string,
      card: '5555555555554444',
      name: 'Mary Jackson',
    });
    const answer = await call(postPayment, {
      body: { setupIntent: secret.json.setupIntent },
      ...as(cookie),
    });
    expect(answer.json).toMatchObject({
      state: 'complete',
      billing: { cardLast4: '4444', cardName: 'Mary Jackson' },
    });
  });

  // Issue 32, item 5: 28 calls from another site had made 28 SetupIntents.
  it('GET /billing/upgrade/secret is safe to repeat: the open SetupIntent is answered again until it is used', async () => {
    const { cookie } = await subscribed(standIn, 1);
    const created = () => standIn.state.requests.filter((request) => request.method === 'POST' && request.path === '/v1/setup_intents').length;
    const before = created();
    const first = await call(upgradeSecret, as(cookie));
    const second = await call(upgradeSecret, {
      ...as(cookie),
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(first.json.setupIntent).toMatch(/^seti_/);
    expect([second.json.setupIntent, second.json.clientSecret]).toEqual([first.json.setupIntent, first.json.clientSecret]);
    expect(created()).toBe(before + 1);

    // Another site's request is refused before it reaches Stripe.
    const requests = standIn.state.requests.length;
    const forged = await call(upgradeSecret, {
      ...as(cookie),
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect([forged.status, forged.json.errorCode]).toEqual([403, 'authentication_error']);
    expect(standIn.state.requests.length).toBe(requests);

    // Once the card is saved, that intent is spent: the next call makes a new one.
    standIn.controls.saveCard({ clientSecret: first.json.clientSecret as string });
    const third = await call(upgradeSecret, as(cookie));
    expect(third.json.setupIntent).toMatch(/^seti_/);
    expect(third.json.setupIntent).not.toBe(first.json.setupIntent);
    expect(created()).toBe(before + 2);
  });

  it('a downgrade applies from the next billing date', async () => {
    const { user, cookie, subscription } = await subscribed(standIn, 3);
    const answer = await call(downgrade, { body: { rooms: 2 }, ...as(cookie) });
    expect(answer.json).toMatchObject({ status: 'ok', rooms: 2 });
    expect(await userRow(user.id)).toMatchObject({ numberOfRooms: 3 });
    expect((await call(getPayment, as(cookie))).json).toMatchObject({
      rooms: 3,
      nextRooms: 2,
      billedRooms: 2,
    });

    // The period ends: Stripe renews at 2 rooms, and the allowance follows.
    const mark = standIn.state.events.length;
    standIn.controls.renew({ subscription });
    const db = await getDb();
    await db
      .update(subscriptions)
      .set({ currentPeriodEnd: new Date(Date.now() - 1000) })
      .where(eq(subscriptions.userId, user.id));
    for (const event of newEventsSince(mark)) expect((await deliver(event)).status).toBe(200);
    expect(await userRow(user.id)).toMatchObject({ numberOfRooms: 2 });
    expect((await call(getPayment, as(cookie))).json).toMatchObject({
      rooms: 2,
      nextRooms: null,
      monthlyPaymentCents: 2 * 3495,
    });
  });

  it('a downgrade below the rooms in use is refused with rooms_in_use; to the same count with incorrect_data', async () => {
    const { cookie } = await subscribed(standIn, 2);
    for (const name of ['First room', 'Second room']) {
      const room = await call(createRoom, { body: { name, color: 1 }, ...as(cookie) });
      expect(room.json.status).toBe('ok');
    }
    expect((await call(downgrade, { body: { rooms: 1 }, ...as(cookie) })).json.errorCode).toBe('rooms_in_use');
    expect((await call(downgrade, { body: { rooms: 2 }, ...as(cookie) })).json.errorCode).toBe('incorrect_data');
  });

  it('room limits follow the paid quantity', async () => {
    const { cookie } = await subscribed(standIn, 2);
    const made: Answer[] = [];
    for (const name of ['Room one', 'Room two', 'Room three']) made.push(await call(createRoom, { body: { name, color: 1 }, ...as(cookie) }));
    expect(made.map((answer) => answer.json.status)).toEqual(['ok', 'ok', 'error']);
    expect(made[2]!.json.errorCode).toBe('room_max_limit');
    expect((await call(upgradeSetup, { body: { rooms: 3 }, ...as(cookie) })).json.state).toBe('complete');
    expect((await call(createRoom, { body: { name: 'Room three', color: 1 }, ...as(cookie) })).json.status).toBe('ok');
  });
});

describe('expiry', () => {
  it('a renewal that fails for good expires the account: its sessions end and login says login_failed_expired', async () => {
    const password = 'Correct-Horse-9';
    const { user, cookie, subscription } = await subscribed(standIn, 1);
    const db = await getDb();
    await db
      .update(users)
      .set({ passwordHash: await hashPassword(password) })
      .where(eq(users.id, user.id));
    standIn.controls.setCard({ subscription, card: '4000000000000002' });
    const mark = standIn.state.events.length;
    standIn.controls.renew({ subscription, final: true });
    for (const event of newEventsSince(mark)) await deliver(event);
    expect(await userRow(user.id)).toMatchObject({ state: 'expired' });
    expect((await call(me, as(cookie))).status).toBe(401);
    const answer = await call(login, {
      body: { email: user.email, password },
      headers: { 'x-forwarded-for': '203.0.113.77' },
    });
    expect(answer.json.errorCode).toBe('login_failed_expired');
  });

  it('a trial that has ended shows as such in billing, and its rooms hold no meeting until a plan is paid', async () => {
    const { user, cookie } = await createUser({ trialEndsAt: new Date(Date.now() + 60_000) });
    const room = await call(createRoom, { body: { name: 'Trial room', color: 1 }, ...as(cookie) });
    const meetingId = (room.json.room as { meetingId: string } | undefined)?.meetingId ?? (room.json.meetingId as string);
    const info = () => call(meetingInfo, { params: { id: meetingId } });
    expect((await info()).status).toBe(200);

    const db = await getDb();
    await db
      .update(users)
      .set({ trialEndsAt: new Date(Date.now() - 1000) })
      .where(eq(users.id, user.id));
    expect((await call(getPayment, as(cookie))).json).toMatchObject({
      isTrial: true,
      trialEnded: true,
      subscribed: false,
    });
    const refused = await info();
    expect(refused.json).toMatchObject({ errorCode: 'trial_ended' });

    const start = await call(paymentSecret, { body: { rooms: 1 }, ...as(cookie) });
    standIn.controls.pay({ clientSecret: start.json.clientSecret as string });
    await call(postPayment, { body: { paymentIntent: start.json.paymentIntent }, ...as(cookie) });
    expect((await info()).json).toMatchObject({ maxParticipants: 30 });
  });
});
