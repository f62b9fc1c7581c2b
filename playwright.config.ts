import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './tests/support/chromium.mjs';

const port = Number(process.env.E2E_PORT ?? 3210);
export const baseURL = `http://localhost:${port}`;
const PAIRED_MEETINGS = /\/(meeting|meeting-e2ee|meeting-devices|meeting-link)\.spec\.ts$/;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  // Whole flows (the schedule wizard through three calendar views) took 26–31 s on a slow
  // two-core machine: 30 s was a coin toss there.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL,
    locale: 'en-US',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: chromiumArgs,
    },
  },
  projects: [
    { name: 'chromium', use: { browserName: 'chromium' }, testIgnore: /meeting/ },
    // Every participant of a call runs on this machine's two cores: calls go after the rest,
    // one at a time (E2EE.md "Testing in headless Chromium")...
    {
      name: 'meetings',
      use: { browserName: 'chromium' },
      testMatch: /meeting.*\.spec\.ts/,
      testIgnore: PAIRED_MEETINGS,
      dependencies: ['chromium'],
      workers: 1,
    },
    // ...but for the specs of two-person calls on the mesh, which fit two at a time (issue 45
    // point 8): no SFU, TURN, second browser engine or app instance, no camera effect.
    { name: 'meetings-paired', use: { browserName: 'chromium' }, testMatch: PAIRED_MEETINGS, dependencies: ['meetings'], workers: 2 },
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
