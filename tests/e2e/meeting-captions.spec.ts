// Captions in the call (issue 49 point 4, docs/meetings.md "Captions"): each page captions its own
// microphone on the device and sends the text sealed over the pairs' channels. The tests drive
// the recogniser interface with the probe's stand-in (lib/meeting/client/captions/stand-in-engine.ts),
// which "hears" known text; the browser's own recogniser is checked for what this Chromium offers.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { E2E_DATA_DIR } from './support/constants.mjs';
import { sweep, widths } from './support/layout';
import { fragment, joinMeeting, keysVerified, recordBodies, selfId, type Participant } from './support/meeting';
import { messages } from './support/messages';
import { seededAccount } from './support/session';

test.describe.configure({ timeout: 180_000 });

const c = messages('en').Captions;

let people: Participant[] = [];
test.afterEach(async () => {
  for (const person of people) await person.context.close().catch(() => undefined);
  people = [];
});

const standIn = (page: Page, availability: 'available' | 'unavailable') =>
  page.evaluate((availability) => window.enclaveProbe!.captionStandIn(availability), availability);
const say = (page: Page, text: string) => page.evaluate((text) => window.enclaveProbe!.captionSay(text), text);
const probeCaptions = (page: Page) => page.evaluate(() => window.enclaveProbe!.captions());
/** The caption at the foot of a participant's camera tile. */
const captionUnder = (page: Page, participantId: string) =>
  page.locator(`figure[data-participant="${participantId}"][data-kind="camera"] [data-testid="caption"]`);

/** Opens "Captions" from the call's controls (its own button from lg). */
async function openCaptions(page: Page) {
  await page.getByRole('navigation', { name: 'Call controls' }).getByRole('button', { name: c.title }).click();
  const dialog = page.getByRole('dialog', { name: c.title });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('Ada’s captions appear on Bob’s page under Ada’s tile; Bob turns them off; the host saves the transcript; the server sees none of it', async ({
  browser,
  baseURL,
}) => {
  const meetingId = seededAccount('demo').meetingId;
  const bodies: string[][] = [];
  const prepare = async (context: BrowserContext) => void bodies.push(recordBodies(context));
  const ada = await joinMeeting(browser, baseURL!, meetingId, { name: 'Demo User', camera: false, host: 'demo', fragment: fragment(), prepare });
  const bob = await joinMeeting(browser, baseURL!, meetingId, { name: 'Bob', camera: false, prepare });
  people = [ada, bob];
  await keysVerified(ada.page);
  await keysVerified(bob.page);
  const logBefore = readFileSync(path.join(E2E_DATA_DIR, 'server.log')).length;
  const [adaId, bobId] = await Promise.all([selfId(ada.page), selfId(bob.page)]);
  expect(await ada.page.evaluate(() => window.enclaveProbe!.getState().local.muted)).toBe(false);

  // Nothing of the captions' code is on Bob's page before a caption comes.
  const scripts = (page: Page) =>
    page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .filter((name) => name.endsWith('.js')),
    );
  const before = await scripts(bob.page);

  await standIn(ada.page, 'available');
  const dialog = await openCaptions(ada.page);
  await expect(dialog.getByTestId('captions-status')).toHaveText(c.ready);
  await dialog.getByRole('button', { name: c.start }).click();
  await expect(dialog.getByRole('button', { name: c.stop })).toHaveAttribute('aria-pressed', 'true');
  await expect(dialog.getByTestId('captions-status')).toHaveText(c.on);
  await dialog.press('Escape');

  const line = `Tea at four ${randomBytes(4).toString('hex')}`;
  expect(await say(ada.page, line)).toBe(true);
  await expect(captionUnder(bob.page, adaId)).toHaveText(line);
  await expect(captionUnder(bob.page, adaId)).toHaveAttribute('lang', 'en-US');
  await expect(captionUnder(bob.page, bobId)).toHaveCount(0);
  expect((await scripts(bob.page)).length).toBeGreaterThan(before.length);
  const bobSide = await probeCaptions(bob.page);
  expect(bobSide.transcript.map((entry) => [entry.speaker, entry.name, entry.lang, entry.text])).toEqual([[adaId, 'Demo User', 'en-US', line]]);
  expect(bobSide.dropped).toBe(0);

  // Bob turns the captions off on his page: Ada's line goes, and the next one does not show.
  const bobDialog = await openCaptions(bob.page);
  await bobDialog.getByLabel(c.show).uncheck();
  await bobDialog.press('Escape');
  await expect(captionUnder(bob.page, adaId)).toHaveCount(0);
  const second = `Biscuits too ${randomBytes(4).toString('hex')}`;
  expect(await say(ada.page, second)).toBe(true);
  // A final line stays under a tile for 6 s only (captions.ts LINGER_MS): Ada's page is read from its transcript.
  await expect.poll(async () => (await probeCaptions(ada.page)).transcript.map((entry) => entry.text)).toEqual([line, second]);
  await expect.poll(async () => (await probeCaptions(bob.page)).transcript.length).toBe(2);
  await expect(captionUnder(bob.page, adaId)).toHaveCount(0);
  // Bob is not the host: no transcript to save on his page.
  await openCaptions(bob.page);
  await expect(bob.page.getByRole('button', { name: c.saveText })).toHaveCount(0);

  // The host saves the transcript: made in the page, downloaded from it.
  const adaDialog = await openCaptions(ada.page);
  const [download] = await Promise.all([ada.page.waitForEvent('download'), adaDialog.getByRole('button', { name: c.saveVtt }).click()]);
  expect(download.suggestedFilename()).toMatch(/^transcript-\d{4}-\d\d-\d\d\.vtt$/);
  const vtt = readFileSync((await download.path())!, 'utf8');
  expect(vtt).toMatch(/^WEBVTT\n\n1\n00:00:00\.000 --> 00:00:0\d\.\d{3}\n<v Demo User><lang en-US>Tea at four/);
  expect(vtt).toContain(`<v Demo User><lang en-US>${second}</lang>`);

  // Ada stops: her tile's line goes on Ada's page, and "off" reaches Bob's.
  await adaDialog.getByRole('button', { name: c.stop }).click();
  await expect(adaDialog.getByTestId('captions-status')).toHaveText(c.ready);
  expect(await say(ada.page, 'not heard')).toBe(false);

  // The server carried none of it in clear: not in a request body, not in its log.
  expect(bodies.flat().some((body) => body.includes(line) || body.includes(second))).toBe(false);
  const log = readFileSync(path.join(E2E_DATA_DIR, 'server.log')).subarray(logBefore).toString();
  expect(log).not.toContain(line);
  expect(log).not.toContain(second);
});

// Bob's page plays a hostile peer through the probe (sendRawMessage sends any message, unchecked,
// sealed on the pair's channel); Ada's page is the one under test.
test('hostile caption messages are dropped: malformed, too long, a bad language, a line that already ended, a flood', async ({ browser, baseURL }) => {
  const meetingId = seededAccount('demo').meetingId;
  const ada = await joinMeeting(browser, baseURL!, meetingId, { name: 'Ada', camera: false, fragment: fragment() });
  const bob = await joinMeeting(browser, baseURL!, meetingId, { name: 'Bob', camera: false });
  people = [ada, bob];
  await keysVerified(ada.page);
  await keysVerified(bob.page);
  const [adaId, bobId] = await Promise.all([selfId(ada.page), selfId(bob.page)]);
  await probeCaptions(ada.page);

  const send = (message: Record<string, unknown>) =>
    bob.page.evaluate(({ to, message }) => window.enclaveProbe!.sendRawMessage(to, message), { to: adaId, message });
  const hostile: Record<string, unknown>[] = [
    { t: 'caption-line', n: 0, final: true, lang: 'en-US', text: 'x'.repeat(501) },
    { t: 'caption-line', n: 0, final: true, lang: 'en-US', text: '' },
    { t: 'caption-line', n: 0, final: true, lang: 'en-US', text: '\u202e\u200b' },
    { t: 'caption-line', n: 0, final: true, lang: 'not a language', text: 'hello' },
    { t: 'caption-line', n: -1, final: true, lang: 'en', text: 'hello' },
    { t: 'caption-line', n: 1.5, final: true, lang: 'en', text: 'hello' },
    { t: 'caption-line', n: 0, final: 'yes', lang: 'en', text: 'hello' },
    { t: 'caption-line', n: 0, final: true, lang: 'en', text: ['hello'] },
    { t: 'caption-shout', text: 'hello' },
  ];
  for (const message of hostile) expect(await send(message)).toBe(true);
  await expect.poll(async () => (await probeCaptions(ada.page)).dropped, { timeout: 15_000 }).toBe(hostile.length);

  // A good line shows under Bob's tile; the same line number again, once it ended, does not.
  expect(await send({ t: 'caption-line', n: 5, final: true, lang: 'de-DE', text: '<b>Guten Tag</b>' })).toBe(true);
  await expect(captionUnder(ada.page, bobId)).toHaveText('<b>Guten Tag</b>');
  expect(await send({ t: 'caption-line', n: 5, final: false, lang: 'de-DE', text: 'Rewritten' })).toBe(true);
  await expect.poll(async () => (await probeCaptions(ada.page)).dropped).toBe(hostile.length + 1);

  // A flood: far more than a speaker says a second (a burst of 20, then 8 a second, are let through).
  await bob.page.evaluate(
    ({ to }) => {
      for (let n = 10; n < 310; n++) window.enclaveProbe!.sendRawMessage(to, { t: 'caption-line', n, final: false, lang: 'en', text: `flood ${n}` });
    },
    { to: adaId },
  );
  await expect.poll(async () => (await probeCaptions(ada.page)).dropped).toBeGreaterThan(hostile.length + 1 + 100);
  const transcript = (await probeCaptions(ada.page)).transcript;
  expect(transcript.map((entry) => entry.text)).toEqual(['<b>Guten Tag</b>']);

  // The call goes on: once the flood is over, Bob's next line shows again.
  let n = 200;
  await expect
    .poll(
      async () => {
        await send({ t: 'caption-line', n: n++, final: true, lang: 'en', text: 'Back to normal' });
        return captionUnder(ada.page, bobId)
          .textContent({ timeout: 1000 })
          .catch(() => null);
      },
      { timeout: 15_000, intervals: [1000] },
    )
    .toBe('Back to normal');
  expect(await ada.page.evaluate(() => window.enclaveProbe!.getState().peers.map((peer) => peer.id))).toEqual([bobId]);
});

test('where recognition on the device is unavailable, the control says so and nothing starts', async ({ browser, baseURL }) => {
  const meetingId = seededAccount('demo').meetingId;
  const ada = await joinMeeting(browser, baseURL!, meetingId, { name: 'Ada', camera: false, fragment: fragment() });
  const bob = await joinMeeting(browser, baseURL!, meetingId, { name: 'Bob', camera: false });
  people = [ada, bob];
  await keysVerified(ada.page);

  // The stand-in says "unavailable": the button is disabled and explained, and the engine never starts.
  await standIn(ada.page, 'unavailable');
  const dialog = await openCaptions(ada.page);
  const start = dialog.getByRole('button', { name: c.start });
  const unavailable = c.unavailable.replace('{language}', 'English');
  await expect(dialog.getByTestId('captions-status')).toHaveText(unavailable);
  await expect(start).toBeDisabled();
  await expect(start).toHaveAccessibleDescription(unavailable);
  expect(await ada.page.evaluate(() => window.enclaveProbe!.captionStarts())).toBe(0);
  expect((await probeCaptions(ada.page)).view.own).toBe('unavailable');

  // This Chromium's own recogniser (docs/meetings.md "Captions"): it has the on-device API, but its
  // English model is only "downloadable", and the download fails here (no component updates, no
  // network). "Start" tries the download, then says "unavailable"; it never falls back to the cloud.
  expect(await bob.page.evaluate(() => window.enclaveProbe!.webSpeechAvailability('en-US'))).toBe('downloadable');
  const real = await openCaptions(bob.page);
  await expect(real.getByTestId('captions-status')).toHaveText(c.downloadable.replace('{language}', 'English'));
  await real.getByRole('button', { name: c.start }).click();
  await expect(real.getByTestId('captions-status')).toHaveText(unavailable, { timeout: 30_000 });
  await expect(real.getByRole('button', { name: c.start })).toBeDisabled();
  expect((await probeCaptions(bob.page)).view.own).toBe('unavailable');
});

for (const locale of ['en', 'de']) {
  test(`"Captions" fits every width and works from the keyboard (${locale})`, async ({ browser, baseURL }, testInfo) => {
    const m = messages(locale).Meeting;
    const t = messages(locale).Captions;
    const meetingId = seededAccount('demo').meetingId;
    const join = async (name: string, hash = '') => {
      people.push(await joinMeeting(browser, baseURL!, meetingId, { name, fragment: hash, locale, viewport: widths[2] }));
      return people.at(-1)!.page;
    };
    const ada = await join('Ada Lovelace', fragment());
    const bo = await join('Bo Byron');
    await keysVerified(ada);
    await keysVerified(bo);
    const adaId = await selfId(ada);
    await standIn(ada, 'available');

    // Keyboard only, from the phone's "More" menu: the dialog, its controls, Escape closes it.
    const more = ada.getByRole('button', { name: m.moreOptions }).first();
    await more.focus();
    await ada.keyboard.press('ArrowDown');
    await ada.getByRole('menuitemcheckbox', { name: t.title }).focus();
    await ada.keyboard.press('Enter');
    const dialog = ada.getByRole('dialog', { name: t.title });
    await expect(dialog.getByTestId('captions-status')).toHaveText(t.ready);
    await dialog.getByRole('button', { name: t.start }).focus();
    await ada.keyboard.press('Enter');
    await expect(dialog.getByRole('button', { name: t.stop })).toBeFocused();
    for (const viewport of widths) await sweep(ada, testInfo, `${locale} captions on`, viewport, { fullPage: false });
    await ada.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // Bo sees Ada's words under her tile at every width; a long line shows its end.
    const words =
      locale === 'de'
        ? 'Guten Morgen zusammen, heute sprechen wir über die Untertitel, die auf jedem Gerät selbst entstehen'
        : 'Good morning everyone, today we talk about captions that are made on each device itself';
    // The first caption loads Bo's caption code; a line stays 6 s, so Ada says it again until Bo's page shows it.
    await expect
      .poll(
        async () =>
          (await say(ada, words)) &&
          (await captionUnder(bo, adaId)
            .textContent({ timeout: 3000 })
            .catch(() => null)),
        { intervals: [1000] },
      )
      .toBe(words);
    for (const viewport of widths) {
      expect(await say(ada, words)).toBe(true);
      await sweep(bo, testInfo, `${locale} caption under a tile`, viewport, { fullPage: false });
      await expect(captionUnder(bo, adaId)).toBeVisible();
    }
  });
}
