// `npm run bench:sso`: what "Sign in with …" costs on the app's side (issue 35, item 3). Enclave
// (`server/start.mjs`, embedded PGlite, production build) and the test OpenID provider
// (tests/support/oidc-idp.mjs, oidc-provider) on loopback; RUNS sign-ins (default 30) one after
// another, each a new person (just-in-time account) and then the same person again (a linked
// account). Timed: GET …/start (discovery is cached after the first) and GET …/callback (code
// exchange at the provider, ID token checks, UserInfo, the database), as the browser sends them.
// The provider's own pages are driven between them and not timed. Measures; asserts nothing.
import os from 'node:os';
import { freePort, makeTempDir, startEnclave, stopServer } from './lib/production-servers.mjs';
import { percentileAtIndex as percentile } from './lib/stats.mjs';
import { logInAtIdp, startTestIdp } from '../tests/support/oidc-idp-process';

const RUNS = Number(process.env.RUNS ?? 30);

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const began = performance.now();
  const result = await work();
  return [result, performance.now() - began];
}

async function main() {
  const idpPort = (await freePort()) as number;
  const issuer = `http://127.0.0.1:${idpPort}`;
  // Each person from an address of their own (X-Forwarded-For from loopback, trusted), so the
  // per-client limit (60 starts and callbacks per 15 minutes) does not end the run.
  process.env.TRUSTED_PROXIES = '127.0.0.1, ::1';
  process.env.OIDC_PROVIDERS = JSON.stringify([{ id: 'bench', name: 'Bench IdP', issuer, clientId: 'enclave', clientSecret: 'enclave-secret' }]);
  process.stderr.write(
    `load average at start: ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(', ')}\n`,
  );
  const enclave = await startEnclave(makeTempDir('logs'));
  const callbackUri = `${enclave.base}/api/auth/oidc/bench/callback`;
  const idp = await startTestIdp(idpPort, [callbackUri]);
  const figures: Record<'start' | 'callback, new account' | 'callback, linked account', number[]> = {
    start: [],
    'callback, new account': [],
    'callback, linked account': [],
  };
  try {
    for (let run = 0; run < RUNS; run += 1) {
      const login = `bench${run}-${Date.now()}`;
      const client = { 'x-forwarded-for': `10.9.${Math.floor(run / 250)}.${run % 250}` };
      for (const kind of ['callback, new account', 'callback, linked account'] as const) {
        const [started, startMs] = await timed(() => fetch(`${enclave.base}/api/auth/oidc/bench/start`, { redirect: 'manual', headers: client }));
        const flow = /enclave_oidc=([^;]+)/.exec(started.headers.get('set-cookie') ?? '')?.[1];
        if (!started.headers.get('location')?.startsWith(issuer)) throw new Error(`start ${run} failed: ${started.headers.get('location')}`);
        const back = await logInAtIdp(started.headers.get('location')!, login, (url) => url.href.startsWith(callbackUri));
        const [answer, callbackMs] = await timed(() =>
          fetch(back, { redirect: 'manual', headers: { ...client, cookie: `enclave_oidc=${flow}`, 'sec-fetch-site': 'cross-site' } }),
        );
        if (answer.status !== 303 || new URL(answer.headers.get('location')!).pathname !== '/')
          throw new Error(`sign-in ${run} failed: ${answer.headers.get('location')}`);
        figures.start.push(startMs);
        figures[kind].push(callbackMs);
      }
    }
  } finally {
    await idp.stop();
    await stopServer(enclave);
  }
  console.log(`\n${RUNS} sign-ins of new people, then the same ${RUNS} again (ms):\n`);
  console.log('| request | n | p50 | p95 | max |\n| --- | --- | --- | --- | --- |');
  for (const [name, values] of Object.entries(figures)) {
    console.log(
      `| ${name} | ${values.length} | ${percentile(values, 50).toFixed(1)} | ${percentile(values, 95).toFixed(1)} | ${Math.max(...values).toFixed(1)} |`,
    );
  }
  process.stderr.write(
    `load average at end: ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(', ')}\n`,
  );
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
