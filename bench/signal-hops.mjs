#!/usr/bin/env node
// `npm run bench:signal-hops`: what one hop through the server costs, with nothing else running —
// the server's own part of a join (issue 17). The built app on a fresh embedded database
// (bench/lib/app-server.mjs), one participant present with its event stream open; then RUNS times a
// newcomer joins as the lobby does (POST /join answered by its event stream) — time to the answer's
// headers and until the present one hears `join` — and sends 5 signals of 3 KB (an SDP's size)
// to it, each timed until the peer hears it. Then the serving process's CPU (/proc) per join with
// its leave (CPU_JOINS of them) and per relayed signal (SIGNALS, at most 400: the flood limit's
// bucket of one participant). Prints p50 / p95; asserts nothing.
import { cpuSeconds, startApp } from './lib/app-server.mjs';
import { eventStream } from './lib/http.mjs';
import { percentile } from './lib/stats.mjs';

const port = Number(process.env.BENCH_PORT ?? 3620);
const { baseURL, meetingId, stop, servingPid } = await startApp(port);

/** The next event of `stream` that `matches`, when it arrives (on performance.now()'s clock). */
function next(stream, matches) {
  const seen = stream.events.find(matches);
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve) => {
    const stop = stream.onEvent((event) => {
      if (!matches(event)) return;
      stop();
      resolve(event);
    });
  });
}

/** Joins as the lobby does (POST /join answered by the event stream): its answer, stream and time to headers. */
async function joinStreaming(name) {
  const started = performance.now();
  const stream = await eventStream(
    `${baseURL}/api/meeting/${meetingId}/join`,
    { 'content-type': 'application/json', accept: 'text/event-stream', origin: baseURL },
    { method: 'POST', body: JSON.stringify({ name }) },
  );
  const headers = performance.now() - started;
  const answer = await next(stream, (event) => event.eventName === 'joined');
  const leave = async () => {
    await fetch(`${baseURL}/api/meeting/${meetingId}/signal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${answer.token}`, origin: baseURL },
      body: JSON.stringify({ type: 'leave' }),
    });
    stream.close();
  };
  return { answer, stream, headers, close: leave };
}

const heardJoin = [];
const heardSignal = [];
const joinHeaders = [];
const signalAnswered = [];
const present = await joinStreaming('Present');
const heard = new Set(present.stream.events);
/** When the present participant hears the next event of this type it has not heard yet. */
const hear = (type) =>
  next(present.stream, (event) => event.type === type && !heard.has(event)).then((event) => {
    heard.add(event);
    return event.receivedAt;
  });
const runs = Number(process.env.RUNS ?? 40);
let cpuToken = '';
for (let run = 0; run < runs; run++) {
  const joinHeard = hear('join');
  const started = performance.now();
  const newcomer = await joinStreaming(`New ${run}`);
  heardJoin.push((await joinHeard) - started);
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
  if (run === runs - 1) cpuToken = (await joinStreaming('CPU signaller')).answer.token;
  await newcomer.close();
}
// Steady state: the server's CPU per join (with its leave) and per signal.
const pid = servingPid();
const before = cpuSeconds(pid);
let joins = 0;
let signals = 0;
for (let run = 0; run < Number(process.env.CPU_JOINS ?? 40); run++) {
  const newcomer = await joinStreaming(`CPU ${run}`);
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
console.log(
  `server CPU: ${(((afterJoins - before) * 1000) / joins).toFixed(2)} ms per join (with its leave), ${(((afterSignals - afterJoins) * 1000) / signals).toFixed(2)} ms per signal relayed`,
);
const row = (values) => `${percentile(values, 50).toFixed(1)} / ${percentile(values, 95).toFixed(1)} ms`;
console.log(`join POST → headers: ${row(joinHeaders)}; → present hears join: ${row(heardJoin)}`);
console.log(`signal POST → peer hears it: ${row(heardSignal)}; → answered: ${row(signalAnswered)}`);
await present.close();
await stop();
process.exit(0);
