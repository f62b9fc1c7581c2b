// What `npm test` prints at its end (issue 45): the time of each phase, and the slowest tests of
// Jest's and Playwright's JSON reports, so that where the suite's minutes go is read off every run
// (CI's included) instead of guessed.

/** "1 min 23 s" or "4.2 s". */
export function formatDuration(ms) {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

/** Jest's tests, each with its file (project folders shown as written), duration and whether it failed. */
export function jestTests(report) {
  return (report?.testResults ?? []).flatMap((file) =>
    (file.assertionResults ?? []).map((test) => ({
      name: `${relative(file.name)} › ${test.fullName ?? test.title}`,
      ms: test.duration ?? 0,
      failed: test.status === 'failed',
    })),
  );
}

/** Jest's files with their wall time (setup and hooks included, which per-test durations leave out). */
export function jestFiles(report) {
  return (report?.testResults ?? []).map((file) => ({
    name: relative(file.name),
    ms: (file.endTime ?? 0) - (file.startTime ?? 0),
    // A file that failed with no failing test: it did not load, or a hook threw.
    failed: file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
  }));
}

/** Playwright's tests, each with its file, title path, the duration of its last attempt, whether it passed only on a retry and whether it failed. */
export function playwrightTests(report) {
  const tests = [];
  const visit = (suite, outer) => {
    // A file's suite is titled with its file name, which each line already starts with.
    const titles = suite.title && suite.title !== suite.file ? [...outer, suite.title] : outer;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const last = test.results?.at(-1);
        tests.push({
          name: `${spec.file ?? suite.file} › ${[...titles, spec.title].join(' › ')} [${test.projectName}]`,
          ms: last?.duration ?? 0,
          flaky: test.status === 'flaky',
          failed: test.status === 'unexpected',
        });
      }
    }
    for (const child of suite.suites ?? []) visit(child, titles);
  };
  for (const suite of report?.suites ?? []) visit(suite, []);
  return tests;
}

/** The `count` slowest, as printable lines. */
export function slowest(items, count = 20) {
  return [...items]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .map(({ name, ms }) => `${formatDuration(ms).padStart(10)}  ${name}`);
}

function relative(file) {
  const at = file.indexOf('/tests/');
  return at === -1 ? file : file.slice(at + 1);
}
