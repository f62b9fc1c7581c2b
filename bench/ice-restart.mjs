#!/usr/bin/env node
// `npm run bench:ice-restart` (issue 20, "Meetings"; root only, never in `npm test`): a
// participant whose network drops comes back by ICE restart, without rejoining.
// One Chromium runs inside a network namespace joined to this host by a veth pair; a small
// forwarder in the namespace gives it the app on its own http://localhost (a secure context, as a
// real user has), and its media can only take the veth. Once video flows both ways, every packet
// of that namespace but the signaling connection is dropped (nftables: its UDP, and TCP too, so
// that ICE-TCP cannot carry the call instead) for DROP_S seconds, then let through again. Per
// round it prints the connection states each side went through meanwhile, how long
// after the network came back video was decoded again on both sides, the join POSTs and
// RTCPeerConnections made since the call began (no new join, the same connection: an ICE
// restart) and the frames decrypted and refused by frame encryption (the app's page probe, read
// only if it is there). Namespace and rules are removed on every exit. Needs `ip` and `nft`
// (Debian's nftables is installed with apt-get when missing, and the script says so).
// BENCH_PORT (3630), ROUNDS (3), DROP_S (40), ICE_TRACE=1 (both sides' camera stats, frame counters and
// descriptions applied, every few seconds, on stderr). Asserts nothing; progress on stderr.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromiumPath, launchChromium } from '../tests/support/chromium.mjs';
import { startApp } from './lib/app-server.mjs';
import { watchPeerConnections } from './lib/frame-modes.mjs';
import { percentile } from './lib/stats.mjs';
import { progress, sleep } from './lib/time.mjs';

const port = Number(process.env.BENCH_PORT ?? 3630);
const rounds = Number(process.env.ROUNDS ?? 3);
/** Longer than Chromium takes to give up on a silent path (about 30 s without an answer to its checks). */
const dropSeconds = Number(process.env.DROP_S ?? 40);
const namespace = `enclave-ice-${process.pid}`;
const [hostVeth, nsVeth] = [`ve${process.pid}h`, `ve${process.pid}n`];
const [hostAddress, nsAddress] = ['10.231.0.1', '10.231.0.2'];

if (process.getuid?.() !== 0) throw new Error('bench:ice-restart needs root (ip netns, nft)');

const run = (command, args, input) => execFileSync(command, args, { input, stdio: ['pipe', 'pipe', 'pipe'] }).toString();
const inNamespace = (command, args, input) => run('ip', ['netns', 'exec', namespace, command, ...args], input);

function ensureNft() {
  if (spawnSync('nft', ['--version']).status === 0) return;
  progress("nft is missing: installing Debian's nftables with apt-get");
  run('apt-get', ['install', '-y', '-qq', 'nftables']);
}

const scratch = mkdtempSync(path.join(os.tmpdir(), 'enclave-ice-'));
let forwarder = null;
function cleanUp() {
  forwarder?.kill('SIGTERM');
  // Deleting the namespace removes its end of the veth pair (and so the pair) and its nft rules.
  spawnSync('ip', ['netns', 'del', namespace]);
  spawnSync('ip', ['link', 'del', hostVeth]);
  rmSync(scratch, { recursive: true, force: true });
}
process.once('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(1));

function makeNamespace() {
  run('ip', ['netns', 'add', namespace]);
  run('ip', ['link', 'add', hostVeth, 'type', 'veth', 'peer', 'name', nsVeth]);
  run('ip', ['link', 'set', nsVeth, 'netns', namespace]);
  run('ip', ['addr', 'add', `${hostAddress}/30`, 'dev', hostVeth]);
  run('ip', ['link', 'set', hostVeth, 'up']);
  inNamespace('ip', ['addr', 'add', `${nsAddress}/30`, 'dev', nsVeth]);
  inNamespace('ip', ['link', 'set', nsVeth, 'up']);
  inNamespace('ip', ['link', 'set', 'lo', 'up']);
  // localhost:port in the namespace → the app on the host, over the veth.
  const script = `require('net').createServer((c) => { const u = require('net').connect(${port}, '${hostAddress}'); c.pipe(u).pipe(c); c.on('error', () => u.destroy()); u.on('error', () => c.destroy()); }).listen(${port}, '::');`;
  forwarder = spawn('ip', ['netns', 'exec', namespace, process.execPath, '-e', script], { stdio: 'ignore' });
  // Playwright starts "Chromium" through this, so the browser lives in the namespace.
  const wrapper = path.join(scratch, 'chromium-in-namespace');
  writeFileSync(wrapper, `#!/bin/sh\nexec ip netns exec ${namespace} ${chromiumPath} "$@"\n`);
  chmodSync(wrapper, 0o755);
  return wrapper;
}

/** Everything but the signaling connection (the forwarder's TCP to the app) is dropped. */
const blockRules = `table inet enclave_block {
  chain input { type filter hook input priority 0; policy drop; iif lo accept; tcp sport ${port} accept; }
  chain output { type filter hook output priority 0; policy drop; oif lo accept; tcp dport ${port} accept; }
}`;
const block = () => inNamespace('nft', ['-f', '-'], blockRules);
const unblock = () => inNamespace('nft', ['delete', 'table', 'inet', 'enclave_block']);

/** ICE_TRACE=1: every description applied (type, signaling state before), for the trace. */
function logNegotiation() {
  const log = [];
  window.enclaveBenchNegotiation = log;
  const started = performance.now();
  for (const op of ['setLocalDescription', 'setRemoteDescription']) {
    const native = RTCPeerConnection.prototype[op];
    RTCPeerConnection.prototype[op] = function (description, ...rest) {
      const entry = {
        at: Math.round(performance.now() - started),
        op: op === 'setLocalDescription' ? 'local' : 'remote',
        type: description?.type ?? 'implicit',
        from: this.signalingState,
      };
      log.push(entry);
      return native.call(this, description, ...rest).then(
        (value) => ((entry.to = this.signalingState), value),
        (error) => ((entry.error = String(error)), Promise.reject(error)),
      );
    };
  }
}

/** A participant in the call; counts its join POSTs. */
async function enter(browser, baseURL, meetingId, name) {
  const context = await browser.newContext({ baseURL });
  await context.grantPermissions(['camera', 'microphone'], { origin: baseURL });
  await context.addInitScript(watchPeerConnections);
  if (trace) await context.addInitScript(logNegotiation);
  const page = await context.newPage();
  const participant = { name, page, joinPosts: 0 };
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/meeting\/[^/]+\/join$/.test(request.url())) participant.joinPosts += 1;
  });
  await page.goto(`/now/${meetingId}`);
  await page.getByLabel('Your name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Join now' }).click();
  await page.getByRole('navigation', { name: 'Call controls' }).waitFor({ timeout: 60_000 });
  return participant;
}

/** The page's connections, video decoded, the local address in use and frame-encryption counters. */
function snapshot() {
  return (async () => {
    const connections = window.enclaveBenchConnections ?? [];
    let decoded = 0;
    const states = [];
    const addresses = [];
    for (const pc of connections) {
      // The ICE username fragment changes with every ICE restart.
      const ufrag = /a=ice-ufrag:(\S+)/.exec(pc.localDescription?.sdp ?? '')?.[1] ?? '-';
      states.push(`${pc.connectionState}/${pc.iceConnectionState} ufrag ${ufrag}`);
      if (pc.connectionState === 'closed') continue;
      const report = await pc.getStats();
      report.forEach((s) => {
        if (s.type === 'inbound-rtp' && s.kind === 'video') decoded += s.framesDecoded ?? 0;
        if (s.type === 'transport' && s.selectedCandidatePairId) {
          const pair = report.get(s.selectedCandidatePairId);
          const local = pair && report.get(pair.localCandidateId);
          if (local) addresses.push(`${local.address}/${local.protocol}`);
        }
      });
    }
    let crypto = null;
    const probe = window.enclaveProbe;
    if (probe?.encryptionStats) {
      crypto = { decrypted: 0, failed: 0 };
      for (const peer of Object.values(await probe.encryptionStats())) {
        crypto.decrypted += peer.received.decrypted;
        crypto.failed += Object.values(peer.received.failed).reduce((a, b) => a + b, 0);
      }
    }
    return { connections: connections.length, states, decoded, addresses, crypto };
  })();
}
const look = (participant) => participant.page.evaluate(`(${snapshot})()`);

/**
 * ICE_TRACE=1: the camera's figures on each side, to tell a sender that stops from a receiver
 * that drops — outbound (encoded, sent, packets, quality limit, target bitrate, the encoding's
 * `active`), inbound (received, decoded, key frames, PLI/FIR/NACK sent), the pair's outgoing
 * bitrate estimate and the frame-encryption counters.
 */
function detail() {
  return (async () => {
    const out = [];
    for (const pc of window.enclaveBenchConnections ?? []) {
      if (pc.connectionState === 'closed') continue;
      const report = await pc.getStats();
      const row = { pc: pc.connectionState };
      // The camera is the second transceiver (audio, camera, screen: peer.ts).
      const mid = pc.getTransceivers()[1]?.mid;
      report.forEach((s) => {
        if (s.type === 'outbound-rtp' && s.kind === 'video' && s.mid === mid) {
          row.out = {
            ssrc: s.ssrc,
            enc: s.framesEncoded,
            sent: s.framesSent,
            pkts: s.packetsSent,
            kf: s.keyFramesEncoded,
            limit: s.qualityLimitationReason,
            target: s.targetBitrate,
            active: s.active,
            pli: s.pliCount,
            fir: s.firCount,
            nack: s.nackCount,
            h: s.frameHeight,
          };
        }
        if (s.type === 'inbound-rtp' && s.kind === 'video' && s.mid === mid) {
          row.in = {
            ssrc: s.ssrc,
            pkts: s.packetsReceived,
            lost: s.packetsLost,
            recv: s.framesReceived,
            dec: s.framesDecoded,
            kf: s.keyFramesDecoded,
            dropped: s.framesDropped,
            pli: s.pliCount,
            fir: s.firCount,
            nack: s.nackCount,
          };
        }
        if (s.type === 'transport' && s.selectedCandidatePairId) {
          const pair = report.get(s.selectedCandidatePairId);
          row.pair = { out: pair?.availableOutgoingBitrate, rtt: pair?.currentRoundTripTime, id: s.selectedCandidatePairId };
        }
      });
      row.encoding = pc.getTransceivers()[1]?.sender.getParameters().encodings?.[0]?.active;
      out.push(row);
    }
    const probe = window.enclaveProbe;
    const crypto = probe?.encryptionStats
      ? Object.values(await probe.encryptionStats()).map((p) => ({
          enc: p.sent.encrypted,
          withheld: p.sent.withheld,
          dec: p.received.decrypted,
          failed: p.received.failed,
        }))
      : null;
    const negotiation = (window.enclaveBenchNegotiation ?? []).splice(0).map((e) => `${e.at} ${e.op} ${e.type} ${e.from}→${e.to ?? e.error ?? '?'}`);
    return { out, crypto, negotiation };
  })();
}
const trace = process.env.ICE_TRACE === '1';
async function traceLook(participants, label) {
  if (!trace) return;
  const details = await Promise.all(participants.map((p) => p.page.evaluate(`(${detail})()`)));
  progress(`${label} ${participants.map((p, i) => `${p.name}: ${JSON.stringify(details[i])}`).join(' | ')}`);
}

/** Polls both pages until `done(a, b)` or `timeoutMs`; answers the ms it took (null on time-out) and the last looks. */
async function until(participants, done, timeoutMs, onLook = () => {}) {
  const started = Date.now();
  for (;;) {
    const looks = await Promise.all(participants.map(look));
    onLook(looks, Date.now() - started);
    if (done(...looks)) return { ms: Date.now() - started, looks };
    if (Date.now() - started > timeoutMs) return { ms: null, looks };
    await sleep(200);
  }
}

async function round(participants, index) {
  const before = await Promise.all(participants.map(look));
  // Each side's connection states while the network is down, with when they began.
  const timelines = participants.map(() => []);
  let traced = 0;
  const note = (looks, ms) => {
    if (trace && ms >= traced) {
      traced = ms + 5000;
      void traceLook(participants, `down ${(ms / 1000).toFixed(0)} s`);
    }
    looks.forEach((l, i) => {
      const state = l.states.at(-1);
      if (timelines[i].at(-1)?.state !== state) timelines[i].push({ state, ms });
    });
  };
  block();
  progress(`round ${index}: network of ${participants[1].name} dropped for ${dropSeconds} s`);
  await until(participants, () => false, dropSeconds * 1000, note);
  unblock();
  const restoredLooks = await Promise.all(participants.map(look));
  progress(`round ${index}: network back`);
  // Per side, when ICE said "connected" again and when video was decoded again.
  const connectedMs = participants.map(() => null);
  const videoMs = participants.map(() => null);
  let tracedBack = 0;
  const back = await until(
    participants,
    (...looks) => looks.every((l, i) => l.states.at(-1).startsWith('connected/') && l.decoded > restoredLooks[i].decoded + 10),
    60_000,
    (looks, ms) => {
      if (trace && ms >= tracedBack) {
        tracedBack = ms + 2000;
        void traceLook(participants, `back ${(ms / 1000).toFixed(0)} s`);
      }
      looks.forEach((l, i) => {
        if (l.states.at(-1).startsWith('connected/')) connectedMs[i] ??= ms;
        if (l.decoded > restoredLooks[i].decoded + 10) videoMs[i] ??= ms;
      });
    },
  );
  if (back.ms === null)
    progress(
      `round ${index}: not back: ${JSON.stringify(back.looks.map((l, i) => ({ states: l.states, decodedSinceBack: l.decoded - restoredLooks[i].decoded })))}`,
    );
  await sleep(2000);
  const after = await Promise.all(participants.map(look));
  return {
    timelines: timelines.map((timeline) => timeline.map(({ state, ms }) => `${state} ${(ms / 1000).toFixed(1)} s`).join(' → ')),
    recoveredMs: back.ms,
    connectedMs,
    videoMs,
    newConnections: after.map((l, i) => l.connections - before[i].connections),
    addresses: after.map((l) => l.addresses.join(' ')),
    decrypted: after.map((l, i) => (l.crypto && before[i].crypto ? l.crypto.decrypted - before[i].crypto.decrypted : null)),
    refused: after.map((l, i) => (l.crypto && before[i].crypto ? l.crypto.failed - before[i].crypto.failed : null)),
  };
}

async function main() {
  ensureNft();
  const wrapper = makeNamespace();
  const app = await startApp(port);
  const browsers = [];
  const load = os.loadavg();
  const results = [];
  let participants = [];
  let roles = '';
  try {
    browsers.push(await launchChromium());
    browsers.push(await launchChromium({ executablePath: wrapper }));
    participants = [
      await enter(browsers[0], app.baseURL, app.meetingId, 'On the host'),
      await enter(browsers[1], app.baseURL, app.meetingId, 'In the namespace'),
    ];
    const flowing = await until(participants, (a, b) => a.decoded > 0 && b.decoded > 0, 60_000);
    if (flowing.ms === null) throw new Error('no video both ways within 60 s');
    // In each pair the smaller id offers first and the larger one is polite (peer.ts).
    const ids = await Promise.all(participants.map((p) => p.page.evaluate(() => window.enclaveProbe?.getState().self.id ?? null)));
    roles = ids[0] && ids[1] ? `${participants[1].name} ${ids[1] < ids[0] ? 'offers first (impolite)' : 'answers first (polite)'}` : 'roles unknown (no probe)';
    progress(`call up, ${participants[1].name} sends from ${flowing.looks[1].addresses.join(' ')}; ${roles}`);
    for (let index = 1; index <= rounds; index += 1) {
      const result = await round(participants, index);
      results.push(result);
      progress(`round ${index}: ${JSON.stringify(result)}`);
    }
  } finally {
    for (const browser of browsers) await browser.close().catch(() => {});
    await app.stop();
  }
  const recovered = results.map((r) => r.recoveredMs).filter((ms) => ms !== null);
  const joinPosts = participants.map((p) => p.joinPosts);
  console.log(
    `\nICE restart after a dropped network (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, load average ${load.map((l) => l.toFixed(1)).join(' ')} → ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  console.log(
    `Network of the namespace's participant dropped for ${dropSeconds} s per round; ${roles}; connection states seen meanwhile (host | namespace), from the drop:`,
  );
  for (const [i, r] of results.entries()) console.log(`  round ${i + 1}: ${r.timelines.join(' | ')}`);
  console.log(
    '| round | video on both sides again after the network is back | "connected" again (host / namespace) | video decoded again (host / namespace) | new RTCPeerConnections (host / namespace) | frames decrypted / refused since the drop (host — namespace) | namespace sends from |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  const sides = (values) => values.map((v) => (v === null ? 'not in 60 s' : `${v} ms`)).join(' / ');
  for (const [i, r] of results.entries()) {
    console.log(
      `| ${i + 1} | ${r.recoveredMs === null ? 'NOT within 60 s' : `${r.recoveredMs} ms`} | ${sides(r.connectedMs)} | ${sides(r.videoMs)} | ${r.newConnections.join(' / ')} | ${r.decrypted.map((d, k) => (d === null ? 'n/a' : `${d} / ${r.refused[k]}`)).join(' — ')} | ${r.addresses[1]} |`,
    );
  }
  console.log(
    `recovered: ${recovered.length}/${results.length} rounds, p50 ${percentile(recovered, 50)} ms, max ${recovered.length ? Math.max(...recovered) : '–'} ms; join POSTs per participant over the whole run: ${joinPosts.join(' / ')} (1 each = nobody rejoined)`,
  );
}

// Exits explicitly: the forwarder child would keep the process (and so the namespace) alive.
main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
