// Debian's Caddy as the production reverse proxy on loopback: TLS from its own local CA
// (`tls internal`), one https site whose requests go to an app instance chosen by the client's
// address, so that each browser of a test is pinned to one instance. Its CA, data and config
// live in a temp dir (Caddy keeps its CA under XDG_DATA_HOME); no admin endpoint.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:tls';
import os from 'node:os';
import path from 'node:path';

export interface CaddyRoute {
  /** The client address (as Caddy sees the TCP peer) whose requests this route takes. */
  clientAddress: string;
  /** host:port of the app instance. */
  upstream: string;
  /** Sent back in X-Enclave-Upstream, so a test can see which route served a page. */
  name: string;
}

export interface Caddy {
  /** https://host:port as the browsers address it. */
  origin: string;
  /** Caddy's local root CA (PEM), for the browsers' trust store. */
  rootCertificate: string;
  output: () => string;
  stop: () => Promise<void>;
}

function caddyfile(options: { host: string; bind: string; httpsPort: number; httpPort: number; routes: CaddyRoute[] }): string {
  const routes = options.routes
    .map(
      (route) => `
  @${route.name} remote_ip ${route.clientAddress}/32
  handle @${route.name} {
    reverse_proxy ${route.upstream} {
      header_down X-Enclave-Upstream ${route.name}
    }
  }`,
    )
    .join('\n');
  return `{
  admin off
  # Loopback only: no ACME, no port 80 redirect server, and the CA stays out of the system store.
  local_certs
  skip_install_trust
  auto_https disable_redirects
  http_port ${options.httpPort}
  https_port ${options.httpsPort}
}

https://${options.host}:${options.httpsPort} {
  bind ${options.bind}
  tls internal
${routes}
  handle {
    respond "This client address has no route" 421
  }
}
`;
}

/** Resolves once Caddy answers a TLS handshake for `host` (its certificate is issued at start). */
async function waitForTls(bind: string, port: number, host: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null || output().includes('ENOENT')) throw new Error(`caddy did not start: ${output()}`);
    const ready = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: bind, port, servername: host, rejectUnauthorized: false }, () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (ready) return;
    if (Date.now() > deadline) throw new Error(`caddy did not answer on ${bind}:${port}: ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A running Caddy: its output so far, and a stop that ends it (TERM, then KILL) and removes its folder. */
interface Supervised {
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts `caddy run` on `config` with its data, CA and autosave under `dir`, and supervises it. */
function superviseCaddy(config: string, dir: string, env: Record<string, string> = {}): Supervised {
  const child = spawn('caddy', ['run', '--adapter', 'caddyfile', '--config', config], {
    // Caddy writes its CA and certificates under XDG_DATA_HOME, its autosave under XDG_CONFIG_HOME.
    env: { ...process.env, HOME: dir, XDG_DATA_HOME: path.join(dir, 'data'), XDG_CONFIG_HOME: path.join(dir, 'config'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // No binary: say which package brings it, rather than an unhandled spawn error.
  child.on('error', (error) => (output += `${error.message} (Debian's package caddy)\n`));
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  // Not left running if the test's worker ends before its cleanup (a timeout).
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const stop = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        process.off('exit', killOnExit);
        rmSync(dir, { recursive: true, force: true });
        resolve();
      };
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', done);
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
  return { child, output: () => output, stop };
}

export async function startCaddy(options: { host: string; bind: string; httpsPort: number; httpPort: number; routes: CaddyRoute[] }): Promise<Caddy> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'enclave-caddy-'));
  const config = path.join(dir, 'Caddyfile');
  writeFileSync(config, caddyfile(options));
  const { child, output, stop } = superviseCaddy(config, dir);
  try {
    await waitForTls(options.bind, options.httpsPort, options.host, child, output);
    const root = path.join(dir, 'data', 'caddy', 'pki', 'authorities', 'local', 'root.crt');
    if (!existsSync(root)) throw new Error(`caddy made no local CA at ${root}: ${output()}`);
    return { origin: `https://${options.host}:${options.httpsPort}`, rootCertificate: readFileSync(root, 'utf8'), output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Caddy running the shipped deploy/Caddyfile itself, unchanged, with its settings in the
 * environment as compose gives them: DOMAIN (here a plain-http site on localhost, a secure
 * context without a CA), APP_UPSTREAMS (the app instances) and CADDY_GLOBAL_OPTIONS (no admin
 * endpoint, so that parallel runs do not fight over its port).
 */
export async function startShippedCaddy(options: { port: number; upstreams: string[] }): Promise<Omit<Caddy, 'rootCertificate'>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'enclave-caddy-'));
  const origin = `http://localhost:${options.port}`;
  const { child, output, stop } = superviseCaddy(path.join(process.cwd(), 'deploy', 'Caddyfile'), dir, {
    DOMAIN: origin,
    APP_UPSTREAMS: options.upstreams.join(' '),
    CADDY_GLOBAL_OPTIONS: 'admin off',
  });
  const deadline = Date.now() + 20_000;
  for (;;) {
    const healthy = await fetch(`${origin}/api/health`).then(
      (answer) => answer.ok,
      () => false,
    );
    if (healthy) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`caddy did not serve ${origin}: ${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { origin, output, stop };
}
