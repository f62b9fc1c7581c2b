// bench:join's optional looks inside one join (JOIN_PROFILE, JOIN_TIMELINE, and JOIN_TRACE's
// negotiation calls): where the time between the click and the first frame went.
import { writeFileSync } from 'node:fs';
import { progress } from '../lib/time.mjs';

/** A page's negotiation calls (markJoin's trace), each as "name start→settled" on the click's clock. */
export function describeCalls(calls, sinceClick) {
  return (calls ?? []).map((call) => `${call.name} ${sinceClick(call.started)}→${sinceClick(call.settled)}`).join(', ');
}

/**
 * JOIN_PROFILE=1: the joining page's main thread, sampled from just before the click until its
 * last first frame; prints where that thread's time went (self time by function, top 25).
 */
export async function startProfile(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return {
    async stop() {
      const { profile } = await cdp.send('Profiler.stop');
      // JOIN_PROFILE_FILE=path: the raw profile too (each join overwrites it), for DevTools or a source map.
      if (process.env.JOIN_PROFILE_FILE) writeFileSync(process.env.JOIN_PROFILE_FILE, JSON.stringify(profile));
      const self = new Map();
      const byId = new Map(profile.nodes.map((node) => [node.id, node]));
      profile.timeDeltas.forEach((delta, index) => {
        const node = byId.get(profile.samples[index]);
        const { functionName, url, lineNumber } = node.callFrame;
        const key = `${functionName || '(anonymous)'} ${url.replace(/^.*\//, '')}:${lineNumber + 1}`;
        self.set(key, (self.get(key) ?? 0) + delta / 1000);
      });
      const total = [...self.values()].reduce((a, b) => a + b, 0);
      const busy = [...self].filter(([key]) => !key.startsWith('(idle)') && !key.startsWith('(program)')).reduce((a, [, ms]) => a + ms, 0);
      progress(`  newcomer main thread: ${Math.round(total)} ms sampled, ${Math.round(busy)} ms in script/GC (program and idle aside)`);
      // By script file: which chunk (React's, the meeting's) or the browser's own calls (":0") took it.
      const byScript = new Map();
      for (const [key, ms] of self) {
        if (key.startsWith('(idle)') || key.startsWith('(program)')) continue;
        const script = key.slice(key.lastIndexOf(' ') + 1).replace(/:\d+$/, '') || '(native)';
        byScript.set(script, (byScript.get(script) ?? 0) + ms);
      }
      progress(
        `    by script: ${[...byScript]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 8)
          .map(([script, ms]) => `${script} ${ms.toFixed(1)}`)
          .join(', ')}`,
      );
      for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) progress(`    ${ms.toFixed(1).padStart(7)} ms  ${key.slice(0, 120)}`);
    },
  };
}

/**
 * JOIN_TIMELINE=1: the browser's own trace from just before the click to the first frame: for each
 * renderer main thread, self time by trace event (layout, paint, script, tasks nobody named).
 */
export async function startTimeline(page) {
  const browser = page.context().browser();
  await browser.startTracing(undefined, {
    categories: ['toplevel', 'blink', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'webrtc', 'renderer.scheduler'],
  });
  return {
    async stop() {
      const { traceEvents } = JSON.parse((await browser.stopTracing()).toString('utf8'));
      if (process.env.JOIN_TIMELINE_FILE) writeFileSync(process.env.JOIN_TIMELINE_FILE, JSON.stringify(traceEvents));
      const threadNames = new Map();
      for (const event of traceEvents) if (event.ph === 'M' && event.name === 'thread_name') threadNames.set(`${event.pid}/${event.tid}`, event.args.name);
      const byThread = new Map();
      for (const event of traceEvents) {
        if (event.ph !== 'X' || typeof event.dur !== 'number') continue;
        const key = `${event.pid}/${event.tid}`;
        if (threadNames.get(key) !== 'CrRendererMain') continue;
        byThread.set(key, [...(byThread.get(key) ?? []), event]);
      }
      for (const [key, events] of byThread) {
        events.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
        const self = new Map();
        const stack = [];
        let top = 0;
        for (const event of events) {
          while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= event.ts) stack.pop();
          const parent = stack.at(-1);
          if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - event.dur);
          else top += event.dur;
          self.set(event.name, (self.get(event.name) ?? 0) + event.dur);
          stack.push(event);
        }
        progress(
          `  renderer main ${key}: ${Math.round(top / 1000)} ms in tasks; self time: ${[...self]
            .sort((a, b) => b[1] - a[1])
            .slice(0, 18)
            .map(([name, us]) => `${name} ${(us / 1000).toFixed(1)}`)
            .join(', ')}`,
        );
      }
    },
  };
}
