// The Node participants' process (crowd.ts) and a promise-returning call into it, for the
// large-room bench (run.mjs) and the tests that need a call of six or more without six browsers
// (tests/e2e/meeting-sfu-failover.spec.ts).
import { fork } from 'node:child_process';
import path from 'node:path';

// From the project's root, where tests and benches run (Playwright compiles this file to CommonJS,
// which has no import.meta).
const CROWD = path.join(process.cwd(), 'bench', 'large-room', 'crowd.ts');

/** @returns {{ child: import('node:child_process').ChildProcess, call: (command: Record<string, unknown>) => Promise<any> }} */
export function startCrowd() {
  const child = fork(CROWD, { execArgv: ['--import', 'tsx', '--conditions=react-server'] });
  let next = 0;
  const waiting = new Map();
  child.on('exit', (code) => {
    for (const entry of waiting.values()) entry.reject(new Error(`the Node participants' process ended (${code})`));
    waiting.clear();
  });
  child.on('error', () => undefined);
  child.on('message', (reply) => {
    const entry = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (reply.ok) entry?.resolve(reply);
    else entry?.reject(new Error(reply.error));
  });
  const call = (command) =>
    new Promise((resolve, reject) => {
      const id = (next += 1);
      waiting.set(id, { resolve, reject });
      if (!child.connected) return reject(new Error("the Node participants' process is gone"));
      child.send({ ...command, id });
    });
  return { child, call };
}
