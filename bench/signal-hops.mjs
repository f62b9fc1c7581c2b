#!/usr/bin/env node
// `npm run bench:signal-hops`: what one hop through the server costs, with nothing else running —
// the server's own part of a join (issue 17). The built app on a fresh embedded database
// (bench/app-server.mjs), one participant present with its event stream open; then RUNS times a
// newcomer joins as the lobby does (POST /join answered by its event stream) — time to the answer's
// headers and until the present one hears `join` — and sends 5 signals of 3 KB (an SDP's size)
// to it, each timed until the peer hears it. Then the serving process's CPU (/proc) per join with
// its leave (CPU_JOINS of them) and per relayed signal (SIGNALS, at most 400: the flood limit's
// bucket of one participant). Prints p50 / p95; asserts nothing.
import { cpuSeconds, percentile, startApp } from './app-server.mjs';

const port = Number(process.env.BENCH_PORT ?? 3620);
const { baseURL, meetingId, stop, servingPid } = await startApp(port);

async function joinStreaming(name, onEvent) {
  const controller = new AbortController();
  const started = performance.now();
  const response = await fetch(`${baseURL}/api/meeting/${meetingId}/join`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', origin: baseURL },
    body: JSON.stringify({ name }),
    signal: controller.signal,
  });
  const headers = performance.now() - started;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let resolveJoined;
  const joined = new Promise((resolve) => (resolveJoined = resolve));
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const type = /event: (\S+)/.exec(block)?.[1];
          const data = JSON.parse(/data: (.*)/.exec(block)?.[1] ?? 'null');
          if (type === 'joined') resolveJoined(data);
          onEvent(type, data, performance.now());
        }
      }
    } catch {
      // aborted
    }
  })();
  const answer = await joined;
  return { answer, headers, close: async () => {
    await fetch(`${baseURL}/api/meeting/${meetingId}/signal`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${answer.token}`, origin: baseURL }, body: JSON.stringify({ type: 'leave' }) });
    controller.abort();
  } };
}

const heardJoin = [];
const heardSignal = [];
const joinHeaders = [];
const signalAnswered = [];
let waiting = null;
const present = await joinStreaming('Present', (type, data, at) => {
  if (waiting && (type === waiting.type)) { waiting.resolve(at); waiting = null; }
});
const hear = (type) => new Promise((resolve) => (waiting = { type, resolve }));
const runs = Number(process.env.RUNS ?? 40);
let cpuToken = '';
for (let run = 0; run < runs; run++) {
  const heard = hear('join');
  const started = performance.now();
  const newcomer = await joinStreaming(`New ${run}`, () => {});
  heardJoin.push((await heard) - started);
  joinHeaders.push(newcomer.headers);
  for (let i = 0; i < 5; i++) {
    const heardIt = hear('signal');
    const sent = performance.now();
    const response = await fetch(`${baseURL}/api/meeting/${meetingId}/signal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${newcomer.answer.token}`, origin: baseURL },
      body: JSON.stringify({ type: 'signal', to: present.answer.self.id, envelope: 'x'.repeat(3000) }),
    });
    signalAnswered.push(performance.now() - sent);
    if (!response.ok) throw new Error(`signal ${response.status} ${await response.text()}`);
    heardSignal.push((await heardIt) - sent);
  }
  if (run === runs - 1) cpuToken = (await joinStreaming('CPU signaller', () => {})).answer.token;
  await newcomer.close();
}
// Steady state: the server's CPU per join (with its leave) and per signal.
const pid = servingPid();
const before = cpuSeconds(pid);
let joins = 0;
let signals = 0;
for (let run = 0; run < Number(process.env.CPU_JOINS ?? 40); run++) {
  const newcomer = await joinStreaming(`CPU ${run}`, () => {});
  joins += 1;
  await newcomer.close();
}
const afterJoins = cpuSeconds(pid);
for (let i = 0; i < Number(process.env.SIGNALS ?? 400); i++) {
  const heardIt = hear('signal');
  await fetch(`${baseURL}/api/meeting/${meetingId}/signal`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${cpuToken}`, origin: baseURL },
    body: JSON.stringify({ type: 'signal', to: present.answer.self.id, envelope: 'x'.repeat(3000) }),
  });
  await heardIt;
  signals += 1;
}
const afterSignals = cpuSeconds(pid);
console.log(`server CPU: ${(((afterJoins - before) * 1000) / joins).toFixed(2)} ms per join (with its leave), ${(((afterSignals - afterJoins) * 1000) / signals).toFixed(2)} ms per signal relayed`);
const row = (values) => `${percentile(values, 50).toFixed(1)} / ${percentile(values, 95).toFixed(1)} ms`;
console.log(`join POST → headers: ${row(joinHeaders)}; → present hears join: ${row(heardJoin)}`);
console.log(`signal POST → peer hears it: ${row(heardSignal)}; → answered: ${row(signalAnswered)}`);
await present.close();
await stop();
process.exit(0);
