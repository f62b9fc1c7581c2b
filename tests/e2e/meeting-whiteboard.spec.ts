// The shared whiteboard (docs/meetings.md "Whiteboard"): strokes travel sealed on the call's
// data channels, stream while drawn, converge when two people draw, reach a late joiner from a
// peer, and a hostile peer's messages are dropped without harm. Two or three Chromium pages with
// fake media, as docs/e2ee-crypto.md's "Testing in headless Chromium" advises.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import type { Browser as FirefoxBrowser, Page as FirefoxPage } from 'puppeteer-core';
import { joinMeetingInFirefox, launchFirefox } from './support/firefox';
import { E2E_DATA_DIR } from './support/constants.mjs';
import { sweep, widths } from './support/layout';
import { fragment, joinMeeting, keysVerified, recordBodies, selfId, type Participant } from './support/meeting';
import { messages } from './support/messages';
import { seededAccount } from './support/session';

test.describe.configure({ timeout: 180_000 });

const en = messages('en');
const w = en.Whiteboard;

type BoardView = {
  strokes: { id: string; author: string; colour: number; width: number; points: number; kind?: string; text?: string }[];
  refused: number;
};
const board = (page: Page) => page.evaluate(() => window.enclaveProbe!.whiteboard()) as Promise<BoardView>;
const strokeIds = async (page: Page) => (await board(page)).strokes.map((stroke) => stroke.id);

const canvas = (page: Page, label = w.canvas) => page.getByRole('img', { name: label });

/** Pixels on the board that are not white: what a person would see drawn. */
const inked = (page: Page) =>
  page.evaluate(() => {
    const element = document.querySelector<HTMLCanvasElement>('canvas[data-whiteboard-canvas]');
    if (!element) return -1;
    const data = element.getContext('2d')!.getImageData(0, 0, element.width, element.height).data;
    let count = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i]! < 200 || data[i + 1]! < 200 || data[i + 2]! < 200) count++;
    return count;
  });

/**
 * A line with the mouse from one point of the board to another (fractions of its size), in
 * steps; `whileDown` runs before the button is released (to see the line reach others as drawn).
 */
async function draw(page: Page, from: [number, number], to: [number, number], whileDown?: () => Promise<void>) {
  // By its marker: the caller checked its name already, in the page's language.
  const box = (await page.locator('canvas[data-whiteboard-canvas]').boundingBox())!;
  const at = (x: number, y: number) => [box.x + x * box.width, box.y + y * box.height] as const;
  await page.mouse.move(...at(...from));
  await page.mouse.down();
  for (let step = 1; step <= 20; step++) {
    await page.mouse.move(...at(from[0] + ((to[0] - from[0]) * step) / 20, from[1] + ((to[1] - from[1]) * step) / 20));
  }
  await whileDown?.();
  await page.mouse.up();
}

let people: Participant[] = [];
let firefox: FirefoxBrowser | null = null;
test.afterEach(async () => {
  for (const person of people) await person.context.close().catch(() => undefined);
  await firefox?.close().catch(() => undefined);
  [people, firefox] = [[], null];
});

test('Ada (the host) draws and Bob sees the line as it is drawn; Bob draws back; a late joiner gets both; undo, clear for the host only, shapes and text, and a hostile peer', async ({
  browser,
  baseURL,
}) => {
  const meetingId = seededAccount('demo').meetingId;
  const bodies: string[][] = [];
  const prepare = async (context: BrowserContext) => void bodies.push(recordBodies(context));
  // Ada is the meeting's owner: the roster's host, the only one who may clear the board.
  const ada = await joinMeeting(browser, baseURL!, meetingId, { name: 'Demo User', camera: false, host: 'demo', fragment: fragment(), prepare });
  const bob = await joinMeeting(browser, baseURL!, meetingId, { name: 'Bob', camera: false, prepare });
  people = [ada, bob];
  await keysVerified(ada.page);
  await keysVerified(bob.page);

  // Ada opens the board from the toolbar (at 1366 px it is in the bar) and draws; Bob's page
  // has the line before Ada lets go: points stream in batches while drawn.
  await ada.page.getByRole('button', { name: w.title, exact: true }).click();
  await expect(canvas(ada.page)).toBeVisible();
  // Bob's board is closed: the call tells him someone draws. The notice lasts 3 s from Ada's first
  // batch, so it is watched for from before she starts (moving the mouse can take longer than that here).
  const told = expect(bob.page.getByText(w.peerDrawing.replace('{name}', 'Demo User'))).toBeVisible({ timeout: 30_000 });
  await draw(ada.page, [0.1, 0.1], [0.5, 0.4], async () => {
    await told;
    await expect.poll(async () => (await board(bob.page)).strokes[0]?.points ?? 0, { timeout: 10_000 }).toBeGreaterThan(1);
    expect((await board(ada.page)).strokes).toHaveLength(1);
  });
  await expect.poll(async () => JSON.stringify(await board(bob.page))).toBe(JSON.stringify(await board(ada.page)));
  const [adaStroke] = (await board(ada.page)).strokes;
  expect(adaStroke).toMatchObject({ colour: 0, width: 1 });
  expect(adaStroke!.points).toBeGreaterThan(5);

  // Bob opens the board: Ada's line is on his screen; he draws back in red and thick.
  await bob.page.getByRole('button', { name: w.title, exact: true }).click();
  await expect.poll(() => inked(bob.page)).toBeGreaterThan(100);
  const before = await inked(bob.page);
  // A swatch is clicked as a person would: its label (the radio itself is visually hidden).
  const pick = async (name: string) => {
    await bob.page.locator('label', { has: bob.page.getByRole('radio', { name }) }).click();
    await expect(bob.page.getByRole('radio', { name })).toBeChecked();
  };
  await pick(w.colours.red);
  await pick(w.widths.thick);
  await draw(bob.page, [0.9, 0.1], [0.4, 0.8]);
  expect(await inked(bob.page)).toBeGreaterThan(before);
  await expect.poll(() => strokeIds(ada.page)).toHaveLength(2);
  expect(await board(ada.page)).toEqual(await board(bob.page));
  expect((await board(ada.page)).strokes.map((stroke) => [stroke.colour, stroke.width])).toEqual([
    [0, 1],
    [1, 2],
  ]);

  // Carol joins late: a peer hands her the board; she never saw a stroke being drawn.
  const carol = await joinMeeting(browser, baseURL!, meetingId, { name: 'Carol', camera: false, prepare });
  people.push(carol);
  await keysVerified(carol.page, 2);
  await expect.poll(() => strokeIds(carol.page), { timeout: 15_000 }).toEqual(await strokeIds(ada.page));
  expect(await board(carol.page)).toEqual({ ...(await board(ada.page)), refused: 0 });

  // A hostile peer: Ada's page sends Bob messages a modified client could send. Each is dropped,
  // counted, and Bob's board and call go on as before.
  const bobId = await selfId(bob.page);
  const hostile = [
    { t: 'wb-end', n: 1, c: 99, w: 0, p: [0, 0, 10, 10] },
    { t: 'wb-end', n: 2, c: 0, w: 0, p: [0, 0, 1e9, -5] },
    { t: 'wb-end', n: 3, c: 'red;background:url(https://evil.example)', w: 0, p: [0, 0] },
    { t: 'wb-seg', n: 4, c: 0, w: 0, at: 0, p: Array(5000).fill(5000) },
    { t: 'wb-del', ids: ['<img src=x onerror=alert(1)>#1'] },
    { t: 'wb-clear', upTo: { [bobId]: 'everything' } },
    {
      t: 'wb-snap',
      s: [
        { a: 'x', n: 1, c: 0, w: 0, p: [1, 1] },
        { a: 'x', n: 2, c: 0, w: 7, p: [1, 1] },
      ],
      d: [],
      upTo: {},
    },
    { t: 'wb-snap', s: 'not a list', d: [], upTo: {} },
    { t: 'wb-end', n: 5, c: 0, w: 0, p: [0, 0, 10, 10, 20, 20], k: 'rect' },
    { t: 'wb-end', n: 6, c: 0, w: 0, p: [10, 10], k: 'text', s: 'x'.repeat(201) },
    { t: 'wb-end', n: 7, c: 0, w: 0, p: [10, 10], k: 'text', s: '<b>\u202Eevil</b>' },
    { t: 'wb-end', n: 8, c: 0, w: 0, p: [10, 10, 20, 20], k: 'script' },
  ];
  const boardBefore = await board(bob.page);
  for (const message of hostile)
    expect(await ada.page.evaluate(({ to, message }) => window.enclaveProbe!.sendRawMessage(to, message), { to: bobId, message })).toBe(true);
  await expect.poll(async () => (await board(bob.page)).refused).toBe(hostile.length);
  expect((await board(bob.page)).strokes).toEqual(boardBefore.strokes);

  // Undo takes back Bob's own stroke, on every page.
  await bob.page.getByRole('button', { name: w.undo }).click();
  await expect.poll(() => strokeIds(ada.page)).toEqual([adaStroke!.id]);
  await expect.poll(() => strokeIds(carol.page)).toEqual([adaStroke!.id]);
  await expect(bob.page.getByRole('button', { name: w.undo })).toBeDisabled();

  // Clear is the host's: Bob has no such button, and his page's clear (a modified client) is refused.
  await draw(bob.page, [0.2, 0.9], [0.8, 0.9]);
  await expect.poll(() => strokeIds(carol.page)).toHaveLength(2);
  await expect(bob.page.getByRole('button', { name: w.clear, exact: true })).toHaveCount(0);
  const adaId = await selfId(ada.page);
  const guestClear = { t: 'wb-clear', upTo: Object.fromEntries((await board(bob.page)).strokes.map((s) => [s.author, Number.MAX_SAFE_INTEGER])) };
  expect(await bob.page.evaluate(({ to, message }) => window.enclaveProbe!.sendRawMessage(to, message), { to: adaId, message: guestClear })).toBe(true);
  await expect.poll(async () => (await board(ada.page)).refused).toBe(1);
  expect(await strokeIds(ada.page)).toHaveLength(2);
  // The host's clear asks first, then empties every board.
  await ada.page.getByRole('button', { name: w.clear, exact: true }).click();
  const dialog = ada.page.getByRole('dialog', { name: w.clearTitle });
  await expect(dialog).toContainText(w.clearMessage);
  await dialog.getByRole('button', { name: w.clearConfirm }).click();
  for (const person of [ada, bob, carol]) await expect.poll(() => strokeIds(person.page)).toEqual([]);
  await expect.poll(() => inked(bob.page)).toBe(0);

  // Bob draws a rectangle and places a text (click, type, Enter): both reach every page whole.
  await bob.page.getByRole('group', { name: w.tool }).getByRole('button', { name: w.rect }).click();
  await draw(bob.page, [0.2, 0.2], [0.6, 0.5]);
  await bob.page.getByRole('button', { name: w.text, exact: true }).click();
  const sheet = (await bob.page.locator('canvas[data-whiteboard-canvas]').boundingBox())!;
  await bob.page.mouse.click(sheet.x + sheet.width * 0.3, sheet.y + sheet.height * 0.7);
  await bob.page.getByRole('textbox', { name: w.textInput }).fill('Plan B');
  await bob.page.keyboard.press('Enter');
  await expect(bob.page.getByRole('textbox', { name: w.textInput })).toHaveCount(0);
  const kinds = async (page: Page) => (await board(page)).strokes.map((s) => [s.kind, s.text ?? null]);
  for (const person of [ada, carol]) {
    await expect
      .poll(() => kinds(person.page))
      .toEqual([
        ['rect', null],
        ['text', 'Plan B'],
      ]);
  }
  await expect.poll(() => inked(ada.page)).toBeGreaterThan(100);
  // The eraser takes the rectangle off where it is clicked (inside it), everywhere.
  await bob.page.getByRole('button', { name: w.eraser }).click();
  await bob.page.mouse.click(sheet.x + sheet.width * 0.4, sheet.y + sheet.height * 0.35);
  await expect.poll(() => kinds(carol.page)).toEqual([['text', 'Plan B']]);

  // Saved as a PNG and as an SVG, on the device.
  const [svg] = await Promise.all([ada.page.waitForEvent('download'), ada.page.getByRole('button', { name: w.exportSvg }).click()]);
  expect(svg.suggestedFilename()).toBe(`${w.fileName}.svg`);
  expect(readFileSync((await svg.path())!, 'utf8')).toMatch(/^<svg [^]*<text [^>]*>Plan B<\/text>/);
  const [download] = await Promise.all([ada.page.waitForEvent('download'), ada.page.getByRole('button', { name: w.export }).click()]);
  expect(download.suggestedFilename()).toBe(`${w.fileName}.png`);
  expect(
    readFileSync((await download.path())!)
      .subarray(1, 4)
      .toString(),
  ).toBe('PNG');

  // The server never held the board: no request carried a stroke, its log names none.
  expect(bodies.flat().filter((body) => /wb-(seg|end|snap|del|clear)/.test(body))).toEqual([]);
  expect(readFileSync(path.join(E2E_DATA_DIR, 'server.log'), 'utf8')).not.toMatch(/wb-(seg|end|snap|del|clear)/);
});

test('Firefox and Chromium draw at the same time and end with the same board', async ({ browser, baseURL }) => {
  const meetingId = seededAccount('demo').meetingId;
  firefox = await launchFirefox();
  const fox: FirefoxPage = await joinMeetingInFirefox(firefox, `${baseURL}/now/${meetingId}${fragment()}`, 'Fiona');
  await fox.setViewport({ width: 1366, height: 768 });
  const chris = await joinMeeting(browser, baseURL!, meetingId, { name: 'Chris', camera: false });
  people = [chris];
  await keysVerified(chris.page);
  await fox.waitForFunction(() => window.enclaveProbe?.getState().peers[0]?.keys === 'verified', { timeout: 30_000 });

  await (await fox.waitForSelector(`button[aria-label="${w.title}"]`))!.click();
  await chris.page.getByRole('button', { name: w.title, exact: true }).click();
  const foxBox = (await (await fox.waitForSelector('canvas[data-whiteboard-canvas]'))!.boundingBox())!;
  /** Firefox's line, through WebDriver BiDi's pointer actions: real pointer events on its canvas. */
  const foxDraws = async () => {
    await fox.mouse.move(foxBox.x + foxBox.width * 0.1, foxBox.y + foxBox.height * 0.8);
    await fox.mouse.down();
    for (let step = 1; step <= 20; step++) await fox.mouse.move(foxBox.x + foxBox.width * (0.1 + step * 0.04), foxBox.y + foxBox.height * (0.8 - step * 0.03));
    await fox.mouse.up();
  };
  // Both at once: each page's stroke streams while the other's does.
  await Promise.all([foxDraws(), draw(chris.page, [0.9, 0.1], [0.2, 0.5])]);
  const foxBoard = () => fox.evaluate(() => window.enclaveProbe!.whiteboard()) as Promise<BoardView>;
  await expect.poll(async () => (await board(chris.page)).strokes.length, { timeout: 15_000 }).toBe(2);
  await expect.poll(async () => JSON.stringify(await foxBoard()), { timeout: 15_000 }).toBe(JSON.stringify(await board(chris.page)));
  expect(new Set((await board(chris.page)).strokes.map((stroke) => stroke.author)).size).toBe(2);
  expect((await board(chris.page)).strokes.every((stroke) => stroke.points > 5)).toBe(true);
});

for (const locale of ['en', 'de']) {
  test(`the whiteboard fits every width and its tools are reached by keyboard (${locale})`, async ({ browser, baseURL }, testInfo) => {
    const m = messages(locale);
    const meetingId = seededAccount('demo').meetingId;
    const join = async (name: string, hash = '', host = false) => {
      people.push(await joinMeeting(browser, baseURL!, meetingId, { name, fragment: hash, locale, viewport: widths[2], host: host ? 'demo' : undefined }));
      return people.at(-1)!.page;
    };
    // Ada is the host (clear is hers alone).
    const ada = await join('Ada Lovelace', fragment(), true);
    await join('Bo Byron');
    await keysVerified(ada);

    // At 390 px the board is in the "More" menu, reached by keyboard.
    const more = ada.getByRole('button', { name: m.Meeting.moreOptions }).first();
    await more.focus();
    await ada.keyboard.press('ArrowDown');
    await ada.getByRole('menuitemcheckbox', { name: m.Whiteboard.title }).focus();
    await ada.keyboard.press('Enter');
    await expect(canvas(ada, m.Whiteboard.canvas)).toBeVisible();

    // The tools: Tab reaches each tool in the labelled group, then the colours, where the arrows move.
    const tools = ada.getByRole('toolbar', { name: m.Whiteboard.tools });
    const group = tools.getByRole('group', { name: m.Whiteboard.tool });
    await group.getByRole('button', { name: m.Whiteboard.pen }).focus();
    for (const name of ['line', 'arrow', 'rect', 'ellipse', 'text', 'eraser'] as const) {
      await ada.keyboard.press('Tab');
      await expect(group.getByRole('button', { name: m.Whiteboard[name], exact: true })).toBeFocused();
    }
    await ada.keyboard.press('Enter');
    await expect(group.getByRole('button', { name: m.Whiteboard.eraser })).toHaveAttribute('aria-pressed', 'true');
    await ada.keyboard.press('Shift+Tab');
    await ada.keyboard.press('Enter');
    await ada.keyboard.press('Tab');
    await ada.keyboard.press('Tab');
    await expect(tools.getByRole('radio', { name: m.Whiteboard.colours.black })).toBeFocused();
    await ada.keyboard.press('ArrowRight');
    await expect(tools.getByRole('radio', { name: m.Whiteboard.colours.red })).toBeChecked();
    // The text tool (chosen above by keyboard): a click places the labelled input, Enter places the text in red.
    const sheet = (await canvas(ada, m.Whiteboard.canvas).boundingBox())!;
    await ada.mouse.click(sheet.x + sheet.width * 0.3, sheet.y + sheet.height * 0.3);
    await ada.getByRole('textbox', { name: m.Whiteboard.textInput }).fill('Tschüss 👋');
    await ada.keyboard.press('Enter');
    await expect.poll(async () => (await board(ada)).strokes.map((stroke) => [stroke.kind, stroke.colour, stroke.text])).toEqual([['text', 1, 'Tschüss 👋']]);

    const checks = { fullPage: false, oneRow: [`nav[aria-label="${m.Meeting.controls}"]`] };
    for (const viewport of [...widths].reverse()) {
      await sweep(ada, testInfo, `${locale} whiteboard`, viewport, checks);
      // The board keeps its shape (4:3) at every width, and stays inside the window.
      const box = (await canvas(ada, m.Whiteboard.canvas).boundingBox())!;
      expect(Math.abs(box.width / box.height - 4 / 3)).toBeLessThan(0.02);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      expect(box.width).toBeGreaterThan(200);
    }

    // Clear's confirmation: a dialog that Escape closes, focus back on its button.
    const clear = tools.getByRole('button', { name: m.Whiteboard.clear, exact: true });
    await clear.focus();
    await ada.keyboard.press('Enter');
    await expect(ada.getByRole('dialog', { name: m.Whiteboard.clearTitle })).toBeVisible();
    await sweep(ada, testInfo, `${locale} whiteboard clear`, widths[2], { fullPage: false });
    await ada.keyboard.press('Escape');
    await expect(ada.getByRole('dialog', { name: m.Whiteboard.clearTitle })).toBeHidden();
    expect((await board(ada)).strokes).toHaveLength(1);
  });
}
