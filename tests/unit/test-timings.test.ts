import { formatDuration, jestFiles, jestTests, playwrightTests, slowest } from '../../scripts/test-timings.mjs';

// What `npm test` prints at its end (issue 45): phases and the slowest tests, from the reports.
describe("npm test's timings", () => {
  it('reads the slowest tests out of Playwright nested suites and Jest files', () => {
    const playwright = {
      suites: [
        {
          title: 'meeting.spec.ts',
          file: 'meeting.spec.ts',
          specs: [
            {
              title: 'two join',
              file: 'meeting.spec.ts',
              tests: [{ projectName: 'meetings', status: 'flaky', results: [{ duration: 30_000 }, { duration: 61_500 }] }],
            },
          ],
          suites: [
            {
              title: 'with a password',
              specs: [
                { title: 'a guest knocks', file: 'meeting.spec.ts', tests: [{ projectName: 'meetings', status: 'expected', results: [{ duration: 4_000 }] }] },
              ],
            },
          ],
        },
      ],
    };
    const jest = {
      testResults: [
        { name: '/work/main/tests/unit/a.test.ts', startTime: 1_000, endTime: 4_000, assertionResults: [{ fullName: 'a works', duration: 2_500 }] },
      ],
    };
    expect(slowest([...playwrightTests(playwright), ...jestTests(jest)], 2)).toEqual([
      '1 min 02 s  meeting.spec.ts › two join [meetings]',
      '     4.0 s  meeting.spec.ts › with a password › a guest knocks [meetings]',
    ]);
    // The first passed only on its retry: npm test names it apart.
    expect(playwrightTests(playwright).map(({ flaky }) => flaky)).toEqual([true, false]);
    expect(jestFiles(jest)).toEqual([{ name: 'tests/unit/a.test.ts', ms: 3_000, failed: false }]);
    expect(formatDuration(59_949)).toBe('59.9 s');
    expect(playwrightTests(null)).toEqual([]);
  });

  it('names what failed: a Jest test, a Jest file that failed with no failing test, a Playwright test', () => {
    const jest = {
      testResults: [
        {
          name: '/w/tests/unit/a.test.ts',
          status: 'failed',
          assertionResults: [
            { title: 'breaks', status: 'failed' },
            { title: 'holds', status: 'passed' },
          ],
        },
        { name: '/w/tests/unit/b.test.ts', status: 'failed', assertionResults: [] },
        { name: '/w/tests/unit/c.test.ts', status: 'passed', assertionResults: [{ title: 'holds', status: 'passed' }] },
      ],
    };
    const playwright = {
      suites: [
        {
          title: 'x.spec.ts',
          file: 'x.spec.ts',
          specs: [{ title: 'red', file: 'x.spec.ts', tests: [{ projectName: 'chromium', status: 'unexpected', results: [{ duration: 1 }] }] }],
        },
      ],
    };
    const failed = (items: { name: string; failed: boolean }[]) => items.filter((item) => item.failed).map(({ name }) => name);
    expect(failed(jestTests(jest))).toEqual(['tests/unit/a.test.ts › breaks']);
    expect(failed(jestFiles(jest))).toEqual(['tests/unit/b.test.ts']);
    expect(failed(playwrightTests(playwright))).toEqual(['x.spec.ts › red [chromium]']);
  });
});
