// Files in the meeting chat (docs/meetings.md "Files"): offered over the sealed chat channel,
// accepted before a byte moves, sent in sealed chunks on a data channel of their own, checked by
// SHA-256 on arrival and written to disk only by "Save". One 50 MB transfer (the CI budget),
// the rest small: cancel, decline, a sender who leaves mid-transfer, and Firefox both ways.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import type { Browser as FirefoxBrowser, Page as FirefoxPage } from 'puppeteer-core';
import { E2E_DATA_DIR } from './support/constants.mjs';
import { joinMeetingInFirefox, launchFirefox } from './support/firefox';
import { sweep, widths } from './support/layout';
import { fragment, joinMeeting, keysVerified, selfId, type Participant } from './support/meeting';
import { messages } from './support/messages';
import { seededAccount } from './support/session';

test.describe.configure({ timeout: 180_000 });

const MB = 1024 * 1024;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

const folder = mkdtempSync(path.join(tmpdir(), 'enclave-files-'));
test.afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Random bytes in a file on disk, for the file chooser; its SHA-256. */
function randomFile(name: string, size: number) {
  // Made again if an afterAll of this file already removed it (a worker that runs the file's
  // later tests after a failure elsewhere found it gone).
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, name);
  const bytes = randomBytes(size);
  writeFileSync(file, bytes);
  return { file, name, size, sha256: sha256(bytes), marker: bytes.subarray(0, 32) };
}

type Transfer = {
  key: string;
  name: string;
  status: string;
  problem: string | null;
  bytes: number;
  reserved: number;
  size: number;
  firstByteAt: number | null;
  finishedAt: number | null;
};
const transfers = (page: Page) => page.evaluate(() => window.enclaveProbe!.fileTransfers()) as Promise<Transfer[]>;

/** Opens "Send a file" from the chat panel, picks the file and the recipient, sends. */
async function sendThroughDialog(page: Page, file: string, to = 'Everyone') {
  const chat = page.getByRole('region', { name: 'Chat' });
  if (!(await chat.isVisible())) await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await chat.getByRole('button', { name: 'Send a file' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send a file' });
  await expect(dialog.getByText('Up to 100 MB per file.')).toBeVisible();
  await dialog.getByLabel('To').selectOption({ label: to });
  await dialog.getByLabel('File').setInputFiles(file);
  await dialog.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(dialog).toBeHidden();
}

/** Every request body the context sent: the file's bytes must be in none of them. */
function recordUploads(context: BrowserContext) {
  const bodies: Buffer[] = [];
  context.on('request', (request) => {
    const body = request.postDataBuffer();
    if (body) bodies.push(body);
  });
  return bodies;
}

const serverLog = () => readFileSync(path.join(E2E_DATA_DIR, 'server.log'));

let people: Participant[] = [];
let firefox: FirefoxBrowser | null = null;
test.afterEach(async () => {
  for (const person of people) await person.context.close().catch(() => undefined);
  await firefox?.close().catch(() => undefined);
  [people, firefox] = [[], null];
});

test('a 50 MB file arrives identical, peer to peer, with progress; cancel, decline, and a sender who leaves', async ({ browser, baseURL }) => {
  const meetingId = seededAccount('demo').meetingId;
  const uploads: Buffer[][] = [];
  const prepare = async (context: BrowserContext) => void uploads.push(recordUploads(context));
  const ada = await joinMeeting(browser, baseURL!, meetingId, { name: 'Ada', camera: false, fragment: fragment(), prepare });
  const bo = await joinMeeting(browser, baseURL!, meetingId, { name: 'Bo', camera: false, prepare });
  people = [ada, bo];
  await keysVerified(ada.page);
  await keysVerified(bo.page);
  // Nothing of the file code is on the page before someone uses it.
  const scripts = () =>
    ada.page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .filter((name) => name.endsWith('.js')),
    );
  const scriptsBefore = await scripts();

  const big = randomFile('big.bin', 50 * MB);
  const logBefore = statSync(path.join(E2E_DATA_DIR, 'server.log')).size;
  await sendThroughDialog(ada.page, big.file, 'Bo');
  expect((await scripts()).length).toBeGreaterThan(scriptsBefore.length);

  // Bo is asked first; nothing moves until Bo accepts.
  const offer = bo.page.getByTestId('file-transfer').filter({ hasText: 'big.bin' });
  await expect(offer).toContainText('From Ada');
  await expect(offer).toContainText('Nothing is saved until you choose Save.');
  await expect(ada.page.getByTestId('file-transfer')).toContainText('Waiting for Bo to accept.');
  expect((await transfers(bo.page))[0]!.bytes).toBe(0);
  await bo.page.getByRole('button', { name: 'Accept big.bin' }).click();

  // A progress bar on both sides while it moves.
  await expect(bo.page.getByRole('progressbar', { name: 'Progress of big.bin' })).toBeVisible();
  await expect(ada.page.getByRole('progressbar', { name: 'Progress of big.bin' })).toBeVisible();
  await expect(offer).toContainText('Arrived complete (SHA-256 checked)', { timeout: 60_000 });
  await expect(ada.page.getByTestId('file-transfer')).toContainText('Delivered: Bo checked its SHA-256.');

  // Saved, it is the same file.
  const [download] = await Promise.all([bo.page.waitForEvent('download'), bo.page.getByRole('button', { name: 'Save big.bin' }).click()]);
  expect(download.suggestedFilename()).toBe('big.bin');
  const saved = readFileSync((await download.path())!);
  expect(saved.length).toBe(big.size);
  expect(sha256(saved)).toBe(big.sha256);

  // The server carried none of it: a few kB of signaling, no file bytes, nothing in its log.
  const uploaded = uploads.flat();
  expect(uploaded.reduce((sum, body) => sum + body.length, 0)).toBeLessThan(256 * 1024);
  expect(uploaded.some((body) => body.includes(big.marker))).toBe(false);
  const log = serverLog();
  expect(log.length - logBefore).toBeLessThan(64 * 1024);
  expect(log.includes(big.marker) || log.includes(big.marker.toString('hex')) || log.includes(big.marker.toString('base64'))).toBe(false);

  const received = (await transfers(bo.page)).find((transfer) => transfer.name === 'big.bin')!;
  const seconds = (received.finishedAt! - received.firstByteAt!) / 1000;
  const throughput = { sizeMB: 50, seconds: Number(seconds.toFixed(2)), MBps: Number((50 / seconds).toFixed(1)) };
  test.info().annotations.push({ type: 'file throughput (Chromium → Chromium, loopback)', description: JSON.stringify(throughput) });
  console.log(`file throughput: ${JSON.stringify(throughput)}`);

  // Ada cancels before Bo answers: Bo is told, and cannot accept any more.
  const small = randomFile('small.bin', 200 * 1024);
  await sendThroughDialog(ada.page, small.file);
  const smallOffer = bo.page.getByTestId('file-transfer').filter({ hasText: 'small.bin' });
  await expect(smallOffer.getByRole('button', { name: 'Accept small.bin' })).toBeVisible();
  await ada.page.getByRole('button', { name: 'Cancel small.bin' }).click();
  await expect(smallOffer).toContainText('Ada cancelled the transfer.');
  await expect(smallOffer.getByRole('button', { name: 'Accept small.bin' })).toHaveCount(0);

  // Bo declines: Ada reads so.
  const other = randomFile('other.bin', 100 * 1024);
  await sendThroughDialog(ada.page, other.file);
  await bo.page.getByRole('button', { name: 'Decline other.bin' }).click();
  await expect(ada.page.getByTestId('file-transfer').filter({ hasText: 'other.bin' })).toContainText('Bo declined.');

  // Ada leaves while a file is on its way: Bo reads why it stopped.
  const leaving = randomFile('leaving.bin', 40 * MB);
  await sendThroughDialog(ada.page, leaving.file);
  await bo.page.getByRole('button', { name: 'Accept leaving.bin' }).click();
  await ada.page.waitForFunction(
    () => Number((document.querySelector('progress[aria-label="Progress of leaving.bin"]') as HTMLProgressElement | null)?.value) > 0,
    null,
    { polling: 10 },
  );
  await ada.page.getByRole('button', { name: 'Leave', exact: true }).click();
  const stopped = bo.page.getByTestId('file-transfer').filter({ hasText: 'leaving.bin' });
  await expect(stopped).toContainText('Ada left the meeting before the file arrived.', { timeout: 15_000 });
  await expect(stopped).toHaveAttribute('data-status', 'failed');
  await expect(stopped.getByRole('button', { name: 'Save leaving.bin' })).toHaveCount(0);
});

// Issue 44 point 6: Ada's page plays a hostile sender through the probe (sendRawMessage sends any
// file message, unchecked) and by dropping its own chunks; Bo's page is the receiver under test.
test('hostile offers: names that hide their type, a huge declared size, an HTML file, a sender that stops', async ({ browser, baseURL }) => {
  const meetingId = seededAccount('demo').meetingId;
  // What each download Bo's page starts is: its name, and the type of the blob behind it. A received
  // file must never be a blob a browser would render (text/html would run in the app's origin).
  const recordDownloads = async (context: BrowserContext) => {
    await context.addInitScript(() => {
      const types = new Map<string, string>();
      const downloads: { name: string; type: string | undefined }[] = ((window as unknown as { downloads: unknown }).downloads = []);
      const create = URL.createObjectURL.bind(URL);
      URL.createObjectURL = (object: Blob | MediaSource) => {
        const url = create(object);
        if (object instanceof Blob) types.set(url, object.type);
        return url;
      };
      const click = HTMLAnchorElement.prototype.click;
      HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
        if (this.download) downloads.push({ name: this.download, type: types.get(this.href) });
        return click.call(this);
      };
    });
  };
  const ada = await joinMeeting(browser, baseURL!, meetingId, { name: 'Ada', camera: false, fragment: fragment() });
  const bo = await joinMeeting(browser, baseURL!, meetingId, { name: 'Bo', camera: false, prepare: recordDownloads });
  people = [ada, bo];
  await keysVerified(ada.page);
  await keysVerified(bo.page);
  const boId = await selfId(bo.page);
  /** A raw offer from Ada's page, as a modified client would send it (a real key; bytes never sent). */
  const offer = (fields: Record<string, unknown>) =>
    ada.page.evaluate(
      ({ to, fields }) => {
        const key = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
          .replace(/\+/g, '-')
          .replace(/\//g, '_')
          .replace(/=+$/, '');
        const message = { t: 'file-offer', size: 1000, mime: 'application/pdf', sha256: 'ab'.repeat(32), key, ...fields };
        return window.enclaveProbe!.sendRawMessage(to, message);
      },
      { to: boId, fields },
    );
  const row = (name: string) => bo.page.getByTestId('file-transfer').filter({ hasText: name });
  const hidden = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/;

  // Names: what Bo reads and what Bo's buttons say have no override left, whatever Ada's page sent.
  // Verified keys come over signaling; the data channel to Bo may open a moment later, and until
  // then nothing is sent (false, CI 2026-12-01). Offered until it goes, so once.
  await expect.poll(() => offer({ id: 'rlo-name', name: '..\u202E/report\u2066\u200B\u202Efdp.exe' })).toBe(true);
  await expect(row('reportfdp.exe')).toContainText('From Ada');
  await expect(bo.page.getByRole('button', { name: 'Accept reportfdp.exe', exact: true })).toBeVisible();
  expect(await offer({ id: 'empty-name', name: '\u202E\u200B\u2066' })).toBe(true);
  await expect(bo.page.getByRole('button', { name: 'Accept file', exact: true })).toBeVisible();
  expect(await bo.page.getByTestId('file-transfer').allTextContents()).not.toContainEqual(expect.stringMatching(hidden));
  // Sent through the dialog, the disguised .exe is saved under a name that says .exe.
  const disguised = randomFile('invoice\u202Efdp.exe', 3000);
  await sendThroughDialog(ada.page, disguised.file, 'Bo');
  await bo.page.getByRole('button', { name: 'Accept invoicefdp.exe', exact: true }).click();
  const [exe] = await Promise.all([bo.page.waitForEvent('download'), bo.page.getByRole('button', { name: 'Save invoicefdp.exe' }).click({ timeout: 30_000 })]);
  expect(exe.suggestedFilename()).toBe('invoicefdp.exe');
  expect(sha256(readFileSync((await exe.path())!))).toBe(disguised.sha256);

  // An HTML file is a download, never a page in the app's origin: its script does not run.
  mkdirSync(folder, { recursive: true });
  const html = path.join(folder, 'page.html');
  writeFileSync(html, '<!doctype html><title>owned</title><script>localStorage.setItem("owned", "1"); document.title = "owned"</script><h1>hello</h1>');
  await sendThroughDialog(ada.page, html, 'Bo');
  await bo.page.getByRole('button', { name: 'Accept page.html', exact: true }).click();
  const pagesBefore = bo.context.pages().length;
  const [download] = await Promise.all([bo.page.waitForEvent('download'), bo.page.getByRole('button', { name: 'Save page.html' }).click({ timeout: 30_000 })]);
  expect(download.suggestedFilename()).toBe('page.html');
  expect(readFileSync((await download.path())!, 'utf8')).toContain('<h1>hello</h1>');
  expect(await bo.page.evaluate(() => (window as unknown as { downloads: unknown }).downloads)).toEqual([
    { name: 'invoicefdp.exe', type: 'application/octet-stream' },
    { name: 'page.html', type: 'application/octet-stream' },
  ]);
  expect(bo.context.pages()).toHaveLength(pagesBefore);
  expect(new URL(bo.page.url()).pathname).toBe(`/now/${meetingId}`);
  expect(await bo.page.evaluate(() => [localStorage.getItem('owned'), document.title])).not.toContain('owned');

  // A huge declared size: accepting it reserves what arrives (1 MB at first), not 100 MB.
  expect(await offer({ id: 'huge-size', name: 'huge.bin', size: 100 * MB })).toBe(true);
  await bo.page.getByRole('button', { name: 'Accept huge.bin', exact: true }).click();
  await expect(row('huge.bin')).toHaveAttribute('data-status', 'active');
  const huge = (await transfers(bo.page)).find((transfer) => transfer.name === 'huge.bin')!;
  expect(huge).toMatchObject({ size: 100 * MB, bytes: 0 });
  expect(huge.reserved).toBeLessThanOrEqual(MB);

  // A sender that stops mid-file: Ada's page drops its chunks after the eighth (512 kB).
  await ada.page.evaluate(() => {
    const send = RTCDataChannel.prototype.send;
    let chunks = 0;
    RTCDataChannel.prototype.send = function (this: RTCDataChannel, data: never) {
      if (this.label.startsWith('file:') && ++chunks > 8) return;
      return send.call(this, data);
    };
  });
  const stalling = randomFile('stalling.bin', 5 * MB);
  await sendThroughDialog(ada.page, stalling.file, 'Bo');
  await bo.page.getByRole('button', { name: 'Accept stalling.bin', exact: true }).click();
  await expect.poll(async () => (await transfers(bo.page)).find((transfer) => transfer.name === 'stalling.bin')?.bytes, { timeout: 30_000 }).toBe(512 * 1024);
  const partial = (await transfers(bo.page)).find((transfer) => transfer.name === 'stalling.bin')!;
  expect(partial.reserved).toBeLessThan(partial.size);

  // 30 s (STALL_MS) without a byte: both stalled transfers end, on both sides, and say why.
  const stalled = (name: string) => `The transfer with ${name} stalled: nothing moved for 30 seconds, so it was stopped.`;
  for (const name of ['huge.bin', 'stalling.bin']) {
    await expect(row(name)).toContainText(stalled('Ada'), { timeout: 60_000 });
    await expect(row(name)).toHaveAttribute('data-status', 'failed');
    await expect(row(name).getByRole('button', { name: `Save ${name}` })).toHaveCount(0);
  }
  await expect(ada.page.getByTestId('file-transfer').filter({ hasText: 'stalling.bin' })).toContainText(stalled('Bo'), { timeout: 15_000 });
  expect((await transfers(bo.page)).filter((transfer) => transfer.status === 'failed').map((transfer) => transfer.reserved)).toEqual([0, 0]);
});

test('Firefox and Chromium send each other a file, each checked by SHA-256', async ({ browser, baseURL }) => {
  const meetingId = seededAccount('demo').meetingId;
  firefox = await launchFirefox();
  const fox: FirefoxPage = await joinMeetingInFirefox(firefox, `${baseURL}/now/${meetingId}${fragment()}`, 'Fiona');
  const chris = await joinMeeting(browser, baseURL!, meetingId, { name: 'Chris', camera: false });
  people = [chris];
  await keysVerified(chris.page);
  await fox.waitForFunction(() => window.enclaveProbe?.getState().peers[0]?.keys === 'verified', { timeout: 30_000 });

  // Chromium → Firefox, through the dialog; Firefox accepts with its button.
  const toFox = randomFile('to-firefox.bin', 5 * MB);
  await sendThroughDialog(chris.page, toFox.file);
  await (await fox.waitForSelector('button[aria-label="Accept to-firefox.bin"]'))!.click();
  await fox.waitForFunction(async () => (await window.enclaveProbe!.fileTransfers()).some((t) => t.status === 'done'), { timeout: 60_000, polling: 200 });
  const foxTransfer = (await fox.evaluate(() => window.enclaveProbe!.fileTransfers()))[0]!;
  expect(await fox.evaluate((key) => window.enclaveProbe!.receivedSha256(key), foxTransfer.key)).toBe(toFox.sha256);
  await expect(chris.page.getByTestId('file-transfer')).toContainText('Delivered: Fiona checked its SHA-256.');

  // Firefox → Chromium: made in Firefox's page, saved by Chromium.
  const chrisId = await selfId(chris.page);
  const expected = await fox.evaluate((to) => window.enclaveProbe!.sendRandomFile('from-firefox.bin', 3 * 1024 * 1024 + 123, to), chrisId);
  await chris.page.getByRole('button', { name: 'Accept from-firefox.bin' }).click();
  await expect(chris.page.getByTestId('file-transfer').filter({ hasText: 'from-firefox.bin' })).toContainText('Arrived complete', { timeout: 60_000 });
  const [download] = await Promise.all([chris.page.waitForEvent('download'), chris.page.getByRole('button', { name: 'Save from-firefox.bin' }).click()]);
  expect(sha256(readFileSync((await download.path())!))).toBe(expected);

  const rate = (t: Transfer) => Number((t.size / MB / ((t.finishedAt! - t.firstByteAt!) / 1000)).toFixed(1));
  const report = {
    chromiumToFirefoxMBps: rate(foxTransfer),
    firefoxToChromiumMBps: rate((await transfers(chris.page)).find((t) => t.name === 'from-firefox.bin')!),
  };
  test.info().annotations.push({ type: 'file throughput with Firefox', description: JSON.stringify(report) });
  console.log(`firefox file throughput: ${JSON.stringify(report)}`);
});

for (const locale of ['en', 'de']) {
  test(`"Send a file" and the transfer list fit every width, keyboard first (${locale})`, async ({ browser, baseURL }, testInfo) => {
    const m = messages(locale).Meeting;
    const f = m.files;
    const meetingId = seededAccount('demo').meetingId;
    const join = async (name: string, hash = '') => {
      people.push(await joinMeeting(browser, baseURL!, meetingId, { name, fragment: hash, locale, viewport: widths[0] }));
      return people.at(-1)!.page;
    };
    const ada = await join('Ada Lovelace', fragment());
    const bo = await join('Bo Byron');
    await keysVerified(ada);
    await keysVerified(bo);

    // Keyboard only: the chat's "Send a file" button, the dialog's fields, Escape closes it.
    await ada.getByRole('button', { name: m.chat, exact: true }).click();
    const open = ada.getByRole('region', { name: m.chat }).getByRole('button', { name: f.send });
    await open.focus();
    await ada.keyboard.press('Enter');
    const dialog = ada.getByRole('dialog', { name: f.send });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText(f.limit.replace('{size}', '100 MB'))).toBeVisible();
    for (const viewport of widths) await sweep(ada, testInfo, `${locale} send a file`, viewport, { fullPage: false });
    await ada.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(open).toBeFocused();

    await ada.keyboard.press('Enter');
    const small = randomFile(`${locale}-notes.txt`, 10 * 1024);
    await dialog.getByLabel(f.file).setInputFiles(small.file);
    await dialog.getByLabel(f.to).focus();
    await ada.keyboard.press('Tab'); // the file chooser
    await ada.keyboard.press('Tab'); // Close
    await ada.keyboard.press('Tab'); // Send
    await expect(dialog.getByRole('button', { name: f.sendButton, exact: true })).toBeFocused();
    await ada.keyboard.press('Enter');
    await expect(dialog).toBeHidden();

    // The offer, on Bo's side, at every width; accepted from the keyboard.
    const accept = bo.getByRole('button', { name: f.acceptFile.replace('{file}', small.name) });
    await expect(accept).toBeVisible();
    for (const viewport of widths) await sweep(bo, testInfo, `${locale} a file offered`, viewport, { fullPage: false });
    await accept.focus();
    await bo.keyboard.press('Enter');
    await expect(bo.getByRole('button', { name: f.saveFile.replace('{file}', small.name) })).toBeVisible({ timeout: 30_000 });
    for (const viewport of widths) await sweep(bo, testInfo, `${locale} a file arrived`, viewport, { fullPage: false });
  });
}
