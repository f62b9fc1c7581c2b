import { closeDb } from '@/lib/db/client';
import { call, createUser, sessionCookies } from '../support/api';
import { handlersOf, routeFiles, routePath } from '../support/routes';

afterAll(() => closeDb());

// Issue 16: a standing sweep generated from the route files, so that a new route cannot be
// forgotten. Every state-changing handler refuses a request whose Origin is another site, "null"
// or missing (CSRF), logged in or not, before it reads the body; its refusal is the error
// envelope with the security headers the API gives every answer.
const figures = { routes: 0, handlers: 0, requests: 0, fiveHundreds: 0 };

// Called by Stripe's servers, which send no Origin: the signature over the body is the proof, so
// an unsigned request is refused by that check instead (billing off here: refused before it).
const signedByCaller = new Set(['stripe/webhook/route.ts']);

describe('every state-changing route refuses a request from another site', () => {
  it('finds the routes of SPEC point 7 (the sweep is not empty)', () => {
    expect(routeFiles.length).toBeGreaterThan(40);
    expect(routeFiles).toEqual(expect.arrayContaining(['login/route.ts', 'api/rate/route.ts', 'contact/route.ts', '2fa/g2f/cancel/route.ts']));
  });

  it.each(routeFiles)('%s', async (file) => {
    const handlers = await handlersOf(file);
    figures.routes += 1;
    const { cookie } = await createUser();
    for (const [method, handler] of handlers) {
      figures.handlers += 1;
      for (const origin of ['https://evil.example', 'null', null]) {
        for (const cookies of [undefined, sessionCookies(cookie)]) {
          figures.requests += 1;
          const answer = await call(handler, {
            method,
            path: routePath(file),
            origin: origin === null ? null : origin,
            body: { email: 'x@example.test', password: 'Password-123', rating: 5 },
            cookies,
            params: { id: 'x', hash: 'x', email: 'x@example.test', avatar: 'x', link: 'x', token: 'x', rest: ['x', 'y'] as never },
          });
          if (answer.status >= 500) figures.fiveHundreds += 1;
          if (signedByCaller.has(file)) {
            expect([file, answer.status, answer.json.errorCode]).toEqual([file, 400, expect.stringMatching(/^(incorrect_data|billing_not_configured)$/)]);
            continue;
          }
          expect([file, method, origin, answer.status]).toEqual([file, method, origin, 403]);
          expect(answer.json).toMatchObject({ status: 'error', errorCode: 'authentication_error' });
          expect(answer.headers.get('cache-control')).toBe('no-store');
        }
      }
    }
  });

  afterAll(() => {
    // The figures docs/security.md records.
    console.log(`route sweep: ${JSON.stringify(figures)}`);
  });
});
