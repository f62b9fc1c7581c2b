// Polls in the call (issue 49, docs/meetings.md "Polls"): launched by anyone, carried sealed over
// the pairs' data channels, counted alike on every page, told to a late joiner by its peers,
// closed by the creator; hostile poll messages from a peer are dropped and the call goes on.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import type { Browser as FirefoxBrowser } from 'puppeteer-core';
import { E2E_DATA_DIR } from './support/constants.mjs';
import { sweep, widths } from './support/layout';
import { joinMeetingInFirefox, launchFirefox } from './support/firefox';
import { fragment, joinMeeting, keysVerified, recordBodies, selfId, type Participant } from './support/meeting';
import { mediaRoute } from './support/probe-readers';
import { messages } from './support/messages';
import { seededAccount } from './support/session';

test.describe.configure({ timeout: 180_000 });

const p = messages('en').Polls;

let people: Participant[] = [];
let firefox: FirefoxBrowser | null = null;
test.afterEach(async () => {
  for (const person of people) await person.context.close().catch(() => undefined);
  await firefox?.close().catch(() => undefined);
  [people, firefox] = [[], null];
});

type Views = { views: { id: string; question: string; closed: string | false; tally: { voters: number; counts: number[] } }[]; dropped: number };
const probePolls = (page: Page) =>
  page.evaluate(() => window.enclaveProbe!.polls()) as Promise<Views & { ballots: { keys: Record<string, string[]>; relayed: number } }>;

/** Opens "Polls" from the toolbar (a button of its own from lg), writes and launches a poll. */
async function launch(page: Page, question: string, options: string[], multiple = false, anonymous = false) {
  await page.getByRole('navigation', { name: 'Call controls' }).getByRole('button', { name: p.title }).click();
  const dialog = page.getByRole('dialog', { name: p.title });
  // Its code loads on this first use: the form shows at once when there is no poll yet.
  await expect(dialog.getByLabel(p.question, { exact: true }).or(dialog.getByRole('button', { name: p.newPoll }))).toBeVisible();
  if (!(await dialog.getByLabel(p.question, { exact: true }).isVisible())) await dialog.getByRole('button', { name: p.newPoll }).click();
  await dialog.getByLabel(p.question, { exact: true }).fill(question);
  for (const [index, option] of options.entries()) {
    const field = dialog.getByLabel(`Option ${index + 1}`, { exact: true });
    if (!(await field.isVisible())) await dialog.getByRole('button', { name: p.addOption }).click();
    await field.fill(option);
  }
  if (multiple) await dialog.getByLabel(p.multiple).check();
  if (anonymous) await dialog.getByLabel(p.anonymous).check();
  await dialog.getByRole('button', { name: p.launch }).click();
  return dialog;
}

const card = (page: Page, question: string) => page.getByRole('dialog', { name: p.title }).getByTestId('poll').filter({ hasText: question });
/** The result beside an option: "1 vote · 50%". */
const result = (page: Page, question: string, option: string) =>
  card(page, question)
    .getByRole('listitem')
    .filter({ has: page.getByText(option, { exact: true }) })
    .getByTestId('poll-result');

test('Ada launches a poll, Bo votes, both see the tally grow; Cy joins late and sees it; Ada closes it on every page', async ({ browser, baseURL }) => {
  const meetingId = seededAccount('demo').meetingId;
  const bodies: string[][] = [];
  const prepare = async (context: BrowserContext) => void bodies.push(recordBodies(context));
  const ada = await joinMeeting(browser, baseURL!, meetingId, { name: 'Ada', camera: false, fragment: fragment(), prepare });
  const bo = await joinMeeting(browser, baseURL!, meetingId, { name: 'Bo', camera: false, prepare });
  people = [ada, bo];
  await keysVerified(ada.page);
  await keysVerified(bo.page);
  const question = `Where shall we eat ${randomBytes(4).toString('hex')}?`;
  const logBefore = readFileSync(path.join(E2E_DATA_DIR, 'server.log')).length;

  // Nothing of the polls' screen is on the page before someone uses it.
  const scripts = (page: Page) =>
    page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .filter((name) => name.endsWith('.js')),
    );
  const before = await scripts(bo.page);
  await launch(ada.page, question, ['Pizza', 'Soup', 'Salad']);
  await expect(card(ada.page, question)).toContainText(p.byYou);

  // Bo hears of it in a note that does not take the focus, and opens it from there.
  const note = bo.page.getByRole('region', { name: p.title });
  await expect(note).toContainText('Ada started a poll:');
  await expect(note).toContainText(question);
  expect((await scripts(bo.page)).length).toBeGreaterThan(before.length);
  await note.getByRole('button', { name: p.show }).click();
  await expect(card(bo.page, question)).toContainText('By Ada');
  await card(bo.page, question).getByLabel('Soup').check();
  await card(bo.page, question).getByRole('button', { name: p.vote, exact: true }).click();
  for (const page of [ada.page, bo.page]) {
    await expect(card(page, question).getByTestId('poll-voters')).toContainText('1 person voted');
    await expect(result(page, question, 'Soup')).toHaveText('1 vote · 100%');
  }
  await card(ada.page, question).getByLabel('Pizza').check();
  await card(ada.page, question).getByRole('button', { name: p.vote, exact: true }).click();
  for (const page of [ada.page, bo.page]) {
    await expect(card(page, question).getByTestId('poll-voters')).toContainText('2 people voted');
    await expect(result(page, question, 'Pizza')).toHaveText('1 vote · 50%');
    await expect(result(page, question, 'Soup')).toHaveText('1 vote · 50%');
  }

  // Cy joins late: the open poll and both ballots come from the peers.
  const cy = await joinMeeting(browser, baseURL!, meetingId, { name: 'Cy', camera: false, prepare });
  people.push(cy);
  await keysVerified(cy.page, 2);
  await bo.page.getByRole('dialog', { name: p.title }).press('Escape');
  await expect(cy.page.getByRole('region', { name: p.title })).toContainText(question);
  await cy.page.getByRole('region', { name: p.title }).getByRole('button', { name: p.show }).click();
  await expect(card(cy.page, question).getByTestId('poll-voters')).toContainText('2 people voted');
  await expect(result(cy.page, question, 'Pizza')).toHaveText('1 vote · 50%');

  // Bo changes his vote: still one ballot each, on every page.
  await bo.page.getByRole('navigation', { name: 'Call controls' }).getByRole('button', { name: p.title }).click();
  await card(bo.page, question).getByLabel('Pizza').check();
  await card(bo.page, question).getByRole('button', { name: p.changeVote }).click();
  for (const page of [ada.page, bo.page, cy.page]) {
    await expect(card(page, question).getByTestId('poll-voters')).toContainText('2 people voted');
    await expect(result(page, question, 'Pizza')).toHaveText('2 votes · 100%');
    await expect(result(page, question, 'Soup')).toHaveText('0 votes · 0%');
  }

  // Only Ada can close it; then nobody votes, and the results stay.
  await expect(card(bo.page, question).getByRole('button', { name: p.close })).toHaveCount(0);
  await card(ada.page, question).getByRole('button', { name: p.close }).click();
  for (const page of [ada.page, bo.page, cy.page]) {
    await expect(card(page, question).getByTestId('poll-status')).toHaveText(p.closed);
    await expect(card(page, question)).toContainText(p.closedNote);
    await expect(card(page, question).getByRole('button', { name: p.vote, exact: true })).toHaveCount(0);
    await expect(card(page, question).getByLabel('Salad')).toBeDisabled();
    await expect(result(page, question, 'Pizza')).toHaveText('2 votes · 100%');
  }
  const tallies = await Promise.all([ada, bo, cy].map(async ({ page }) => (await probePolls(page)).views.map((poll) => [poll.closed, poll.tally])));
  expect(tallies[1]).toEqual(tallies[0]);
  expect(tallies[2]).toEqual(tallies[0]);

  // The server carried none of it in clear: not in a request body, not in its log.
  expect(bodies.flat().some((body) => body.includes(question) || body.includes('Pizza'))).toBe(false);
  expect(readFileSync(path.join(E2E_DATA_DIR, 'server.log')).subarray(logBefore).toString()).not.toContain(question);
});

// Bo's page plays a hostile peer through the probe (sendRawMessage sends any message, unchecked,
// sealed on the pair's channel); Ada's page is the one under test.
test('hostile poll messages are dropped: bad options, two answers on one-answer polls, a close or a takeover by a non-creator, a vote as someone else', async ({
  browser,
  baseURL,
}) => {
  const meetingId = seededAccount('demo').meetingId;
  const ada = await joinMeeting(browser, baseURL!, meetingId, { name: 'Ada', camera: false, fragment: fragment() });
  const bo = await joinMeeting(browser, baseURL!, meetingId, { name: 'Bo', camera: false });
  people = [ada, bo];
  await keysVerified(ada.page);
  await keysVerified(bo.page);
  const [adaId, boId] = await Promise.all([ada, bo].map(({ page }) => selfId(page)));
  await launch(ada.page, 'Best day?', ['Monday', 'Friday']);
  await card(ada.page, 'Best day?').getByLabel('Friday').check();
  await card(ada.page, 'Best day?').getByRole('button', { name: p.vote, exact: true }).click();
  const id = (await probePolls(ada.page)).views[0]!.id;
  await expect.poll(async () => (await probePolls(bo.page)).views.map((poll) => poll.tally.counts)).toEqual([[0, 1]]);

  const send = (message: Record<string, unknown>) =>
    bo.page.evaluate(({ to, message }) => window.enclaveProbe!.sendRawMessage(to, message), { to: adaId!, message });
  const hostile: Record<string, unknown>[] = [
    { t: 'poll-vote', id, choices: [7] },
    { t: 'poll-vote', id, choices: [0, 1] },
    { t: 'poll-vote', id, choices: ['0'] },
    { t: 'poll-close', id, counts: [9, 0] },
    { t: 'poll-open', id, question: 'Taken over', options: ['a', 'b'], multiple: false, ballots: [{ voter: adaId, choices: [0] }] },
    { t: 'poll-open', id: 'huge', question: 'q'.repeat(50_000), options: ['a', 'b'], multiple: false },
    { t: 'poll-open', id: 'many', question: 'Too many?', options: Array.from({ length: 11 }, (_, i) => `o${i}`), multiple: false },
    { t: 'poll-vote', id: { length: 1 }, choices: [0] },
    { t: 'poll-vote' },
  ];
  for (const message of hostile) expect(await send(message)).toBe(true);
  await expect.poll(async () => (await probePolls(ada.page)).dropped, { timeout: 15_000 }).toBe(hostile.length);
  // A vote that names Ada as its voter counts once, for Bo, whose channel carried it.
  expect(await send({ t: 'poll-vote', id, choices: [0], voter: adaId })).toBe(true);
  await expect(result(ada.page, 'Best day?', 'Monday')).toHaveText('1 vote · 50%');
  await expect(result(ada.page, 'Best day?', 'Friday')).toHaveText('1 vote · 50%');
  const state = (await probePolls(ada.page)).views;
  expect(state.map((poll) => [poll.question, poll.closed, poll.tally])).toEqual([['Best day?', false, { voters: 2, counts: [1, 1], percents: [50, 50] }]]);
  // The call goes on: Ada still closes her poll, and Bo's page hears it.
  await card(ada.page, 'Best day?').getByRole('button', { name: p.close }).click();
  await expect.poll(async () => (await probePolls(bo.page)).views.map((poll) => poll.closed)).toEqual(['closed']);
  expect(await ada.page.evaluate(() => window.enclaveProbe!.getState().peers.map((peer) => peer.id))).toEqual([boId]);
});

// Issue 49: one test of each feature through the SFU. Media goes through Janus; the data channels,
// and so the polls, stay on the pairs' links (docs/meetings.md "Through the SFU").
test('through the SFU: a poll launched, voted and closed counts the same on both pages', async ({ browser, baseURL }) => {
  const meetingId = seededAccount('demo').meetingId;
  const hash = fragment();
  const ada = await joinMeeting(browser, baseURL!, meetingId, { name: 'Ada', camera: false, search: '?media=sfu', fragment: hash });
  const bo = await joinMeeting(browser, baseURL!, meetingId, { name: 'Bo', camera: false, search: '?media=sfu', fragment: hash });
  people = [ada, bo];
  for (const { page } of people) await expect.poll(() => mediaRoute(page), { timeout: 30_000 }).toBe('sfu');
  await keysVerified(ada.page);
  await keysVerified(bo.page);

  await launch(ada.page, 'Which room?', ['Blue', 'Green', 'Red'], true);
  await bo.page.getByRole('region', { name: p.title }).getByRole('button', { name: p.show }).click();
  await card(bo.page, 'Which room?').getByLabel('Green').check();
  await card(bo.page, 'Which room?').getByLabel('Red').check();
  await card(bo.page, 'Which room?').getByRole('button', { name: p.vote, exact: true }).click();
  await expect(result(ada.page, 'Which room?', 'Green')).toHaveText('1 vote · 100%');
  await expect(result(ada.page, 'Which room?', 'Red')).toHaveText('1 vote · 100%');
  await card(ada.page, 'Which room?').getByRole('button', { name: p.close }).click();
  await expect(card(bo.page, 'Which room?').getByTestId('poll-status')).toHaveText(p.closed);
  const tallies = await Promise.all(people.map(async ({ page }) => (await probePolls(page)).views.map((poll) => [poll.closed, poll.tally])));
  expect(tallies[0]).toEqual([['closed', { voters: 1, counts: [0, 1, 1], percents: [0, 100, 100] }]]);
  expect(tallies[1]).toEqual(tallies[0]);
  for (const { page } of people) expect(await mediaRoute(page)).toBe('sfu');
});

// Issue 49 asks for a poll in Firefox too: Firefox's page gets the poll, votes through its own
// screen, and counts the same tally as Chromium's; Chromium's close reaches it.
test('a Firefox participant votes in a Chromium participant’s poll and both count the same tally', async ({ browser, baseURL }) => {
  const meetingId = seededAccount('demo').meetingId;
  const hash = fragment();
  const chris = await joinMeeting(browser, baseURL!, meetingId, { name: 'Chris', camera: false, fragment: hash });
  people = [chris];
  firefox = await launchFirefox();
  const fox = await joinMeetingInFirefox(firefox, `${baseURL}/now/${meetingId}${hash}`, 'Fiona');
  await keysVerified(chris.page);
  await fox.waitForFunction(() => window.enclaveProbe?.getState().peers[0]?.keys === 'verified', { timeout: 30_000 });

  await launch(chris.page, 'Tea or coffee?', ['Tea', 'Coffee']);
  // Firefox: the note's "Open poll", then "Coffee" and "Vote", as a person would click them.
  const click = (selector: string, text: string) =>
    fox.waitForFunction(
      (selector, text) => {
        const target = [...document.querySelectorAll<HTMLElement>(selector)].find((element) => element.textContent?.trim() === text);
        target?.click();
        return Boolean(target);
      },
      { timeout: 30_000, polling: 200 },
      selector,
      text,
    );
  await click('button', p.show);
  await click('[data-testid="poll"] label', 'Coffee');
  await click('[data-testid="poll"] button[type="submit"]', p.vote);
  await expect(result(chris.page, 'Tea or coffee?', 'Coffee')).toHaveText('1 vote · 100%');
  const foxTally = () => fox.evaluate(async () => (await window.enclaveProbe!.polls()).views.map((poll) => [poll.closed, poll.tally]));
  expect(await foxTally()).toEqual((await probePolls(chris.page)).views.map((poll) => [poll.closed, poll.tally]));

  await card(chris.page, 'Tea or coffee?').getByRole('button', { name: p.close }).click();
  await fox.waitForFunction(async () => (await window.enclaveProbe!.polls()).views[0]?.closed === 'closed', { timeout: 15_000, polling: 200 });
  expect(await foxTally()).toEqual([['closed', { voters: 1, counts: [0, 1], percents: [0, 100] }]]);
});

for (const locale of ['en', 'de']) {
  test(`"Polls" fits every width and works from the keyboard (${locale})`, async ({ browser, baseURL }, testInfo) => {
    const m = messages(locale).Meeting;
    const t = messages(locale).Polls;
    const meetingId = seededAccount('demo').meetingId;
    const join = async (name: string, hash = '') => {
      people.push(await joinMeeting(browser, baseURL!, meetingId, { name, fragment: hash, locale, viewport: widths[0] }));
      return people.at(-1)!.page;
    };
    const ada = await join('Ada Lovelace', fragment());
    const bo = await join('Bo Byron');
    await keysVerified(ada);
    await keysVerified(bo);

    // Keyboard only, from the phone's "More" menu: the dialog, its fields, Escape closes it.
    await ada.setViewportSize(widths[2]);
    const more = ada.getByRole('button', { name: m.moreOptions }).first();
    await more.focus();
    await ada.keyboard.press('ArrowDown');
    await ada.getByRole('menuitem', { name: t.title }).focus();
    await ada.keyboard.press('Enter');
    const dialog = ada.getByRole('dialog', { name: t.title });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel(t.question, { exact: true }).focus();
    await ada.keyboard.type('Kaffee oder Tee? Coffee or tea?');
    await ada.keyboard.press('Tab');
    await ada.keyboard.type('Kaffee');
    await ada.keyboard.press('Tab');
    await ada.keyboard.type('Tee');
    for (const viewport of widths) await sweep(ada, testInfo, `${locale} new poll`, viewport, { fullPage: false });
    await dialog.getByRole('button', { name: t.launch }).focus();
    await ada.keyboard.press('Enter');
    await expect(dialog.getByTestId('poll')).toContainText(t.byYou);
    for (const viewport of widths) await sweep(ada, testInfo, `${locale} a poll`, viewport, { fullPage: false });
    await ada.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // Bo: the note, then the poll, at every width; a vote from the keyboard.
    const note = bo.getByRole('region', { name: t.title });
    await expect(note).toContainText('Kaffee oder Tee?');
    for (const viewport of widths) await sweep(bo, testInfo, `${locale} a poll arrived`, viewport, { fullPage: false });
    await note.getByRole('button', { name: t.show }).click();
    const poll = bo.getByRole('dialog', { name: t.title }).getByTestId('poll');
    await poll.getByLabel('Tee').focus();
    await bo.keyboard.press('Space');
    await poll.getByRole('button', { name: t.vote, exact: true }).focus();
    await bo.keyboard.press('Enter');
    await expect(poll.getByRole('button', { name: t.changeVote })).toBeVisible();
    for (const viewport of widths) await sweep(bo, testInfo, `${locale} voted`, viewport, { fullPage: false });
  });
}

test('the host keeps polls to itself (a guest’s forged poll is refused everywhere), then an anonymous poll: equal tallies, and the host holds no person next to a choice', async ({
  browser,
  baseURL,
}) => {
  const meetingId = seededAccount('demo').meetingId;
  const host = await joinMeeting(browser, baseURL!, meetingId, { name: 'Demo User', camera: false, host: 'demo', fragment: fragment() });
  const ada = await joinMeeting(browser, baseURL!, meetingId, { name: 'Ada', camera: false });
  const bo = await joinMeeting(browser, baseURL!, meetingId, { name: 'Bo', camera: false });
  people = [host, ada, bo];
  for (const person of people) await keysVerified(person.page, 2);

  // The host turns on "only the host"; Ada's dialog shows the note instead of the form.
  await host.page.getByRole('navigation', { name: 'Call controls' }).getByRole('button', { name: p.title }).click();
  const hostDialog = host.page.getByRole('dialog', { name: p.title });
  await hostDialog.getByLabel(p.hostOnly).check();
  await ada.page.getByRole('navigation', { name: 'Call controls' }).getByRole('button', { name: p.title }).click();
  await expect(ada.page.getByRole('dialog', { name: p.title }).getByText(p.hostOnlyNote)).toBeVisible();
  await expect(ada.page.getByRole('dialog', { name: p.title }).getByLabel(p.question, { exact: true })).toHaveCount(0);
  // A modified client sends its poll anyway: every page refuses it.
  const forged = { t: 'poll-open', id: 'forged1', question: 'Forged?', options: ['Yes', 'No'], multiple: false };
  for (const to of [host, bo]) {
    const id = await selfId(to.page);
    expect(await ada.page.evaluate(({ id, forged }) => window.enclaveProbe!.sendRawMessage(id, forged), { id, forged })).toBe(true);
    await expect.poll(async () => (await probePolls(to.page)).dropped).toBe(1);
    expect((await probePolls(to.page)).views).toEqual([]);
  }

  // The host launches an anonymous poll (the dialog opens on the form while there is none); everyone votes.
  await expect(hostDialog.getByRole('form', { name: p.newPoll })).toBeVisible();
  await hostDialog.getByLabel(p.question, { exact: true }).fill('Secret?');
  await hostDialog.getByLabel('Option 1', { exact: true }).fill('Tea');
  await hostDialog.getByLabel('Option 2', { exact: true }).fill('Coffee');
  await hostDialog.getByLabel(p.anonymous).check();
  await hostDialog.getByRole('button', { name: p.launch }).click();
  await expect(card(host.page, 'Secret?').getByTestId('poll-anonymous')).toBeVisible();
  await expect(card(ada.page, 'Secret?')).toBeVisible();
  for (const [person, option] of [
    [host, 'Tea'],
    [ada, 'Coffee'],
    [bo, 'Coffee'],
  ] as const) {
    // Ada's and the host's dialogs are open from above; Bo opens his.
    if (!(await person.page.getByRole('dialog', { name: p.title }).isVisible()))
      await person.page.getByRole('navigation', { name: 'Call controls' }).getByRole('button', { name: p.title }).click();
    await card(person.page, 'Secret?').getByText(option, { exact: true }).click();
    await card(person.page, 'Secret?').getByRole('button', { name: p.vote }).click();
  }
  for (const person of people) {
    await expect.poll(async () => (await probePolls(person.page)).views[0]?.tally.counts, { timeout: 15_000 }).toEqual([1, 2]);
  }
  // The host's page (and the creator's: the same here) counts under tokens only, and relayed nothing.
  const ids = await Promise.all(people.map((person) => selfId(person.page)));
  const hostHeld = await probePolls(host.page);
  const keys = hostHeld.ballots.keys[hostHeld.views[0]!.id]!;
  expect(keys).toHaveLength(3);
  for (const key of keys) {
    expect(key).toMatch(/^anon-/);
    expect(ids).not.toContain(key);
  }
  expect(hostHeld.ballots.relayed).toBe(0);
  // One guest relayed the three ballots; the other relayed none.
  expect((await Promise.all([ada, bo].map(async (person) => (await probePolls(person.page)).ballots.relayed))).sort()).toEqual([0, 3]);
  // The host's screen shows counts, no names beside them.
  await expect(card(host.page, 'Secret?')).not.toContainText(/Ada|Bo\b/);
});
