// Issue 48. Point 3: the meeting page (/now/{id}) alone may compile WebAssembly (the noise
// filter's RNNoise) and reach the SFU (lib/security/csp.ts), and a document keeps the policy it was
// loaded with: "Start meeting now", a client-side link, ran the call under the dashboard's policy,
// and the host was not heard. Here the host enters by that link and a guest by the address bar,
// with suppression on (the default), in a room whose calls go through the SFU: each hears the
// other, through Janus, and no page reports a refused policy. Point 1: the call, left open past
// the reload prompt's time-out, shows no prompt; a chunk that really fails shows it without
// covering the call's header, and says that reloading leaves the call.
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../support/chromium.mjs';
import { closedAfterEach, enterLobby, expectInCall, joinMeeting, newParticipantContext, participantCount } from './support/meeting';
import { mediaRoute } from './support/probe-readers';
import { messages } from './support/messages';
import { noisySpeechWav } from './support/noisy-speech';
import { logIn, seededAccount } from './support/session';
import { describeReception, percentile, receivedFrames, sendsFiltered } from './support/received-audio';

test.use({
  launchOptions: { executablePath: chromiumPath, args: [...chromiumArgs, `--use-file-for-fake-audio-capture=${noisySpeechWav()}`] },
});
test.describe.configure({ timeout: 180_000 });

const en = messages('en');
/** The reload prompt's time-out in this test (the e2e server lets an init script shorten it). */
const TIME_OUT_MS = 20_000;

const open = closedAfterEach();

/** In every document of the context: a short reload-prompt time-out, and the policy violations seen. */
async function watch(context: BrowserContext) {
  await context.addInitScript((ms) => {
    const seen: string[] = [];
    Object.assign(window, { __enclaveChunkTimeoutMs: ms, policyViolations: seen });
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.effectiveDirective} ${event.blockedURI}`));
  }, TIME_OUT_MS);
}
const violations = (page: Page) => page.evaluate(() => (window as unknown as { policyViolations: string[] }).policyViolations);

/** The loudest 5 % of the other's audio as this page receives it over `ms`, in dBFS (-200: hardly any). */
async function receivedSpeech(page: Page, ms: number): Promise<number> {
  const frames = await receivedFrames(page, ms);
  return frames.length > 100 ? percentile(frames, 95) : -200;
}

/** The demo account's default room (the one "Start meeting now" opens), its calls pinned to a route. */
async function pinDefaultRoom(page: Page, baseURL: string, mediaRoute: string): Promise<string> {
  const rooms = (await (await page.request.get('/api/rooms')).json()) as { id: string; isDefault: boolean; mediaRoute: string }[];
  const room = rooms.find((candidate) => candidate.isDefault)!;
  const answer = await page.request.post('/api/room/update', { data: { id: room.id, mediaRoute }, headers: { origin: baseURL } });
  expect(answer.ok()).toBe(true);
  return room.mediaRoute;
}

test('"Start meeting now" and the address bar both run the call under its own policy: noise filter and SFU work, each hears the other; no reload prompt', async ({
  browser,
  baseURL,
}) => {
  const meetingId = seededAccount('demo').meetingId;
  const hostContext = await newParticipantContext(browser, baseURL!);
  await logIn(hostContext, baseURL!, 'demo');
  await watch(hostContext);
  const host = await hostContext.newPage();
  open.push({ context: hostContext, page: host, name: 'Demo User' });
  // Through the SFU even for two (the room's setting), so that the page must reach Janus.
  const before = await pinDefaultRoom(host, baseURL!, 'sfu');
  try {
    await host.goto('/');
    await host.getByRole('link', { name: en.Dashboard.startNow }).click();
    await expect(host).toHaveURL(new RegExp(`/now/${meetingId}$`));
    await enterLobby(host, { name: 'Demo User' });
    await expectInCall(host);

    const guest = await joinMeeting(browser, baseURL!, meetingId, { name: 'Bob', prepare: watch });
    open.push(guest);
    await participantCount(host, 2);
    for (const page of [host, guest.page]) {
      await expect.poll(() => mediaRoute(page), { timeout: 30_000 }).toBe('sfu');
      // Suppression is on by default: what each sends is the filter's output.
      await expect.poll(() => sendsFiltered(page), { timeout: 15_000 }).toBe(true);
    }
    // Speech, not the silence a filter that could not start sends (issue 48: flat, about -100 dBFS).
    const heard = { byGuest: await receivedSpeech(guest.page, 6_000), byHost: await receivedSpeech(host, 6_000) };
    console.log(`loudest 5 % received: guest hears the host at ${heard.byGuest.toFixed(1)} dBFS, the host hears the guest at ${heard.byHost.toFixed(1)} dBFS`);
    // Seen on loaded CI runs only: the host heard the guest at -120 dBFS, not one sample. What
    // each page received then, to tell media that never came from frames that never opened.
    if (Math.min(heard.byGuest, heard.byHost) <= -50)
      for (const [name, page] of [
        ['host', host],
        ['guest', guest.page],
      ] as const)
        console.log(`${name} receives`, JSON.stringify(await describeReception(page)));
    expect(heard.byGuest).toBeGreaterThan(-50);
    expect(heard.byHost).toBeGreaterThan(-50);
    for (const page of [host, guest.page]) expect(await violations(page)).toEqual([]);

    // Point 1: left open past the time-out, the call shows no reload prompt.
    for (const page of [host, guest.page]) {
      await expect(page.locator('html[data-chunk-check="done"]')).toHaveCount(1, { timeout: TIME_OUT_MS + 15_000 });
      await expect(page.locator('#chunk-error')).toBeHidden();
    }

    // A chunk of the app that really fails: the prompt shows, below it the header stays in sight,
    // and it says that reloading leaves the call.
    await host.route('**/_next/static/chunks/lost-in-transit.js', (request) => request.abort('connectionreset'));
    await host.evaluate(() => {
      const script = document.createElement('script');
      script.src = '/_next/static/chunks/lost-in-transit.js';
      document.head.append(script);
    });
    const prompt = host.getByRole('alert').filter({ hasText: en.ChunkError.messageInCall });
    await expect(prompt).toBeVisible();
    await expect(prompt.getByRole('link', { name: en.ChunkError.reloadInCall })).toBeVisible();
    await expect(host.getByText(en.ChunkError.message, { exact: true })).toBeHidden();
    const bar = (await prompt.boundingBox())!;
    for (const part of [
      host.getByRole('heading', { level: 1 }),
      host.getByTestId('encryption-indicator'),
      host.getByRole('navigation', { name: 'Call controls' }),
    ]) {
      const box = (await part.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(bar.y + bar.height - 1);
      // Still inside the window: the call shrank by the prompt's height instead of running off the bottom.
      expect(box.y + box.height).toBeLessThanOrEqual(host.viewportSize()!.height + 1);
    }
  } finally {
    await pinDefaultRoom(host, baseURL!, before);
  }
});
