// Stripe's servers, stood in for (issue 15): this machine cannot reach js.stripe.com or
// api.stripe.com. A test that pays routes both hosts: Stripe.js is replaced by a small script with
// the same calls the app makes (elements, a card field, confirmCardPayment, confirmCardSetup), and
// its API calls go to the Stripe stand-in that the e2e server also uses.
import type { Page } from '@playwright/test';
import { STRIPE_STAND_IN_URL } from './constants.mjs';

const fakeStripeJs = `
(() => {
  const api = 'https://api.stripe.com/v1';
  function form(data, prefix, out) {
    out = out || new URLSearchParams();
    for (const [key, value] of Object.entries(data)) {
      const name = prefix ? prefix + '[' + key + ']' : key;
      if (value && typeof value === 'object') form(value, name, out);
      else if (value !== undefined && value !== null) out.append(name, String(value));
    }
    return out;
  }
  async function post(path, key, data) {
    const response = await fetch(api + path, { method: 'POST', body: form({ key, ...data }) });
    return response.json();
  }
  function cardElement() {
    const handlers = {};
    let input = null;
    return {
      __type: 'card',
      mount(node) {
        const target = typeof node === 'string' ? document.querySelector(node) : node;
        input = document.createElement('input');
        input.setAttribute('aria-label', 'Card number');
        input.setAttribute('inputmode', 'numeric');
        input.addEventListener('input', () => (handlers.change || []).forEach((h) => h({ complete: input.value.replace(/\\D/g, '').length >= 16, error: undefined })));
        target.appendChild(input);
        setTimeout(() => (handlers.ready || []).forEach((h) => h({})), 0);
      },
      on(event, handler) { (handlers[event] = handlers[event] || []).push(handler); return this; },
      off(event, handler) { handlers[event] = (handlers[event] || []).filter((h) => h !== handler); return this; },
      update() {},
      focus() { input && input.focus(); },
      blur() {},
      clear() { if (input) input.value = ''; },
      unmount() { input && input.remove(); },
      destroy() { input && input.remove(); },
      number() { return input ? input.value : ''; },
    };
  }
  function paymentMethodData(options) {
    const method = (options && options.payment_method) || {};
    const card = method.card;
    return { type: 'card', card: { number: card && card.number ? card.number() : undefined }, billing_details: method.billing_details || {} };
  }
  function Stripe(key) {
    let card = null;
    return {
      elements() {
        return {
          create(type) { card = cardElement(); return card; },
          getElement(type) { return card; },
          update() {},
        };
      },
      async confirmCardPayment(clientSecret, options) {
        const id = clientSecret.split('_secret_')[0];
        const body = { client_secret: clientSecret };
        if (options && options.payment_method) body.payment_method_data = paymentMethodData(options);
        const intent = await post('/payment_intents/' + id + '/confirm', key, body);
        if (intent.error) return { error: { type: 'invalid_request_error', message: intent.error.message } };
        if (intent.status === 'succeeded' || intent.status === 'processing') return { paymentIntent: intent };
        return { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.', payment_intent: intent } };
      },
      async confirmCardSetup(clientSecret, options) {
        const id = clientSecret.split('_secret_')[0];
        const intent = await post('/setup_intents/' + id + '/confirm', key, { client_secret: clientSecret, payment_method_data: paymentMethodData(options) });
        if (intent.error) return { error: { type: 'card_error', message: intent.error.message, setup_intent: { id } } };
        return { setupIntent: intent };
      },
      createToken() {},
      createPaymentMethod() {},
      registerAppInfo() {},
      _registerWrapper() {},
    };
  }
  Stripe.version = 'endive';
  window.Stripe = Stripe;
})();
`;

/** Routes js.stripe.com to the stand-in Stripe.js and api.stripe.com to the Stripe stand-in. */
export async function standInForStripe(page: Page) {
  await page.route('https://js.stripe.com/**', (route) => route.fulfill({ contentType: 'application/javascript', body: fakeStripeJs }));
  await page.route('https://api.stripe.com/**', async (route) => {
    const url = new URL(route.request().url());
    const response = await fetch(`${STRIPE_STAND_IN_URL}${url.pathname}${url.search}`, {
      method: route.request().method(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: route.request().postData() ?? undefined,
    });
    await route.fulfill({
      status: response.status,
      contentType: 'application/json',
      headers: { 'access-control-allow-origin': '*' },
      body: await response.text(),
    });
  });
}

/** What the stand-in holds now (subscriptions, invoices…), for assertions. */
export async function standInState(): Promise<{ subscriptions: { id: string; status: string; items: { data: { quantity: number }[] } }[] }> {
  return (await fetch(`${STRIPE_STAND_IN_URL}/__stand-in/state`)).json();
}
