// Lighthouse 12 through its Node API, in Debian's Chromium. Each run gets a Chromium of its own,
// so that no cache, storage or leftover renderer of an earlier run touches the next one.
import { execFileSync } from 'node:child_process';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromiumPath, offlineArgs } from '../../tests/support/chromium.mjs';
import { onCleanup } from '../lib/production-servers.mjs';
import { median } from '../lib/stats.mjs';

// Headless, and nothing that calls Google: this machine has no internet, and a browser waiting
// on one would move the timings.
const chromiumFlags = ['--headless=new', ...offlineArgs];

/**
 * mobile: Lighthouse's default (a mid-range phone, simulated slow 4G and 4× CPU slowdown);
 * desktop: its desktop config. The scores other than performance barely depend on the form
 * factor, so they are taken on mobile only, which keeps desktop runs short.
 */
export const CONFIGS = {
  mobile: {
    config: undefined,
    categories: ['performance', 'accessibility', 'best-practices', 'seo'],
  },
  desktop: { config: desktopConfig, categories: ['performance'] },
};

export function chromiumVersion() {
  try {
    return execFileSync(chromiumPath, ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return `unknown (${chromiumPath} --version failed)`;
  }
}

const score = (category) => (category?.score == null ? null : Math.round(category.score * 100));

const FIGURES = ['perf', 'a11y', 'bestPractices', 'seo', 'cls', 'lcp', 'tbt', 'benchmarkIndex'];

/** A run without figures, and why. */
const failed = (error) => ({ error, ...Object.fromEntries(FIGURES.map((key) => [key, null])) });

/** The figures the bench prints from one report; all null when Lighthouse could not load the page. */
function figures(lhr) {
  const numeric = (id) => lhr.audits[id]?.numericValue ?? null;
  return {
    error: lhr.runtimeError?.code ?? null,
    perf: score(lhr.categories.performance),
    a11y: score(lhr.categories.accessibility),
    bestPractices: score(lhr.categories['best-practices']),
    seo: score(lhr.categories.seo),
    cls: numeric('cumulative-layout-shift'),
    lcp: numeric('largest-contentful-paint'),
    tbt: numeric('total-blocking-time'),
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
  };
}

/**
 * One Lighthouse run of url in the given configuration (a key of CONFIGS); headers (a session
 * cookie for the app's pages) go with every request of the run.
 */
export async function runLighthouse(url, configName, headers = undefined) {
  const { config, categories } = CONFIGS[configName];
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath,
    chromeFlags: chromiumFlags,
    // The bench's own handler stops the servers too; it kills this browser through onCleanup.
    handleSIGINT: false,
    logLevel: 'silent',
  });
  const forget = onCleanup(() => chrome.kill());
  try {
    const flags = {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: categories,
      ...(headers && { extraHeaders: headers }),
    };
    const result = await lighthouse(url, flags, config);
    return result ? figures(result.lhr) : failed('NO_RESULT');
  } catch (error) {
    // One failed run (a browser that crashed, a protocol timeout) leaves the others standing.
    return failed(error.code ?? error.message);
  } finally {
    forget();
    chrome.kill();
  }
}

/** Per-figure medians over several runs of the same page and configuration. */
export function medianFigures(runs) {
  const result = Object.fromEntries(FIGURES.map((key) => [key, median(runs.map((run) => run[key]))]));
  // An error shows only when no run got through.
  result.error = runs.every((run) => run.error) ? runs[0].error : null;
  return result;
}
