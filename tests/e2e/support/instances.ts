// Extra app instances for the meeting tests that need more than the suite's own server: two
// instances sharing PostgreSQL and Redis, or one behind a TURN relay. They run the build the
// suite's server made (`next start`), each with its own port and settings.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { E2E_SESSION_SECRET } from './constants.mjs';

const root = process.cwd();
const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const basePort = Number(process.env.E2E_PORT ?? 3210);

/** Ports for extra servers, clear of the suite's server and of a parallel CI run's. */
export const extraPort = (offset: number) => basePort + 20 + offset;

/**
 * The environment of a fresh install's billing, for an extra server: no Stripe keys and neither
 * BILLING nor ON_PREMISE (the suite's own server has the Stripe stand-in's keys). Billing is off.
 */
export const BILLING_OFF = {
  STRIPE_SECRET_KEY: '',
  STRIPE_PUBLISHABLE_KEY: '',
  STRIPE_WEBHOOK_SECRET: '',
  STRIPE_API_URL: '',
  BILLING: '',
  ON_PREMISE: '',
} as const;

export interface Instance {
  url: string;
  stop: () => Promise<void>;
  /** SIGKILL, as a crash or the OOM killer would: no shutdown of any kind; resolves once it is gone. */
  kill: () => Promise<void>;
  /** What the server printed so far. */
  output: () => string;
}

function baseEnv(port: number, env: Record<string, string>) {
  const merged: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    PORT: String(port),
    APP_URL: `http://localhost:${port}`,
    SESSION_SECRET: E2E_SESSION_SECRET,
    SMTP_URL: '',
    // No mail server for these instances: their mail goes to their log.
    MAIL_LOG: '1',
    // The meeting tests read each page's probe (lib/meeting/client/probe.ts).
    MEETING_TEST_PROBE: '1',
    DATABASE_URL: '',
    REDIS_URL: '',
    ...env,
  };
  return merged as NodeJS.ProcessEnv;
}

/** Seeds the demo account into the instance's database; answers its ids. */
export function seed(env: Record<string, string>, email: string): { userId: string; meetingId: string } {
  const result = spawnSync(tsx, ['--conditions=react-server', 'scripts/seed.ts'], {
    env: baseEnv(0, { ...env, SEED_EMAIL: email }),
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`seed failed: ${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop()!);
}

/**
 * `next start` on the suite's build; `server: 'production'` runs server/server.mjs instead, the
 * server `npm start` runs, for a test of what it adds (client addresses, 503 pages).
 */
export async function startInstance(port: number, env: Record<string, string>, options: { server?: 'next' | 'production' } = {}): Promise<Instance> {
  const args = options.server === 'production' ? [path.join(root, 'server', 'server.mjs')] : [nextBin, 'start', '-p', String(port)];
  const child: ChildProcess = spawn(process.execPath, args, {
    env: baseEnv(port, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const url = `http://localhost:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`instance on ${port} exited: ${output}`);
    const healthy = await fetch(`${url}/api/health`)
      .then((response) => response.ok)
      .catch(() => false);
    if (healthy) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`instance on ${port} did not start: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return {
    url,
    output: () => output,
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

/** A fresh PostgreSQL database on the test server, dropped afterwards. */
export async function createDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `enclave_e2e_${process.pid}_${Date.now()}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

export function tempDataDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'enclave-instance-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** coturn on loopback with the `use-auth-secret` scheme the app's /ice credentials follow. */
export async function startTurn(port: number, secret: string): Promise<{ stop: () => void }> {
  const child = spawn(
    'turnserver',
    [
      '-n',
      '--listening-ip=127.0.0.1',
      '--relay-ip=127.0.0.1',
      `--listening-port=${port}`,
      `--min-port=${port + 100}`,
      `--max-port=${port + 200}`,
      '--use-auth-secret',
      `--static-auth-secret=${secret}`,
      '--realm=enclave.test',
      '--fingerprint',
      '--allow-loopback-peers',
      '--no-cli',
      '--no-tls',
      '--no-dtls',
      '--log-file=stdout',
      '--simple-log',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 10_000;
  while (!/listener opened on|Total UDP servers|IO method/i.test(output)) {
    if (child.exitCode !== null) throw new Error(`turnserver exited: ${output}`);
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  return { stop: () => child.kill('SIGTERM') };
}
