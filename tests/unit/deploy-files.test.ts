import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { BlockList, isIPv4 } from 'node:net';
import path from 'node:path';
import { parse } from 'yaml';
import { downloadPlatforms } from '@/lib/configuration/configuration';
import { BACKGROUND_ASSET_FILES, BACKGROUND_PACKAGE } from '@/lib/meeting/client/background/assets';

// Issue 34, item 1: what an operator deploys with (compose.yaml, Containerfile, .env.example,
// deploy/*) agrees with itself and with what the app reads. scripts/test-container.mjs proves
// the image on a real container runtime; this catches a file edited out of step.

const root = path.resolve(__dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

type Service = {
  image?: string;
  profiles?: string[];
  environment?: Record<string, string>;
  command?: string[];
  depends_on?: Record<string, { condition?: string }>;
  healthcheck?: { test: string[] };
  networks?: Record<string, { ipv4_address?: string }> | string[];
  network_mode?: string;
  ports?: string[];
  volumes?: string[];
};
const compose = parse(read('compose.yaml')) as {
  services: Record<string, Service>;
  networks: Record<string, { ipam: { config: { subnet: string }[] } }>;
};
const { app, coturn, caddy, janus, postgres, redis } = compose.services;

/** The variable a compose value interpolates: "${TURN_SECRET:?…}" → TURN_SECRET. */
const variablesIn = (value: string) => [...value.matchAll(/\$\{([A-Z0-9_]+)/g)].map((match) => match[1]!);

/** Keys of .env.example, commented-out ones excepted. */
const exampleKeys = new Set(
  read('.env.example')
    .split('\n')
    .map((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
    .filter(Boolean),
);
/** Keys .env.example names but leaves commented out ("# KEY=…"): documented, never set by a copy of it. */
const commentedKeys = new Set(
  read('.env.example')
    .split('\n')
    .map((line) => /^# ([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
    .filter(Boolean),
);

/** Every environment variable the app, its scripts and its start read. */
function variablesTheAppReads(): Set<string> {
  const names = new Set<string>();
  const visit = (entry: string) => {
    const full = path.join(root, entry);
    if (statSync(full).isDirectory()) return readdirSync(full).forEach((child) => visit(path.join(entry, child)));
    // The container test's own settings are its, not the app's (docs/self-hosting/container.md).
    if (!/\.(ts|tsx|mjs)$/.test(entry) || entry === path.join('scripts', 'test-container.mjs')) return;
    const text = readFileSync(full, 'utf8');
    for (const match of text.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)|process\.env\[['"]([A-Z][A-Z0-9_]*)['"]\]|\benv\('([A-Z][A-Z0-9_]*)'\)/g)) {
      names.add((match[1] ?? match[2] ?? match[3])!);
    }
    // process.env[`DOWNLOAD_URL_${platform.toUpperCase()}`]
    if (text.includes('DOWNLOAD_URL_${')) downloadPlatforms.forEach((platform) => names.add(`DOWNLOAD_URL_${platform.toUpperCase()}`));
  };
  ['app', 'lib', 'components', 'scripts', 'server', 'instrumentation.ts', 'proxy.ts', 'next.config.mjs'].forEach(visit);
  // Set by Node, Next.js, the scripts or the tests themselves (tests/support/pglite-memory-template.mjs), not by an operator.
  for (const internal of ['NODE_ENV', 'NEXT_RUNTIME', 'NODE_OPTIONS', 'NEXT_TELEMETRY_DISABLED', 'MEMORY_DB_TEMPLATE']) names.delete(internal);
  return names;
}

describe('compose.yaml', () => {
  it('has the app, PostgreSQL 16, Redis 7, coturn and Caddy, and Janus with the sfu profile', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['app', 'caddy', 'coturn', 'janus', 'postgres', 'redis']);
    expect(janus!.profiles).toEqual(['sfu']);
    expect(postgres!.image).toMatch(/postgres:16\b/);
    expect(redis!.image).toMatch(/redis:7\b/);
  });

  it("gives coturn's static-auth-secret and the app's TURN_SECRET the same variable", () => {
    const secretFlag = coturn!.command!.find((part) => part.startsWith('--static-auth-secret='));
    expect(secretFlag).toBeDefined();
    expect(variablesIn(secretFlag!)).toEqual(['TURN_SECRET']);
    expect(variablesIn(app!.environment!.TURN_SECRET!)).toEqual(['TURN_SECRET']);
    expect(read('deploy/turnserver.conf')).toMatch(/^use-auth-secret$/m);
  });

  it('points the app at coturn on DOMAIN and at the TURN port coturn listens on', () => {
    const port = /^listening-port=(\d+)$/m.exec(read('deploy/turnserver.conf'))?.[1];
    const urls = app!.environment!.TURN_URLS!.split(',');
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url).toMatch(new RegExp(`^turn:\\$\\{DOMAIN\\}:${port}\\?transport=(udp|tcp)$`));
    expect(variablesIn(coturn!.command!.find((part) => part.startsWith('--realm='))!)).toEqual(['DOMAIN']);
  });

  it("trusts exactly Caddy's fixed address, inside the network's fixed subnet", () => {
    const network = Object.keys(compose.networks)[0]!;
    const [subnet, prefix] = compose.networks[network]!.ipam.config[0]!.subnet.split('/');
    const inside = new BlockList();
    inside.addSubnet(subnet!, Number(prefix));
    const caddyAddress = (caddy!.networks as Record<string, { ipv4_address: string }>)[network]!.ipv4_address;
    const appAddress = (app!.networks as Record<string, { ipv4_address: string }>)[network]!.ipv4_address;
    expect(app!.environment!.TRUSTED_PROXIES).toBe(caddyAddress);
    expect(inside.check(caddyAddress)).toBe(true);
    expect(inside.check(appAddress)).toBe(true);
    expect(appAddress).not.toBe(caddyAddress);
  });

  it('serves DOMAIN over HTTPS through Caddy to the port the app listens on', () => {
    expect(app!.environment!.APP_URL).toMatch(/^https:\/\/\$\{DOMAIN[:?}]/);
    const caddyfile = read('deploy/Caddyfile');
    expect(caddyfile).toMatch(/^\{\$DOMAIN\} \{$/m);
    // compose's one app unless APP_UPSTREAMS names several (docs/self-hosting/reverse-proxy.md).
    expect(caddyfile).toMatch(/reverse_proxy \{\$APP_UPSTREAMS:app:3000\} \{$/m);
    // Failover to a live instance: a failed connection takes the instance out and the request is tried on another.
    const lines = [
      'health_uri /sw.js',
      'health_interval 1s',
      'fail_duration 2s',
      'max_fails 1',
      'lb_try_duration 10s',
      'lb_try_interval 250ms',
      'dial_timeout 2s',
    ];
    for (const line of lines) expect(caddyfile).toMatch(new RegExp(`^\\s+${line}$`, 'm'));
    // The active check asks for a static file: /api/health answers 503 while PostgreSQL is away, which would take every instance out.
    expect(existsSync(path.join(root, 'public', 'sw.js'))).toBe(true);
    expect(read('Containerfile')).toMatch(/PORT=3000\b/);
    expect(caddy!.ports).toEqual(expect.arrayContaining(['80:80', '443:443']));
  });

  it('starts each service only after what it needs is healthy', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      for (const [dependency, rule] of Object.entries(service.depends_on ?? {})) {
        expect([name, dependency, rule.condition]).toEqual([name, dependency, 'service_healthy']);
        expect([dependency, compose.services[dependency]?.healthcheck?.test.length]).toEqual([dependency, expect.any(Number)]);
      }
    }
    expect(Object.keys(app!.depends_on!).sort()).toEqual(['postgres', 'redis']);
    expect(Object.keys(caddy!.depends_on!)).toEqual(['app']);
  });

  it('keeps the data on volumes', () => {
    expect(app!.volumes).toContain('app-data:/data');
    expect(postgres!.volumes).toContain('postgres-data:/var/lib/postgresql/data');
    expect(caddy!.volumes).toEqual(expect.arrayContaining(['caddy-data:/data']));
  });

  it('uses only variables that .env.example lists', () => {
    const used = new Set<string>();
    for (const service of Object.values(compose.services)) {
      for (const value of [...Object.values(service.environment ?? {}), ...(service.command ?? [])])
        variablesIn(String(value)).forEach((name) => used.add(name));
    }
    expect([...used].filter((name) => !exampleKeys.has(name))).toEqual([]);
  });
});

/** An address as a number, IPv4 ones as IPv4 (coturn compares within a family). */
function addressValue(address: string): { family: 4 | 6; value: bigint } {
  if (isIPv4(address)) return { family: 4, value: address.split('.').reduce((sum, part) => sum * 256n + BigInt(part), 0n) };
  let text = address;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) text = text.replace(v4[1]!, ((value) => `${(value >> 16n).toString(16)}:${(value & 0xffffn).toString(16)}`)(addressValue(v4[1]!).value));
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return { family: 6, value: groups.reduce((sum, group) => sum * 65536n + BigInt(parseInt(group, 16)), 0n) };
}

describe('deploy/turnserver.conf', () => {
  const deniedLines = (text: string) => text.split('\n').filter((line) => line.startsWith('denied-peer-ip='));
  const ranges = deniedLines(read('deploy/turnserver.conf')).map((line) => {
    const [low, high = low] = line.slice('denied-peer-ip='.length).split('-') as [string, string?];
    return { low: addressValue(low), high: addressValue(high!) };
  });
  const denied = (address: string) => {
    const { family, value } = addressValue(address);
    return ranges.some(({ low, high }) => low.family === family && high.family === family && low.value <= value && value <= high.value);
  };

  // Issue 44: ::ffff:127.0.0.1 reaches the loopback through an IPv6 relay; coturn compares it as
  // IPv6, so every IPv4 range needs its mapped form (tests/integration/turn-denied-peers.test.ts
  // asks a real coturn).
  it('never relays to loopback, private, link-local or reserved addresses, in any of their spellings', () => {
    const ipv4 = [
      '0.0.0.1',
      '10.0.0.1',
      '100.64.0.1',
      '127.0.0.1',
      '127.255.255.254',
      '169.254.169.254',
      '172.16.0.1',
      '172.31.255.254',
      '192.0.0.8',
      '192.168.1.1',
      '198.18.0.1',
      '240.0.0.1',
      '255.255.255.255',
    ];
    const spellings = ipv4.flatMap((address) => [address, `::ffff:${address}`, `::${address}`]);
    const undenied = [...spellings, '::1', 'fc00::1', 'fd12:3456::1', 'fe80::1'].filter((address) => !denied(address));
    expect(undenied).toEqual([]);
  });

  it('still relays to public addresses, IPv4 and IPv6', () => {
    expect(['8.8.8.8', '203.0.113.7', '2001:db8::7', '2606:4700::1111'].filter(denied)).toEqual([]);
  });

  it('is what docs/self-hosting/reverse-proxy.md tells an operator to write', () => {
    expect(deniedLines(read('docs/self-hosting/reverse-proxy.md'))).toEqual(deniedLines(read('deploy/turnserver.conf')));
  });
});

describe('deploy/janus', () => {
  const templates = readdirSync(path.join(root, 'deploy', 'janus')).filter((name) => name.endsWith('.jcfg'));
  const template = (name: string) => read(`deploy/janus/${name}`);
  const placeholders = (text: string) => new Set([...text.matchAll(/\$\{([A-Z0-9_]+)\}/g)].map((match) => match[1]!));
  const startScript = read('deploy/janus/start.sh');

  it('configures Janus, its VideoRoom plugin and its two transports', () => {
    expect(templates.sort()).toEqual(['janus.jcfg', 'janus.plugin.videoroom.jcfg', 'janus.transport.http.jcfg', 'janus.transport.websockets.jcfg']);
    const containerfile = read('deploy/janus/Containerfile');
    for (const name of templates) expect(containerfile).toContain(name);
  });

  it("checks the app's tokens and guards room creation with the app's SFU_SECRET", () => {
    const core = template('janus.jcfg');
    expect(core).toMatch(/^\s*token_auth = true$/m);
    expect(core).toMatch(/^\s*token_auth_secret = "\$\{SFU_SECRET\}"$/m);
    const videoroom = template('janus.plugin.videoroom.jcfg');
    expect(videoroom).toMatch(/^\s*admin_key = "\$\{SFU_SECRET\}"$/m);
    expect(videoroom).toMatch(/^\s*string_ids = true$/m);
    expect(variablesIn(janus!.environment!.SFU_SECRET!)).toEqual(['SFU_SECRET']);
    expect(variablesIn(app!.environment!.SFU_SECRET!)).toEqual(['SFU_SECRET']);
  });

  it('fills every placeholder from a variable start.sh requires, and compose gives each one', () => {
    const used = new Set(templates.flatMap((name) => [...placeholders(template(name))]));
    const required = /for name in ([A-Z0-9_ ]+); do/.exec(startScript)![1]!.trim().split(/\s+/);
    const substituted = /envsubst '([^']+)'/
      .exec(startScript)![1]!
      .split(/\s+/)
      .map((name) => name.replace(/^\$/, ''));
    expect([...used].sort()).toEqual([...required, 'JANUS_CONFIG_DIR'].sort());
    expect([...substituted].sort()).toEqual([...used].sort());
    for (const name of required) expect([name, janus!.environment![name]]).toEqual([name, expect.any(String)]);
  });

  it('keeps the HTTP API and the admin API off the public side', () => {
    const http = template('janus.transport.http.jcfg');
    expect(http).toMatch(/^\s*ip = "\$\{JANUS_BIND_IP\}"$/m);
    expect(http).toMatch(/^\s*admin_ip = "127\.0\.0\.1"$/m);
    expect(http).toMatch(/^\s*https = false$/m);
    expect(template('janus.transport.websockets.jcfg')).toMatch(/^\s*ws_ip = "\$\{JANUS_BIND_IP\}"$/m);
    // In compose: the enclave network's gateway, where Caddy (the wss:// side) and the app reach the host.
    const network = Object.keys(compose.networks)[0]!;
    const [subnet] = compose.networks[network]!.ipam.config[0]!.subnet.split('/');
    const gateway = subnet!.replace(/\.0$/, '.1');
    expect(janus!.network_mode).toBe('host');
    expect(janus!.environment!.JANUS_BIND_IP).toBe(gateway);
    expect(read('deploy/Caddyfile')).toContain(`reverse_proxy ${gateway}:${janus!.environment!.JANUS_WS_PORT}`);
    // The SFU_URLS .env.example suggests for compose: Caddy's /sfu, and Janus's HTTP API port.
    const example = /^# .*compose's sfu profile: (\S+)$/m.exec(read('.env.example'))![1]!;
    expect(example).toBe(`wss://meet.example.org/sfu|http://${gateway}:${janus!.environment!.JANUS_HTTP_PORT}/janus`);
  });

  it('loads the VideoRoom plugin only, and no transport but HTTP and WebSockets', () => {
    const core = template('janus.jcfg');
    const disabled = (section: string) => new RegExp(`${section}: \\{\\s*disable = "([^"]+)"`).exec(core)![1]!.split(',');
    expect(disabled('plugins')).not.toContain('libjanus_videoroom.so');
    expect(disabled('plugins')).toEqual(
      expect.arrayContaining(['libjanus_echotest.so', 'libjanus_streaming.so', 'libjanus_sip.so', 'libjanus_audiobridge.so']),
    );
    expect(disabled('transports').sort()).toEqual(['libjanus_mqtt.so', 'libjanus_nanomsg.so', 'libjanus_pfunix.so', 'libjanus_rabbitmq.so']);
    // Where Debian's package is installed: every plugin it ships but VideoRoom is named (the
    // integration test asks a running Janus what it loaded).
    const folder = '/usr/lib/x86_64-linux-gnu/janus/plugins';
    let shipped: string[] = [];
    try {
      shipped = readdirSync(folder).filter((name) => name.endsWith('.so'));
    } catch {
      // janus not installed here
    }
    for (const plugin of shipped.filter((name) => name !== 'libjanus_videoroom.so')) expect(disabled('plugins')).toContain(plugin);
  });
});

describe('.env.example', () => {
  it('lists every variable the app reads, each with a line that says what it means', () => {
    const missing = [...variablesTheAppReads()].filter((name) => !exampleKeys.has(name) && !commentedKeys.has(name));
    expect(missing).toEqual([]);
    const lines = read('.env.example').split('\n');
    lines.forEach((line, index) => {
      // A key follows its comment, or another key of the same comment (DOWNLOAD_URL_*, STRIPE_*).
      if (/^[A-Z]/.test(line)) expect([line, /^#|^[A-Z]/.test(lines[index - 1] ?? '')]).toEqual([line, true]);
    });
  });

  // Issue 48, point 8: the file is copied whole to /etc/enclave/env or .env. A DATA_DIR set there
  // overrides the systemd unit's (EnvironmentFile= wins over Environment=), pointing the server
  // at a folder ProtectSystem=strict keeps read-only; test-only switches must not reach a server.
  it('sets neither DATA_DIR nor a test-only variable in a copy of it', () => {
    for (const name of ['DATA_DIR', 'MEETING_TEST_PROBE', 'SEED_EMAIL', 'SEED_PASSWORD', 'SEED_TRIAL', 'SEED_TRIAL_ENDED', 'SEED_MCARD', 'CHROMIUM_PATH']) {
      expect([name, exampleKeys.has(name)]).toEqual([name, false]);
      expect([name, commentedKeys.has(name)]).toEqual([name, true]);
    }
  });

  it("gives compose's TURN relay range, and the guide and the coturn example the same range", () => {
    const example = (key: string) => new RegExp(`^${key}=(\\d+)$`, 'm').exec(read('.env.example'))![1]!;
    const flag = (name: string) => /:-(\d+)\}$/.exec(coturn!.command!.find((part) => part.startsWith(`--${name}=`))!)![1]!;
    const [min, max] = [example('TURN_MIN_PORT'), example('TURN_MAX_PORT')];
    expect([flag('min-port'), flag('max-port')]).toEqual([min, max]);
    const proxyDoc = read('docs/self-hosting/reverse-proxy.md');
    expect([/^min-port=(\d+)$/m.exec(proxyDoc)![1], /^max-port=(\d+)$/m.exec(proxyDoc)![1]]).toEqual([min, max]);
    // The guide names the range and what it allows.
    const range = `${min}–${max}`;
    expect(read('docs/self-hosting.md')).toContain(range);
    expect(read('docs/self-hosting/container.md')).toContain(range);
    expect(Number(max) - Number(min) + 1).toBeGreaterThanOrEqual(500);
  });
});

/** The files `file` imports by a relative path, and theirs, and so on (plain JavaScript, run as it is). */
function relativeImports(file: string, found = new Set<string>()): Set<string> {
  for (const match of read(file).matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
    const target = path.posix.join(path.posix.dirname(file), match[1]!);
    if (found.has(target)) continue;
    found.add(target);
    relativeImports(target, found);
  }
  return found;
}

describe('Containerfile', () => {
  const containerfile = read('Containerfile');

  it('builds on Node 20 by default, in stages, and runs the prebuilt server as a non-root user', () => {
    expect(containerfile).toMatch(/^ARG BASE_IMAGE=node:20-bookworm-slim$/m);
    expect(containerfile.match(/^FROM /gm)!.length).toBeGreaterThanOrEqual(3);
    const runtime = containerfile.slice(containerfile.lastIndexOf('\nFROM '));
    expect(runtime).toMatch(/^USER enclave$/m);
    expect(runtime).toMatch(/^CMD \["node", "server\/server\.mjs"\]$/m);
    expect(runtime).toMatch(/^HEALTHCHECK [\s\S]*\/api\/health/m);
    expect(runtime).toMatch(/^VOLUME \["\/data"\]$/m);
    expect(runtime).toMatch(/DATA_DIR=\/data/);
  });

  it('copies every file server/server.mjs and next.config.mjs import at run time', () => {
    const runtime = containerfile.slice(containerfile.lastIndexOf('\nFROM '));
    // Copied as it is, or in a folder copied whole ("COPY --from=build /app/lib ./lib").
    const copied = (file: string) => file.split('/').some((_, index, parts) => runtime.includes(`/app/${parts.slice(0, index + 1).join('/')} `));
    for (const file of ['next.config.mjs', ...relativeImports('server/server.mjs'), ...relativeImports('next.config.mjs')]) {
      expect([file, copied(file)]).toEqual([file, true]);
    }
    for (const folder of ['messages', 'drizzle', 'public', '.next', 'node_modules']) expect(runtime).toContain(`/app/${folder} ./${folder}`);
  });

  it('copies every file the app opens from its working folder at run time', () => {
    const runtime = containerfile.slice(containerfile.lastIndexOf('\nFROM '));
    const opened = new Set<string>();
    const visit = (entry: string) => {
      const full = path.join(root, entry);
      if (statSync(full).isDirectory()) return readdirSync(full).forEach((child) => visit(path.join(entry, child)));
      if (!/\.(ts|tsx)$/.test(entry) || /\.test\.tsx?$/.test(entry)) return;
      for (const match of readFileSync(full, 'utf8').matchAll(/process\.cwd\(\),\s*'([^']+)'/g)) opened.add(match[1]!);
    };
    ['app', 'lib', 'components'].forEach(visit);
    expect(opened.size).toBeGreaterThan(0);
    for (const file of opened) expect([file, runtime.includes(`/app/${file}`)]).toEqual([file, true]);
  });

  it("ships the background effect's three files, not the devDependency they come from", () => {
    const runtime = containerfile.slice(containerfile.lastIndexOf('\nFROM '));
    const pkg = JSON.parse(read('package.json')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect(Object.keys(pkg.dependencies)).not.toContain(BACKGROUND_PACKAGE);
    expect(Object.keys(pkg.devDependencies)).toContain(BACKGROUND_PACKAGE);
    // `npm prune --omit=dev` drops the package; each file is copied to where the server reads it.
    for (const { source } of Object.values(BACKGROUND_ASSET_FILES)) {
      const file = `node_modules/${BACKGROUND_PACKAGE}/${source}`;
      const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const copy = new RegExp(`^COPY --from=deps [^\\n]*/app/${literal(file)} [^\\n]*\\./${literal(path.posix.dirname(file))}/$`, 'm');
      expect([file, copy.test(runtime)]).toEqual([file, true]);
    }
  });

  it('never stores the build secret', () => {
    expect(containerfile).toContain('--mount=type=secret,id=npm_ca');
    expect(containerfile).not.toMatch(/^(COPY|ADD)\b.*(\.crt|\.pem|npmrc)/im);
  });
});

describe('deploy/enclave.service', () => {
  const unit = Object.fromEntries(
    read('deploy/enclave.service')
      .split('\n')
      .filter((line) => /^[A-Za-z]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  ) as Record<string, string>;

  it('runs npm start as its own user, stops with SIGTERM within 15 s, restarts on failure', () => {
    expect(unit.User).toBe('enclave');
    expect(unit.ExecStart).toMatch(/server\/start\.mjs$|npm start$/);
    expect(unit.EnvironmentFile).toBe('/etc/enclave/env');
    expect(unit.KillSignal).toBe('SIGTERM');
    expect(unit.TimeoutStopSec).toBe('15');
    expect(unit.Restart).toBe('on-failure');
  });

  it('may write only its data folder and its build', () => {
    expect(unit.ProtectSystem).toBe('strict');
    expect(unit.NoNewPrivileges).toBe('yes');
    const dataDir = /DATA_DIR=(\S+)/.exec(unit.Environment!)![1]!;
    const writable = unit.ReadWritePaths!.split(' ');
    expect(writable).toContain(dataDir);
    expect(writable).toContain(`${unit.WorkingDirectory}/.next`);
  });
});
