#!/usr/bin/env node
// `npm run bench:join`: what end-to-end encryption costs in a meeting. For meetings of N = 2, 3
// and 4 people on loopback (SIZES), two measures per mode of frame handling (E2EE):
// - join: RUNS times, how long a participant waits from the trusted click on "Join now" to the
//   first remote video frame shown, and to a frame from every other participant (p50, p95), both
//   on the page's own clock (markJoin in bench/lib/frame-modes.mjs), the modes taking turns run by run;
// - steady call: PAIRS calls per mode, taking turns, each measured for STEADY_S seconds once the
//   camera senders have ramped up to their full resolution (at most SETTLE_S seconds): the CPU of
//   the browser's threads from /proc, grouped (page main threads, workers, WebRTC's threads, the
//   rest), the video frames decoded per second per stream and the resolution sent. The medians
//   over the pairs are printed.
// NOISE=off joins with noise suppression off (its RNNoise loads during the join otherwise).
// BROWSERS=each gives every participant a Chromium process of its own (default: one for all).
// SETTLE_MS waits that long once the others are in, before the newcomer opens the page (a call
// already going, not a burst of joins: a connection's first seconds cost the most CPU).
// JOIN_TRACE=1 prints where each join's time went (API calls, every page's stream events, the
// connection's steps and when each negotiation call started and settled, the CPU of every thread
// of the server and browsers in the second before the click and from the click to the frame; it
// polls getStats, which costs the pages time); JOIN_PROFILE=1 prints the joining page's
// main-thread self time by function and by script from the click to the first frame
// (JOIN_PROFILE_FILE=path also writes the last join's raw profile there); JOIN_TIMELINE=1 the
// browser's own trace of its renderers' main threads (layout, script, WebRTC's blocking calls)
// over the same span (JOIN_TIMELINE_FILE=path also writes the whole trace there, every thread
// of every process, to follow one frame from encoder to decoder). EXTRA_CHROMIUM_ARGS passes more flags, e.g. WebRTC's own logging:
// "--enable-logging=stderr --vmodule=dtls_transport*=1,sdp_offer_answer*=1" with DEBUG=pw:browser.
// Modes (bench/lib/frame-modes.mjs): "on" is the app as shipped; "off" makes the browser plain
// DTLS-SRTP under it; "identity" sends every frame through the browser's encoded-frame plumbing
// with a transform that changes nothing. on − off is the cost of encryption; identity − off is
// the part of it that any frame transform pays in this browser, on − identity Enclave's own.
// Encoders and decoders do the same work in every mode, so the per-thread figures separate the
// cost far better than the browser's total, which other work on the machine moves by ±10 %.
// Asserts nothing about speed, but stops if a mode is not what it claims (no frame through frame
// crypto with "on", any with the others). Every participant runs on this machine, so the figures
// include the cost of N browsers sharing its cores. Then the signaling hub's throughput
// (bench:hub; SKIP_HUB=1 skips it). Progress goes to stderr.
// The parts: config.mjs (these knobs), participants.mjs, join-time.mjs (the join measure),
// steady.mjs (the steady calls), browser-cpu.mjs (CPU from /proc), trace.mjs (JOIN_PROFILE etc.).
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { startApp } from '../lib/app-server.mjs';
import { median, percentile } from '../lib/stats.mjs';
import { camera, modes, pairs, port, runs, sizes, steadySeconds, launchBrowser } from './config.mjs';
import { joinTimes } from './join-time.mjs';
import { steadyCalls } from './steady.mjs';

const GROUPS = ['total', 'main', 'workers', 'webrtc', 'rest'];

/** Median per field over a mode's calls. */
function medians(calls) {
  const out = {};
  for (const field of [...GROUPS, 'cryptoCpu', 'fps', 'load']) out[field] = median(calls.map((call) => call[field]));
  out.video = [...new Set(calls.flatMap((call) => call.video.split(' ')))].sort().join(' ');
  return out;
}

/** "+0.041 (+3.9 %)": how many more cores `mode` took than "off", and that share of "off"'s browser total. */
function overOff(steady, mode, field) {
  if (mode === 'off' || !steady.off || steady.off.total == null) return '';
  const difference = steady[mode][field] - steady.off[field];
  const sign = difference >= 0 ? '+' : '−';
  return `${sign}${Math.abs(difference).toFixed(3)} (${sign}${Math.abs((difference / steady.off.total) * 100).toFixed(1)} %)`;
}

/** `value` with `digits` decimals, or "–" where nothing was measured (PAIRS=0: no steady calls). */
function fixed(value, digits) {
  return value == null ? '–' : value.toFixed(digits);
}

function tableRows(size, times, steady) {
  return modes.map((mode) => ({
    N: size,
    E2EE: mode,
    'join → first frame p50 / p95 ms': `${percentile(
      times[mode].map((t) => t.first),
      50,
    )} / ${percentile(
      times[mode].map((t) => t.first),
      95,
    )}`,
    'join → frames from all p50 / p95 ms': `${percentile(
      times[mode].map((t) => t.all),
      50,
    )} / ${percentile(
      times[mode].map((t) => t.all),
      95,
    )}`,
    'browser CPU': fixed(steady[mode].total, 3),
    'page main': fixed(steady[mode].main, 3),
    workers: fixed(steady[mode].workers, 3),
    'WebRTC threads': fixed(steady[mode].webrtc, 3),
    'frame crypto (≤)': fixed(steady[mode].cryptoCpu, 3),
    'video sent': steady[mode].video,
    'fps per stream': fixed(steady[mode].fps, 1),
    'load avg': fixed(steady[mode].load, 1),
    'browser vs off': overOff(steady, mode, 'total'),
    'main + workers + WebRTC vs off': overOff(steady, mode, 'frames'),
  }));
}

async function main() {
  // The meeting page's window.enclaveProbe, read by the measures (serve.mjs sets it too).
  const server = await startApp(port, { env: { MEETING_TEST_PROBE: '1' } });
  const { meetingId } = server;
  try {
    const loadBefore = os.loadavg()[0];
    // BROWSERS=each: every participant in a Chromium process of its own, as people on their own
    // computers are (the processes still share this machine's cores); else one for all.
    const browsers = [];
    for (let i = 0; i < (process.env.BROWSERS === 'each' ? Math.max(...sizes) : 1); i += 1) browsers.push(await launchBrowser());
    const times = new Map();
    for (const size of sizes) times.set(size, await joinTimes(browsers, meetingId, size, server.pid));
    for (const browser of browsers) await browser.close();
    const rows = [];
    for (const size of sizes) {
      const calls = await steadyCalls(meetingId, size, server.pid);
      const steady = {};
      for (const mode of modes) {
        steady[mode] = medians(calls[mode]);
        // The threads that carry frames through JS: what a frame transform can cost.
        steady[mode].frames = median(calls[mode].map((call) => call.main + call.workers + call.webrtc));
      }
      rows.push(...tableRows(size, times.get(size), steady));
    }
    const machine = `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, load average ${loadBefore.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}`;
    console.log(`\nEncryption on vs off (${machine}, ${new Date().toISOString().slice(0, 10)}${camera ? `, camera ${camera.join('x')}` : ''})`);
    console.log(
      `Join → first decoded remote frame, ${runs} runs per mode; steady calls: median of ${pairs} per mode, ${steadySeconds} s each once the cameras send at full resolution; CPU in cores`,
    );
    console.table(rows);
  } finally {
    await server.stop();
  }
  if (!process.env.SKIP_HUB) spawnSync('npm', ['run', '--silent', 'bench:hub'], { stdio: 'inherit' });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
