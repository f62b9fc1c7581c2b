// A real Janus (Debian's `janus`, VideoRoom plugin) for a test or a bench, configured from the
// same templates operators use (deploy/janus/*.jcfg, docs/self-hosting/sfu.md): the placeholders
// filled with this run's secret and ports, the files written to a fresh temporary folder that
// goes once Janus has read them.
//
//   const janus = await startJanus({ basePort: 4900 });   // uses basePort … basePort + 2, RTP above
//   janus.wsUrl, janus.httpUrl, janus.adminUrl, janus.secret, janus.adminSecret
//   await janus.stop();
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

// From the project's root, where tests and benches run (Jest compiles this file to CommonJS,
// which has no import.meta).
const TEMPLATES = path.resolve(process.env.JANUS_TEMPLATES ?? path.join(process.cwd(), 'deploy', 'janus'));
export const JANUS_BINARY = process.env.JANUS_BINARY ?? '/usr/bin/janus';

/** The template with every ${NAME} replaced; a placeholder without a value is an error. */
export function fillTemplate(text, values) {
  return text.replace(/\$\{([A-Z0-9_]+)\}/g, (_, name) => {
    if (values[name] === undefined) throw new Error(`deploy/janus: no value for \${${name}}`);
    return String(values[name]);
  });
}

/** Writes deploy/janus's files, filled, into `folder`. */
export function writeJanusConfig(folder, values) {
  for (const name of readdirSync(TEMPLATES).filter((file) => file.endsWith('.jcfg'))) {
    writeFileSync(path.join(folder, name), fillTemplate(readFileSync(path.join(TEMPLATES, name), 'utf8'), { ...values, JANUS_CONFIG_DIR: folder }));
  }
}

/** Whether something accepts a TCP connection on host:port. */
function listening(host, port) {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (answer) => {
      socket.destroy();
      resolve(answer);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Starts Janus on basePort (WebSockets), basePort + 1 (HTTP), basePort + 2 (admin), with RTP on
 * rtpPorts (default basePort + 50 … basePort + 99). Resolves once its HTTP info endpoint answers
 * and its WebSocket port listens.
 * @param {{ basePort: number, rtpPorts?: string, secret?: string, bindIp?: string, iceEnforce?: string, timeoutMs?: number, log?: boolean }} options
 *   iceEnforce: Janus's --ice-enforce-list (the interfaces or addresses it gathers candidates on).
 */
export async function startJanus({ basePort, rtpPorts, secret, bindIp = '127.0.0.1', iceEnforce, timeoutMs = 15_000, log = false }) {
  if (!basePort) throw new Error('startJanus: basePort is required');
  const folder = mkdtempSync(path.join(tmpdir(), 'enclave-janus-'));
  const values = {
    SFU_SECRET: secret ?? randomBytes(24).toString('base64url'),
    JANUS_ADMIN_SECRET: randomBytes(24).toString('base64url'),
    JANUS_RTP_PORTS: rtpPorts ?? `${basePort + 50}-${basePort + 99}`,
    JANUS_BIND_IP: bindIp,
    JANUS_WS_PORT: basePort,
    JANUS_HTTP_PORT: basePort + 1,
    JANUS_ADMIN_PORT: basePort + 2,
  };
  writeJanusConfig(folder, values);
  const args = ['-F', folder, '-C', path.join(folder, 'janus.jcfg'), '--disable-colors'];
  if (iceEnforce) args.push(`--ice-enforce-list=${iceEnforce}`);
  const child = spawn(JANUS_BINARY, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-20_000);
    if (log) process.stderr.write(chunk);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  const httpUrl = `http://${bindIp}:${basePort + 1}/janus`;
  const janus = {
    wsUrl: `ws://${bindIp}:${basePort}`,
    httpUrl,
    adminUrl: `http://127.0.0.1:${basePort + 2}/admin`,
    secret: values.SFU_SECRET,
    adminSecret: values.JANUS_ADMIN_SECRET,
    pid: child.pid,
    /** What Janus printed last (its log), for a failure's message. */
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(folder, { recursive: true, force: true });
    },
  };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      rmSync(folder, { recursive: true, force: true });
      throw new Error(`janus exited before answering:\n${output}`);
    }
    try {
      const answer = await fetch(`${httpUrl}/info`, { signal: AbortSignal.timeout(1_000) });
      // The HTTP transport answers; the WebSocket one, loaded after it, must listen too.
      if (answer.ok && (await listening(bindIp, basePort))) {
        // Janus has read its configuration (it writes none back: the app's rooms are not
        // permanent). Gone now, the folder cannot outlive a run killed before stop().
        rmSync(folder, { recursive: true, force: true });
        return janus;
      }
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await janus.stop();
      throw new Error(`janus did not answer within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
