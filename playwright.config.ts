import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumPath, pagesChromiumPath } from './tests/support/chromium.mjs';

const port = Number(process.env.E2E_PORT ?? 3210);
export const baseURL = `http://localhost:${port}`;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  // On CI a test that fails runs once more, and that run records a trace (below); one that passes
  // only then is counted apart ("passed only on a retry", scripts/test.mjs). A fault fails both.
  retries: process.env.CI ? 1 : 0,
  // Whole flows (the schedule wizard through three calendar views) took 26–31 s on a slow
  // two-core machine: 30 s was a coin toss there.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL,
    locale: 'en-US',
    // Recording a trace costs what the test measures: its screencast and DOM snapshots took 39 % of
    // the meeting specs' time and 19 % of the pages' (2026-12-01, docs/decisions.md "The test
    // suite's time on two cores"). On CI only a failed test's second run records one; a developer's
    // run, which does not retry, keeps the trace of what failed.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    // What a failed first run leaves without a trace: the page as it was (beside error-context.md).
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: chromiumArgs,
    },
  },
  projects: [
    {
      name: 'chromium',
      // A project's launchOptions replace the shared ones whole: the flags again, beside the shell.
      use: { browserName: 'chromium', launchOptions: { executablePath: pagesChromiumPath, args: chromiumArgs } },
      testIgnore: /meeting/,
    },
    // Every participant of a call runs on this machine's two cores: calls go after the rest,
    // one at a time (E2EE.md "Testing in headless Chromium"). Three pages of a call keep both
    // cores busy (1–3 % idle, measured 2026-11-30), so what a page shows after a peer's message
    // waits up to 20 s: a loaded CI run took over 10 s for a breakout room's banner.
    {
      name: 'meetings',
      use: { browserName: 'chromium' },
      testMatch: /meeting.*\.spec\.ts/,
      dependencies: ['chromium'],
      workers: 1,
      expect: { timeout: 20_000 },
    },
  ],
  webServer: {
    // Seeds a fresh embedded database, then `npm start` (build if needed, migrate, serve).
    command: 'node tests/e2e/support/serve.mjs',
    url: `${baseURL}/api/health`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { PORT: String(port), E2E_PORT: String(port) },
  },
});
