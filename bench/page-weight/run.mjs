#!/usr/bin/env node
// `npm run bench`: what Enclave's public pages cost a browser, next to a bare Next 16 page
// (bench/bare-next) built and served in the same run with the project's own next and react, so
// that the figures can be read against the floor any Next app pays.
// - First-load JavaScript: the scripts each page's HTML names, raw and gzipped (level 9), and the
//   gzipped amount over the bare page's ("over floor").
// - Lighthouse 12 in Debian's Chromium: performance on mobile (Lighthouse's default: simulated
//   slow 4G and a 4× slower CPU) and desktop, CLS, LCP and TBT on mobile, and the accessibility,
//   best-practices and SEO scores on mobile. RUNS=n (default 1) takes each figure's median over n
//   runs, the pages taking turns run by run; LIGHTHOUSE=0 skips it.
// Enclave is started with `node server/start.mjs` (building first when its sources changed) on
// a free port with an empty data folder, unless BENCH_URL names a running server. Pages come
// from the command line (default below). It measures and asserts nothing; a page that does not
// answer 200 is reported with its status. Progress goes to stderr, the tables to stdout.
// BENCH_PAGES=app weighs the logged-in pages instead (APP_PAGES below, or those of the command
// line): the data folder gets the demo account (scripts/seed.ts) and every request a session
// cookie of it; `{meeting}` in a path is that account's room, `{today}` today's date. With
// BENCH_URL, BENCH_COOKIE gives the Cookie header to send.
import { createRequire } from 'node:module';
import { runLighthouse, chromiumVersion, medianFigures, CONFIGS } from './lighthouse.mjs';
import { weighPage } from './measure.mjs';
import { lighthouseRows, machineAtEnd, machineAtStart, markdownTable, printMachine, weightRows } from './report.mjs';
import { makeTempDir, root, startBareNext, startEnclave, stopServer } from '../lib/production-servers.mjs';
import { median } from '../lib/stats.mjs';
import { progress } from '../lib/time.mjs';

const DEFAULT_PAGES = ['/', '/enterprise', '/faq', '/download', '/terms-of-service', '/security', '/login', '/de/faq'];
// The logged-in pages of issue 17 goal 4: the app's frame around each page, and the meeting.
const APP_PAGES = [
  '/',
  '/calendar',
  '/calendar/week/{today}',
  '/schedule',
  '/attendees',
  '/admin',
  '/settings',
  '/support',
  '/open-ticket',
  '/admin/users',
  '/now/{meeting}',
];
const loggedIn = process.env.BENCH_PAGES === 'app';
if (!['app', 'public', undefined].includes(process.env.BENCH_PAGES)) throw new Error(`BENCH_PAGES is app or public, not ${process.env.BENCH_PAGES}`);
const pages = process.argv.length > 2 ? process.argv.slice(2) : loggedIn ? APP_PAGES : DEFAULT_PAGES;
const runs = Number(process.env.RUNS ?? 1);
const withLighthouse = process.env.LIGHTHOUSE !== '0';
if (!Number.isInteger(runs) || runs < 1) throw new Error(`RUNS must be a whole number ≥ 1, not ${process.env.RUNS}`);

const version = (name) => createRequire(`${root}/`)(`${name}/package.json`).version;

/** The servers: the bare app, then Enclave unless BENCH_URL names one. */
async function startServers(logDir) {
  progress('Building and starting the bare Next app…');
  const bare = await startBareNext(logDir);
  if (process.env.BENCH_URL) {
    const cookie = process.env.BENCH_COOKIE ?? null;
    if (loggedIn && !cookie) throw new Error('BENCH_PAGES=app with BENCH_URL needs BENCH_COOKIE');
    return { bare, enclave: { base: process.env.BENCH_URL, cookie, account: null } };
  }
  progress('Starting Enclave (server/start.mjs builds first when its sources changed: minutes)…');
  const enclave = await startEnclave(logDir, { withAccount: loggedIn });
  return { bare, enclave };
}

/** A page's path with the seeded account's meeting id and today's date filled in. */
function resolvePath(page, account) {
  const today = new Date().toISOString().slice(0, 10);
  return page.replaceAll('{today}', today).replaceAll('{meeting}', account?.meetingId ?? process.env.BENCH_MEETING ?? 'missing-meeting');
}

/** The bare page first, as the floor; then Enclave's pages. */
async function weighAll(bare, enclave) {
  progress('Weighing the bare Next page');
  const targets = [
    {
      label: 'bare Next /',
      url: new URL('/', bare.base).href,
      weight: await weighPage(bare.base, '/'),
    },
  ];
  const headers = loggedIn && enclave.cookie ? { Cookie: enclave.cookie } : undefined;
  for (const page of pages) {
    const resolved = resolvePath(page, enclave.account);
    progress(`Weighing ${resolved}`);
    targets.push({
      label: page,
      url: new URL(resolved, enclave.base).href,
      headers,
      weight: await weighPage(enclave.base, resolved, headers),
    });
  }
  return targets;
}

/**
 * Lighthouse on every page that answered 200, in each configuration, RUNS times. The pages take
 * turns run by run, so that a change in the machine's load spreads over all of them.
 */
async function lighthouseAll(targets) {
  const measured = targets.filter((target) => target.weight.status === 200);
  const configNames = Object.keys(CONFIGS);
  const results = new Map(measured.map((target) => [target, Object.fromEntries(configNames.map((name) => [name, []]))]));
  const total = runs * measured.length * configNames.length;
  let done = 0;
  for (let run = 0; run < runs; run++) {
    for (const target of measured) {
      for (const configName of configNames) {
        const started = Date.now();
        const figures = await runLighthouse(target.url, configName, target.headers);
        results.get(target)[configName].push(figures);
        const outcome = figures.error ?? `perf ${figures.perf}`;
        progress(`Lighthouse ${++done}/${total} ${configName} ${target.label}: ${outcome} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      }
    }
  }
  for (const [target, byConfig] of results) {
    target.lighthouse = Object.fromEntries(Object.entries(byConfig).map(([name, list]) => [name, medianFigures(list)]));
  }
}

function printTables(title, rows) {
  console.log(`\n${title}`);
  console.table(rows);
  console.log(`\n${markdownTable(rows)}`);
}

const machine = machineAtStart({
  chromium: chromiumVersion(),
  next: version('next'),
  lighthouse: version('lighthouse'),
});
progress(`Load average at start: ${machine['load average at start (1, 5, 15 min)']}`);
const logDir = makeTempDir('logs');
const { bare, enclave } = await startServers(logDir);
const targets = await weighAll(bare, enclave);
if (withLighthouse) await lighthouseAll(targets);
const benchmarkIndex = median(targets.flatMap((t) => Object.values(t.lighthouse ?? {}).map((f) => f.benchmarkIndex)));
const end = machineAtEnd(machine, benchmarkIndex);
await stopServer(bare);
if (enclave.pid) await stopServer(enclave);

console.log(
  `\nEnclave ${enclave.base}${process.env.BENCH_URL ? ' (BENCH_URL)' : ''} against a bare Next ${machine.next} page; ${loggedIn ? 'logged-in pages; ' : ''}RUNS=${runs}${withLighthouse ? '' : ', Lighthouse skipped'}`,
);
printMachine(end);
const floor = targets[0].weight.jsGzKb;
printTables('First-load JavaScript (gzip -9; over floor = page − bare Next page)', weightRows(targets, floor));
if (withLighthouse) {
  printTables(`Lighthouse ${machine.lighthouse}, median of ${runs} run(s): perf on mobile and desktop, the rest on mobile`, lighthouseRows(targets));
}
