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

test('a production server with a public address and no SMTP_URL refuses to start', async () => {
  test.setTimeout(60_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'enclave-nosmtp-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(extraPort(9)),
    APP_URL: 'https://meet.example.org',
    DATA_DIR: dataDir,
    SMTP_URL: '',
    MAIL_LOG: '',
    DATABASE_URL: '',
    REDIS_URL: '',
  };
  const child = spawn(process.execPath, ['scripts/start.mjs'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
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
  expect(code).not.toBe(0);
  expect(code).not.toBeNull();
  expect(output).toContain('without SMTP_URL');
});
