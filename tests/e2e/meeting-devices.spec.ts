// Issue 36, items 5 and 3: changing camera, microphone and speaker during the call, the fallback
// when a device goes, and picture-in-picture — in real headless Chromium, two participants.
//
// Devices: Chromium's fake capture offers one camera unless told otherwise; with
// `--use-fake-device-for-media-stream=device-count=3` it offers three real fake cameras, beside
// the three fake microphones and three fake outputs it always lists, so no device is simulated
// here. fake_device_1 is not used: it delivers 16-bit depth frames (Y16) that no video encoder
// takes (measured: VideoEncoder fails, and a call sending it decodes nothing); fake_device_2 is
// MJPEG decoded to I420, as a real webcam's.
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../support/chromium.mjs';
import { seededAccount } from './support/session';
import { closedAfterEach, expectMediaFromPeers, joinMeeting, participantCount, peerStats } from './support/meeting';
import { negotiations } from './support/probe-readers';

test.use({
  launchOptions: {
    executablePath: chromiumPath,
    args: chromiumArgs.map((arg) => (arg === '--use-fake-device-for-media-stream' ? `${arg}=device-count=3` : arg)),
  },
});
test.describe.configure({ timeout: 120_000 });

const open = closedAfterEach();

const senders = (page: Page) => page.evaluate(() => Object.values(window.enclaveProbe!.senderTracks())[0]!);
type Counters = { decrypted: number; failed: Record<string, number> };
const received = (page: Page) =>
  page.evaluate(async () => Object.values((await window.enclaveProbe!.encryptionStats()) as unknown as Record<string, { received: Counters }>)[0]!.received);
const refused = (counters: Counters) => Object.values(counters.failed).reduce((sum, count) => sum + count, 0);
/** The label of the camera our own tile plays. */
const ownTileCamera = (page: Page) =>
  page.evaluate(() => {
    const self = window.enclaveProbe!.getState().self.id;
    const video = document.querySelector<HTMLVideoElement>(`figure[data-participant="${self}"][data-kind="camera"] video`);
    return (video?.srcObject as MediaStream | null)?.getVideoTracks()[0]?.label ?? null;
  });

// These tests read the capture on the microphone's sender (its label, its `ended`): with noise
// suppression on, the sender carries the filter's track instead (meeting-noise.spec.ts tests that).
const captureOnSender = async (context: BrowserContext) => {
  await context.addInitScript(() => localStorage.setItem('enclave.noiseSuppression', 'off'));
};

async function twoInACall(browser: Parameters<typeof joinMeeting>[0], baseURL: string) {
  const meetingId = seededAccount('demo').meetingId;
  const ada = await joinMeeting(browser, baseURL, meetingId, { name: 'Ada', prepare: captureOnSender });
  const bob = await joinMeeting(browser, baseURL, meetingId, { name: 'Bob', prepare: captureOnSender });
  open.push(ada, bob);
  // The previous test's participants are gone from the room (their tabs closed).
  await participantCount(ada.page, 2);
  await expectMediaFromPeers(ada.page, 1);
  await expectMediaFromPeers(bob.page, 1);
  return { ada, bob };
}

test('camera and microphone change mid-call on the same senders, encrypted, without renegotiation; the choice is remembered', async ({ browser, baseURL }) => {
  const { ada, bob } = await twoInACall(browser, baseURL!);
  const page = ada.page;
  const before = await senders(page);
  expect(before.camera?.label).toBe('fake_device_0');
  const offers = { ada: await negotiations(page), bob: await negotiations(bob.page) };

  // Muted before the switch: the new microphone stays muted.
  await page.getByRole('button', { name: 'Turn off microphone' }).click();
  await page.getByRole('button', { name: 'Camera, microphone and speaker' }).click();
  const dialog = page.getByRole('dialog', { name: 'Camera, microphone and speaker' });
  await expect(dialog).toBeVisible();
  // Keyboard: the dialog holds focus (Tab cycles inside it).
  for (let i = 0; i < 6; i += 1) {
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('dialog'))).toBe(true);
  }
  await expect(dialog.getByLabel('Speaker', { exact: true })).toBeVisible();

  const switchedAt = Date.now();
  await dialog.getByLabel('Camera', { exact: true }).selectOption({ label: 'fake_device_2' });
  // Our own tile shows the new camera within a second.
  await expect.poll(() => ownTileCamera(page), { timeout: 1_000, intervals: [50] }).toBe('fake_device_2');
  const tileMs = Date.now() - switchedAt;
  await dialog.getByLabel('Microphone', { exact: true }).selectOption({ label: 'Fake Audio Input 1' });
  await expect.poll(async () => (await senders(page)).audio?.label).toBe('Fake Audio Input 1');

  // The speaker: every remote voice plays on the chosen output (setSinkId).
  const output = dialog.getByLabel('Speaker', { exact: true });
  await output.selectOption({ label: 'Fake Audio Output 1' });
  const outputId = await output.inputValue();
  await expect
    .poll(() => page.evaluate(() => [...document.querySelectorAll('audio')].map((audio) => (audio as HTMLAudioElement & { sinkId: string }).sinkId)))
    .toEqual([outputId]);

  const after = await senders(page);
  expect(after.camera?.label).toBe('fake_device_2');
  expect(after.camera?.id).not.toBe(before.camera?.id);
  expect(after.audio?.id).not.toBe(before.audio?.id);
  expect(after.audio?.enabled).toBe(false);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Turn on microphone' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Turn on microphone' }).click();

  // Bob still receives and decrypts Ada's video and audio from the new devices (the sender's
  // encryption transform stayed: frames the transform had not sealed would fail to open).
  const cryptoBefore = await received(bob.page);
  await expectMediaFromPeers(bob.page, 1);
  await expect.poll(async () => (await received(bob.page)).decrypted - cryptoBefore.decrypted).toBeGreaterThan(20);
  expect(refused(await received(bob.page))).toBe(refused(cryptoBefore));
  // No offer or answer on either side: replaceTrack only.
  expect(await negotiations(page)).toEqual(offers.ada);
  expect(await negotiations(bob.page)).toEqual(offers.bob);
  expect(await page.evaluate(() => window.enclaveProbe!.getState().peers.length)).toBe(1);

  // Remembered on this device: the lobby of the next call opens the same camera.
  const lobby = await ada.context.newPage();
  await lobby.goto(page.url());
  await expect(lobby.getByLabel('Camera', { exact: true })).toHaveValue(
    await page.evaluate(() => window.enclaveProbe!.localTrack('camera')!.getSettings().deviceId!),
  );
  expect(await lobby.evaluate(() => JSON.parse(localStorage.getItem('enclave.devices')!).audiooutput)).toBe(outputId);
  await lobby.close();
  test.info().annotations.push({ type: 'own tile shows the new camera after (ms)', description: String(tileMs) });
  console.log(`own tile showed the new camera ${tileMs} ms after the choice`);
});

test('a camera or microphone that ends mid-call falls back to the default device with a notice', async ({ browser, baseURL }) => {
  const { ada, bob } = await twoInACall(browser, baseURL!);
  const page = ada.page;
  await page.getByRole('button', { name: 'Camera, microphone and speaker' }).click();
  const dialog = page.getByRole('dialog', { name: 'Camera, microphone and speaker' });
  await dialog.getByLabel('Camera', { exact: true }).selectOption({ label: 'fake_device_2' });
  await expect.poll(async () => (await senders(page)).camera?.label).toBe('fake_device_2');
  await dialog.getByRole('button', { name: 'Close' }).click();
  const offers = await negotiations(page);

  // Headless Chromium cannot unplug a fake camera, so the test fires the track's own `ended`
  // event, which is what Chromium fires when a capture device goes away.
  await page.evaluate(() => window.enclaveProbe!.localTrack('camera')!.dispatchEvent(new Event('ended')));
  await expect(page.getByRole('status').filter({ hasText: 'Your camera was disconnected. Switched to the default camera.' })).toBeVisible();
  await expect.poll(async () => (await senders(page)).camera?.label).toBe('fake_device_0');
  await expect.poll(() => ownTileCamera(page)).toBe('fake_device_0');

  await page.evaluate(() => window.enclaveProbe!.localTrack('audio')!.dispatchEvent(new Event('ended')));
  await expect(page.getByRole('status').filter({ hasText: 'Your microphone was disconnected. Switched to the default microphone.' })).toBeVisible();

  const framesBefore = Object.values(await peerStats(bob.page))[0]!.framesDecoded;
  await expect.poll(async () => Object.values(await peerStats(bob.page))[0]!.framesDecoded - framesBefore, { timeout: 15_000 }).toBeGreaterThan(20);
  expect(await negotiations(page)).toEqual(offers);
});

test('picture-in-picture floats the other participant with mute and leave', async ({ browser, baseURL }) => {
  const { ada } = await twoInACall(browser, baseURL!);
  const page = ada.page;
  // Headless Chromium has the real Document Picture-in-Picture API: no stub.
  expect(await page.evaluate(() => 'documentPictureInPicture' in window)).toBe(true);
  const button = page.getByRole('button', { name: 'Picture in picture' });
  await expect(button).toHaveAttribute('aria-pressed', 'false');
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(button).toHaveAttribute('aria-pressed', 'true');

  const floating = () =>
    page.evaluate(() => {
      const pip = window.documentPictureInPicture?.window;
      if (!pip) return null;
      const video = pip.document.querySelector('video');
      return {
        figure: pip.document.querySelector('figure')?.getAttribute('aria-label'),
        playing: (video?.srcObject as MediaStream | null)?.getVideoTracks()[0]?.readyState ?? null,
        buttons: [...pip.document.querySelectorAll('button')].map((b) => b.getAttribute('aria-label')),
      };
    });
  await expect.poll(floating).toEqual({ figure: 'Bob', playing: 'live', buttons: ['Turn off microphone', 'Leave'] });

  // Its mute button mutes the call.
  await page.evaluate(() => window.documentPictureInPicture!.window!.document.querySelector<HTMLButtonElement>('button')!.click());
  await expect(page.getByRole('button', { name: 'Turn on microphone' })).toBeVisible();
  await expect.poll(async () => (await floating())?.buttons[0]).toBe('Turn on microphone');

  // The same button closes it.
  await button.click();
  await expect(button).toHaveAttribute('aria-pressed', 'false');
  // The floating window closes a moment after the switch says so: waited for.
  await expect.poll(() => page.evaluate(() => Boolean(window.documentPictureInPicture?.window))).toBe(false);

  // Leave from the floating window ends the call.
  await button.click();
  await expect.poll(async () => (await floating())?.buttons.length).toBe(2);
  await page.evaluate(() => window.documentPictureInPicture!.window!.document.querySelectorAll<HTMLButtonElement>('button')[1]!.click());
  await expect(page.getByRole('heading', { name: 'You left the meeting' })).toBeVisible();
  // The floating window closes after the heading shows (a loaded CI saw it still open): waited for.
  await expect.poll(() => page.evaluate(() => Boolean(window.documentPictureInPicture?.window))).toBe(false);
});

test('without Document Picture-in-Picture, the video element itself floats', async ({ browser, baseURL }) => {
  const meetingId = seededAccount('demo').meetingId;
  // Safari's case, in Chromium: the page does not see Document Picture-in-Picture, so the
  // button falls back to the real HTMLVideoElement.requestPictureInPicture().
  const hide = async (context: BrowserContext) => {
    await context.addInitScript(() => Object.defineProperty(window, 'documentPictureInPicture', { value: undefined, configurable: true }));
  };
  const ada = await joinMeeting(browser, baseURL!, meetingId, { name: 'Ada', prepare: hide });
  const bob = await joinMeeting(browser, baseURL!, meetingId, { name: 'Bob' });
  open.push(ada, bob);
  await participantCount(ada.page, 2);
  await expectMediaFromPeers(ada.page, 1);
  const button = ada.page.getByRole('button', { name: 'Picture in picture' });
  await button.click();
  await expect(button).toHaveAttribute('aria-pressed', 'true');
  // The floating video is Bob's tile.
  const floated = await ada.page.evaluate(() => {
    const element = document.pictureInPictureElement as HTMLVideoElement | null;
    return {
      tile: element?.closest('figure')?.getAttribute('aria-label') ?? null,
      playing: (element?.srcObject as MediaStream | null)?.getVideoTracks()[0]?.readyState ?? null,
    };
  });
  expect(floated).toEqual({ tile: 'Bob', playing: 'live' });
  await button.click();
  await expect(button).toHaveAttribute('aria-pressed', 'false');
  expect(await ada.page.evaluate(() => document.pictureInPictureElement)).toBeNull();
});
