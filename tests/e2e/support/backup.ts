// For the backup and upgrade tests: run the project's scripts with tsx, fill a database, and check
// through a running server that what was filled is all there and usable.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, request as http } from '@playwright/test';

export interface Filled {
  email: string;
  password: string;
  room: string;
  contact: { name: string; email: string };
  event: string;
}

/** `tsx --conditions=react-server <script>` in `cwd` (a checkout), as `npm run …` runs it. */
export function runScript(script: string, args: string[], env: Record<string, string>, cwd = process.cwd()) {
  const tsx = path.join(process.cwd(), 'node_modules', '.bin', 'tsx');
  const started = Date.now();
  const result = spawnSync(tsx, ['--conditions=react-server', script, ...args], {
    cwd,
    env: { ...process.env, DATABASE_URL: '', NODE_OPTIONS: '', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, seconds: (Date.now() - started) / 1000 };
}

/** tests/e2e/support/fill-database.ts (or the copy of it in another checkout). */
export function fill(env: Record<string, string>, cwd = process.cwd(), script = 'tests/e2e/support/fill-database.ts'): Filled {
  const result = runScript(script, [], env, cwd);
  if (result.status !== 0) throw new Error(`fill failed: ${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop()!);
}

/** Logs in with the filled account's password and finds its meeting, room and contact. */
export async function expectUsable(url: string, filled: Filled) {
  const api = await http.newContext({ baseURL: url, extraHTTPHeaders: { origin: url } });
  try {
    const login = await api.post('/login', { data: { email: filled.email, password: filled.password } });
    expect(login.status()).toBe(200);
    const events = (await (await api.get('/api/events')).json()) as { title: string; roomId: string | null }[];
    const rooms = (await (await api.get('/api/rooms')).json()) as { id: string; name: string }[];
    const contacts = (await (await api.get('/api/attendees')).json()) as { name: string; email: string; lang: string }[];
    expect(events.map((event) => event.title)).toEqual([filled.event]);
    const room = rooms.find((candidate) => candidate.name === filled.room);
    expect(room).toBeDefined();
    expect(events[0]!.roomId).toBe(room!.id);
    expect(contacts).toContainEqual(expect.objectContaining({ ...filled.contact, lang: 'fr' }));
    // And it can still write: a second contact is saved.
    const added = await api.post('/api/attendee', { data: { name: 'After restore', email: `after-${Date.now()}@example.com` } });
    expect(added.status()).toBe(200);
  } finally {
    await api.dispose();
  }
}
