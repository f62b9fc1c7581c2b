// Bench only: one built Enclave as the end-to-end tests start it (tests/e2e/support/serve.mjs:
// a fresh embedded database, the seed accounts, a mail catcher on port + 1 and + 2, the Stripe
// stand-in on port + 5), and what the benches read from its processes in /proc. The one module
// of bench/ that uses the e2e tests' support files.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { sleep } from './time.mjs';

/** Until GET /api/health answers 200 (every half second), or an error at `deadline`. */
export async function waitForHealth(baseURL, deadline = Date.now() + 300_000) {
  while (Date.now() < deadline) {
    const ok = await fetch(`${baseURL}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await sleep(500);
  }
  throw new Error('the app did not start');
}

/** Process ids of `root`'s descendants (Linux /proc). */
export function descendants(root) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // the process ended meanwhile
    }
  }
  const out = [];
  for (let queue = [root]; queue.length;) {
    const pid = queue.shift();
    for (const child of children.get(pid) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** The demo room's meeting id, from the seeded accounts of the app on E2E_PORT (serve.mjs wrote them). */
export async function demoMeetingId() {
  // The seeded accounts live in the data folder named after the port (tests/e2e/support/constants.mjs).
  const { E2E_DATA_DIR } = await import('../../tests/e2e/support/constants.mjs');
  return JSON.parse(readFileSync(`${E2E_DATA_DIR}/accounts.json`, 'utf8')).demo.meetingId;
}

/**
 * Starts the app on `port` (building first when the sources changed) and answers its base URL,
 * the demo room's meeting id, the process's id (serve.mjs), the serving process's id
 * (server/server.mjs: its RSS and CPU count) and stop(). `env` adds to the app's environment;
 * `healthTimeoutMs` is how long a build and start may take.
 */
export async function startApp(port, { env = {}, healthTimeoutMs = 300_000 } = {}) {
  const baseURL = `http://localhost:${port}`;
  if (
    await fetch(`${baseURL}/api/health`).then(
      () => true,
      () => false,
    )
  )
    throw new Error(`port ${port} is taken: stop what runs there or set BENCH_PORT`);
  process.env.E2E_PORT = String(port);
  const server = spawn(process.execPath, ['tests/e2e/support/serve.mjs'], {
    env: {
      ...process.env,
      PORT: String(port),
      E2E_PORT: String(port),
      MAIL_CATCHER_SMTP_PORT: String(port + 1),
      MAIL_CATCHER_HTTP_PORT: String(port + 2),
      ...env,
    },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  // The whole tree: serve.mjs cannot pass a signal on while it seeds (a synchronous spawn).
  const killAll = () => {
    for (const pid of [...descendants(server.pid), server.pid]) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  };
  /** Stops the app and waits for it, so the port is free again. */
  const stop = async () => {
    killAll();
    await exited;
  };
  // Never leave the app running behind a bench that failed.
  process.once('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(1));
  try {
    await waitForHealth(baseURL, Date.now() + healthTimeoutMs);
  } catch (error) {
    await stop();
    throw error;
  }
  const meetingId = await demoMeetingId();
  const servingPid = () =>
    descendants(server.pid).find((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('server/server.mjs');
      } catch {
        return false;
      }
    }) ?? null;
  return { baseURL, meetingId, pid: server.pid, servingPid, stop };
}

/** Resident memory of a process in MB, or null once it is gone. */
export function rssMb(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return line ? Math.round(Number(line.split(/\s+/)[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a process has used so far, or null once it is gone. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ
  } catch {
    return null;
  }
}
