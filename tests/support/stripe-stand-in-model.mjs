// The memory of the Stripe stand-in (tests/support/stripe-stand-in.mjs): customers, subscriptions,
// invoices, payment and setup intents and payment methods, the events Stripe would send, and how
// a charge with a test card turns out. The stand-in's routes and test controls act on it.
import { randomBytes } from 'node:crypto';

export const DAY = 24 * 60 * 60;
export const PERIOD = 30 * DAY;

export const now = () => Math.floor(Date.now() / 1000);
export const newId = (prefix) => `${prefix}_${randomBytes(10).toString('hex')}`;
export const clone = (value) => JSON.parse(JSON.stringify(value));

export function cardBehaviour(number) {
  const digits = String(number ?? '4242424242424242').replace(/\D/g, '');
  if (digits === '4000002500003155') return 'three_d_secure';
  if (digits === '4000000000000002') return 'decline';
  return 'ok';
}

/**
 * The room product has one id in every stand-in: the test files on PostgreSQL share one database,
 * which remembers the product's id (configuration.stripe_product_id) from whichever file made it
 * first, so every stand-in of a run must know it, as one Stripe account would.
 */
export const ROOM_PRODUCT = { id: 'prod_enclave_room', object: 'product', name: 'Enclave room', metadata: { enclave: 'room' } };

/** A fresh Stripe account (only the room product in it) and the operations the routes share. */
export function createStripeModel() {
  const state = {
    customers: new Map(),
    products: new Map([[ROOM_PRODUCT.id, clone(ROOM_PRODUCT)]]),
    subscriptions: new Map(),
    invoices: new Map(),
    paymentIntents: new Map(),
    setupIntents: new Map(),
    paymentMethods: new Map(),
    events: [],
    requests: [],
    idempotency: new Map(),
    loseNext: 0,
    losePath: null,
  };

  const emit = (type, object) =>
    state.events.push({ id: newId('evt'), object: 'event', type, created: now(), api_version: '2026-10-28.endive', data: { object: clone(object) } });

  function expandInvoice(invoice, paths) {
    const copy = clone(invoice);
    if (!paths.some((p) => p.includes('confirmation_secret'))) delete copy.confirmation_secret;
    return copy;
  }

  function present(subscription, expand = []) {
    const out = clone(subscription);
    const paths = expand.map((p) => p.replace(/^data\./, ''));
    if (paths.includes('default_payment_method') && out.default_payment_method)
      out.default_payment_method = clone(state.paymentMethods.get(out.default_payment_method));
    if (paths.some((p) => p.startsWith('latest_invoice')) && out.latest_invoice)
      out.latest_invoice = expandInvoice(state.invoices.get(out.latest_invoice), paths);
    return out;
  }

  function createPaymentMethod(data = {}, customer = null) {
    const card = data.card ?? {};
    const number = String(card.number ?? '4242424242424242').replace(/\D/g, '');
    const method = {
      id: newId('pm'),
      object: 'payment_method',
      type: 'card',
      customer,
      card: { brand: 'visa', last4: number.slice(-4), exp_month: 12, exp_year: 2030 },
      billing_details: { name: data.billing_details?.name ?? null },
      behaviour: cardBehaviour(number),
    };
    state.paymentMethods.set(method.id, method);
    return method;
  }

  function createInvoice(subscription, amount, reason) {
    const invoice = {
      id: newId('in'),
      object: 'invoice',
      customer: subscription.customer,
      status: 'open',
      amount_due: amount,
      amount_paid: 0,
      currency: subscription.items.data[0].price.currency,
      billing_reason: reason,
      parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id, metadata: subscription.metadata } },
      created: now(),
    };
    const intent = {
      id: newId('pi'),
      object: 'payment_intent',
      customer: subscription.customer,
      amount,
      currency: invoice.currency,
      status: 'requires_payment_method',
      last_payment_error: null,
      next_action: null,
      invoice: invoice.id,
    };
    intent.client_secret = `${intent.id}_secret_${randomBytes(8).toString('hex')}`;
    invoice.confirmation_secret = { client_secret: intent.client_secret, type: 'payment_intent' };
    state.invoices.set(invoice.id, invoice);
    state.paymentIntents.set(intent.id, intent);
    subscription.latest_invoice = invoice.id;
    emit('invoice.created', invoice);
    return { invoice, intent };
  }

  /** Charges an intent with a card, as Stripe does on confirmation or for an off-session renewal. */
  function charge(intent, method) {
    intent.payment_method = method.id;
    const invoice = state.invoices.get(intent.invoice);
    const subscription = invoice && state.subscriptions.get(invoice.parent.subscription_details.subscription);
    if (method.behaviour === 'decline') {
      intent.status = 'requires_payment_method';
      intent.last_payment_error = { code: 'card_declined', decline_code: 'generic_decline', type: 'card_error' };
      emit('payment_intent.payment_failed', intent);
      if (invoice) {
        emit('invoice.payment_failed', invoice);
        if (subscription && subscription.status === 'active' && invoice.billing_reason === 'subscription_cycle') {
          subscription.status = 'past_due';
          emit('customer.subscription.updated', subscription);
        }
      }
      return;
    }
    if (method.behaviour === 'three_d_secure' && intent.status !== 'requires_action') {
      intent.status = 'requires_action';
      intent.next_action = { type: 'use_stripe_sdk' };
      emit('payment_intent.requires_action', intent);
      return;
    }
    intent.status = 'succeeded';
    intent.next_action = null;
    intent.last_payment_error = null;
    emit('payment_intent.succeeded', intent);
    if (!invoice) return;
    invoice.status = 'paid';
    invoice.amount_paid = invoice.amount_due;
    emit('invoice.paid', invoice);
    if (!subscription) return;
    const item = subscription.items.data[0];
    if (subscription.status === 'incomplete') {
      subscription.status = 'active';
      item.current_period_start = now();
      item.current_period_end = now() + PERIOD;
      if (subscription.payment_settings?.save_default_payment_method === 'on_subscription') subscription.default_payment_method = method.id;
    }
    if (subscription.pending_update) {
      item.quantity = subscription.pending_update.quantity;
      subscription.pending_update = null;
    }
    if (subscription.status === 'past_due') subscription.status = 'active';
    emit('customer.subscription.updated', subscription);
  }

  function paymentMethodFor(subscription) {
    const customer = state.customers.get(subscription.customer);
    const id = subscription.default_payment_method ?? customer?.invoice_settings?.default_payment_method;
    return id ? state.paymentMethods.get(id) : null;
  }

  // Our own bookkeeping fields are not part of what Stripe answers.
  function publicIntent(intent) {
    const copy = clone(intent);
    delete copy.invoice;
    return copy;
  }
  function publicMethod(method) {
    const copy = clone(method);
    delete copy.behaviour;
    return copy;
  }

  return { state, emit, present, createPaymentMethod, createInvoice, charge, paymentMethodFor, publicIntent, publicMethod };
}
