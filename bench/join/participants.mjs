// Participants of bench:join's calls: a page in the lobby or in the call, its browser set up for
// one mode of frame handling (../lib/frame-modes.mjs).
import { cameraSize, identityFrames, markJoin, plainWebRtc, watchPeerConnections } from '../lib/frame-modes.mjs';
import { sleep } from '../lib/time.mjs';
import { baseURL, camera } from './config.mjs';

/** A participant in the lobby, name filled in, its browser set up for `mode`. */
export async function open(browser, meetingId, name, mode) {
  // The identity mode's worker is a blob, which the meeting's CSP (rightly) refuses.
  const context = await browser.newContext({ baseURL, bypassCSP: mode === 'identity' });
  await context.addInitScript(watchPeerConnections);
  await context.addInitScript(markJoin, { trace: Boolean(process.env.JOIN_TRACE) });
  if (camera) await context.addInitScript(cameraSize, camera);
  // NOISE=off: the microphone unfiltered (the call's toggle, kept in localStorage by
  // lib/meeting/client/media/noise-suppression-preference.ts), to see what loading RNNoise costs a join.
  if (process.env.NOISE === 'off') await context.addInitScript(() => localStorage.setItem('enclave.noiseSuppression', 'off'));
  if (mode === 'off') await context.addInitScript(plainWebRtc);
  if (mode === 'identity') await context.addInitScript(identityFrames);
  await context.grantPermissions(['camera', 'microphone'], { origin: baseURL });
  const page = await context.newPage();
  await page.goto(`/now/${meetingId}`);
  await page.getByLabel('Your name', { exact: true }).fill(name);
  return { context, page };
}

/** A participant in the call (its own connections may still be on the way). */
export async function enter(browser, meetingId, name, mode) {
  const participant = await open(browser, meetingId, name, mode);
  await participant.page.getByRole('button', { name: 'Join now' }).click();
  await participant.page.getByRole('navigation', { name: 'Call controls' }).waitFor();
  return participant;
}

export async function leaveAll(participants) {
  for (const participant of participants) await participant.context.close();
  // Let the server see everyone leave before the next call.
  await sleep(1000);
}
