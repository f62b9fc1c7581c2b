import { closeDb } from '@/lib/db/client';
import { GET as stripeKey } from '@/app/stripe/key/route';
import { POST as webhook } from '@/app/stripe/webhook/route';
import { GET as getPayment, POST as postPayment } from '@/app/billing/payment/route';
import { POST as paymentSecret } from '@/app/billing/payment/secret/route';
import { GET as getUpgrade } from '@/app/billing/upgrade/route';
import { GET as upgradeSecret } from '@/app/billing/upgrade/secret/route';
import { POST as upgradeSetup } from '@/app/billing/upgrade/setup/route';
import { POST as upgradeFinish } from '@/app/billing/upgrade/finish/route';
import { POST as downgrade } from '@/app/billing/downgrade/route';
import { GET as me } from '@/app/api/me/route';
import { GET as publicConfiguration } from '@/app/api/configuration/route';
import { POST as addRoom } from '@/app/api/room/route';
import { config } from '@/lib/environment';
import { call, createUser, sessionCookies } from '../support/api';

afterAll(() => closeDb());

// Issue 15: a server without Stripe keys says so on every billing call — it never pretends to charge.
type Handler = Parameters<typeof call>[0];
const calls: [string, Handler, unknown][] = [
  ['GET /stripe/key', stripeKey, undefined],
  ['GET /billing/payment', getPayment, undefined],
  ['GET /billing/upgrade', getUpgrade, undefined],
  ['GET /billing/upgrade/secret', upgradeSecret, undefined],
  ['POST /billing/payment', postPayment, { paymentIntent: 'pi_1' }],
  ['POST /billing/payment/secret', paymentSecret, { rooms: 2 }],
  ['POST /billing/upgrade/setup', upgradeSetup, { rooms: 2 }],
  ['POST /billing/upgrade/finish', upgradeFinish, { paymentIntent: 'pi_1' }],
  ['POST /billing/downgrade', downgrade, { rooms: 1 }],
];

describe('billing without Stripe keys', () => {
  it.each(calls)('%s → billing_not_configured, even with a bad body', async (_name, handler, body) => {
    const { cookie } = await createUser();
    for (const sent of [body, { nonsense: true }]) {
      const answer = await call(handler, { body: body === undefined ? undefined : sent, cookies: sessionCookies(cookie) });
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ status: 'error', errorCode: 'billing_not_configured' });
      expect(answer.json.message).toMatch(/not configured/);
    }
  });

  it('POST /stripe/webhook → billing_not_configured, and nothing is stored', async () => {
    const answer = await call(webhook, { body: '{"id":"evt_1"}', origin: null, headers: { 'stripe-signature': 't=1,v1=x' } });
    expect(answer.json.errorCode).toBe('billing_not_configured');
  });
});

// Issue 48, point 4: a billing-off server answered a price nobody charges.
describe('GET /api/configuration without billing', () => {
  it('leaves out product_price and currency, and keeps the rest', async () => {
    const answer = await call(publicConfiguration, {});
    expect(answer.status).toBe(200);
    expect(answer.json).not.toHaveProperty('product_price');
    expect(answer.json).not.toHaveProperty('currency');
    expect(answer.json).toMatchObject({ max_event_attendees: expect.any(Number), enable2fa: expect.any(Boolean) });
  });

  it('answers the price with billing on', async () => {
    const stripe = config.stripe as { secretKey?: string; publishableKey?: string };
    Object.assign(stripe, { secretKey: 'sk_test_configuration', publishableKey: 'pk_test_configuration' });
    try {
      const answer = await call(publicConfiguration, {});
      expect(answer.json).toMatchObject({ product_price: expect.any(Number), currency: ['EUR', 'USD'] });
    } finally {
      Object.assign(stripe, { secretKey: undefined, publishableKey: undefined });
    }
  });
});

// Issue 48, point 4: GET /api/me answered a trial and the plan's 1 room at the top level while its
// `account` said no trial and 10 rooms. One source of truth: no plan, no trial, the admin's limit.
describe('GET /api/me without billing', () => {
  it('says no plan and no trial, and the rooms the account may have, at the top level as in `account`', async () => {
    const { cookie } = await createUser({ isTrial: true, accountType: 'individual', numberOfRooms: 1, trialEndsAt: new Date(Date.now() + 5 * 86_400_000) });
    const answer = await call(me, { cookies: sessionCookies(cookie), headers: { 'cf-ipcountry': 'de' } });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ accountType: null, isTrial: false, trialEndsAt: null, numberOfRooms: 10 });
    expect(answer.json.account).toMatchObject({ billingOn: false, isTrial: false, trialEndsAt: null, rooms: 10 });
    expect(JSON.stringify(answer.json)).not.toMatch(/individual|executive|trialEnded":true/);
    // SPEC's meetServer is this server; location is what GET /api/location says for the request.
    expect(answer.json.meetServer).toBe(config.appUrl);
    expect(answer.json.location).toEqual({ country: 'DE', region: 'eu' });
  });

  it('ON_PREMISE=true: no room limit (SPEC point 4), the 11th room and more are created', async () => {
    const settings = config as { onPremise: boolean };
    settings.onPremise = true;
    try {
      const { cookie } = await createUser({ numberOfRooms: 1 });
      for (let n = 1; n <= 12; n += 1) {
        const answer = await call(addRoom, { body: { name: `On-premise room ${n}` }, cookies: sessionCookies(cookie) });
        expect(answer.json).toMatchObject({ status: 'ok' });
      }
      const answer = await call(me, { cookies: sessionCookies(cookie) });
      // No limit: null, as the account dialog shows "No limit".
      expect(answer.json).toMatchObject({ numberOfRooms: null, account: { rooms: null, roomsAvailable: null } });
    } finally {
      settings.onPremise = false;
    }
  });
});
