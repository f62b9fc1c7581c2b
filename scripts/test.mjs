#!/usr/bin/env node
// `npm test`: every test. Jest (unit, integration on PGlite, and on PostgreSQL when
// TEST_DATABASE_URL is set), then Playwright end to end in Debian's Chromium (one meeting test
// also starts Debian's Firefox ESR, and fails without it). Prints one closing line
// "tests: N passed, N failed" and exits non-zero if anything failed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromiumPath, pagesChromiumPath } from '../tests/support/chromium.mjs';
import { formatDuration, jestFiles, jestTests, playwrightTests, slowest } from './test-timings.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);
const reports = path.join(root, 'reports');
mkdirSync(reports, { recursive: true });
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };

const JEST_PHASE = 'unit and integration (jest)';
const E2E_PHASES = [
  ['end to end: pages (playwright, chromium)', 'chromium'],
  ['end to end: meetings (playwright, chromium)', 'meetings'],
];
const phases = [];
const began = Date.now();

function run(label, command, args, extraEnv = {}) {
  console.log(`\n=== ${label} ===`);
  const start = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...env, ...extraEnv } });
  phases.push({ label, ms: Date.now() - start });
  return result.status ?? 1;
}

/** Runs `checks` two at a time, each one's output printed whole when it ends; their exit statuses, in order. */
async function runTwoAtATime(checks) {
  const statuses = [];
  let next = 0;
  const worker = async () => {
    while (next < checks.length) {
      const index = next++;
      const [label, command, args] = checks[index];
      const start = Date.now();
      const output = [];
      const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
      statuses[index] = await new Promise((resolve) => {
        child.on('error', () => resolve(1));
        child.on('close', (code) => resolve(code ?? 1));
      });
      phases.push({ label, ms: Date.now() - start });
      console.log(`\n=== ${label} ===`);
      process.stdout.write(Buffer.concat(output));
    }
  };
  await Promise.all([worker(), worker()]);
  return statuses;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

const only = process.argv[2]; // optional: "static", "jest" or "e2e"
let passed = 0;
let failed = 0;
let flaky = 0;
let exitCode = 0;

if (!only || only === 'static') {
  // The build that `npm start` makes skips type checking (next.config.mjs): it is checked here.
  // Next's route types (PageProps, LayoutProps, RouteContext) come from the app/ folder: made
  // first, so that a clean clone type-checks without a build. Then the four checks two at a time,
  // one per core: none needs another's result, and each is one process that leaves a core idle.
  const checks = [
    ['types (tsc)', bin('tsc'), ['--noEmit']],
    ['lint (eslint)', bin('eslint'), ['.', '--max-warnings=0']],
    // Files nothing reaches, exports nothing imports, dependencies nothing uses (knip.jsonc).
    ['dead code (knip)', bin('knip'), ['--no-progress']],
    // The house's layout is the formatter's (.prettierrc.json); `npm run format` fixes a failure.
    ['format (prettier)', bin('prettier'), ['--check', '.', '--log-level=warn']],
  ];
  const statuses = [run('route types (next typegen)', bin('next'), ['typegen']), ...(await runTwoAtATime(checks))];
  const failures = statuses.filter((status) => status !== 0).length;
  if (failures > 0) {
    failed += failures;
    exitCode = 1;
  }
}

if (!only || only === 'jest') {
  const jestReport = path.join(reports, 'jest.json');
  // PGlite loads its extensions with dynamic import(), which Jest allows only with vm modules.
  // Three workers on two cores (Jest's default there is one, in band): an integration file often
  // waits on PostgreSQL, Redis, Janus or a child process, and another worker runs meanwhile. On a
  // quiet machine (2026-11-30) two workers left the cores 15 % idle and took 5 min 43 s, three
  // left 1 % and took 4 min 46 s, the same 4,089 tests. Files that start servers take ports of
  // their own per file and database project (tests/support/test-ports.ts), so none collide.
  const status = run(JEST_PHASE, bin('jest'), ['--json', `--outputFile=${jestReport}`, '--maxWorkers=3'], {
    NODE_OPTIONS: [process.env.NODE_OPTIONS, '--experimental-vm-modules', '--no-warnings'].filter(Boolean).join(' '),
  });
  const report = readJson(jestReport);
  passed += report?.numPassedTests ?? 0;
  failed += report ? report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0) : 1;
  if (status !== 0) exitCode = 1;
}

if (!only || only === 'e2e') {
  if (!existsSync(chromiumPath)) {
    console.error(`\nEnd-to-end tests need Chromium at ${chromiumPath}: apt-get install -y chromium`);
    failed += 1;
    exitCode = 1;
  } else {
    console.log(`\nPages in ${pagesChromiumPath}, meetings in ${chromiumPath}`);
    // Pages first, then calls, in two runs: as one run's dependent project, the calls did not run
    // at all when one page test failed, so a red run said nothing of 47 meeting tests.
    for (const [phase, project] of E2E_PHASES) {
      // Each run its own output folder: Playwright empties it when it starts, and the meetings'
      // run wiped what a failed page test had left (its screenshot, error context and trace).
      const output = path.join(root, 'test-results', project);
      const status = run(phase, bin('playwright'), ['test', `--project=${project}`, '--no-deps', `--output=${output}`], {
        PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reports, `playwright-${project}.json`),
      });
      const stats = readJson(path.join(reports, `playwright-${project}.json`))?.stats;
      passed += stats?.expected ?? 0;
      failed += stats ? stats.unexpected : 1;
      // A test that passed only on its retry (CI gives every failed test one, playwright.config.ts) is said apart.
      flaky += stats?.flaky ?? 0;
      if (status !== 0) exitCode = 1;
    }
  }
}

// Issue 47: the build the end-to-end tests made, built again in another folder, must be the same
// bytes under .next/static (scripts/reproducible-build.mjs). One more build: 60–160 s here.
if ((!only || only === 'e2e') && existsSync(path.join(root, '.next', 'BUILD_ID'))) {
  if (run('reproducible build (built again elsewhere, compared)', process.execPath, [path.join(root, 'scripts', 'reproducible-build.mjs')]) === 0) passed += 1;
  else {
    failed += 1;
    exitCode = 1;
  }
}

// Where the time went: each phase, then the slowest tests and Jest files.
console.log('\n=== time ===');
for (const { label, ms } of phases) console.log(`${formatDuration(ms).padStart(10)}  ${label}`);
console.log(`${formatDuration(Date.now() - began).padStart(10)}  in all`);
const ran = new Set(phases.map(({ label }) => label));
const jestTimes = ran.has(JEST_PHASE) ? readJson(path.join(reports, 'jest.json')) : null;
const e2eTimes = E2E_PHASES.filter(([phase]) => ran.has(phase)).map(([, project]) => readJson(path.join(reports, `playwright-${project}.json`)));
const tests = [...jestTests(jestTimes), ...e2eTimes.flatMap(playwrightTests)];
if (tests.length) console.log(`\nThe 20 slowest tests:\n${slowest(tests).join('\n')}`);
if (jestTimes) console.log(`\nThe 10 slowest Jest files (setup included):\n${slowest(jestFiles(jestTimes), 10).join('\n')}`);
const retried = tests.filter((test) => test.flaky);
if (retried.length) console.log(`\nPassed only on a retry (a fault fails both runs; load can fail one):\n${retried.map(({ name }) => `  ${name}`).join('\n')}`);
// Said last, beside the count: CI keeps only the end of a run's output, where a failure's name
// would otherwise have scrolled away with its stack.
const failures = [...tests, ...jestFiles(jestTimes)].filter((item) => item.failed);
if (failures.length) console.log(`\nFailed:\n${failures.map(({ name }) => `  ${name}`).join('\n')}`);

if (exitCode !== 0 && failed === 0) failed = 1;
console.log(`\ntests: ${passed} passed, ${failed} failed${flaky ? `, ${flaky} passed only on a retry` : ''}`);
process.exit(exitCode);
