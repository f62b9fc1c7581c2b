#!/usr/bin/env node
// `npm run bench:join-cycles` (issue 20, "Meetings"): CYCLES (100) join/leave cycles of 2 and 3
// participants (taking turns) in Debian's Chromium against one built app. Every participant is
// a fresh browser context (its own cookies, keys and address) in one of three browser processes
// kept for the whole run. Half the cycles click "Join now" all at once (both sides of every pair
// negotiate at the same moment), half one after another. A join fails when the page has not
// decoded video from every other participant within JOIN_TIMEOUT_MS (15 s) of its click, or when
// the join itself is refused; each failure is printed with what the page's connections said.
// Then everyone clicks "Leave". Prints failures, join time p50/p95/max (click → video decoded
// from all others, read from getStats every 100 ms) and frames that failed to decrypt.
// BENCH_PORT (3620), CYCLES, JOIN_TIMEOUT_MS. Progress on stderr. Asserts nothing.
import os from 'node:os';
import { launchChromium } from '../tests/support/chromium.mjs';
import { startApp } from './lib/app-server.mjs';
import { watchPeerConnections } from './lib/frame-modes.mjs';
import { percentile } from './lib/stats.mjs';
import { progress, sleep } from './lib/time.mjs';

const port = Number(process.env.BENCH_PORT ?? 3620);
const cycles = Number(process.env.CYCLES ?? 100);
const joinTimeout = Number(process.env.JOIN_TIMEOUT_MS ?? 15_000);

const launch = () => launchChromium();

/** Per remote peer, video frames decoded — from the app's probe when there is one, else from the connections themselves. */
function decodedPerPeer() {
  return (async () => {
    const probe = window.enclaveProbe;
    if (probe?.stats) return Object.values(await probe.stats()).map((link) => link.framesDecoded);
    const out = [];
    for (const pc of window.enclaveBenchConnections ?? []) {
      if (pc.connectionState === 'closed') continue;
      let frames = 0;
      (await pc.getStats()).forEach((s) => {
        if (s.type === 'inbound-rtp' && s.kind === 'video') frames += s.framesDecoded ?? 0;
      });
      out.push(frames);
    }
    return out;
  })();
}

/** Frames decrypted and refused by frame encryption (null when the page has no probe for it). */
function cryptoCounters() {
  return (async () => {
    const probe = window.enclaveProbe;
    if (!probe?.encryptionStats) return null;
    let decrypted = 0;
    let failed = 0;
    for (const peer of Object.values(await probe.encryptionStats())) {
      decrypted += peer.received.decrypted;
      failed += Object.values(peer.received.failed).reduce((a, b) => a + b, 0);
    }
    return { decrypted, failed };
  })();
}

/** A participant in the lobby, ready to click. */
async function lobby(browser, baseURL, meetingId, cycle, slot) {
  // Its own address (the app trusts X-Forwarded-For from loopback in this setup), so that 250
  // joins do not run into the per-address join limit meant for strangers.
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: { 'x-forwarded-for': `10.20.${cycle % 250}.${slot + 1}` } });
  await context.grantPermissions(['camera', 'microphone'], { origin: baseURL });
  await context.addInitScript(watchPeerConnections);
  const page = await context.newPage();
  const participant = { context, page, name: `Cycle ${cycle} #${slot + 1}`, joinPosts: 0, errors: [] };
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/meeting\/[^/]+\/join$/.test(request.url())) participant.joinPosts += 1;
  });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') participant.errors.push(message.text().slice(0, 200));
  });
  await page.goto(`/now/${meetingId}`);
  await page.getByLabel('Your name', { exact: true }).fill(participant.name);
  await page.getByRole('button', { name: 'Join now' }).waitFor();
  return participant;
}

/** Until the page decodes video from `others` peers, at most until `deadline`. */
const videoFrom = (participant, others, deadline) =>
  participant.page.waitForFunction(`(${decodedPerPeer})().then((peers) => peers.filter((frames) => frames > 0).length >= ${others})`, null, {
    timeout: Math.max(1, deadline - Date.now()),
    polling: 100,
  });

/**
 * Clicks "Join now" and waits for video from the `present` participants already in the call (its
 * join time), then from all `others` (those who join after it too): the milliseconds to the
 * first, or why it failed. The first participant of a one-by-one cycle has no join time.
 */
async function join(participant, present, others) {
  const clicked = Date.now();
  const deadline = clicked + joinTimeout;
  try {
    await participant.page.getByRole('button', { name: 'Join now' }).click();
    if (present > 0) await videoFrom(participant, present, deadline);
    const ms = present > 0 ? Date.now() - clicked : null;
    await videoFrom(participant, others, deadline);
    return { ms };
  } catch (error) {
    const states = await participant.page
      .evaluate(() => (window.enclaveBenchConnections ?? []).map((pc) => `${pc.connectionState}/${pc.iceConnectionState}/${pc.signalingState}`))
      .catch(() => []);
    return {
      failed: `${participant.name}: ${String(error.message).split('\n')[0]}; connections ${states.join(', ') || 'none'}; console ${participant.errors.slice(-3).join(' | ') || '-'}`,
    };
  }
}

async function cycle(browsers, baseURL, meetingId, index) {
  const size = index % 2 === 0 ? 2 : 3;
  const together = index % 4 < 2;
  const participants = [];
  for (let slot = 0; slot < size; slot += 1) participants.push(await lobby(browsers[slot], baseURL, meetingId, index, slot));
  let results;
  if (together) results = await Promise.all(participants.map((p) => join(p, size - 1, size - 1)));
  else {
    // One after another: the next clicks once the previous shows the call screen.
    const pending = [];
    for (const [slot, participant] of participants.entries()) {
      pending.push(join(participant, slot, size - 1));
      await participant.page
        .getByRole('navigation', { name: 'Call controls' })
        .waitFor({ timeout: joinTimeout })
        .catch(() => {});
    }
    results = await Promise.all(pending);
  }
  await sleep(1500); // a moment of call, so that frame counters have something to say
  const crypto = await Promise.all(
    participants.map((p) => p.page.evaluate(`(${cryptoCounters})()`).catch((error) => progress(`crypto counters: ${error.message.split('\n')[0]}`))),
  );
  const joinPosts = participants.reduce((sum, p) => sum + p.joinPosts, 0);
  for (const participant of participants) {
    await participant.page
      .getByRole('button', { name: 'Leave', exact: true })
      .click({ timeout: 5000 })
      .catch(() => {});
  }
  await Promise.all(participants.map((p) => p.context.close()));
  return { size, together, results, crypto, joinPosts };
}

async function main() {
  const app = await startApp(port);
  const loadBefore = os.loadavg();
  const browsers = [];
  const times = [];
  const failures = [];
  let joins = 0;
  let extraJoinPosts = 0;
  let decrypted = 0;
  let decryptFailures = 0;
  let noProbe = 0;
  const started = Date.now();
  try {
    for (let slot = 0; slot < 3; slot += 1) browsers.push(await launch());
    for (let index = 0; index < cycles; index += 1) {
      for (const [slot, browser] of browsers.entries()) if (!browser.isConnected()) browsers[slot] = await launch();
      const { size, together, results, crypto, joinPosts } = await cycle(browsers, app.baseURL, app.meetingId, index);
      joins += size;
      extraJoinPosts += joinPosts - size;
      for (const result of results) {
        if (result.failed) failures.push(`cycle ${index + 1}: ${result.failed}`);
        else if (result.ms !== null) times.push(result.ms);
      }
      for (const counters of crypto) {
        if (!counters) noProbe += 1;
        else {
          decrypted += counters.decrypted;
          decryptFailures += counters.failed;
        }
      }
      const failed = results.filter((r) => r.failed).length;
      progress(
        `cycle ${index + 1}/${cycles}: ${size} ${together ? 'together' : 'one by one'}, ${results.map((r) => (r.failed ? 'FAILED' : (r.ms ?? '–'))).join(' / ')} ms${failed ? `, ${failed} failed` : ''}`,
      );
      // The server hears "leave" at once; a short pause lets the last events drain.
      await sleep(300);
    }
  } finally {
    for (const browser of browsers) await browser.close().catch(() => {});
    await app.stop();
  }
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  console.log(
    `\nJoin/leave cycles (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, load average ${loadBefore.map((l) => l.toFixed(1)).join(' ')} → ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, ${minutes} min)`,
  );
  console.log(
    `cycles: ${cycles} (2 and 3 participants taking turns), joins: ${joins}, failed joins: ${failures.length} (no video from every other participant within ${joinTimeout} ms)`,
  );
  console.log(
    `join → video from everyone already in the call (${times.length} joins): p50 ${percentile(times, 50)} ms, p95 ${percentile(times, 95)} ms, max ${Math.max(...times)} ms`,
  );
  console.log(`join POSTs beyond one per participant: ${extraJoinPosts}`);
  console.log(
    noProbe === joins
      ? 'frames decrypted: n/a (no page probe)'
      : `frames decrypted: ${decrypted}, frames refused by decryption: ${decryptFailures}${noProbe ? ` (${noProbe} pages without probe)` : ''}`,
  );
  for (const failure of failures) console.log(`FAILED ${failure}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
