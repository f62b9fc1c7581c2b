import { eq } from 'drizzle-orm';
import { config } from '@/lib/environment';
import { closeDb, getDb } from '@/lib/db/client';
import { auditLog, configuration, contactRequests } from '@/lib/db/schema';
import { POST as saveConfiguration, GET as readConfiguration } from '@/app/api/admin/configuration/route';
import { POST as contact } from '@/app/contact/route';
import sitemap from '@/app/sitemap';
import { publicSiteSettings } from '@/lib/public-site/settings';
import { publicSite } from '@/lib/seo/site-shape';
import { call, createUser, sessionCookies } from '../support/api';
import { fromIp, lastMailTo, mailCount, uniqueEmail } from '../support/accounts';

// Issue 35, item 4: the operator's public pages. HOME_PAGE gives the default (else billing does:
// these tests run without Stripe keys, so billing is off and the plain home is the default), the
// admin's setting overrides it; the texts are stored as written and rendered as text elsewhere;
// contact sales needs SALES_EMAIL; the sitemap lists only the pages that exist.
beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

const env = config as unknown as { homePage?: string; salesEmail?: string; registration?: string };
// Before each test too: on PostgreSQL another file may have left settings in the shared row.
async function resetSettings() {
  env.homePage = undefined;
  env.salesEmail = undefined;
  env.registration = undefined;
  const db = await getDb();
  await db
    .update(configuration)
    .set({ homePage: null, homeSentence: null, privacyText: null, imprintText: null, registration: null })
    .where(eq(configuration.id, 1));
}
beforeEach(resetSettings);
afterEach(resetSettings);

let admin: Awaited<ReturnType<typeof createUser>>;
beforeAll(async () => {
  admin = await createUser({ role: 'admin', firstName: 'Ada', lastName: 'Operator' });
});
const configure = (body: Record<string, unknown>) => call(saveConfiguration, { body, cookies: sessionCookies(admin.cookie) });

describe('the home setting', () => {
  it('defaults to the plain home without billing, and HOME_PAGE chooses otherwise', async () => {
    expect((await publicSiteSettings()).homePage).toBe('private');
    env.homePage = 'marketing';
    expect((await publicSiteSettings()).homePage).toBe('marketing');
    const shown = await call(readConfiguration, { cookies: sessionCookies(admin.cookie) });
    expect(shown.json).toMatchObject({ home_page: null, defaultHomePage: 'marketing', privacy_text: null, imprint_text: null, contactConfigured: false });
  });

  it('the admin setting overrides HOME_PAGE, and null gives it back', async () => {
    env.homePage = 'marketing';
    expect((await configure({ home_page: 'private' })).json).toMatchObject({ status: 'ok' });
    expect((await publicSiteSettings()).homePage).toBe('private');
    expect((await configure({ home_page: null })).json).toMatchObject({ status: 'ok' });
    expect((await publicSiteSettings()).homePage).toBe('marketing');
  });

  it.each([
    ['an unknown home page', { home_page: 'landing' }],
    ['a home page that is not text', { home_page: 1 }],
    ['a sentence over 300 characters', { home_sentence: 'x'.repeat(301) }],
    ['a privacy text that is not text', { privacy_text: { html: '<b>' } }],
    ['an imprint over 50,000 characters', { imprint_text: 'x'.repeat(50_001) }],
  ])('%s → 400 incorrect_data, nothing changes', async (_name, body) => {
    const answer = await configure(body);
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ status: 'error', errorCode: 'incorrect_data', message: expect.any(String) });
    expect(await publicSiteSettings()).toMatchObject({ homePage: 'private', homeSentence: null, privacyText: null, imprintText: null });
  });

  it('cannot be changed by a plain user or a guest', async () => {
    const { cookie } = await createUser();
    expect((await call(saveConfiguration, { body: { home_page: 'marketing' }, cookies: sessionCookies(cookie) })).status).toBe(403);
    expect((await call(saveConfiguration, { body: { home_page: 'marketing' } })).status).toBe(401);
    expect((await publicSiteSettings()).homePage).toBe('private');
  });
});

describe('the operator\u2019s texts', () => {
  it('are stored trimmed and as written (markup included: pages render them as text), an empty one is none', async () => {
    const privacy = '# Our policy\n\n<script>alert(1)</script> stays text.\n\n- one\n- two';
    const answer = await configure({
      home_sentence: '  Meetings of the Example Choir.  ',
      privacy_text: `\n${privacy}\n`,
      imprint_text: 'Example e.V., Musterstraße 1, Berlin',
    });
    expect(answer.json).toMatchObject({ status: 'ok', configuration: { home_sentence: 'Meetings of the Example Choir.', privacy_text: privacy } });
    expect(await publicSiteSettings()).toMatchObject({
      homeSentence: 'Meetings of the Example Choir.',
      privacyText: privacy,
      imprintText: 'Example e.V., Musterstraße 1, Berlin',
    });

    expect((await configure({ privacy_text: '   ', imprint_text: '' })).json).toMatchObject({
      status: 'ok',
      configuration: { privacy_text: null, imprint_text: null },
    });
    expect(await publicSiteSettings()).toMatchObject({ privacyText: null, imprintText: null });
  });

  it('are written to the audit log: the home page as changed, a long text by its length', async () => {
    await configure({ home_page: 'marketing', imprint_text: 'Example GmbH' });
    const db = await getDb();
    const rows = await db.select().from(auditLog).where(eq(auditLog.action, 'update_configuration'));
    const last = rows.map((row) => row.details as Record<string, unknown>).findLast((details) => 'imprint_text' in details);
    expect(last).toMatchObject({ home_page: { from: null, to: 'marketing' }, imprint_text: { from: null, to: '12 characters' } });
  });
});

describe('POST /contact needs SALES_EMAIL', () => {
  const body = () => ({ name: 'Ada Lovelace', email: uniqueEmail('sales'), message: `About 40 rooms (${Date.now()})` });
  const stored = async (message: string) => (await (await getDb()).select().from(contactRequests).where(eq(contactRequests.message, message))).length;

  it('without it: 404 contact_not_configured, nothing stored, nothing mailed (not even to no-reply@localhost)', async () => {
    const request = body();
    const mails = await mailCount('no-reply@localhost');
    const answer = await call(contact, { body: request, headers: fromIp() });
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({ status: 'error', errorCode: 'contact_not_configured', message: expect.any(String) });
    expect(await stored(request.message)).toBe(0);
    expect(await mailCount('no-reply@localhost')).toBe(mails);
  });

  it('with it: the request is kept and mailed there', async () => {
    env.salesEmail = 'sales@operator.example';
    const request = body();
    expect((await call(contact, { body: request, headers: fromIp() })).json).toEqual({ status: 'ok' });
    expect(await stored(request.message)).toBe(1);
    expect((await lastMailTo('sales@operator.example')).mail?.text).toContain(request.email);
  });
});

describe('sitemap.xml follows the pages that exist', () => {
  const paths = async () => (await sitemap()).map((entry) => new URL(entry.url).pathname);

  it('a private server: no sales page, no imprint until one is written; the privacy policy always', async () => {
    let urls = await paths();
    expect(urls).toEqual(expect.arrayContaining(['/', '/privacy', '/de/privacy', '/register', '/login']));
    expect(urls.filter((url) => /enterprise|imprint/.test(url))).toEqual([]);

    await configure({ imprint_text: 'Example e.V.' });
    urls = await paths();
    expect(urls).toEqual(expect.arrayContaining(['/imprint', '/zh-tw/imprint']));
  });

  it('the marketing site has its sales page; closed registration takes /register out', async () => {
    env.homePage = 'marketing';
    expect(await paths()).toEqual(expect.arrayContaining(['/enterprise', '/fr/enterprise']));
    env.registration = 'closed';
    expect((await paths()).filter((url) => url.endsWith('/register'))).toEqual([]);
    expect((await publicSite()).registrationOpen).toBe(false);
  });
});
