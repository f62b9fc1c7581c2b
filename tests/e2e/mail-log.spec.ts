import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_DATA_DIR } from './support/constants.mjs';
import { extraPort } from './support/instances';
import { firstLink, waitForMail } from './support/mailbox';

// Issue 16, item 8: live links (activation, password reset) never reach a production log.
test('a mail sent over SMTP leaves only "queued" in the server log, never its link', async ({ request, baseURL }) => {
  const answer = await request.post('/api/password', { data: { email: 'demo@enclave.local' }, headers: { origin: baseURL!, 'x-forwarded-for': '192.0.2.40' } });
  expect(answer.ok()).toBe(true);
  const mail = await waitForMail('demo@enclave.local', (caught) => caught.text.includes('/resetpassword/'));
  const token = firstLink(mail).split('/').pop()!;
  expect(token.length).toBeGreaterThan(20);
  await expect.poll(() => readFileSync(path.join(E2E_DATA_DIR, 'server.log'), 'utf8')).toContain('"message":"mail queued"');
  const serverLog = readFileSync(path.join(E2E_DATA_DIR, 'server.log'), 'utf8');
  expect(serverLog).not.toContain(token);
  expect(serverLog).not.toContain('demo@enclave.local');
});

/** Starts a production server with `env` over a public APP_URL; answers its exit code and output. */
async function startRefused(env: Record<string, string>, port: number): Promise<{ code: number | null; output: string }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'enclave-refused-'));
  const child = spawn(process.execPath, ['server/start.mjs'], {
    env: {
      ...process.env,
      PORT: String(port),
      APP_URL: 'https://meet.example.org',
      DATA_DIR: dataDir,
      SMTP_URL: 'smtp://127.0.0.1:9',
      MAIL_LOG: '',
      DATA_KEY: 'a-data-key-of-the-operator-0123456789',
      TRUSTED_PROXIES: '',
      DATABASE_URL: '',
      REDIS_URL: '',
      ...env,
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(null);
    }, 45_000);
    child.on('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  rmSync(dataDir, { recursive: true, force: true });
  return { code, output };
}

// Issue 16, item 8 (mail) and issue 32, items 2 and 9: a setting that would make a production
// server unsafe, or answer every login with an error while its health check says ok, stops it at
// start with a message naming the setting.
for (const [name, env, message, portOffset] of [
  ['no SMTP_URL', { SMTP_URL: '' }, 'without SMTP_URL', 9],
  ['TRUSTED_PROXIES=localhost', { TRUSTED_PROXIES: 'localhost' }, 'TRUSTED_PROXIES: "localhost"', 14],
  ['TRUSTED_PROXIES=127.0.0.1/33', { TRUSTED_PROXIES: '127.0.0.1/33' }, 'TRUSTED_PROXIES: "127.0.0.1/33"', 15],
  ['no DATA_KEY', { DATA_KEY: '' }, 'without DATA_KEY', 16],
] as const) {
  test(`a production server with a public address and ${name} refuses to start`, async () => {
    test.setTimeout(60_000);
    const { code, output } = await startRefused(env, extraPort(portOffset));
    expect(code).not.toBeNull();
    expect(code).not.toBe(0);
    expect(output).toContain(message);
  });
}
