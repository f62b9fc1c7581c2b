// Starts Enclave for the end-to-end tests: a loopback SMTP server that keeps what it receives,
// a fresh embedded database with the seed accounts, then `npm start` (which builds when needed).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  E2E_DATA_DIR,
  E2E_JANUS_BASE_PORT,
  E2E_SESSION_SECRET,
  E2E_SFU_SECRET,
  STRIPE_STAND_IN_PORT,
  STRIPE_STAND_IN_URL,
  STRIPE_WEBHOOK_SECRET,
} from './constants.mjs';
import { startJanus } from '../../support/janus.mjs';

rmSync(E2E_DATA_DIR, { recursive: true, force: true });
mkdirSync(E2E_DATA_DIR, { recursive: true });
// Beside the app's port (3211 and 3212 for the default 3210), so that runs on other ports do not meet.
const smtpPort = Number(process.env.MAIL_CATCHER_SMTP_PORT ?? Number(process.env.E2E_PORT ?? 3210) + 1);
const catcher = spawn(process.execPath, ['tests/e2e/support/mail-catcher.mjs'], {
  env: {
    ...process.env,
    MAIL_CATCHER_SMTP_PORT: String(smtpPort),
    MAIL_CATCHER_HTTP_PORT: process.env.MAIL_CATCHER_HTTP_PORT ?? String(Number(process.env.E2E_PORT ?? 3210) + 2),
  },
  stdio: 'inherit',
});

// Stripe's servers cannot be reached from here: billing runs against the stand-in.
const stripeStandIn = spawn(process.execPath, ['tests/support/stripe-stand-in-server.mjs', '--port', String(STRIPE_STAND_IN_PORT)], { stdio: 'inherit' });

// A real Janus for meetings through the SFU (issue 38, meeting-sfu.spec.ts); .ci/run installs it.
// Calls of fewer than six stay meshes, so the other meeting tests never reach it.
// E2E_JANUS_RTP_PORTS: a wider UDP range (bench:large-room: two connections per participant).
const janus = await startJanus({ basePort: E2E_JANUS_BASE_PORT, secret: E2E_SFU_SECRET, rtpPorts: process.env.E2E_JANUS_RTP_PORTS });

const env = {
  ...process.env,
  SFU_URLS: `${janus.wsUrl}|${janus.httpUrl}`,
  SFU_SECRET: E2E_SFU_SECRET,
  STRIPE_SECRET_KEY: 'sk_test_e2e_stand_in',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_e2e_stand_in',
  STRIPE_WEBHOOK_SECRET,
  STRIPE_API_URL: STRIPE_STAND_IN_URL,
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  // The hosted service's sales inbox: without it the contact-sales form is hidden (issue 35).
  SALES_EMAIL: 'sales@enclave.test',
  DATA_DIR: E2E_DATA_DIR,
  SESSION_SECRET: E2E_SESSION_SECRET,
  APP_URL: `http://localhost:${process.env.PORT}`,
  NEXT_TELEMETRY_DISABLED: '1',
  // The browsers stand in for a reverse proxy on loopback: a test may give its requests an
  // X-Forwarded-For of their own, so that its rate-limit bucket is its own.
  TRUSTED_PROXIES: '127.0.0.1, ::1',
  // Meeting pages carry window.enclaveProbe, which the meeting specs and bench/join/ read.
  MEETING_TEST_PROBE: '1',
  // One "Sign in with …" button with a long name, so the layout sweep sees the login page as a
  // server with single sign-on shows it. Nothing listens at its issuer (extra port 57): the sign-in
  // itself is tested against a real provider in oidc-sign-in.spec.ts.
  OIDC_PROVIDERS: JSON.stringify([
    {
      id: 'layout',
      name: 'Contoso Corporate Single Sign-On (Staff and Contractors)',
      issuer: `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 20 + 57}`,
      clientId: 'enclave',
      clientSecret: 'not-used',
    },
  ]),
};
delete env.DATABASE_URL;

// The seeded accounts, by name (seed-accounts.ts), for the tests to log in as (session.ts).
const tsx = path.join('node_modules', '.bin', 'tsx');
const seeded = spawnSync(tsx, ['--conditions=react-server', 'tests/e2e/support/seed-accounts.ts'], { env, encoding: 'utf8' });
if (seeded.status !== 0) {
  process.stderr.write(seeded.stdout + seeded.stderr);
  process.exit(1);
}
const accounts = JSON.parse(seeded.stdout.trim().split('\n').pop());
writeFileSync(path.join(E2E_DATA_DIR, 'accounts.json'), JSON.stringify(accounts));

// The server's output also goes to a file, so tests can search every log line it wrote.
const log = createWriteStream(path.join(E2E_DATA_DIR, 'server.log'));
const server = spawn(process.execPath, ['server/start.mjs'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
for (const stream of [server.stdout, server.stderr]) {
  stream.on('data', (chunk) => {
    log.write(chunk);
    process.stdout.write(chunk);
  });
}
let stopping = false;
// A helper that cannot start because an earlier run still holds its port would leave the tests
// reading that run's mail (seen: a reset link from the previous run): stop and say so instead.
for (const [name, child] of [
  ['The mail catcher', catcher],
  ['The Stripe stand-in', stripeStandIn],
]) {
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`${name} stopped (${signal ?? `exit ${code}`}): is its port still held by an earlier test run?`);
    stopping = true;
    server.kill('SIGTERM');
    process.exitCode = 1;
  });
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopping = true;
    server.kill(signal);
    catcher.kill(signal);
    stripeStandIn.kill(signal);
    void janus.stop();
  });
}
server.on('exit', async (code) => {
  stopping = true;
  catcher.kill();
  stripeStandIn.kill();
  await janus.stop();
  process.exit(process.exitCode || (code ?? 0));
});
