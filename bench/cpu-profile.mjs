#!/usr/bin/env node
// Sums up a `node --cpu-prof` profile (e.g. of `BENCH_PROFILE_DIR=… npm run bench:calendar`):
// where the CPU went in the last N seconds (the load run; the server stops right after it).
//   node bench/cpu-profile.mjs <file.cpuprofile> [seconds=10] [requests]
// Prints the self time by code area (our server, Next.js, React, iron-session, postgres.js, …),
// the heaviest functions, and the inclusive time of the frames named in INCLUSIVE; with the
// number of requests served in that window, each as CPU ms per request.
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

const [file, secondsArg = '10', requestsArg] = process.argv.slice(2);
if (!file) throw new Error('usage: node bench/cpu-profile.mjs <file.cpuprofile> [seconds] [requests]');
const profile = JSON.parse(readFileSync(file, 'utf8'));
const requests = requestsArg ? Number(requestsArg) : null;

// The build's chunks bundle our code and most packages: their source maps say which file a frame is.
const maps = new Map();
function original({ url, lineNumber, columnNumber }) {
  if (!url.includes('/.next/')) return url;
  const path = url.startsWith('file:') ? fileURLToPath(url) : url;
  if (!maps.has(path)) maps.set(path, existsSync(`${path}.map`) ? new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8'))) : null);
  const entry = maps.get(path)?.findEntry(lineNumber, columnNumber);
  return entry?.originalSource ?? url;
}

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
for (const node of profile.nodes) node.callFrame.src = node.callFrame.url ? original(node.callFrame) : '';
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

// The time of each sample, to keep those of the last `seconds`.
const times = [];
let clock = profile.startTime;
for (const delta of profile.timeDeltas) times.push((clock += delta));
const from = profile.endTime - Number(secondsArg) * 1e6;

/** Which part of the stack a frame belongs to, from its script's URL (or its source map's). */
function area(frame) {
  const { functionName } = frame;
  const url = frame.src;
  if (!url) return functionName === '(garbage collector)' ? 'GC' : functionName.startsWith('(') ? functionName : 'native';
  if (url.includes('server/server.mjs')) return 'server/server.mjs';
  if (url.startsWith('node:')) return url.startsWith('node:internal/deps/undici') ? 'undici (Request/Headers)' : 'node core';
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) {
    if (pkg[1] === 'next') {
      if (/compiled\/react|react-server-dom/.test(url)) return 'react (in next)';
      return 'next';
    }
    return pkg[1];
  }
  const project = url.match(/\[project\]\/(.*)$/);
  if (project) return project[1];
  if (url.includes('/.next/')) return 'build chunk (no source map)';
  return url
    .replace(/^file:\/\//, '')
    .split('/')
    .slice(-2)
    .join('/');
}

const self = new Map();
const fn = new Map();
const inclusive = new Map();
const inclusiveArea = new Map();
// Frames whose whole subtree is summed (a name or a URL fragment).
const INCLUSIVE = [
  ['unsealSession', (f) => f.functionName === 'unsealSession' || f.functionName === 'unsealData'],
  ['userForSession', (f) => f.functionName === 'userForSession'],
  ['calendarVersion', (f) => f.functionName === 'calendarVersion'],
  ['calendarAnswer', (f) => f.functionName === 'calendarAnswer'],
  ['proxy (middleware adapter)', (f) => /proxy\.ts$/.test(f.src) || (/adapter|runMiddleware/i.test(f.functionName) && /next/.test(f.src))],
  ['next-intl', (f) => /next-intl/.test(f.src)],
  ['log', (f) => /\/lib\/log/.test(f.src)],
  ['gzip/compression', (f) => /compression|zlib/.test(f.src)],
  ['postgres.js', (f) => /node_modules\/postgres\//.test(f.src)],
  ['drizzle', (f) => /drizzle-orm/.test(f.src)],
];
let total = 0;
profile.samples.forEach((id, i) => {
  if (times[i] < from) return;
  const ms = (profile.timeDeltas[i] ?? 0) / 1000;
  total += ms;
  const node = byId.get(id);
  const a = area(node.callFrame);
  self.set(a, (self.get(a) ?? 0) + ms);
  const key = `${node.callFrame.functionName || '(anonymous)'} ${a}:${node.callFrame.lineNumber + 1}`;
  fn.set(key, (fn.get(key) ?? 0) + ms);
  const seen = new Set();
  const areas = new Set();
  for (let n = id; n !== undefined; n = parent.get(n)) {
    const frame = byId.get(n).callFrame;
    const where = area(frame);
    if (!areas.has(where)) {
      areas.add(where);
      inclusiveArea.set(where, (inclusiveArea.get(where) ?? 0) + ms);
    }
    for (const [name, match] of INCLUSIVE) {
      if (!seen.has(name) && match(frame)) {
        seen.add(name);
        inclusive.set(name, (inclusive.get(name) ?? 0) + ms);
      }
    }
  }
});

const row = (ms) => ({
  ms: +ms.toFixed(0),
  '%': +((100 * ms) / total).toFixed(1),
  ...(requests ? { 'µs/request': +((1000 * ms) / requests).toFixed(0) } : {}),
});
const table = (map, limit) =>
  Object.fromEntries(
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([key, ms]) => [key, row(ms)]),
  );
const idle = self.get('(idle)') ?? 0;
console.log(
  `${file}: last ${secondsArg} s, ${total.toFixed(0)} ms sampled, ${(total - idle).toFixed(0)} ms busy${requests ? `, ${requests} requests: ${((1000 * (total - idle)) / requests).toFixed(0)} µs busy each` : ''}`,
);
console.log('\nSelf time by area');
console.table(table(self, 25));
console.log('Heaviest functions (self)');
console.table(table(fn, 30));
console.log('Inclusive, by area (the samples with that area anywhere on the stack)');
console.table(table(inclusiveArea, 40));
console.log('Inclusive, by frame');
console.table(table(inclusive, 20));
