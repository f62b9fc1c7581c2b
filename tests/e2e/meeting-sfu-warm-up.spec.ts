// The lobby of a call that starts on the SFU loads the SFU side's code before the click (issue 46
// item 4; lib/meeting/client/call/sfu-route.ts warmSfuSide): a join of 30 no longer fetches it
// between the welcome and the ticket. A lobby whose call starts on the mesh leaves it alone, so
// the mesh's first load stays as it was. The SFU side is the one chunk that names Janus's
// VideoRoom plugin; the e2e server has an SFU (SFU_URLS), so `?media=sfu` starts there.
import { expect, test, type Browser } from '@playwright/test';
import { closedAfterEach, fragment, newParticipantContext } from './support/meeting';
import { seededAccount } from './support/session';

const open = closedAfterEach();

/** A lobby opened at `search`, with whether a script naming the VideoRoom plugin has arrived so far. */
async function lobby(browser: Browser, baseURL: string, meetingId: string, name: string, search: string) {
  const context = await newParticipantContext(browser, baseURL);
  const page = await context.newPage();
  open.push({ context, page, name });
  const seen = { sfuCode: false };
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    const body = await response.text().catch(() => '');
    if (body.includes('janus.plugin.videoroom')) seen.sfuCode = true;
  });
  await page.goto(`/now/${meetingId}${search}${fragment()}`);
  await expect(page.getByRole('button', { name: 'Join now' })).toBeVisible();
  return { page, seen };
}

test('a lobby whose call starts on the SFU loads the SFU side before the click; a mesh lobby does not', async ({ browser, baseURL }) => {
  const meetingId = seededAccount('demo').meetingId;
  const sfu = await lobby(browser, baseURL!, meetingId, 'Ada', '?media=sfu');
  await expect.poll(() => sfu.seen.sfuCode, { timeout: 15_000 }).toBe(true);

  const mesh = await lobby(browser, baseURL!, meetingId, 'Bob', '?media=mesh');
  // Everything the mesh lobby loads has arrived: none of it is the SFU side.
  await mesh.page.waitForLoadState('networkidle');
  expect(mesh.seen.sfuCode).toBe(false);
});
