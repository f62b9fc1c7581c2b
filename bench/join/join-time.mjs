// bench:join's join measure: from the trusted click on "Join now" to the first remote frame shown
// and to a frame from every other participant, on the joining page's clock.
import { progress, sleep } from '../lib/time.mjs';
import { cpuBetween, threadTicks } from './browser-cpu.mjs';
import { modes, runs } from './config.mjs';
import { enter, leaveAll, open } from './participants.mjs';
import { describeCalls, startProfile, startTimeline } from './trace.mjs';

/**
 * One run: size − 1 people in the call, then the last one clicks Join. Answers, on that page's
 * clock, the milliseconds from the trusted click to the first remote frame shown ("first") and
 * to a frame from every other participant ("all"). `serverPid`: the app's process (JOIN_TRACE).
 */
async function joinTime(browsers, meetingId, size, mode, serverPid) {
  const browser = (i) => browsers[i % browsers.length];
  const present = [];
  for (let i = 0; i < size - 1; i += 1) present.push(await enter(browser(i), meetingId, `Bench ${i + 1}`, mode));
  // SETTLE_MS: let the call settle before the newcomer arrives, as in a meeting already going.
  if (process.env.SETTLE_MS) await sleep(Number(process.env.SETTLE_MS));
  const last = await open(browser(size - 1), meetingId, `Bench ${size}`, mode);
  const profiler = process.env.JOIN_PROFILE ? await startProfile(last.page) : null;
  const timeline = process.env.JOIN_TIMELINE ? await startTimeline(last.page) : null;
  if (process.env.JOIN_TRACE) {
    const idleBefore = threadTicks(serverPid);
    await sleep(1000);
    progress(`  CPU in the second before the click: ${cpuBetween(idleBefore, threadTicks(serverPid), 10)}`);
  }
  const ticksBefore = process.env.JOIN_TRACE ? threadTicks(serverPid) : null;
  const clickedAt = performance.now();
  await last.page.getByRole('button', { name: 'Join now' }).click();
  await last.page.waitForFunction((others) => window.enclaveJoin.frames.length >= others, size - 1, { timeout: 60_000, polling: 50 });
  if (ticksBefore)
    progress(
      `  CPU from before the click to the frame seen (${Math.round(performance.now() - clickedAt)} ms of wall time): ${cpuBetween(ticksBefore, threadTicks(serverPid), 14)}`,
    );
  if (profiler) await profiler.stop();
  if (timeline) await timeline.stop();
  const { click, clickEpoch, frames, connections, fetches, events } = await last.page.evaluate(() => window.enclaveJoin);
  if (click === null) throw new Error('the click on Join now was not seen');
  const times = frames.map((frame) => frame.at - click);
  if (process.env.JOIN_TRACE) {
    // Every page's stream events since the click, on one clock.
    const streams = [{ who: 'newcomer', events }];
    for (const [index, { page }] of present.entries())
      streams.push({ who: `present ${index + 1}`, events: await page.evaluate(() => window.enclaveJoin.events) });
    for (const { who, events: list } of streams)
      progress(
        `  ${who} heard: ${list
          .filter((e) => e.at >= clickEpoch)
          .map((e) => `${e.what} ${Math.round(e.at - clickEpoch)}`)
          .join(', ')}`,
      );
    for (const [who, page] of [['newcomer', last.page], ...present.map(({ page }, index) => [`present ${index + 1}`, page])]) {
      const counters = await page.evaluate(() => window.enclaveProbe?.encryptionStats());
      for (const [peer, { sent, received }] of Object.entries(counters ?? {}))
        progress(
          `  ${who}'s frames for ${peer.slice(0, 6)}: sent ${sent.encrypted}, withheld ${sent.withheld}; received ${received.decrypted}, refused ${JSON.stringify(received.failed)}`,
        );
    }
    for (const [index, { page }] of present.entries()) {
      const { marks, origin } = await page.evaluate(() => ({ marks: window.enclaveJoin.connections.at(-1), origin: performance.timeOrigin }));
      const sinceClick = (t) => Math.round(origin + t - clickEpoch);
      progress(
        `  present ${index + 1}'s link, after its connected: encoder target bitrate set ${Math.round(marks.target - marks.connected)}, first video encoded ${Math.round(marks.encoded - marks.connected)}, sent ${Math.round(marks.sent - marks.connected)}, received ${Math.round(marks.packet - marks.connected)}, decoded ${Math.round(marks.decoded - marks.connected)} ms; polls before its first frame: ${(marks.polls ?? []).join(' ')}; since the click: made ${sinceClick(marks.created)}, connected ${sinceClick(marks.connected)}, calls: ${describeCalls(marks.calls, sinceClick)}`,
      );
    }
  }
  const since = (values) => Math.round(Math.min(...values.filter((v) => v !== null)) - click);
  if (process.env.JOIN_TRACE) {
    for (const c of connections)
      progress(
        `  link: made ${Math.round(c.created - click)}, local description ${Math.round(c.local - click)}, remote ${Math.round(c.remote - click)}, first remote candidate ${Math.round(c.candidate - click)}, ICE connected ${Math.round(c.ice - click)}, video track ${Math.round(c.track - click)}, connected ${Math.round(c.connected - click)}, first video encoded ${Math.round(c.encoded - click)}, sent ${Math.round(c.sent - click)}, received ${Math.round(c.packet - click)}, decoded ${Math.round(c.decoded - click)} ms; its polls before its first frame: ${(c.polls ?? []).join(' ')}; calls: ${describeCalls(c.calls, (t) => Math.round(t - click))}`,
      );
    for (const entry of fetches.filter((e) => e.start > click))
      progress(
        `  ${entry.method} ${entry.url.replace(/^https?:\/\/[^/]+/, '').slice(0, 60)}: ${Math.round(entry.start - click)} → ${Math.round(entry.headers - click)} ms${entry.what ? ` (${entry.what})` : ''}`,
      );
  }
  await leaveAll([...present, last]);
  return {
    first: Math.round(Math.min(...times)),
    all: Math.round(Math.max(...times)),
    // The first connection made and the first connected, after the click.
    created: since(connections.map((c) => c.created)),
    connected: since(connections.map((c) => c.connected)),
  };
}

/** Join times per mode for one size, the modes taking turns run by run. */
export async function joinTimes(browsers, meetingId, size, serverPid) {
  const times = Object.fromEntries(modes.map((mode) => [mode, []]));
  for (let run = 0; run < runs; run += 1) {
    for (const mode of modes) {
      times[mode].push(await joinTime(browsers, meetingId, size, mode, serverPid));
      const { first, all, created, connected } = times[mode].at(-1);
      progress(
        `N=${size} E2EE=${mode} join run ${run + 1}/${runs}: first frame ${first} ms, from all ${all} ms (connection made at ${created} ms, connected at ${connected} ms)`,
      );
    }
  }
  return times;
}
