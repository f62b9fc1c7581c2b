// A local stand-in for the part of Stripe's API that Enclave calls (issue 15): this machine cannot
// reach Stripe, so the `stripe` client is pointed here (STRIPE_API_URL). It keeps customers,
// subscriptions, invoices, payment and setup intents in memory, honours idempotency keys as Stripe
// does, and records the events Stripe would send, for tests to sign and deliver to the webhook.
// Cards follow Stripe's test numbers: 4242… pays, 4000002500003155 asks for 3-D Secure,
// 4000000000000002 is declined.
//
// Test controls live under /__stand-in/ (never part of Stripe's API).
// Run on its own: node tests/support/stripe-stand-in-server.mjs --port 3215
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { cardBehaviour, clone, createStripeModel, DAY, newId, now, PERIOD, ROOM_PRODUCT } from './stripe-stand-in-model.mjs';

/** Stripe's form encoding ("items[0][quantity]=2") back into objects and arrays. */
export function parseForm(text) {
  const out = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const parts = rawKey.replace(/\]/g, '').split('[');
    let node = out;
    parts.forEach((part, index) => {
      const last = index === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[index + 1]);
      if (last) node[part] = value;
      else node = node[part] ??= nextIsIndex ? [] : {};
    });
  }
  return out;
}

export function createStandIn() {
  const { state, emit, present, createPaymentMethod, createInvoice, charge, paymentMethodFor, publicIntent, publicMethod } = createStripeModel();

  const fail = (status, message, code = 'resource_missing') => ({
    status,
    body: { error: { type: status === 404 ? 'invalid_request_error' : 'invalid_request_error', code, message } },
  });
  const ok = (body) => ({ status: 200, body });

  const routes = [
    [
      'POST',
      /^\/v1\/customers$/,
      (_m, p) => {
        const customer = {
          id: newId('cus'),
          object: 'customer',
          email: p.email ?? null,
          name: p.name ?? null,
          metadata: p.metadata ?? {},
          invoice_settings: { default_payment_method: null },
        };
        state.customers.set(customer.id, customer);
        return ok(customer);
      },
    ],
    ['GET', /^\/v1\/customers\/([\w]+)$/, ([, id]) => (state.customers.has(id) ? ok(state.customers.get(id)) : fail(404, 'No such customer'))],
    [
      'POST',
      /^\/v1\/customers\/([\w]+)$/,
      ([, id], p) => {
        const customer = state.customers.get(id);
        if (!customer) return fail(404, 'No such customer');
        if (p.invoice_settings?.default_payment_method) customer.invoice_settings.default_payment_method = p.invoice_settings.default_payment_method;
        return ok(customer);
      },
    ],
    [
      'POST',
      /^\/v1\/products$/,
      (_m, p) => {
        const id = p.metadata?.enclave === 'room' ? ROOM_PRODUCT.id : newId('prod');
        const product = { id, object: 'product', name: p.name, metadata: p.metadata ?? {} };
        state.products.set(product.id, product);
        return ok(product);
      },
    ],
    [
      'POST',
      /^\/v1\/subscriptions$/,
      (_m, p) => {
        if (!state.customers.has(p.customer)) return fail(400, 'No such customer', 'resource_missing');
        const spec = p.items?.[0];
        const priceData = spec?.price_data;
        if (!priceData || !state.products.has(priceData.product)) return fail(400, 'No such product', 'resource_missing');
        const quantity = Number(spec.quantity ?? 1);
        const subscription = {
          id: newId('sub'),
          object: 'subscription',
          customer: p.customer,
          status: 'incomplete',
          created: now(),
          metadata: p.metadata ?? {},
          payment_settings: p.payment_settings ?? {},
          default_payment_method: null,
          pending_update: null,
          latest_invoice: null,
          items: {
            object: 'list',
            data: [
              {
                id: newId('si'),
                object: 'subscription_item',
                quantity,
                current_period_start: now(),
                current_period_end: now() + PERIOD,
                price: {
                  id: newId('price'),
                  object: 'price',
                  currency: priceData.currency,
                  unit_amount: Number(priceData.unit_amount),
                  product: priceData.product,
                  recurring: { interval: 'month' },
                },
              },
            ],
          },
        };
        state.subscriptions.set(subscription.id, subscription);
        createInvoice(subscription, quantity * Number(priceData.unit_amount), 'subscription_create');
        emit('customer.subscription.created', subscription);
        return ok(present(subscription, p.expand ?? []));
      },
    ],
    [
      'GET',
      /^\/v1\/subscriptions$/,
      (_m, p) => {
        const data = [...state.subscriptions.values()].filter((s) => !p.customer || s.customer === p.customer).map((s) => present(s, p.expand ?? []));
        return ok({ object: 'list', data, has_more: false, url: '/v1/subscriptions' });
      },
    ],
    [
      'GET',
      /^\/v1\/subscriptions\/([\w]+)$/,
      ([, id], p) => (state.subscriptions.has(id) ? ok(present(state.subscriptions.get(id), p.expand ?? [])) : fail(404, 'No such subscription')),
    ],
    [
      'POST',
      /^\/v1\/subscriptions\/([\w]+)$/,
      ([, id], p) => {
        const subscription = state.subscriptions.get(id);
        if (!subscription) return fail(404, 'No such subscription');
        if (p.default_payment_method) {
          if (!state.paymentMethods.has(p.default_payment_method)) return fail(400, 'No such PaymentMethod');
          subscription.default_payment_method = p.default_payment_method;
        }
        const change = p.items?.[0];
        if (change) {
          const item = subscription.items.data[0];
          if (change.id !== item.id) return fail(400, 'No such subscription item');
          const quantity = Number(change.quantity);
          if (p.proration_behavior === 'always_invoice' && quantity > item.quantity) {
            const left = Math.max(0, item.current_period_end - now()) / (item.current_period_end - item.current_period_start);
            const amount = Math.round((quantity - item.quantity) * item.price.unit_amount * left);
            const { intent } = createInvoice(subscription, amount, 'subscription_update');
            subscription.pending_update = p.payment_behavior === 'pending_if_incomplete' ? { quantity, expires_at: now() + DAY } : null;
            if (!subscription.pending_update) item.quantity = quantity;
            const method = paymentMethodFor(subscription);
            if (method) charge(intent, method);
          } else {
            item.quantity = quantity;
          }
        }
        emit('customer.subscription.updated', subscription);
        return ok(present(subscription, p.expand ?? []));
      },
    ],
    [
      'DELETE',
      /^\/v1\/subscriptions\/([\w]+)$/,
      ([, id]) => {
        const subscription = state.subscriptions.get(id);
        if (!subscription) return fail(404, 'No such subscription');
        subscription.status = subscription.status === 'incomplete' ? 'incomplete_expired' : 'canceled';
        emit('customer.subscription.deleted', subscription);
        return ok(present(subscription));
      },
    ],
    [
      'GET',
      /^\/v1\/payment_intents\/([\w]+)$/,
      ([, id]) => (state.paymentIntents.has(id) ? ok(publicIntent(state.paymentIntents.get(id))) : fail(404, 'No such payment_intent')),
    ],
    [
      'POST',
      /^\/v1\/payment_intents\/([\w]+)\/confirm$/,
      ([, id], p) => {
        const intent = state.paymentIntents.get(id);
        if (!intent) return fail(404, 'No such payment_intent');
        if (p.client_secret && p.client_secret !== intent.client_secret) return fail(400, 'Invalid client secret', 'payment_intent_invalid_parameter');
        if (intent.status === 'succeeded') return ok(publicIntent(intent));
        const method =
          p.payment_method && state.paymentMethods.has(p.payment_method)
            ? state.paymentMethods.get(p.payment_method)
            : intent.status === 'requires_action' && intent.payment_method
              ? { ...state.paymentMethods.get(intent.payment_method), behaviour: 'ok' }
              : createPaymentMethod(p.payment_method_data, intent.customer);
        charge(intent, method);
        return ok(publicIntent(intent));
      },
    ],
    [
      'POST',
      /^\/v1\/setup_intents$/,
      (_m, p) => {
        const intent = {
          id: newId('seti'),
          object: 'setup_intent',
          customer: p.customer ?? null,
          status: 'requires_payment_method',
          payment_method: null,
          usage: p.usage ?? 'off_session',
        };
        intent.client_secret = `${intent.id}_secret_${randomBytes(8).toString('hex')}`;
        state.setupIntents.set(intent.id, intent);
        return ok(intent);
      },
    ],
    ['GET', /^\/v1\/setup_intents\/([\w]+)$/, ([, id]) => (state.setupIntents.has(id) ? ok(state.setupIntents.get(id)) : fail(404, 'No such setup_intent'))],
    [
      'POST',
      /^\/v1\/setup_intents\/([\w]+)\/confirm$/,
      ([, id], p) => {
        const intent = state.setupIntents.get(id);
        if (!intent) return fail(404, 'No such setup_intent');
        const method = createPaymentMethod(p.payment_method_data, intent.customer);
        if (method.behaviour === 'decline') return fail(402, 'Your card was declined.', 'card_declined');
        intent.status = 'succeeded';
        intent.payment_method = method.id;
        emit('setup_intent.succeeded', intent);
        return ok(intent);
      },
    ],
    [
      'GET',
      /^\/v1\/payment_methods\/([\w]+)$/,
      ([, id]) => (state.paymentMethods.has(id) ? ok(publicMethod(state.paymentMethods.get(id))) : fail(404, 'No such PaymentMethod')),
    ],
  ];

  /** Test controls: what a browser, a bank or the passing of time would do at Stripe. */
  const controls = {
    /** The browser confirms a payment with a card (Elements' confirmCardPayment). */
    pay({ clientSecret = '', paymentIntent = undefined, card = '4242424242424242', name = 'Ada Lovelace' }) {
      const id = paymentIntent ?? String(clientSecret).split('_secret_')[0];
      const intent = state.paymentIntents.get(id);
      if (!intent) throw new Error(`no payment intent ${id}`);
      if (intent.status === 'requires_action') charge(intent, { ...state.paymentMethods.get(intent.payment_method), behaviour: 'ok' });
      else charge(intent, createPaymentMethod({ card: { number: card }, billing_details: { name } }, intent.customer));
      return publicIntent(intent);
    },
    /** The browser saves a card (confirmCardSetup). */
    saveCard({ clientSecret = '', setupIntent = undefined, card = '4242424242424242', name = 'Ada Lovelace' }) {
      const id = setupIntent ?? String(clientSecret).split('_secret_')[0];
      const intent = state.setupIntents.get(id);
      const method = createPaymentMethod({ card: { number: card }, billing_details: { name } }, intent.customer);
      intent.status = 'succeeded';
      intent.payment_method = method.id;
      return clone(intent);
    },
    /** A billing period ends: the renewal invoice is charged to the saved card. `final` ends Stripe's retries. */
    renew({ subscription: id, final = false }) {
      const subscription = state.subscriptions.get(id);
      const item = subscription.items.data[0];
      const { intent } = createInvoice(subscription, item.quantity * item.price.unit_amount, 'subscription_cycle');
      const method = paymentMethodFor(subscription);
      if (method) charge(intent, method);
      if (intent.status === 'succeeded') {
        item.current_period_start = item.current_period_end;
        item.current_period_end = item.current_period_start + PERIOD;
        emit('customer.subscription.updated', subscription);
      } else if (final) {
        subscription.status = 'unpaid';
        emit('customer.subscription.updated', subscription);
      }
      return present(subscription);
    },
    /** The saved card of a subscription starts to fail (or succeed) from now on. */
    setCard({ subscription: id, card }) {
      const subscription = state.subscriptions.get(id);
      const method = state.paymentMethods.get(subscription.default_payment_method);
      method.behaviour = cardBehaviour(card);
      return publicMethod(method);
    },
    /** The next n mutating calls (to `path`, if given) are carried out, but their answers are lost. */
    loseAnswers({ count = 1, path = null }) {
      state.loseNext = count;
      state.losePath = path;
      return { loseNext: count };
    },
  };

  async function handle(request, response) {
    const url = new URL(request.url, 'http://stand-in');
    let text = '';
    for await (const chunk of request) text += chunk;
    const json = (status, body) => {
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
      response.end(JSON.stringify(body));
    };

    if (url.pathname.startsWith('/__stand-in/')) {
      const name = url.pathname.slice('/__stand-in/'.length);
      if (request.method === 'GET' && name === 'events') return json(200, state.events);
      if (request.method === 'GET' && name === 'requests') return json(200, state.requests);
      if (request.method === 'GET' && name === 'state') return json(200, snapshot());
      const control = controls[name];
      if (!control) return json(404, { error: 'no such control' });
      try {
        return json(200, control(text ? JSON.parse(text) : {}));
      } catch (error) {
        return json(400, { error: String(error) });
      }
    }

    // Stripe.js sends its publishable key in the form body, the server library as a bearer token.
    const auth = request.headers.authorization ?? (/(^|&)key=pk_/.test(text) ? 'Bearer pk_' : '');
    if (!/^Bearer (sk|pk|rk)_/.test(auth)) return json(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    const params = request.method === 'GET' || request.method === 'DELETE' ? parseForm(url.search.slice(1)) : parseForm(text);
    const key = request.headers['idempotency-key'];
    state.requests.push({ method: request.method, path: url.pathname, idempotencyKey: key ?? null, params });

    const replay = key && request.method === 'POST' ? state.idempotency.get(key) : undefined;
    let answer = replay;
    if (!answer) {
      const route = routes.find(([method, pattern]) => method === request.method && pattern.test(url.pathname));
      answer = route ? route[2](url.pathname.match(route[1]), params) : fail(404, `Unrecognized request URL (${request.method}: ${url.pathname})`);
      if (key && request.method === 'POST' && answer.status < 500) state.idempotency.set(key, answer);
    }
    if (request.method !== 'GET' && state.loseNext > 0 && (!state.losePath || state.losePath === url.pathname)) {
      state.loseNext -= 1;
      return request.socket.destroy();
    }
    if (replay) response.setHeader('idempotent-replayed', 'true');
    return json(answer.status, answer.body);
  }

  function snapshot() {
    const plain = (map) => [...map.values()].map(clone);
    return {
      customers: plain(state.customers),
      subscriptions: plain(state.subscriptions),
      invoices: plain(state.invoices),
      paymentIntents: plain(state.paymentIntents).map(publicIntent),
    };
  }

  return { state, controls, handle, snapshot };
}

/** Starts the stand-in on a loopback port (0: any free one). */
export async function startStripeStandIn({ port = 0 } = {}) {
  const standIn = createStandIn();
  const server = createServer((request, response) => {
    standIn.handle(request, response).catch((error) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  return {
    ...standIn,
    url: `http://127.0.0.1:${address.port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
