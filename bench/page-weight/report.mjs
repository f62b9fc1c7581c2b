// Turns the bench's measurements into rows, printed twice: console.table for reading, Markdown
// for pasting into bench/RESULTS.md.
import os from 'node:os';

// Numbers stay numbers, so that console.table aligns them; a missing one shows as a dash.
const fixed = (value, digits = 1) => (value == null ? '–' : Number(value.toFixed(digits)));
const ms = (value) => (value == null ? '–' : Math.round(value));
const plain = (value) => value ?? '–';

/** HTTP status as the page ended, with the path a redirect led to. */
function httpCell(weight) {
  return weight.redirectedTo ? `${weight.status} (→ ${weight.redirectedTo})` : String(weight.status);
}

/** One row per page of first-load JavaScript; "over floor" is its gzipped JS minus the bare page's. */
export function weightRows(targets, floorGzKb) {
  return targets.map(({ label, weight }) => ({
    page: label,
    HTTP: httpCell(weight),
    scripts: weight.scripts,
    'JS KB': fixed(weight.jsKb),
    'JS KB gz': fixed(weight.jsGzKb),
    'over floor KB gz': fixed(weight.jsGzKb - floorGzKb),
    'HTML KB': fixed(weight.htmlKb),
  }));
}

/** The reason a page has no Lighthouse figures, or null when it has them. */
function missingReason({ weight, lighthouse }) {
  if (!lighthouse) return `skipped (HTTP ${weight.status})`;
  if (lighthouse.mobile.error) return `error ${lighthouse.mobile.error}`;
  return null;
}

/** One row per page of Lighthouse medians: performance in both form factors, the rest on mobile. */
export function lighthouseRows(targets) {
  return targets.map((target) => {
    const reason = missingReason(target);
    const mobile = target.lighthouse?.mobile ?? {};
    const desktop = target.lighthouse?.desktop ?? {};
    return {
      page: target.label,
      'perf mobile': reason ?? plain(mobile.perf),
      'perf desktop': reason ? '–' : (desktop.error ?? plain(desktop.perf)),
      CLS: fixed(mobile.cls, 3),
      'LCP ms': ms(mobile.lcp),
      'TBT ms': ms(mobile.tbt),
      a11y: plain(mobile.a11y),
      'best pr.': plain(mobile.bestPractices),
      SEO: plain(mobile.seo),
    };
  });
}

export function markdownTable(rows) {
  const columns = Object.keys(rows[0]);
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(columns), line(columns.map(() => '---')), ...rows.map((row) => line(columns.map((c) => row[c])))].join('\n');
}

const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');

/** What the figures depend on besides the pages, taken when the bench starts. */
export function machineAtStart({ chromium, next, lighthouse }) {
  const cpus = os.cpus();
  return {
    date: new Date().toISOString(),
    cpus: `${os.availableParallelism()} (${cpus[0]?.model.trim() ?? 'unknown model'})`,
    memory: `${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    node: process.version,
    next,
    lighthouse,
    chromium,
    'load average at start (1, 5, 15 min)': load(),
  };
}

export function machineAtEnd(machine, benchmarkIndex) {
  return {
    ...machine,
    'load average at end (1, 5, 15 min)': load(),
    ...(benchmarkIndex == null ? {} : { 'Lighthouse benchmarkIndex (median)': Math.round(benchmarkIndex) }),
  };
}

export function printMachine(machine) {
  for (const [key, value] of Object.entries(machine)) console.log(`${key}: ${value}`);
}
