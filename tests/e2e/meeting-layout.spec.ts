// Issue 33: the meeting's screens at 1366×768, 768×1024 and 390×844, in English and German —
// alone, with two, and with three while one presents a screen — with the checks of the layout
// sweep (support/layout.ts): nothing scrolls sideways, no control is covered (Leave was, by
// one's own video, when alone), every control is named, the controls take one row.
// At most three participants: every one of them runs on this machine (docs/e2ee-crypto.md).
import { expect, test, type Browser, type Page } from '@playwright/test';
import { localized, messages } from './support/messages';
import { closedAfterEach, newParticipantContext, type Participant } from './support/meeting';
import { seededAccount } from './support/session';
import { sweep, widths } from './support/layout';

// Three browsers with fake cameras on two cores, fifteen screens swept: minutes, not seconds.
test.describe.configure({ timeout: 300_000 });

const open = closedAfterEach();

async function join(
  browser: Browser,
  baseURL: string,
  locale: string,
  meetingId: string,
  name: string,
  /** Sweeps the lobby before joining. */
  lobby?: (page: Page) => Promise<void>,
): Promise<Participant> {
  const m = messages(locale).Meeting;
  const context = await newParticipantContext(browser, baseURL);
  const page = await context.newPage();
  await page.setViewportSize(widths[0]);
  await page.goto(localized(locale, `/now/${meetingId}`));
  const button = page.getByRole('button', { name: new RegExp(`^(${m.joinNow}|${m.askToJoin})$`) });
  // The meeting's code loads on a machine that three cameras keep busy.
  await expect(button).toBeVisible({ timeout: 30_000 });
  const nameField = page.getByLabel(m.yourName, { exact: true });
  if (await nameField.isVisible()) await nameField.fill(name);
  await lobby?.(page);
  await button.click();
  await expect(page.getByRole('navigation', { name: m.controls })).toBeVisible({ timeout: 15_000 });
  const participant = { context, page, name };
  open.push(participant);
  return participant;
}

/** Tiles stay between the header and the controls: the stage ends above the toolbar. */
async function tilesClearOfBars(page: Page, controls: string): Promise<string[]> {
  return page.evaluate((controls) => {
    const toolbar = document.querySelector(`nav[aria-label="${controls}"]`)!.getBoundingClientRect();
    const header = document.querySelector('header')!.getBoundingClientRect();
    return [...document.querySelectorAll('figure')]
      .map((figure) => ({ name: figure.getAttribute('aria-label'), rect: figure.getBoundingClientRect() }))
      .filter(({ rect }) => rect.width > 0 && rect.right > 0 && rect.left < window.innerWidth)
      .flatMap(({ name, rect }) => [
        ...(rect.bottom > toolbar.top + 1 ? [`the tile "${name}" reaches ${Math.round(rect.bottom - toolbar.top)}px under the call controls`] : []),
        ...(rect.top < header.bottom - 1 ? [`the tile "${name}" reaches under the header`] : []),
      ]);
  }, controls);
}

/**
 * The chat open (issue 48): its placeholder fits its field, and the tiles are not squeezed into a
 * sliver beside it: from md each visible tile is at least 200 px wide; below md the panel has the
 * whole width and the stage steps aside.
 */
async function chatProblems(page: Page, participants: string): Promise<string[]> {
  return page.evaluate((participants) => {
    const problems: string[] = [];
    const input = document.querySelector<HTMLInputElement>('aside input[placeholder]');
    if (!input) return ['no chat field'];
    const style = getComputedStyle(input);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = context.measureText(input.placeholder).width;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (text > room) problems.push(`the chat placeholder needs ${Math.ceil(text)}px in a ${Math.floor(room)}px field`);
    const stage = document.querySelector(`main[aria-label="${participants}"]`)!;
    const aside = document.querySelector('aside')!.getBoundingClientRect();
    if (window.innerWidth < 768) {
      if (stage.getBoundingClientRect().width > 0) problems.push('below md the stage stays beside the chat');
      if (Math.abs(aside.width - window.innerWidth) > 1) problems.push(`below md the chat is ${aside.width}px of ${window.innerWidth}px`);
    } else {
      const figures = [...stage.querySelectorAll('figure')].map((figure) => ({
        name: figure.getAttribute('aria-label'),
        rect: figure.getBoundingClientRect(),
      }));
      for (const { name, rect } of figures) {
        if (rect.width > 0 && rect.width < 200) problems.push(`the tile "${name}" is ${Math.round(rect.width)}px wide beside the chat`);
      }
      // A stage wider than tall puts two people side by side, not in one column (call-layout.ts fitGrid).
      const box = stage.getBoundingClientRect();
      if (box.width > box.height && figures.length === 2 && Math.abs(figures[0]!.rect.top - figures[1]!.rect.top) > 1)
        problems.push('two tiles stand in one column beside the chat');
    }
    return problems;
  }, participants);
}

const tiles = (page: Page, count: number) => expect(page.getByRole('figure')).toHaveCount(count, { timeout: 20_000 });

for (const locale of ['en', 'de']) {
  test(`the meeting fits every width alone, with two and with three sharing a screen (${locale})`, async ({ browser, baseURL }, testInfo) => {
    const m = messages(locale).Meeting;
    const meetingId = seededAccount('demo').meetingId;
    const screenOf = (name: string) => m.screenOf.replace('{name}', name);
    const checks = (page: Page) => ({ fullPage: false, oneRow: [`nav[aria-label="${m.controls}"]`], more: () => tilesClearOfBars(page, m.controls) });

    const ada = await join(browser, baseURL!, locale, meetingId, 'Ada Lovelace', async (page) => {
      for (const viewport of widths) await sweep(page, testInfo, `${locale} meeting lobby`, viewport, { fullPage: false });
      await page.setViewportSize(widths[0]);
    });
    await tiles(ada.page, 1);
    // Alone: how to bring the others in (issue 48), and from md the bar's words under its icons.
    const invite = ada.page.getByRole('region', { name: m.invite.title });
    const words = ada.page.getByRole('navigation', { name: m.controls }).getByText(m.toolbarLabel.chat, { exact: true });
    for (const viewport of widths) {
      await sweep(ada.page, testInfo, `${locale} meeting alone`, viewport, checks(ada.page));
      await expect(invite).toBeVisible();
      await expect(invite.getByRole('button', { name: m.copyLink })).toBeVisible();
      await (viewport.width >= 768 ? expect(words).toBeVisible() : expect(words).toBeHidden());
    }
    // The device dialog (with the noise-suppression switch), from the bar or the "More" menu.
    for (const viewport of widths) {
      await ada.page.setViewportSize(viewport);
      const inBar = ada.page.getByRole('button', { name: m.devices.open, exact: true });
      if (await inBar.isVisible()) await inBar.click();
      else {
        await ada.page.getByRole('button', { name: m.moreOptions, exact: true }).filter({ visible: true }).click();
        await ada.page.getByRole('menuitem', { name: m.devices.open, exact: true }).click();
      }
      await expect(ada.page.getByRole('dialog', { name: m.devices.title })).toBeVisible();
      await expect(ada.page.getByRole('switch', { name: m.noise.label })).toBeVisible();
      await sweep(ada.page, testInfo, `${locale} device settings`, viewport, { fullPage: false });
      await ada.page.keyboard.press('Escape');
      await expect(ada.page.getByRole('dialog', { name: m.devices.title })).toBeHidden();
    }

    const bob = await join(browser, baseURL!, locale, meetingId, 'Bob Byron');
    await tiles(ada.page, 2);
    // Someone came: the invitation has done its work.
    await expect(invite).toHaveCount(0);
    for (const viewport of widths) await sweep(ada.page, testInfo, `${locale} meeting with two`, viewport, checks(ada.page));
    // The chat open, at every width (issue 48: the placeholder was cut, the tiles a narrow column).
    await ada.page.getByRole('button', { name: m.chat, exact: true }).click();
    await expect(ada.page.getByRole('region', { name: m.chat, exact: true })).toBeVisible();
    for (const viewport of widths) {
      await sweep(ada.page, testInfo, `${locale} meeting with two, chat open`, viewport, {
        ...checks(ada.page),
        more: () => chatProblems(ada.page, m.participants),
      });
    }
    await ada.page.getByRole('button', { name: m.chat, exact: true }).click();
    // A reaction arrives as this server's picture, drawn whatever fonts the desktop has (issue 48).
    await ada.page.setViewportSize(widths[0]);
    await ada.page.getByRole('button', { name: m.react, exact: true }).click();
    await ada.page.getByRole('button', { name: m.reactWith.replace('{emoji}', '👍') }).click();
    const picture = bob.page.locator('main ul[aria-live] img[src="/emoji/1f44d.svg"]');
    await expect(picture).toBeVisible({ timeout: 10_000 });
    expect(await picture.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);

    const cy = await join(browser, baseURL!, locale, meetingId, 'Cy Young');
    await tiles(ada.page, 3);
    await ada.page.setViewportSize(widths[0]);
    await ada.page.getByRole('button', { name: m.shareScreen, exact: true }).click();
    // The presenter's own screen is "Your screen", never "Your screen's screen".
    await expect.soft(ada.page.getByRole('figure', { name: m.screenYours, exact: true })).toBeVisible({ timeout: 15_000 });
    await expect.soft(ada.page.getByRole('figure', { name: screenOf(m.screenYours) })).toHaveCount(0);
    await expect(bob.page.getByRole('figure', { name: screenOf('Ada Lovelace'), exact: true })).toBeVisible({ timeout: 15_000 });
    await tiles(cy.page, 4);
    await tiles(ada.page, 4);
    for (const viewport of widths) await sweep(ada.page, testInfo, `${locale} meeting of three, presenting`, viewport, checks(ada.page));
    for (const viewport of widths) await sweep(bob.page, testInfo, `${locale} meeting of three, watching a screen`, viewport, checks(bob.page));
  });
}
