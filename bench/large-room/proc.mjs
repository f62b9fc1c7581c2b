// CPU time of process trees from /proc (Linux): a browser with its renderers and utility
// processes, the Node participants' process, the app server.
import { readdirSync, readFileSync } from 'node:fs';

/** Fields after the command name (which may contain spaces and parentheses). */
const statFields = (text) => text.slice(text.lastIndexOf(')') + 2).split(' ');

/** pid → parent pid, for every process now. */
function parents() {
  const map = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      map.set(Number(entry), Number(statFields(readFileSync(`/proc/${entry}/stat`, 'utf8'))[1]));
    } catch {
      // ended meanwhile
    }
  }
  return map;
}

/** `root` and all its descendants. */
export function processTree(root) {
  const map = parents();
  const tree = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, parent] of map) {
      if (!tree.has(parent) || tree.has(pid)) continue;
      tree.add(pid);
      grew = true;
    }
  }
  return [...tree];
}

/** The direct children of `pid` now. */
export function childrenOf(pid) {
  return [...parents()].filter(([, parent]) => parent === pid).map(([child]) => child);
}

/** CPU seconds (user + system) used so far by `root` and its descendants (those still alive). */
export function treeCpuSeconds(root) {
  let ticks = 0;
  for (const pid of processTree(root)) {
    try {
      const fields = statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // ended meanwhile
    }
  }
  return ticks / 100; // USER_HZ
}
