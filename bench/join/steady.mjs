// bench:join's steady calls: a call of N kept running once the cameras send at full resolution,
// its browsers' CPU by thread group, the frame-crypto time and the video decoded per stream.
import os from 'node:os';
import { progress, sleep } from '../lib/time.mjs';
import { browserCpu } from './browser-cpu.mjs';
import { launchBrowser, modes, pairs, settleSeconds, steadySeconds } from './config.mjs';
import { enter, leaveAll } from './participants.mjs';

/**
 * Summed over the pages: frames through frame crypto and the milliseconds spent on them
 * (encryptionStats), and video frames decoded (stats): the same media must flow in every mode.
 */
async function pageCounters(pages) {
  const total = { cryptoFrames: 0, cryptoMs: 0, decoded: 0 };
  for (const page of pages) {
    const { frameStats, links } = await page.evaluate(async () => ({
      frameStats: (await window.enclaveProbe?.encryptionStats()) ?? {},
      links: (await window.enclaveProbe?.stats()) ?? {},
    }));
    for (const peer of Object.values(frameStats)) {
      total.cryptoFrames += peer.sent.encrypted + peer.received.decrypted;
      total.cryptoMs += peer.sent.busyMs + peer.received.busyMs;
    }
    for (const link of Object.values(links)) total.decoded += link.framesDecoded;
  }
  return total;
}

/**
 * Stops the benchmark if a mode is not what it says: "on" must have opened frames and run no
 * bench script; the others must have run theirs and touched no frame, while video was decoded.
 */
async function checkMode(pages, mode, counters) {
  const ran = await Promise.all(pages.map((page) => page.evaluate(() => window.enclaveBenchMode ?? 'on')));
  const ok = ran.every((each) => each === mode) && (mode === 'on' ? counters.cryptoFrames > 0 : counters.cryptoFrames === 0);
  if (!ok) throw new Error(`E2EE=${mode} is not in effect: ${counters.cryptoFrames} frames through frame crypto, pages ran ${ran.join(', ')}`);
}

/** Until the page decodes video from `others` participants. */
async function waitForVideoFrom(page, others, timeout = 60_000) {
  await page.waitForFunction(
    async (count) => Object.values((await window.enclaveProbe?.stats()) ?? {}).filter((s) => s.framesDecoded > 0).length >= count,
    others,
    { timeout, polling: 250 },
  );
}

/** What a page's camera senders send now: "1280x720" per connection, and whether any is still held back. */
async function cameraSends(page) {
  return page.evaluate(async () => {
    const sends = [];
    let limited = false;
    for (const connection of window.enclaveBenchConnections ?? []) {
      if (connection.connectionState !== 'connected') continue;
      (await connection.getStats()).forEach((stat) => {
        if (stat.type !== 'outbound-rtp' || stat.kind !== 'video' || !stat.framesEncoded || !stat.frameWidth) return;
        // The screen-share sender is idle; the camera's is the one encoding.
        sends.push(`${stat.frameWidth}x${stat.frameHeight}`);
        if (stat.qualityLimitationReason && stat.qualityLimitationReason !== 'none') limited = true;
      });
    }
    return { sends, limited };
  });
}

/**
 * Until every camera sender sends what its camera gives, unlimited by bandwidth or CPU, for two
 * checks in a row: a new connection starts small and its bandwidth estimate ramps up for tens of
 * seconds, and a call measured on the way would compare different resolutions. At most SETTLE_S.
 */
async function settle(pages) {
  const deadline = Date.now() + settleSeconds * 1000;
  let steadyChecks = 0;
  let last = [];
  while (Date.now() < deadline && steadyChecks < 2) {
    await sleep(2000);
    const all = await Promise.all(pages.map(cameraSends));
    const now = all.flatMap((each) => each.sends);
    steadyChecks = !all.some((each) => each.limited) && now.join() === last.join() ? steadyChecks + 1 : 0;
    last = now;
  }
  return [...new Set(last)].sort().join(' ');
}

/**
 * A call of `size` people kept running: CPU by thread group in cores, the frame-crypto time the
 * pages measured themselves, the video frames each stream decoded per second and the resolution
 * sent. Each call has a browser of its own: after a call whose pages fell far behind (a starved
 * machine), the next call in the same browser decoded no video at all.
 */
export async function steadyCall(meetingId, size, mode, serverPid) {
  const browser = await launchBrowser();
  const participants = [];
  for (let i = 0; i < size; i += 1) participants.push(await enter(browser, meetingId, `Steady ${i + 1}`, mode));
  const pages = participants.map((p) => p.page);
  for (const page of pages) await waitForVideoFrom(page, size - 1);
  const video = await settle(pages);
  // The CPU window holds nothing but the call: the pages are asked for their counters outside it
  // (on a starved machine a page can take long to answer).
  const [counters0, tc0] = [await pageCounters(pages), Date.now()];
  const [cpu0, t0] = [browserCpu(serverPid), Date.now()];
  await sleep(steadySeconds * 1000);
  const [cpu1, t1] = [browserCpu(serverPid), Date.now()];
  const load = os.loadavg()[0];
  const [counters1, tc1] = [await pageCounters(pages), Date.now()];
  await checkMode(pages, mode, counters1);
  await leaveAll(participants);
  await browser.close();
  const seconds = (t1 - t0) / 1000;
  const cores = Object.fromEntries(Object.keys(cpu1).map((group) => [group, (cpu1[group] - cpu0[group]) / seconds]));
  return {
    ...cores,
    total: cores.main + cores.workers + cores.webrtc + cores.rest,
    cryptoCpu: (counters1.cryptoMs - counters0.cryptoMs) / (tc1 - tc0),
    fps: (counters1.decoded - counters0.decoded) / (size * (size - 1)) / ((tc1 - tc0) / 1000),
    video,
    load,
  };
}

/** PAIRS steady calls per mode, the modes taking turns, so that other work weighs on all alike. */
export async function steadyCalls(meetingId, size, serverPid) {
  const calls = Object.fromEntries(modes.map((mode) => [mode, []]));
  for (let pair = 0; pair < pairs; pair += 1) {
    for (const mode of modes) {
      const call = await steadyCall(meetingId, size, mode, serverPid);
      calls[mode].push(call);
      progress(
        `N=${size} E2EE=${mode} steady call ${pair + 1}/${pairs}: ${call.total.toFixed(3)} cores (main ${call.main.toFixed(3)}, workers ${call.workers.toFixed(3)}), ${call.fps.toFixed(1)} fps, ${call.video}`,
      );
    }
  }
  return calls;
}
