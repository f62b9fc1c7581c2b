// Firefox through the SFU (issue 46; docs/meetings.md "Messages through the SFU", "Janus's stream
// numbers"): Janus opens each publisher's channel on a subscriber's connection on the lowest free
// SCTP stream, odd or even, and a browser that enforced RFC 8832's parity would drop every other
// publisher's. Here Firefox (Debian's ESR, driven by puppeteer-core) joins two Chromium pages
// through Janus and must hear both, and be heard by both, with a chat from each side arriving.
import { expect, test } from '@playwright/test';
import type { Browser as FirefoxBrowser, Page as FirefoxPage } from 'puppeteer-core';
import { joinMeetingInFirefox, launchFirefox } from './support/firefox';
import { closedAfterEach, fragment, joinMeeting, newSecret, sayInChat, selfId } from './support/meeting';
import { chatTexts, mediaRoute, sfuMessages } from './support/probe-readers';
import { seededAccount } from './support/session';

test.describe.configure({ timeout: 180_000 });

const open = closedAfterEach();
let firefox: FirefoxBrowser | null = null;
test.afterEach(async () => {
  await firefox?.close().catch(() => undefined);
  firefox = null;
});

const foxHearing = (page: FirefoxPage) => page.evaluate(() => window.enclaveProbe?.sfuMessages()?.hearing.sort() ?? null);
const foxChat = (page: FirefoxPage) => page.evaluate(() => window.enclaveProbe?.getState().chat.map((message) => message.text) ?? []);

test('Firefox through the SFU hears both Chromium publishers and is heard by both: chats arrive both ways', async ({ browser, baseURL }) => {
  const meetingId = seededAccount('demo').meetingId;
  const secret = newSecret();
  const join = (name: string) => joinMeeting(browser, baseURL!, meetingId, { name, search: '?media=sfu', fragment: fragment(secret), camera: false });
  const ada = await join('Ada');
  open.push(ada);
  const bob = await join('Bob');
  open.push(bob);
  firefox = await launchFirefox();
  const fox = await joinMeetingInFirefox(firefox, `${baseURL}/now/${meetingId}?media=sfu${fragment(secret)}`, 'Fiona');
  const [adaId, bobId] = await Promise.all([selfId(ada.page), selfId(bob.page)]);
  const foxId = await fox.evaluate(() => window.enclaveProbe!.getState().self.id);
  for (const { page } of [ada, bob]) await expect.poll(() => mediaRoute(page), { timeout: 30_000 }).toBe('sfu');

  // Both Chromium publishers' channels reached Firefox, whatever stream Janus put them on.
  await expect.poll(() => foxHearing(fox), { timeout: 45_000 }).toEqual([adaId, bobId].sort());
  for (const { page } of [ada, bob]) await expect.poll(async () => (await sfuMessages(page))?.hearing, { timeout: 45_000 }).toContain(foxId);

  for (const { page } of [ada, bob]) await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await sayInChat(ada.page, 'from Ada');
  await sayInChat(bob.page, 'from Bob');
  await expect.poll(() => foxChat(fox)).toEqual(expect.arrayContaining(['from Ada', 'from Bob']));
  await (await fox.waitForSelector('::-p-aria([name="Chat"][role="button"])'))!.click();
  await (await fox.waitForSelector('::-p-aria([name="Message"][role="textbox"])'))!.type('from Fiona');
  await (await fox.waitForSelector('::-p-aria([name="Send"][role="button"])'))!.click();
  for (const { page } of [ada, bob]) await expect.poll(() => chatTexts(page)).toContain('from Fiona');
});
