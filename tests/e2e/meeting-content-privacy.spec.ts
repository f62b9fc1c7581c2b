// Issue 49's promise, checked in one call through the SFU: what people make together in a call —
// a whiteboard drawing and its text, a poll's question and answers, a caption — reaches the others
// over the pairs' sealed channels while media goes through Janus, and the server never holds any of
// it: not in a request body, not in its log, not in its database's files. The database check has a
// control: a contact the host saves during the test is found in those same files, so an empty
// search means the content was never written, not that the search cannot see writes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { E2E_DATA_DIR } from './support/constants.mjs';
import { fragment, joinMeeting, keysVerified, recordBodies, selfId, type Participant } from './support/meeting';
import { mediaRoute } from './support/probe-readers';
import { messages } from './support/messages';
import { seededAccount } from './support/session';
import { storedFilesHolding } from './support/stored-data';

test.describe.configure({ timeout: 180_000 });

const m = messages('en');
const marker = (what: string) => `${what}${randomBytes(5).toString('hex')}`;

let people: Participant[] = [];
test.afterEach(async () => {
  for (const person of people) await person.context.close().catch(() => undefined);
  people = [];
});

const controls = (page: Page) => page.getByRole('navigation', { name: m.Meeting.controls });

test('through the SFU, a board, a poll and a caption reach the other page, and the server holds none of them: not in a body, its log or its database', async ({
  browser,
  baseURL,
}) => {
  const meetingId = seededAccount('demo').meetingId;
  const bodies: string[][] = [];
  const prepare = async (context: BrowserContext) => void bodies.push(recordBodies(context));
  const hash = fragment();
  const ada = await joinMeeting(browser, baseURL!, meetingId, {
    name: 'Demo User',
    camera: false,
    host: 'demo',
    search: '?media=sfu',
    fragment: hash,
    prepare,
  });
  const bob = await joinMeeting(browser, baseURL!, meetingId, { name: 'Bob', camera: false, search: '?media=sfu', fragment: hash, prepare });
  people = [ada, bob];
  for (const { page } of people) await expect.poll(() => mediaRoute(page), { timeout: 30_000 }).toBe('sfu');
  await keysVerified(ada.page);
  await keysVerified(bob.page);
  const logBefore = readFileSync(path.join(E2E_DATA_DIR, 'server.log')).length;
  const adaId = await selfId(ada.page);
  const secrets = { boardText: marker('Boardtext'), question: marker('Question'), answer: marker('Answer'), caption: marker('Caption') };

  // The whiteboard: a line with the mouse and a text, both on Bob's board.
  const w = m.Whiteboard;
  await controls(ada.page).getByRole('button', { name: w.title, exact: true }).click();
  const sheet = ada.page.locator('canvas[data-whiteboard-canvas]');
  const box = (await sheet.boundingBox())!;
  await ada.page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.2);
  await ada.page.mouse.down();
  for (let step = 1; step <= 10; step++) await ada.page.mouse.move(box.x + box.width * (0.2 + step * 0.03), box.y + box.height * (0.2 + step * 0.02));
  await ada.page.mouse.up();
  await ada.page.getByRole('button', { name: w.text, exact: true }).click();
  await ada.page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.6);
  await ada.page.getByRole('textbox', { name: w.textInput }).fill(secrets.boardText);
  await ada.page.keyboard.press('Enter');
  await expect
    .poll(async () => (await bob.page.evaluate(() => window.enclaveProbe!.whiteboard())).strokes.map((stroke) => stroke.kind ?? 'pen'))
    .toEqual(['pen', 'text']);
  expect((await bob.page.evaluate(() => window.enclaveProbe!.whiteboard())).strokes[1]!.text).toBe(secrets.boardText);
  await ada.page.getByRole('button', { name: w.close }).click();

  // A poll: Ada asks, Bob answers, both count it.
  const p = m.Polls;
  await controls(ada.page).getByRole('button', { name: p.title }).click();
  const polls = ada.page.getByRole('dialog', { name: p.title });
  await polls.getByLabel(p.question, { exact: true }).fill(secrets.question);
  await polls.getByLabel('Option 1', { exact: true }).fill(secrets.answer);
  await polls.getByLabel('Option 2', { exact: true }).fill('Other');
  await polls.getByRole('button', { name: p.launch }).click();
  await polls.press('Escape');
  await bob.page.getByRole('region', { name: p.title }).getByRole('button', { name: p.show }).click();
  const card = bob.page.getByRole('dialog', { name: p.title }).getByTestId('poll').filter({ hasText: secrets.question });
  await card.getByText(secrets.answer, { exact: true }).click();
  await card.getByRole('button', { name: p.vote, exact: true }).click();
  for (const { page } of people)
    await expect.poll(async () => (await page.evaluate(() => window.enclaveProbe!.polls())).views[0]?.tally.counts).toEqual([1, 0]);
  await bob.page.getByRole('dialog', { name: p.title }).press('Escape');

  // A caption from the stand-in recogniser, under Ada's tile on Bob's page.
  const c = m.Captions;
  await ada.page.evaluate(() => window.enclaveProbe!.captionStandIn('available'));
  await controls(ada.page).getByRole('button', { name: c.title }).click();
  const captions = ada.page.getByRole('dialog', { name: c.title });
  await captions.getByRole('button', { name: c.start }).click();
  await expect(captions.getByTestId('captions-status')).toHaveText(c.on);
  await captions.press('Escape');
  expect(await ada.page.evaluate((text) => window.enclaveProbe!.captionSay(text), secrets.caption)).toBe(true);
  await expect(bob.page.locator(`figure[data-participant="${adaId}"][data-kind="camera"] [data-testid="caption"]`)).toHaveText(secrets.caption);

  // The control: a contact the host saves now is written to the database's files.
  const control = marker('Control');
  const saved = await ada.page.request.post('/api/attendee', {
    data: { name: control, email: `${control.toLowerCase()}@example.com` },
    headers: { origin: baseURL! },
  });
  expect(saved.status()).toBe(200);
  const databaseDir = path.join(E2E_DATA_DIR, 'pglite');
  await expect.poll(() => storedFilesHolding(control, databaseDir).length, { timeout: 15_000 }).toBeGreaterThan(0);

  // Everything still went through the SFU, and the server holds none of what was made.
  for (const { page } of people) expect(await mediaRoute(page)).toBe('sfu');
  const log = readFileSync(path.join(E2E_DATA_DIR, 'server.log')).subarray(logBefore).toString();
  for (const secret of Object.values(secrets)) {
    expect(bodies.flat().filter((body) => body.includes(secret))).toEqual([]);
    expect(log).not.toContain(secret);
    expect(storedFilesHolding(secret)).toEqual([]);
  }
  const contact = ((await (await ada.page.request.get('/api/attendees')).json()) as { id: string; name: string }[]).find((entry) => entry.name === control);
  if (contact) await ada.page.request.delete(`/api/attendee/${contact.id}`, { headers: { origin: baseURL! } });
});
