// The call's messages through the SFU (issue 46, item 3; docs/meetings.md "Messages through the
// SFU"), in real Chromium against the e2e server's Janus: once every page hears every other through
// Janus, a chat is sealed once for all and opens on each page; a chat another participant forges in
// Ada's name, under the key Ada handed it, is dropped as forged and shows nowhere; and a call that
// moves mesh → SFU → mesh while Ada keeps talking delivers every message once, in order.
import { expect, test } from '@playwright/test';
import { closedAfterEach, fragment, joinMeeting, newSecret, sayInChat, selfId } from './support/meeting';
import { chatTexts, mediaRoute, sfuMessages } from './support/probe-readers';
import { seededAccount } from './support/session';

test.describe.configure({ timeout: 180_000 });

const open = closedAfterEach();

test('through the SFU a chat is sealed once and opens on every page; one forged in another’s name is dropped and shows nowhere', async ({
  browser,
  baseURL,
}) => {
  const meetingId = seededAccount('demo').meetingId;
  const secret = newSecret();
  const people = [];
  for (const name of ['Ada', 'Bob', 'Cy']) {
    const person = await joinMeeting(browser, baseURL!, meetingId, { name, search: '?media=sfu', fragment: fragment(secret), camera: false });
    open.push(person);
    people.push(person);
  }
  const [ada, bob, cy] = people as [(typeof people)[0], (typeof people)[0], (typeof people)[0]];
  const [adaId, bobId, cyId] = await Promise.all(people.map(({ page }) => selfId(page)));
  for (const { page } of people) await expect.poll(() => mediaRoute(page), { timeout: 30_000 }).toBe('sfu');
  // Each page greeted the others' publishers once its own channel on their subscriptions opened.
  const others = { [adaId!]: [bobId, cyId], [bobId!]: [adaId, cyId], [cyId!]: [adaId, bobId] };
  for (const [at, { page }] of people.entries())
    await expect.poll(async () => (await sfuMessages(page))?.hearing.sort(), { timeout: 45_000 }).toEqual([...others[[adaId, bobId, cyId][at]!]!].sort());

  for (const { page } of people) await page.getByRole('button', { name: 'Chat', exact: true }).click();
  const [sentBefore, bobBefore, cyBefore] = await Promise.all([ada, bob, cy].map(({ page }) => sfuMessages(page)));
  await sayInChat(ada.page, 'sealed once for both');
  for (const { page } of [bob, cy]) await expect.poll(() => chatTexts(page)).toContain('sealed once for both');
  // Through Janus: Ada sealed it there, Bob and Cy opened it there.
  expect((await sfuMessages(ada.page))!.sent).toBeGreaterThan(sentBefore!.sent);
  expect((await sfuMessages(bob.page))!.opened).toBeGreaterThan(bobBefore!.opened);
  expect((await sfuMessages(cy.page))!.opened).toBeGreaterThan(cyBefore!.opened);

  // Cy holds Ada's sender key (it opens her frames) and writes a chat in her name under it, signed
  // with Cy's own proof key: Bob's page drops it as forged and shows nothing.
  const forgedBefore = (await sfuMessages(bob.page))!.drops.forged ?? 0;
  expect(await cy.page.evaluate((id) => window.enclaveProbe!.sfuForgeMessage(id, 'forged by Cy'), adaId!)).toBe(true);
  await expect.poll(async () => (await sfuMessages(bob.page))!.drops.forged ?? 0, { timeout: 15_000 }).toBeGreaterThan(forgedBefore);
  expect(await chatTexts(bob.page)).not.toContain('forged by Cy');
  expect(await chatTexts(ada.page)).not.toContain('forged by Cy');
  // Ada's own words still arrive after it.
  await sayInChat(ada.page, 'still me');
  await expect.poll(() => chatTexts(bob.page)).toContain('still me');
});

test('a call that moves mesh → SFU → mesh while Ada keeps talking delivers every message to Bob once, in order', async ({ browser, baseURL }) => {
  const meetingId = seededAccount('demo').meetingId;
  const secret = newSecret();
  // From 3 people through the SFU, at 2 back to the mesh.
  const join = (name: string) => joinMeeting(browser, baseURL!, meetingId, { name, search: '?sfuFrom=3', fragment: fragment(secret), camera: false });
  const ada = await join('Ada');
  open.push(ada);
  const bob = await join('Bob');
  open.push(bob);
  for (const { page } of [ada, bob]) await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await expect.poll(() => mediaRoute(ada.page), { timeout: 30_000 }).toBe('mesh');

  // Ada talks about four times a second for as long as the moves take.
  let talking = true;
  let said = 0;
  const talk = (async () => {
    while (talking) {
      said += 1;
      await sayInChat(ada.page, `n${said}`);
      await ada.page.waitForTimeout(250);
    }
  })();

  const cy = await join('Cy');
  open.push(cy);
  for (const { page } of [ada, bob, cy]) await expect.poll(() => mediaRoute(page), { timeout: 45_000 }).toBe('sfu');
  await expect.poll(async () => (await sfuMessages(bob.page))?.hearing.length ?? 0, { timeout: 45_000 }).toBe(2);
  await ada.page.waitForTimeout(3000);
  await cy.context.close();
  open.splice(open.indexOf(cy), 1);
  for (const { page } of [ada, bob]) await expect.poll(() => mediaRoute(page), { timeout: 45_000 }).toBe('mesh');
  await ada.page.waitForTimeout(3000);
  talking = false;
  await talk;

  const expected = Array.from({ length: said }, (_, index) => `n${index + 1}`);
  await expect.poll(async () => (await chatTexts(bob.page)).filter((text) => /^n\d+$/.test(text)).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(said);
  const received = (await chatTexts(bob.page)).filter((text) => /^n\d+$/.test(text));
  const missing = expected.filter((text) => !received.includes(text));
  console.log(`mesh → SFU → mesh: Ada said ${said}, Bob got ${received.length}${missing.length ? `, missing ${missing.join(' ')}` : ''}`);
  expect(received).toEqual(expected);
});
