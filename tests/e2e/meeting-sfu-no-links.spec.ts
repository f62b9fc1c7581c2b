// A large call through the SFU holds no connection between participants (issue 46, item 3;
// docs/meetings.md "Connections through the SFU"), in real Chromium against the e2e server's Janus.
// `?linksUpTo=2` makes a call of three behave as one above LINKS_UP_TO: Ada and Bob, two, have a
// link; once Cy joins and the three hear each other through Janus, every link goes by agreement.
// Then a state set before Cy came (Bob's raised hand) reaches Cy through Janus, a chat reaches
// everyone, and a file opens a link of its own, arrives checked, and its link goes again after.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { closedAfterEach, fragment, joinMeeting, newSecret, sayInChat, selfId } from './support/meeting';
import { chatTexts, linkedPeers, mediaRoute, sfuMessages } from './support/probe-readers';
import { seededAccount } from './support/session';

test.describe.configure({ timeout: 180_000 });

const open = closedAfterEach();
const folder = mkdtempSync(path.join(tmpdir(), 'enclave-no-links-'));
test.afterAll(() => rmSync(folder, { recursive: true, force: true }));

const handOf = (page: Page, name: string) => page.evaluate((who) => window.enclaveProbe!.getState().peers.find((peer) => peer.name === who)?.media.hand, name);

test('above its link limit a call through the SFU keeps no link: state, chat and a file still reach everyone, and the file’s link goes after it', async ({
  browser,
  baseURL,
}) => {
  const meetingId = seededAccount('demo').meetingId;
  const secret = newSecret();
  const join = (name: string) =>
    joinMeeting(browser, baseURL!, meetingId, { name, search: '?media=sfu&linksUpTo=2', fragment: fragment(secret), camera: false });
  const ada = await join('Ada');
  open.push(ada);
  const bob = await join('Bob');
  open.push(bob);
  const [adaId, bobId] = await Promise.all([selfId(ada.page), selfId(bob.page)]);
  // Two in the call: within the limit, they keep a link.
  await expect.poll(() => linkedPeers(ada.page), { timeout: 30_000 }).toEqual([bobId]);
  await bob.page.getByRole('button', { name: 'Raise hand' }).click();
  await expect.poll(() => handOf(ada.page, 'Bob')).toBe(true);

  const cy = await join('Cy');
  open.push(cy);
  const cyId = await selfId(cy.page);
  const people = [ada, bob, cy];
  for (const { page } of people) await expect.poll(() => mediaRoute(page), { timeout: 30_000 }).toBe('sfu');
  const ids = [adaId!, bobId!, cyId!];
  for (const [at, { page }] of people.entries())
    await expect.poll(async () => (await sfuMessages(page))?.hearing.sort(), { timeout: 45_000 }).toEqual(ids.filter((_, index) => index !== at).sort());
  // Three hear each other through Janus: no page holds a link any more, Ada's and Bob's included.
  for (const { page } of people) await expect.poll(() => linkedPeers(page), { timeout: 20_000 }).toEqual([]);

  // Bob's hand went up before Cy came: Cy learns it through Janus, with no link to Bob.
  await expect.poll(() => handOf(cy.page, 'Bob')).toBe(true);
  for (const { page } of people) await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await sayInChat(cy.page, 'no links here');
  for (const { page } of [ada, bob]) await expect.poll(() => chatTexts(page)).toContain('no links here');

  // A file from Ada to Cy opens a link for itself.
  const bytes = randomBytes(3 * 1024 * 1024);
  const file = path.join(folder, 'notes.bin');
  writeFileSync(file, bytes);
  const chat = ada.page.getByRole('region', { name: 'Chat' });
  await chat.getByRole('button', { name: 'Send a file' }).click();
  const dialog = ada.page.getByRole('dialog', { name: 'Send a file' });
  await dialog.getByLabel('To').selectOption({ label: 'Cy' });
  await dialog.getByLabel('File').setInputFiles(file);
  await dialog.getByRole('button', { name: 'Send', exact: true }).click();
  await cy.page.getByRole('button', { name: 'Accept notes.bin' }).click();
  const arrived = cy.page.getByTestId('file-transfer').filter({ hasText: 'notes.bin' });
  await expect(arrived).toContainText('Arrived complete (SHA-256 checked)', { timeout: 60_000 });
  const [download] = await Promise.all([cy.page.waitForEvent('download'), cy.page.getByRole('button', { name: 'Save notes.bin' }).click()]);
  const saved = await download.createReadStream().then(async (stream) => Buffer.concat(await stream.toArray()));
  expect(createHash('sha256').update(saved).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
  // Done, the file's link goes too (looked at every 5 s, closed 2 s after Cy is told).
  for (const { page } of [ada, cy]) await expect.poll(() => linkedPeers(page), { timeout: 20_000 }).toEqual([]);
  // And the call goes on through Janus.
  await sayInChat(bob.page, 'still here');
  for (const { page } of [ada, cy]) await expect.poll(() => chatTexts(page)).toContain('still here');
});
