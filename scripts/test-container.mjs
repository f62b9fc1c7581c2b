#!/usr/bin/env node
// `npm run test:container` (issue 34, item 2): the container image proven on this machine. Makes
// the local base image if absent (no image registry is reachable: Debian by mmdebstrap plus this
// machine's Node 20), builds the image from Containerfile, runs it against the machine's
// PostgreSQL (a fresh database, dropped after) and Redis on the host network, and checks: the
// health answer and the image's HEALTHCHECK, a non-root user that cannot write the app, a page,
// registration → activation (the link read from the container's log, MAIL_LOG=1) → login, then
// the container replaced by a new one on the same volume: the session cookie still holds and the
// user logs in again. Prints each phase's duration and the image size; exits 0 or 1.
//
// Settings (environment): BASE_IMAGE (default localhost/enclave-base:node20, made when absent),
// IMAGE (default localhost/enclave:test), COLD=1 (build without the layer cache),
// PGHOST_URL (default postgres://postgres@127.0.0.1:5432), REDIS_URL (default redis://127.0.0.1:6379/11),
// PODMAN_ARGS (default, where /usr/sbin/runc exists: --runtime /usr/sbin/runc --cgroup-manager=cgroupfs).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { browser } from '../bench/lib/http.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const BASE_IMAGE = process.env.BASE_IMAGE ?? 'localhost/enclave-base:node20';
const IMAGE = process.env.IMAGE ?? 'localhost/enclave:test';
const PG = (process.env.PGHOST_URL ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/$/, '');
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/11';
// This machine's hybrid cgroups: the default crun refuses them, runc with cgroupfs works.
const PODMAN_ARGS =
  process.env.PODMAN_ARGS?.split(' ').filter(Boolean) ?? (existsSync('/usr/sbin/runc') ? ['--runtime', '/usr/sbin/runc', '--cgroup-manager=cgroupfs'] : []);
const ULIMITS = ['--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=1024:1024'];
const tag = `enclave-ctest-${process.pid}`;
const phases = [];
let failed = false;

/** Runs a command; answers its output, or throws with it. */
function run(command, args, { quiet = false, check = true, timeout = 30 * 60_000 } = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    encoding: 'utf8',
    stdio: quiet ? 'pipe' : ['ignore', 'inherit', 'inherit'],
    timeout,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (check && result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}${quiet ? `\n${result.stdout}${result.stderr}` : ''}`);
  return result;
}
const podman = (args, options) => run('podman', [...PODMAN_ARGS, ...args], options);

async function phase(name, work) {
  const started = performance.now();
  try {
    const detail = await work();
    const seconds = (performance.now() - started) / 1000;
    phases.push({ name, seconds, ok: true, detail });
    console.log(`✓ ${name}: ${seconds.toFixed(1)} s${detail ? ` (${detail})` : ''}`);
  } catch (error) {
    const seconds = (performance.now() - started) / 1000;
    phases.push({ name, seconds, ok: false, detail: error.message });
    console.error(`✗ ${name}: ${seconds.toFixed(1)} s\n  ${error.message}`);
    throw error;
  }
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/** The Debian mirror apt uses here (deb822 "URIs:" or a one-line "deb" entry). */
function debianMirror() {
  const files = [
    '/etc/apt/sources.list',
    ...(existsSync('/etc/apt/sources.list.d') ? readdirSync('/etc/apt/sources.list.d').map((f) => `/etc/apt/sources.list.d/${f}`) : []),
  ];
  for (const file of files.filter(existsSync)) {
    const text = readFileSync(file, 'utf8');
    const match = /^URIs:\s*(\S+\/debian)\s*$/m.exec(text) ?? /^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\s+\S+/m.exec(text);
    if (match) return match[1];
  }
  return 'http://deb.debian.org/debian';
}

/** Debian bookworm (minbase) with this machine's Node 20 and npm where the official image has them. */
function makeBase() {
  const node = process.execPath;
  const npm = path.resolve(path.dirname(node), '..', 'lib', 'node_modules', 'npm');
  assert(process.versions.node.startsWith('20.'), `the base needs Node 20; this is ${process.version}`);
  assert(existsSync(npm), `npm not found at ${npm}`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'enclave-base-'));
  try {
    const tar = path.join(dir, 'base.tar');
    run(
      'mmdebstrap',
      [
        '--variant=minbase',
        '--include=ca-certificates',
        `--customize-hook=copy-in ${node} /usr/local/bin/`,
        '--customize-hook=mkdir -p "$1/usr/local/lib/node_modules"',
        `--customize-hook=copy-in ${npm} /usr/local/lib/node_modules/`,
        '--customize-hook=ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm"',
        '--customize-hook=ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"',
        '--customize-hook=rm -rf "$1"/usr/share/doc/* "$1"/usr/share/man/* "$1"/var/cache/apt/* "$1"/var/lib/apt/lists/*',
        'bookworm',
        tar,
        debianMirror(),
      ],
      { quiet: true },
    );
    podman(['import', '--change', 'CMD ["node"]', tar, BASE_IMAGE], { quiet: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The CA bundle npm trusts here (an intercepting proxy's CA is in it), for the build's npm ci. */
function caBundle() {
  const npmCafile = run('npm', ['config', 'get', 'cafile'], { quiet: true, check: false }).stdout?.trim();
  for (const candidate of [npmCafile, process.env.NODE_EXTRA_CA_CERTS, '/etc/ssl/certs/ca-certificates.crt']) {
    if (candidate && candidate !== 'null' && candidate !== 'undefined' && existsSync(candidate)) return candidate;
  }
  return null;
}

function buildImage() {
  const registry = run('npm', ['config', 'get', 'registry'], { quiet: true }).stdout.trim();
  const proxies = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy'].filter((name) => process.env[name]);
  const ca = caBundle();
  podman(
    [
      'build',
      '--format',
      'docker', // HEALTHCHECK is a docker-format field; the OCI format drops it
      ...ULIMITS,
      ...(process.env.COLD === '1' ? ['--no-cache'] : []),
      ...(ca ? ['--secret', `id=npm_ca,src=${ca}`] : []),
      '--build-arg',
      `BASE_IMAGE=${BASE_IMAGE}`,
      '--build-arg',
      `NPM_REGISTRY=${registry}`,
      ...proxies.flatMap((name) => ['--build-arg', `${name}=${process.env[name]}`]),
      // A proxy on the host's loopback is reachable from the build only on the host's network.
      ...(proxies.length ? ['--network', 'host'] : []),
      '-t',
      IMAGE,
      '-f',
      'Containerfile',
      '.',
    ],
    { quiet: true },
  );
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForHealth(base, container, deadlineMs = 120_000) {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    try {
      const answer = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(5_000) });
      if (answer.status === 200) {
        const body = await answer.json();
        assert(body.status === 'ok' && body.db === 'ok', `health answered ${JSON.stringify(body)}`);
        return;
      }
    } catch {
      // not listening yet
    }
    const state = podman(['inspect', '--format', '{{.State.Status}}', container], { quiet: true, check: false }).stdout.trim();
    if (state !== 'running') throw new Error(`the container is ${state}:\n${logsOf(container).slice(-3000)}`);
    await sleep(250);
  }
  throw new Error(`no healthy answer within ${deadlineMs / 1000} s:\n${logsOf(container).slice(-3000)}`);
}

function logsOf(container) {
  const result = podman(['logs', container], { quiet: true, check: false });
  return `${result.stdout ?? ''}${result.stderr ?? ''}`;
}

function startContainer(name, { port, databaseUrl, volume }) {
  podman(
    [
      'run',
      '-d',
      '--name',
      name,
      ...ULIMITS,
      '--network',
      'host',
      '-v',
      `${volume}:/data`,
      '-e',
      `PORT=${port}`,
      '-e',
      `APP_URL=http://127.0.0.1:${port}`,
      '-e',
      `DATABASE_URL=${databaseUrl}`,
      '-e',
      `REDIS_URL=${REDIS_URL}`,
      '-e',
      'MAIL_LOG=1',
      '-e',
      'DATA_KEY=container-test-data-key-0123456789abcdef',
      IMAGE,
    ],
    { quiet: true },
  );
}

const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

/**
 * What this machine lacks for the test, each with how to get it (issue 45): said before anything
 * runs, instead of a build that fails deep inside podman.
 */
function missingRequirements() {
  if (!onPath('podman')) return ['podman: apt-get install -y podman'];
  const missing = [];
  const baseExists = podman(['image', 'exists', BASE_IMAGE], { quiet: true, check: false }).status === 0;
  if (!baseExists && !onPath('mmdebstrap')) missing.push(`mmdebstrap, to make ${BASE_IMAGE}: apt-get install -y mmdebstrap`);
  if (!process.env.PODMAN_ARGS && !existsSync('/usr/sbin/runc')) {
    // crun, podman's default runtime, refuses the hybrid cgroups of some hosts (this kind of machine's among them).
    const probe = spawnSync('podman', ['info', '--format', '{{.Host.CgroupsVersion}} {{.Host.OCIRuntime.Name}}'], { encoding: 'utf8' });
    const [cgroups, runtime] = probe.stdout.trim().split(' ');
    if (cgroups !== 'v2' && runtime === 'crun')
      missing.push(`runc: podman's default runtime crun refuses this host's cgroups (${cgroups}): apt-get install -y runc, or set PODMAN_ARGS`);
  }
  return missing;
}

async function main() {
  const missing = missingRequirements();
  if (missing.length > 0) {
    console.error(`npm run test:container cannot run on this machine; it needs:\n${missing.map((line) => `  - ${line}`).join('\n')}`);
    process.exit(2);
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const database = `enclave_ctest_${process.pid}`;
  const databaseUrl = `${PG}/${database}`;
  const volume = `${tag}-data`;
  const email = `container-${process.pid}@enclave.test`;
  const password = 'Container-Meeting-2026';
  let container = `${tag}-a`;
  const client = browser('127.0.0.1');

  try {
    await phase('base image', async () => {
      if (podman(['image', 'exists', BASE_IMAGE], { quiet: true, check: false }).status === 0) return `${BASE_IMAGE} present`;
      makeBase();
      return `${BASE_IMAGE} made with mmdebstrap from ${debianMirror()}`;
    });
    await phase(process.env.COLD === '1' ? 'build (no layer cache)' : 'build', async () => buildImage());
    await phase('image size', async () => {
      const bytes = Number(podman(['image', 'inspect', '--format', '{{.Size}}', IMAGE], { quiet: true }).stdout.trim());
      return `${(bytes / 1e6).toFixed(0)} MB`;
    });

    const admin = postgres(`${PG}/postgres`, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${database}`);
    await admin.end();
    podman(['volume', 'create', volume], { quiet: true });

    await phase('start to healthy', async () => {
      startContainer(container, { port, databaseUrl, volume });
      await waitForHealth(base, container);
    });
    await phase('image checks', async () => {
      const user = podman(['exec', container, 'id', '-u'], { quiet: true }).stdout.trim();
      assert(user !== '0', 'the server runs as root');
      const write = podman(['exec', container, 'sh', '-c', 'touch /app/server/server.mjs'], { quiet: true, check: false });
      assert(write.status !== 0, 'the server user can change the app');
      const healthcheck = podman(['healthcheck', 'run', container], { quiet: true, check: false });
      assert(healthcheck.status === 0, `the image's HEALTHCHECK failed: ${healthcheck.stdout}${healthcheck.stderr}`);
      const page = await client.get(base, '/login');
      assert(page.status === 200 && page.text.includes('<html'), `/login answered ${page.status}`);
      return `uid ${user}, app read-only, HEALTHCHECK ok, /login 200`;
    });
    await phase('register, activate, log in', async () => {
      const registered = await client.post(base, '/register', {
        firstName: 'Container',
        lastName: 'Test',
        email,
        password,
        passwordConfirm: password,
        agree: true,
      });
      assert(registered.status === 200, `register answered ${registered.status} ${registered.text}`);
      let token;
      for (let i = 0; i < 40 && !token; i++) {
        token = /\/invitation\/activate\?token=([A-Za-z0-9_-]+)/.exec(logsOf(container))?.[1];
        if (!token) await sleep(250);
      }
      assert(token, 'no activation link in the container log');
      const early = await client.post(base, '/login', { email, password });
      assert(early.status !== 200, 'an account logged in before activation');
      // The login above sent a new activation mail, which voids the first link: take the newest.
      let newest;
      for (let i = 0; i < 40 && (!newest || newest === token); i++) {
        newest = [...logsOf(container).matchAll(/\/invitation\/activate\?token=([A-Za-z0-9_-]+)/g)].pop()?.[1];
        if (newest === token) await sleep(250);
      }
      const activated = await fetch(`${base}/invitation/activate?token=${newest}`, { redirect: 'manual' });
      const target = activated.headers.get('location') ?? '';
      assert(activated.status === 303 && target.endsWith('/activate-account?status=activated'), `activation answered ${activated.status} → ${target}`);
      const login = await client.post(base, '/login', { email, password });
      assert(login.status === 200, `login answered ${login.status} ${login.text}`);
      const me = await client.get(base, '/api/me');
      assert(me.status === 200 && JSON.stringify(me.json).includes(email), `/api/me answered ${me.status}`);
    });
    await phase('operator CLI in the container', async () => {
      // The first admin is made from a shell (README "Operator CLI"): here, inside the container.
      const granted = podman(['exec', container, 'npm', 'run', '--silent', 'admin', '--', 'grant-admin', email], { quiet: true, check: false });
      assert(granted.status === 0, `grant-admin exited ${granted.status}: ${granted.stdout}${granted.stderr}`);
      const listed = podman(['exec', container, 'npm', 'run', '--silent', 'admin', '--', 'list-admins'], { quiet: true }).stdout;
      assert(listed.includes(email), `list-admins did not name ${email}: ${listed}`);
      // Granting ends the account's sessions: it logs in again, now as an admin.
      client.jar.clear();
      const login = await client.post(base, '/login', { email, password });
      assert(login.status === 200, `login after grant-admin answered ${login.status} ${login.text}`);
      const me = await client.get(base, '/api/me');
      assert(me.status === 200 && JSON.stringify(me.json).includes('"admin"'), `/api/me after grant-admin: ${me.text}`);
      return 'grant-admin, list-admins ok';
    });
    await phase('stop (SIGTERM)', async () => {
      podman(['stop', '--time', '15', container], { quiet: true });
      const code = podman(['inspect', '--format', '{{.State.ExitCode}}', container], { quiet: true }).stdout.trim();
      assert(code === '0', `the server exited ${code} on SIGTERM`);
      podman(['rm', container], { quiet: true });
      return 'exit 0';
    });
    container = `${tag}-b`;
    await phase('new container on the same volume to healthy', async () => {
      startContainer(container, { port, databaseUrl, volume });
      await waitForHealth(base, container);
    });
    await phase('data survives', async () => {
      // The session secret is on the volume: the cookie from before still opens the session.
      const still = await client.get(base, '/api/me');
      assert(still.status === 200, `the old session answered ${still.status}`);
      client.jar.clear();
      const login = await client.post(base, '/login', { email, password });
      assert(login.status === 200, `login after the restart answered ${login.status} ${login.text}`);
      return 'old session valid, login ok';
    });
  } catch {
    failed = true;
    const log = logsOf(container);
    if (log) console.error(`\nThe container's log, last lines:\n${log.split('\n').slice(-25).join('\n')}`);
  } finally {
    for (const name of [`${tag}-a`, `${tag}-b`]) podman(['rm', '-f', '--time', '2', name], { quiet: true, check: false });
    podman(['volume', 'rm', '-f', volume], { quiet: true, check: false });
    try {
      const admin = postgres(`${PG}/postgres`, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists ${database} with (force)`);
      await admin.end();
    } catch (error) {
      console.error(`could not drop ${database}: ${error.message}`);
    }
  }
  console.log('\nphase                                         seconds  result');
  for (const { name, seconds, ok, detail } of phases)
    console.log(`${name.padEnd(45)} ${seconds.toFixed(1).padStart(7)}  ${ok ? 'ok' : 'FAILED'}${detail ? `  ${detail.split('\n')[0]}` : ''}`);
  process.exit(failed ? 1 : 0);
}

await main();
