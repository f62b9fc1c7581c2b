// The layout sweep's checks (issue 33): what a new user at 1366, 768 or 390 px would trip over.
// Run inside the page, so one round trip checks a whole screen:
// - the document scrolls sideways;
// - a box inside it scrolls sideways (the calendar hid Friday to Sunday so); a box meant to
//   scroll sideways, such as the meeting's filmstrip, says so with data-scroll-x;
// - a visible control is covered at its centre by another element (brought into view first, so
//   that a sticky bar may cover it only where the user would scroll past it);
// - a control has no accessible name (Playwright's own name computation, via the ARIA snapshot);
// - a bar that must stay one row (the page's banner, the call controls) wraps.
import { expect, type Page, type TestInfo } from '@playwright/test';

export const widths = [
  { width: 1366, height: 768 },
  { width: 768, height: 1024 },
  { width: 390, height: 844 },
] as const;

export type Viewport = (typeof widths)[number];

/** One-row bars: the page's banner (and whatever else a caller names, such as the call controls). */
const ONE_ROW = 'header, [role="banner"]';

interface Found {
  sideways: string | null;
  innerScroll: string[];
  covered: string[];
  wrapped: string[];
}

/** What is wrong with the screen as it stands; an empty list when nothing is. */
export async function layoutProblems(page: Page, oneRow: string[] = []): Promise<string[]> {
  const found: Found = await page.evaluate(
    (oneRow) => {
      const describe = (element: Element) => {
        const name = element.getAttribute('aria-label') ?? (element as HTMLElement).innerText?.trim().replace(/\s+/g, ' ').slice(0, 40) ?? '';
        const id = element.id ? `#${element.id}` : '';
        const testId = element.getAttribute('data-testid') ? `[data-testid=${element.getAttribute('data-testid')}]` : '';
        return `<${element.tagName.toLowerCase()}${id}${testId}> "${name}"`;
      };
      const shown = (element: Element) => {
        if (!element.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true })) return false;
        const rect = element.getBoundingClientRect();
        return rect.width >= 4 && rect.height >= 4;
      };
      const root = document.documentElement;
      const sideways = root.scrollWidth > root.clientWidth ? `the document is ${root.scrollWidth}px wide in a ${root.clientWidth}px window` : null;

      const innerScroll: string[] = [];
      for (const element of document.body.querySelectorAll('*')) {
        if (element.closest('[data-scroll-x]')) continue;
        const style = getComputedStyle(element);
        if (!/(auto|scroll)/.test(style.overflowX)) continue;
        if (element.scrollWidth > element.clientWidth + 1 && shown(element)) {
          innerScroll.push(`${describe(element)} scrolls sideways (${element.scrollWidth}px in ${element.clientWidth}px)`);
        }
      }

      // While a modal dialog is open, only its controls can be reached.
      const modal = [...document.querySelectorAll('dialog[open], [aria-modal="true"]')].find(shown);
      const scope = modal ?? document.body;
      const controls = scope.querySelectorAll(
        'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [role="menuitem"], [role="tab"], [role="checkbox"], [role="switch"]',
      );
      const covered: string[] = [];
      const scrolled = [window.scrollX, window.scrollY];
      for (const control of controls) {
        if (!shown(control) || control.closest('[aria-hidden="true"], [inert]')) continue;
        // Visually hidden (sr-only) controls: skip links, inputs styled by their label.
        const style = getComputedStyle(control);
        if (style.clipPath !== 'none' && style.clipPath !== '' && style.position === 'absolute') continue;
        if (style.clip && style.clip !== 'auto' && style.position === 'absolute') continue;
        control.scrollIntoView({ block: 'center', inline: 'center' });
        // A link that wraps over two lines: the centre of its first line box.
        const rect = control.getClientRects()[0] ?? control.getBoundingClientRect();
        const x = rect.left + rect.width / 2;
        const y = rect.top + rect.height / 2;
        const hit = document.elementFromPoint(x, y);
        if (hit && (hit === control || control.contains(hit))) continue;
        const where = x < 0 || y < 0 || x > window.innerWidth || y > window.innerHeight ? 'out of the window' : `under ${hit ? describe(hit) : 'nothing'}`;
        covered.push(`${describe(control)} is ${where}`);
      }
      window.scrollTo(scrolled[0]!, scrolled[1]!);

      const wrapped: string[] = [];
      for (const bar of document.querySelectorAll(oneRow)) {
        if (!shown(bar) || bar.closest('[aria-hidden="true"]')) continue;
        const items = [...bar.querySelectorAll('a[href], button, select, input, h1')].filter(shown).map((item) => item.getBoundingClientRect());
        if (!items.length) continue;
        // One row: every control overlaps the first one vertically.
        const top = Math.max(...items.map((r) => r.top));
        const bottom = Math.min(...items.map((r) => r.bottom));
        if (top >= bottom) wrapped.push(`${describe(bar).slice(0, 60)} takes more than one row`);
      }
      // The chunk watchdog's reload prompt: which app scripts it took for still loading.
      const prompt = document.getElementById('chunk-error');
      if (prompt && !prompt.hidden) {
        const pending = [...document.querySelectorAll<HTMLScriptElement>('script[src*="/_next/static/"]')]
          .filter((script) => !performance.getEntriesByName(script.src).length)
          .map((script) => new URL(script.src).pathname);
        wrapped.push(
          `the "could not be loaded" prompt shows (scripts without a timing entry: ${pending.join(', ') || 'none'}; ${performance.getEntriesByType('resource').length} entries)`,
        );
      }
      return { sideways, innerScroll, covered, wrapped };
    },
    [ONE_ROW, ...oneRow].join(', '),
  );

  const unnamed = await unnamedControls(page);
  return [...(found.sideways ? [found.sideways] : []), ...found.innerScroll, ...found.covered, ...found.wrapped, ...unnamed];
}

const NAMED_ROLES = 'button|link|textbox|searchbox|combobox|listbox|checkbox|radio|switch|slider|spinbutton|menuitem|menuitemcheckbox|menuitemradio|tab|option';

/** Controls with no accessible name, as Playwright computes it (the ARIA snapshot). */
async function unnamedControls(page: Page): Promise<string[]> {
  const snapshot = await page.locator('body').ariaSnapshot({ timeout: 30_000 });
  const unnamed = new RegExp(`^\\s*- (${NAMED_ROLES})(?: \\[[^\\]]*\\])*:?\\s*$`);
  return snapshot
    .split('\n')
    .filter((line) => unnamed.test(line))
    .map((line) => `a ${line.trim().replace(/^- /, '').replace(/:$/, '')} has no accessible name`);
}

/** Waits for what a user would wait for: the page loaded, fonts in, nothing busy. */
export async function settle(page: Page) {
  await page.waitForLoadState('load');
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 10_000 });
  // Two frames: a layout that reacts to the size it was given has run.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** Resizes and checks the screen, keeping a screenshot of what failed; the problems are soft failures. */
export async function sweep(
  page: Page,
  testInfo: TestInfo,
  label: string,
  viewport: Viewport,
  options: { fullPage?: boolean; oneRow?: string[]; more?: () => Promise<string[]> } = {},
) {
  await page.setViewportSize(viewport);
  await settle(page);
  const problems = [...(await layoutProblems(page, options.oneRow)), ...((await options.more?.()) ?? [])];
  // A screenshot where a check failed (what a person needs to see the fault), or of every screen
  // with SWEEP_SHOTS=1 (a review by eye): taking one of each cost the meeting layout test a quarter
  // of its time on two cores.
  if (problems.length > 0 || process.env.SWEEP_SHOTS === '1') {
    const file = testInfo.outputPath(`${label.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}-${viewport.width}.jpeg`);
    await page.screenshot({ path: file, fullPage: options.fullPage ?? true, type: 'jpeg', quality: 60 });
    await testInfo.attach(`${label} @${viewport.width}`, { path: file, contentType: 'image/jpeg' });
  }
  expect.soft(problems, `${label} at ${viewport.width}×${viewport.height}`).toEqual([]);
  return problems;
}
