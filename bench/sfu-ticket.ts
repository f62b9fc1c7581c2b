// `npm run bench:sfu-ticket` (issue 46 item 4): the server's part of an SFU ticket, the step of a
// join between the click's join request and the browser's first message to Janus. Against a
// real Janus (tests/support/janus.mjs, from deploy/janus): the first ticket of a meeting (its
// room made), then ROUNDS more one after another (everyone who joins later), then a burst of
// BURST at once (a call that moves to the SFU together). Each line prints p50 and p95 in ms, and
// how many HTTP requests the app sent to Janus per ticket. Prints; asserts nothing.
import { startJanus } from '../tests/support/janus.mjs';

const ROUNDS = Number(process.env.ROUNDS ?? 200);
const BURST = Number(process.env.BURST ?? 30);
const BASE_PORT = Number(process.env.BENCH_PORT ?? 5900);
const SECRET = 'bench-sfu-ticket-secret';

async function main() {
  const janus = await startJanus({ basePort: BASE_PORT, rtpPorts: `${BASE_PORT + 10}-${BASE_PORT + 19}`, secret: SECRET });
  // lib/environment.ts reads the environment once, when first imported: set before.
  process.env.SFU_URLS = `${janus.wsUrl}|${janus.httpUrl}`;
  process.env.SFU_SECRET = SECRET;
  delete process.env.REDIS_URL;
  const { sfuTicketFor } = await import('@/lib/sfu/ticket');

  let requests = 0;
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    if (String(input).startsWith(janus.httpUrl)) requests += 1;
    return realFetch(input, init);
  };

  const percentile = (values: number[], p: number) =>
    [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] ?? 0;
  const row = (label: string, times: number[], sent: number) =>
    console.log(
      `${label.padEnd(34)} p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms  p95 ${percentile(times, 95).toFixed(1).padStart(6)} ms  ${(sent / times.length).toFixed(1)} requests each`,
    );

  async function timed(work: () => Promise<unknown>): Promise<number> {
    const start = performance.now();
    await work();
    return performance.now() - start;
  }

  try {
    const meeting = `bench-${Date.now()}`;
    await sfuTicketFor(`warm-${meeting}`, 'warm', { publishers: 100 }); // the route's code and the connection
    requests = 0;
    row('first ticket (the room is made)', [await timed(() => sfuTicketFor(meeting, 'p0', { publishers: 100 }))], requests);
    requests = 0;
    const oneByOne: number[] = [];
    for (let index = 1; index <= ROUNDS; index += 1) oneByOne.push(await timed(() => sfuTicketFor(meeting, `p${index}`, { publishers: 100 })));
    row(`${ROUNDS} later tickets, one at a time`, oneByOne, requests);
    requests = 0;
    const burst = await Promise.all(Array.from({ length: BURST }, (_, index) => timed(() => sfuTicketFor(meeting, `b${index}`, { publishers: 100 }))));
    row(`${BURST} tickets at once`, burst, requests);
  } finally {
    const { closeKeptSessions } = await import('@/lib/sfu/janus-kept').catch(() => ({ closeKeptSessions: async () => undefined }));
    await closeKeptSessions();
    await janus.stop();
  }
}

void main();
