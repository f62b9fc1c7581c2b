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
