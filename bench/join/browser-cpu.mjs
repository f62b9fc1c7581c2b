// Where the CPU goes in bench:join, from /proc (Linux): the browsers' threads by group for the
// steady calls, every thread of the server and browsers for JOIN_TRACE.
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

/** This process's descendants but `exclude` and theirs (Playwright starts Chromium as our child, beside the app server). */
function browserPids(exclude) {
  const parents = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (which may contain spaces) start after the last ")".
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // the process ended meanwhile
    }
  }
  const inTree = (pid) => {
    for (let current = pid, hops = 0; current > 1 && hops < 50; current = parents.get(current) ?? 0, hops += 1) {
      if (current === exclude) return false;
      if (current === process.pid) return pid !== process.pid;
    }
    return false;
  };
  return [...parents.keys()].filter(inTree);
}

/** Where a browser thread's CPU is counted: the pages' main threads, workers, WebRTC's own threads, or the rest. */
function threadGroup(pid, tid, name, isRenderer) {
  if (!isRenderer) return 'rest';
  if (tid === pid) return 'main';
  if (name.startsWith('DedicatedWorker')) return 'workers';
  if (name.startsWith('WebRTC')) return 'webrtc';
  return 'rest';
}

/** A process's threads from /proc (Linux): id, name and CPU ticks (user + system, 1/100 s) so far. */
function threadsOf(pid) {
  return readdirSync(`/proc/${pid}/task`).map((task) => {
    const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { tid: Number(task), name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), ticks: Number(fields[11]) + Number(fields[12]) };
  });
}

/** CPU seconds (user + system) of the browser's threads so far, by group. */
export function browserCpu(serverPid) {
  const cpu = { main: 0, workers: 0, webrtc: 0, rest: 0 };
  for (const pid of browserPids(serverPid)) {
    try {
      const isRenderer = readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer');
      for (const { tid, name, ticks } of threadsOf(pid)) cpu[threadGroup(pid, tid, name, isRenderer)] += ticks / 100; // USER_HZ
    } catch {
      // the process or thread ended meanwhile
    }
  }
  return cpu;
}

/**
 * JOIN_TRACE: CPU ticks (1/100 s) of every thread of the app server and the browsers, keyed by
 * process kind and thread name, to see who had the cores between the click and the first frame.
 * `appServerPid`: the app server's process, whose tree counts as "server".
 */
export function threadTicks(appServerPid) {
  const ticks = new Map();
  const browser = new Set(browserPids(appServerPid));
  for (const pid of browserPids(-1)) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      // "renderer", "gpu-process", "utility:NetworkService", … or "browser"; the app server's tree is "server".
      const type = /--type=([\w-]+)/.exec(cmdline)?.[1] ?? 'browser';
      const service = /--utility-sub-type=[\w.]*\.(\w+)/.exec(cmdline)?.[1];
      const kind = browser.has(pid) ? (service ? `${type}:${service}` : type) : 'server';
      for (const thread of threadsOf(pid)) {
        const key = `${kind} ${thread.name.replace(/\d+/g, '#')}`;
        ticks.set(key, (ticks.get(key) ?? 0) + thread.ticks);
      }
    } catch {
      // the process or thread ended meanwhile
    }
  }
  return ticks;
}

/** The CPU spent between two threadTicks(), in ms: the total and the heaviest `top` threads, as one line. */
export function cpuBetween(before, after, top) {
  const spent = [];
  for (const [key, value] of after) {
    const ticks = value - (before.get(key) ?? 0);
    if (ticks > 0) spent.push([key, ticks * 10]);
  }
  spent.sort((a, b) => b[1] - a[1]);
  const total = spent.reduce((sum, [, ms]) => sum + ms, 0);
  return `${total} ms (${os.cpus().length} cores); ${spent
    .slice(0, top)
    .map(([key, ms]) => `${key} ${ms}`)
    .join(', ')}`;
}
