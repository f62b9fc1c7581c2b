// Issue 33: every page at 1366×768, 768×1024 and 390×844, in English and German, with no
// sideways scrolling, no covered control, no unnamed control and one-row bars
// (support/layout.ts says how each is checked). Each page loads once per language and is
// resized through the three widths; a screenshot of each is attached to the test.
// The meeting's screens are in meeting-layout.spec.ts (the "meetings" project: one call at a time).
import { test as base, expect, type BrowserContext } from '@playwright/test';
import { localized } from './support/messages';
import { logIn } from './support/session';
import { sweep, widths } from './support/layout';
import { BILLING_OFF, createDatabase, extraPort, startInstance } from './support/instances';

// One logged-in and one logged-out context per worker: the pages share them.
const test = base.extend<object, { member: BrowserContext; visitor: BrowserContext }>({
  member: [
    async ({ browser }, use, workerInfo) => {
      const baseURL = workerInfo.project.use.baseURL!;
      const context = await browser.newContext({ baseURL });
      await logIn(context, baseURL, 'demo');
      await use(context);
      await context.close();
    },
    { scope: 'worker' },
  ],
  visitor: [
    async ({ browser }, use, workerInfo) => {
      const context = await browser.newContext({ baseURL: workerInfo.project.use.baseURL! });
      await use(context);
      await context.close();
    },
    { scope: 'worker' },
  ],
});

test.describe.configure({ timeout: 180_000 });

// A week of the demo account's calendar with meetings in it (two at once on the Tuesday, one at
// the weekend): the day, week and month views show them.
const WEEK = '2032-06-14';
const DAY = '2032-06-15';
const meetings = [
  { title: 'Layout standup', from: Date.UTC(2032, 5, 15, 9, 0) },
  { title: 'Layout review with a rather long title', from: Date.UTC(2032, 5, 15, 9, 15) },
  { title: 'Layout Friday demo', from: Date.UTC(2032, 5, 18, 14, 0) },
  { title: 'Layout Sunday call', from: Date.UTC(2032, 5, 20, 11, 0) },
];

const publicPages = [
  '/',
  '/enterprise',
  '/faq',
  '/download',
  '/security',
  '/terms-of-service',
  '/privacy',
  '/rate',
  '/login',
  '/register',
  '/forgotPassword',
  '/resetpassword/not-a-real-link',
  '/no-such-page',
];
const appPages = [
  '/',
  '/schedule',
  `/calendar/day/${DAY}`,
  `/calendar/week/${WEEK}`,
  `/calendar/month/${DAY}`,
  `/calendar/event/${DAY}`,
  '/attendees',
  '/settings',
  '/support',
  '/open-ticket',
  // Issue 48, point 5: where the setup link leads (an admin sees that they are one).
  '/first-admin',
];
// The admin area: rooms (its first page), users, support queue, ratings, audit, configuration.
const adminPages = ['/admin', '/admin/users', '/admin/support', '/admin/ratings', '/admin/audit', '/admin/configuration'];

for (const locale of ['en', 'de']) {
  test(`public pages fit every width (${locale})`, async ({ visitor }, testInfo) => {
    const page = await visitor.newPage();
    for (const route of publicPages) {
      await page.goto(localized(locale, route));
      for (const viewport of widths) await sweep(page, testInfo, `${locale}${route}`, viewport);
    }
    await page.close();
  });

  test(`app pages fit every width (${locale})`, async ({ member, baseURL }, testInfo) => {
    const page = await member.newPage();
    const created: string[] = [];
    for (const meeting of meetings) {
      const answer = await page.request.post('/api/event', {
        headers: { origin: baseURL! },
        data: { title: `${meeting.title} ${locale}`, from: meeting.from / 1000, duration: '1:00', timezone: 'Europe/London' },
      });
      expect(answer.status()).toBe(200);
      created.push(((await answer.json()).event as { id: string }).id);
    }
    try {
      for (const route of appPages) {
        await page.goto(localized(locale, route));
        for (const viewport of widths) await sweep(page, testInfo, `${locale}${route}`, viewport);
        // On a phone the weekend is there without scrolling: Sunday's meeting in the week, and
        // the chosen day's meetings under the month.
        const phoneShows = route.startsWith('/calendar/week') ? 'Layout Sunday call' : route.startsWith('/calendar/month') ? 'Layout standup' : null;
        if (phoneShows) {
          const box = await page.getByRole('button', { name: `${phoneShows} ${locale}` }).boundingBox();
          expect.soft(box && box.x >= 0 && box.x + box.width <= widths[2].width, `${phoneShows} within 390 px`).toBe(true);
        }
      }
    } finally {
      for (const id of created) await page.request.delete(`/api/event/${id}`, { headers: { origin: baseURL! } });
      await page.close();
    }
  });

  test(`admin pages fit every width (${locale})`, async ({ member }, testInfo) => {
    const page = await member.newPage();
    for (const route of adminPages) {
      await page.goto(localized(locale, route));
      for (const viewport of widths) await sweep(page, testInfo, `${locale}${route}`, viewport);
    }
    await page.close();
  });
}

// Issue 35: a private server's public pages (no Stripe keys: the plain home, /download without
// installer cards), on an instance of its own; the suite's server shows the hosted site above.
test('a private server\u2019s public pages fit every width (en, de)', async ({ browser }, testInfo) => {
  const database = await createDatabase();
  const instance = await startInstance(extraPort(51), {
    DATABASE_URL: database.url,
    ...BILLING_OFF,
    HOME_PAGE: '',
  });
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    for (const locale of ['en', 'de']) {
      for (const route of ['/', '/privacy', '/download']) {
        await page.goto(`${instance.url}${localized(locale, route)}`);
        for (const viewport of widths) await sweep(page, testInfo, `private-${locale}${route}`, viewport);
      }
    }
  } finally {
    await context.close();
    await instance.stop();
    await database.drop();
  }
});
