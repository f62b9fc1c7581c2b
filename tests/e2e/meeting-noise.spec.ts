// Issue 36, item 2: noise suppression. Ada's fake microphone plays speech with pauses over pink
// noise (support/noisy-speech.ts, through --use-file-for-fake-audio-capture); Bob, in the same
// call, measures what he receives from her with WebAudio on her remote track, with RNNoise on
// (the default) and then off. In the pauses only the noise is left, so the quiet end of Bob's
// frames is the noise he hears; the loud end is her voice, which must survive the filter.
import { expect, test, type Page } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../support/chromium.mjs';
import { seededAccount } from './support/session';
import { closedAfterEach, expectMediaFromPeers, joinMeeting, participantCount } from './support/meeting';
import { negotiations } from './support/probe-readers';
import { noisySpeechWav } from './support/noisy-speech';
import { percentile, receivedFrames, sendsFiltered } from './support/received-audio';

test.use({
  launchOptions: { executablePath: chromiumPath, args: [...chromiumArgs, `--use-file-for-fake-audio-capture=${noisySpeechWav()}`] },
});
test.describe.configure({ timeout: 150_000 });

/** One loop of the WAV (three phrases, each followed by a 2.5 s pause) and a little more. */
const MEASURE_MS = 16_000;

const open = closedAfterEach();

const sentAudio = (page: Page) => page.evaluate(() => Object.values(window.enclaveProbe!.senderTracks())[0]!.audio);

/** The pauses' noise (the quietest fifth of the frames: the pauses are half the file) and the voice's peaks. */
const levels = (frames: number[]) => ({ noise: percentile(frames, 20), speech: percentile(frames, 95), frames: frames.length });

async function twoInACall(browser: Parameters<typeof joinMeeting>[0], baseURL: string) {
  const meetingId = seededAccount('demo').meetingId;
  const ada = await joinMeeting(browser, baseURL, meetingId, { name: 'Ada' });
  const bob = await joinMeeting(browser, baseURL, meetingId, { name: 'Bob' });
  open.push(ada, bob);
  await participantCount(ada.page, 2);
  await expectMediaFromPeers(bob.page, 1);
  return { ada, bob };
}

test('with suppression on, the others hear at least 10 dB less noise in the pauses, the voice stays, and the switch needs no renegotiation', async ({
  browser,
  baseURL,
}) => {
  const { ada, bob } = await twoInACall(browser, baseURL!);
  // On by default: after the call starts, the filter loads and its track replaces the capture.
  await expect.poll(() => sendsFiltered(ada.page), { timeout: 15_000 }).toBe(true);
  await expect.poll(async () => (await sentAudio(ada.page))?.id).toBe(await ada.page.evaluate(() => window.enclaveProbe!.localTrack('audio')!.id));
  const offers = { ada: await negotiations(ada.page), bob: await negotiations(bob.page) };
  const on = levels(await receivedFrames(bob.page, MEASURE_MS));

  // Off through the device dialog, by keyboard: the capture itself goes back on the link.
  await ada.page.getByRole('button', { name: 'Camera, microphone and speaker' }).click();
  const dialog = ada.page.getByRole('dialog', { name: 'Camera, microphone and speaker' });
  const toggle = dialog.getByRole('switch', { name: 'Noise suppression' });
  await expect(toggle).toBeChecked();
  await toggle.focus();
  await ada.page.keyboard.press('Space');
  await expect(toggle).not.toBeChecked();
  await expect.poll(() => sendsFiltered(ada.page)).toBe(false);
  await ada.page.keyboard.press('Escape');
  const off = levels(await receivedFrames(bob.page, MEASURE_MS));

  const quieter = off.noise - on.noise;
  const voiceChange = on.speech - off.speech;
  console.log(
    `noise in the pauses: ${off.noise.toFixed(1)} dBFS off, ${on.noise.toFixed(1)} dBFS on (${quieter.toFixed(1)} dB less); ` +
      `voice peaks: ${off.speech.toFixed(1)} off, ${on.speech.toFixed(1)} on (${voiceChange.toFixed(1)} dB); frames ${off.frames}/${on.frames}`,
  );
  test.info().annotations.push({ type: 'noise reduction in pauses (dB)', description: quieter.toFixed(1) });
  expect(on.frames).toBeGreaterThan(500);
  expect(quieter).toBeGreaterThanOrEqual(10);
  // The voice is kept: its loud frames lose little (RNNoise attenuates the noise under it too).
  expect(voiceChange).toBeGreaterThan(-6);
  // Both directions of the switch were replaceTrack on the same sender.
  expect(await negotiations(ada.page)).toEqual(offers.ada);
  expect(await negotiations(bob.page)).toEqual(offers.bob);

  // The filter's worklet and wasm, once used, are kept by the service worker with the build's assets.
  await expect
    .poll(() => ada.page.evaluate(async () => (await (await caches.open('enclave-assets-v1')).keys()).map((request) => new URL(request.url).pathname)), {
      timeout: 10_000,
    })
    .toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/_next\/static\/media\/rnnoise_simd\..*\.wasm$/),
        expect.stringMatching(/^\/_next\/static\/media\/workletProcessor\..*\.js$/),
      ]),
    );
});

test('the lobby switch is keyboard reachable and remembered; mute silences the filtered microphone; another microphone is filtered too', async ({
  browser,
  baseURL,
}) => {
  const meetingId = seededAccount('demo').meetingId;
  const bob = await joinMeeting(browser, baseURL!, meetingId, { name: 'Bob' });
  open.push(bob);
  const ada = await joinMeeting(browser, baseURL!, meetingId, {
    name: 'Ada',
    expectInCall: false,
    prepare: async (context) => {
      // The captures the page opens, so that the test can end one as an unplugged device would
      // (the session sends the filter's track, not the capture).
      await context.addInitScript(() => {
        const open = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
        const captures: MediaStreamTrack[] = [];
        Object.assign(window, { captures });
        navigator.mediaDevices.getUserMedia = async (constraints) => {
          const stream = await open(constraints);
          captures.push(...stream.getAudioTracks());
          return stream;
        };
      });
      const page = await context.newPage();
      await page.goto(`/now/${meetingId}`);
      const toggle = page.getByRole('switch', { name: 'Noise suppression' });
      await expect(toggle).toBeChecked();
      // Reached with Tab from the top of the page, and turned off and on again with Space.
      for (let i = 0; i < 20 && !(await toggle.evaluate((element) => element === document.activeElement)); i += 1) await page.keyboard.press('Tab');
      await expect(toggle).toBeFocused();
      await page.keyboard.press('Space');
      await expect(toggle).not.toBeChecked();
      expect(await page.evaluate(() => localStorage.getItem('enclave.noiseSuppression'))).toBe('off');
      await page.reload();
      await expect(page.getByRole('switch', { name: 'Noise suppression' })).not.toBeChecked();
      await page.getByRole('switch', { name: 'Noise suppression' }).press('Space');
      expect(await page.evaluate(() => localStorage.getItem('enclave.noiseSuppression'))).toBe('on');
      await page.close();
    },
  });
  open.push(ada);
  await expect(ada.page.getByRole('navigation', { name: 'Call controls' })).toBeVisible({ timeout: 15_000 });
  await participantCount(ada.page, 2);
  await expectMediaFromPeers(bob.page, 1);
  await expect.poll(() => sendsFiltered(ada.page), { timeout: 15_000 }).toBe(true);

  // Muted: the filtered track is disabled, and Bob receives silence, not the noise or the voice.
  await ada.page.getByRole('button', { name: 'Turn off microphone' }).click();
  await expect.poll(async () => (await sentAudio(ada.page))?.enabled).toBe(false);
  // What Bob's jitter buffer still holds from before the mute plays out first: under load it held
  // more than 500 ms once (a last frame at -79.7 dBFS in CI).
  await ada.page.waitForTimeout(1_500);
  const muted = await receivedFrames(bob.page, 3_000);
  expect(percentile(muted, 100)).toBeLessThan(-80);
  await ada.page.getByRole('button', { name: 'Turn on microphone' }).click();
  const unmuted = await receivedFrames(bob.page, 6_000);
  expect(percentile(unmuted, 95)).toBeGreaterThan(-50);

  // Another microphone mid-call: the new capture is filtered as well, and the dialog names it.
  const before = await sentAudio(ada.page);
  await ada.page.getByRole('button', { name: 'Camera, microphone and speaker' }).click();
  const dialog = ada.page.getByRole('dialog', { name: 'Camera, microphone and speaker' });
  const microphone = dialog.getByLabel('Microphone', { exact: true });
  const other = await microphone.locator('option').nth(1).textContent();
  await microphone.selectOption({ label: other! });
  await expect.poll(async () => (await sentAudio(ada.page))?.id, { timeout: 15_000 }).not.toBe(before?.id);
  await expect.poll(() => sendsFiltered(ada.page), { timeout: 15_000 }).toBe(true);
  await expect(microphone.locator('option:checked')).toHaveText(other!);
  expect(percentile(await receivedFrames(bob.page, 6_000), 95)).toBeGreaterThan(-50);
  await ada.page.keyboard.press('Escape');

  // The filtered microphone is unplugged: the default one takes over, filtered too.
  const filtered = await sentAudio(ada.page);
  await ada.page.evaluate(() => {
    const live = (window as unknown as { captures: MediaStreamTrack[] }).captures.filter((track) => track.readyState === 'live');
    live.at(-1)!.dispatchEvent(new Event('ended'));
  });
  await expect(ada.page.getByRole('status').filter({ hasText: 'Your microphone was disconnected. Switched to the default microphone.' })).toBeVisible();
  await expect.poll(async () => (await sentAudio(ada.page))?.id, { timeout: 15_000 }).not.toBe(filtered?.id);
  await expect.poll(() => sendsFiltered(ada.page), { timeout: 15_000 }).toBe(true);
  // Only the capture now in use is still open: the replaced ones were stopped with their filters.
  expect(
    await ada.page.evaluate(() => (window as unknown as { captures: MediaStreamTrack[] }).captures.filter((track) => track.readyState === 'live').length),
  ).toBe(1);
  expect(percentile(await receivedFrames(bob.page, 6_000), 95)).toBeGreaterThan(-50);
});
