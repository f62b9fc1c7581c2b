#!/usr/bin/env node
// `npm run bench:signaling-flood` (issue 20, "Signaling"): one built app, real HTTP, no browser.
// 1. Two participants negotiate NEGOTIATIONS times (offer → answer, then each side's ICE
//    candidates and end-of-candidates in one batch, as the client sends them): the time from the
//    offer sent to both sides holding everything, with nobody else talking.
// 2. The same while a third participant floods for FLOOD_S seconds from FLOOD_WORKERS parallel
//    loops: mostly valid signals to the two, plus malformed JSON, wrong types, bodies over
//    MAX_SIGNAL_BODY_BYTES and unknown peer ids. Its answers are counted by kind and status.
// 3. Relay throughput: PARTICIPANTS participants each send RATE signals a second (within the
//    per-participant limit) to the others for THROUGHPUT_S seconds, every message timed from the
//    POST to its arrival on the receiver's event stream (same clock): messages/s delivered across
//    participants and the latency p50/p99. The bench's own event loop is part of that latency.
//    BATCH=n sends n messages per POST (a `signals` batch, as the client does with what queued).
// Also the serving process's RSS before, at its peak and after, and whether /api/health still
// answers. BENCH_PORT (3640). Asserts nothing; progress on stderr.
import os from 'node:os';
import { cpuSeconds, rssMb, startApp } from './lib/app-server.mjs';
import { percentile } from './lib/stats.mjs';
import { progress, sleep } from './lib/time.mjs';

const port = Number(process.env.BENCH_PORT ?? 3640);
const negotiations = Number(process.env.NEGOTIATIONS ?? 30);
const floodSeconds = Number(process.env.FLOOD_S ?? 15);
const floodWorkers = Number(process.env.FLOOD_WORKERS ?? 48);
const participantsCount = Number(process.env.PARTICIPANTS ?? 12);
const rate = Number(process.env.RATE ?? 90);
const throughputSeconds = Number(process.env.THROUGHPUT_S ?? 10);
/** Messages per POST in the relay phase: 1, or up to MAX_SIGNAL_BATCH as the client sends what queued behind a POST. */
const batch = Number(process.env.BATCH ?? 1);
/** lib/meeting/protocol.ts MAX_SIGNAL_BODY_BYTES: a body over it must get 413. */
const MAX_SIGNAL_BODY_BYTES = 64 * 1024;

let app;
let nextAddress = 0;

async function joinAs(name) {
  nextAddress += 1;
  // An address of its own (X-Forwarded-For is trusted from loopback in this setup): the join limit per address is not what is measured.
  const headers = { 'content-type': 'application/json', origin: app.baseURL, 'x-forwarded-for': `10.30.${nextAddress >> 8}.${nextAddress & 255}` };
  const response = await fetch(`${app.baseURL}/api/meeting/${app.meetingId}/join`, { method: 'POST', headers, body: JSON.stringify({ name }) });
  if (!response.ok) throw new Error(`join ${name}: ${response.status} ${await response.text()}`);
  const answer = await response.json();
  return { name, id: answer.self.id, token: answer.token, headers: { ...headers, authorization: `Bearer ${answer.token}` } };
}

/** The participant's event stream; `onSignal(from, envelope)` for every relayed signal. Resolves after `welcome`. */
async function listen(participant, onSignal) {
  const controller = new AbortController();
  participant.close = () => controller.abort();
  const response = await fetch(`${app.baseURL}/api/meeting/${app.meetingId}/signal`, {
    headers: { authorization: participant.headers.authorization },
    signal: controller.signal,
  });
  if (!response.ok) throw new Error(`stream ${participant.name}: ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let welcomed;
  const welcome = new Promise((resolve) => (welcomed = resolve));
  (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const type = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (type === 'welcome') welcomed();
        if (type === 'signal' && data) {
          const event = JSON.parse(data);
          onSignal(event.from, event.envelope);
        }
      }
    }
  })().catch(() => {});
  await welcome;
}

async function post(participant, body) {
  try {
    const response = await fetch(`${app.baseURL}/api/meeting/${app.meetingId}/signal`, {
      method: 'POST',
      headers: participant.headers,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 'network error';
  }
}

// ---- 1 and 2: two participants negotiating ----

const sdp = 'v=0\r\n' + 'a=x'.repeat(1000);
const candidates = (side, round) => [
  ...Array.from({ length: 8 }, (_, i) => `cand:${round}:${side}:${i}:udp 2122260223 10.0.0.${i} 5000${i} typ host`),
  `end:${round}:${side}`,
];

/** One offer/answer with its candidates between a and b: milliseconds until both sides hold everything. */
function negotiation(a, b, round) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const need = { a: new Set(candidates('b', round)), b: new Set(candidates('a', round)) };
    let answered = false;
    const check = () => {
      if (answered && need.a.size === 0 && need.b.size === 0) resolve(performance.now() - started);
    };
    const failIfNot200 = (status) => {
      if (status !== 200) reject(new Error(`negotiation ${round}: POST answered ${status}`));
    };
    a.handle = (from, envelope) => {
      if (from !== b.id) return;
      if (envelope === `answer:${round}`) {
        answered = true;
        void post(a, { type: 'signals', to: b.id, envelopes: candidates('a', round) }).then(failIfNot200);
      } else need.a.delete(envelope);
      check();
    };
    b.handle = (from, envelope) => {
      if (from !== a.id) return;
      if (envelope.startsWith(`offer:${round}:`)) {
        void post(b, { type: 'signal', to: a.id, envelope: `answer:${round}` })
          .then(failIfNot200)
          .then(() => post(b, { type: 'signals', to: a.id, envelopes: candidates('b', round) }))
          .then(failIfNot200);
      } else need.b.delete(envelope);
      check();
    };
    void post(a, { type: 'signal', to: b.id, envelope: `offer:${round}:${sdp}` }).then(failIfNot200);
    // Counted as a time-out rather than waited for: the run goes on.
    setTimeout(() => resolve(Infinity), 10_000);
  });
}

async function negotiate(a, b, label, until = () => false) {
  const times = [];
  for (let round = 0; round < negotiations || until(); round += 1) {
    times.push(await negotiation(a, b, `${label}-${round}`));
    await sleep(100); // the pace of real negotiations, and each side's bucket refills
  }
  return times;
}

/** What the flooder sends, by its index: mostly valid signals, and every kind of bad input. */
function floodMessage(i, targets) {
  const kind = i % 100;
  if (kind < 90) return { kind: 'valid signal', body: { type: 'signal', to: targets[i % 2], envelope: `flood:${i}` } };
  if (kind < 93) return { kind: 'malformed JSON', body: '{"type":"signal","to":' };
  if (kind < 95) return { kind: 'wrong types', body: { type: 'signal', to: 42, envelope: { sdp: 1 } } };
  if (kind < 97) return { kind: 'oversized body', body: { type: 'signal', to: targets[0], envelope: 'x'.repeat(MAX_SIGNAL_BODY_BYTES + 1024) } };
  return { kind: 'unknown peer id', body: { type: 'signal', to: `nobody-${i}`, envelope: 'x' } };
}

async function flood(flooder, targets, seconds) {
  const counts = {};
  const deadline = Date.now() + seconds * 1000;
  let next = 0;
  let sent = 0;
  await Promise.all(
    Array.from({ length: floodWorkers }, async () => {
      while (Date.now() < deadline) {
        const { kind, body } = floodMessage(next++, targets);
        const status = await post(flooder, body);
        sent += 1;
        counts[kind] ??= {};
        counts[kind][status] = (counts[kind][status] ?? 0) + 1;
      }
    }),
  );
  return { counts, perSecond: sent / seconds };
}

// ---- 3: throughput and latency across participants ----

async function throughput(pid) {
  const sentAt = new Map();
  const latencies = [];
  let lastArrival = 0;
  const people = [];
  for (let i = 0; i < participantsCount; i += 1) people.push(await joinAs(`Relay ${i + 1}`));
  for (const person of people)
    await listen(person, (_from, envelope) => {
      const at = sentAt.get(envelope);
      if (at === undefined) return;
      latencies.push(performance.now() - at);
      lastArrival = performance.now();
    });
  const statuses = {};
  const cpuBefore = cpuSeconds(pid);
  const started = performance.now();
  const deadline = started + throughputSeconds * 1000;
  let serial = 0;
  await Promise.all(
    people.map(async (person, index) => {
      const inFlight = new Set();
      for (let k = 0; performance.now() < deadline; k += 1) {
        const to = people[(index + 1 + (k % (people.length - 1))) % people.length];
        const envelopes = Array.from({ length: batch }, () => `t:${(serial += 1)}`);
        for (const envelope of envelopes) sentAt.set(envelope, performance.now());
        const body = batch === 1 ? { type: 'signal', to: to.id, envelope: envelopes[0] } : { type: 'signals', to: to.id, envelopes };
        const request = post(person, body).then((status) => {
          statuses[status] = (statuses[status] ?? 0) + 1;
          inFlight.delete(request);
        });
        inFlight.add(request);
        // Paced at RATE messages a second per participant, never more than 32 of its POSTs on the way.
        const due = started + ((k + 1) * batch * 1000) / rate;
        while (inFlight.size >= 32) await Promise.race(inFlight);
        if (due > performance.now()) await sleep(due - performance.now());
      }
      await Promise.all(inFlight);
    }),
  );
  await sleep(1000); // the last deliveries
  const cpu = cpuSeconds(pid) - cpuBefore;
  for (const person of people) person.close();
  const seconds = (Math.max(lastArrival, deadline) - started) / 1000;
  return { cpu, sent: serial, delivered: latencies.length, perSecond: latencies.length / seconds, latencies, statuses };
}

async function main() {
  app = await startApp(port);
  const pid = app.servingPid();
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(pid) ?? 0)), 250);
  const rssBefore = rssMb(pid);
  const load = os.loadavg();
  let report = [];
  try {
    const [a, b, flooder] = [await joinAs('Ada'), await joinAs('Bob'), await joinAs('Flo')];
    for (const person of [a, b]) await listen(person, (from, envelope) => person.handle?.(from, envelope));
    await listen(flooder, () => {});
    progress('negotiations, nobody else talking');
    const quiet = await negotiate(a, b, 'quiet');
    progress(`flood for ${floodSeconds} s while they negotiate`);
    let flooding = true;
    const flooded = flood(flooder, [a.id, b.id], floodSeconds).finally(() => (flooding = false));
    const underFlood = await negotiate(a, b, 'flood', () => flooding);
    const { counts, perSecond } = await flooded;
    for (const person of [a, b, flooder]) person.close();
    progress(`relay throughput: ${participantsCount} participants at ${rate} signals/s each`);
    const relay = await throughput(pid);
    const health = await fetch(`${app.baseURL}/api/health`)
      .then((r) => r.status)
      .catch((error) => String(error));
    const ms = (values, p) => `${percentile(values, p).toFixed(1)}`;
    const timedOut = (values) => values.filter((v) => v === Infinity).length;
    report = [
      `Signaling under flood (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, load average ${load.map((l) => l.toFixed(1)).join(' ')} → ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')})`,
      `negotiation (offer → answer → 9 candidates each way), nobody else: ${quiet.length} runs (${timedOut(quiet)} over 10 s), p50 ${ms(quiet, 50)} ms, p95 ${ms(quiet, 95)} ms, max ${ms(quiet, 100)} ms`,
      `negotiation while one participant floods: ${underFlood.length} runs (${timedOut(underFlood)} over 10 s), p50 ${ms(underFlood, 50)} ms, p95 ${ms(underFlood, 95)} ms, max ${ms(underFlood, 100)} ms`,
      `flooder: ${floodWorkers} parallel loops for ${floodSeconds} s, ${perSecond.toFixed(0)} POSTs/s answered`,
      ...Object.entries(counts).map(
        ([kind, statuses]) =>
          `  ${kind}: ${Object.entries(statuses)
            .map(([status, n]) => `${n} × ${status}`)
            .join(', ')}`,
      ),
      `relay: ${participantsCount} participants × ${rate} messages/s for ${throughputSeconds} s, ${batch} per POST: ${relay.sent} sent (POSTs answered ${Object.entries(
        relay.statuses,
      )
        .map(([s, n]) => `${n} × ${s}`)
        .join(', ')}), ${relay.delivered} delivered, ${relay.perSecond.toFixed(0)} messages/s delivered`,
      `server CPU during the relay: ${relay.cpu.toFixed(2)} s, ${((relay.cpu / relay.delivered) * 1e6).toFixed(0)} µs per message (≈ ${(relay.delivered / relay.cpu).toFixed(0)} messages/s per core)`,
      `relay latency POST → event stream: p50 ${ms(relay.latencies, 50)} ms, p99 ${ms(relay.latencies, 99)} ms, max ${ms(relay.latencies, 100)} ms`,
      `server RSS: ${rssBefore} MB before, ${peakRss} MB peak, ${rssMb(pid)} MB after; /api/health after: ${health}; serving process ${rssMb(pid) === null ? 'GONE' : 'still up'}`,
    ];
  } finally {
    clearInterval(sampler);
    await app.stop();
  }
  console.log(`\n${report.join('\n')}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
