// The import graph of the app's own code (server/, app/, components/, lib/, proxy.ts): the cycles between
// modules and the imports that point up the layers. `npm run graph` prints it with the largest
// files and the loops and order of the domains inside lib/; tests/unit/architecture.test.ts keeps
// cycles, upward arrows, folder loops and imports against the domain order at zero.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..');
const SOURCE_FOLDERS = ['server', 'app', 'components', 'lib'];
const EXTENSIONS = ['.ts', '.tsx', '.mjs', '.js'];

/**
 * The layers, top to bottom: a module may import from its own layer and the ones below. `lib/`
 * (the domain) never reaches up into components or pages, components never into `app/`, and
 * nothing into `server/` (what runs before Next.js: docs/architecture.md, "The server layer").
 */
const LAYERS = ['server', 'app', 'components', 'lib'] as const;

export interface Module {
  file: string; // relative to the root, with forward slashes
  lines: number;
  /** Imports that run code (type-only imports are left out: they vanish at build time). */
  valueImports: string[];
  /** Every import, type-only included, for the layer rule. */
  allImports: string[];
}

function sourceFiles(folder: string): string[] {
  const absolute = path.join(root, folder);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute).flatMap((name) => {
    const child = path.join(folder, name);
    if (statSync(path.join(root, child)).isDirectory()) return sourceFiles(child);
    return EXTENSIONS.some((extension) => name.endsWith(extension)) && !name.endsWith('.d.ts') ? [child.split(path.sep).join('/')] : [];
  });
}

function resolve(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith('@/')) base = specifier.slice(2);
  else if (specifier.startsWith('.')) base = path.posix.join(path.posix.dirname(from), specifier);
  else return null; // a package
  const candidates = [base, ...EXTENSIONS.map((extension) => base + extension), ...EXTENSIONS.map((extension) => `${base}/index${extension}`)];
  return candidates.find((candidate) => existsSync(path.join(root, candidate)) && statSync(path.join(root, candidate)).isFile()) ?? null;
}

// `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')`; `import type` and
// `export type` are marked so the cycle check can skip them.
const IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

export function readModules(): Map<string, Module> {
  const files = [...SOURCE_FOLDERS.flatMap(sourceFiles), ...(existsSync(path.join(root, 'proxy.ts')) ? ['proxy.ts'] : [])];
  const modules = new Map<string, Module>();
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8');
    const valueImports = new Set<string>();
    const allImports = new Set<string>();
    for (const match of text.matchAll(IMPORT)) {
      const target = resolve(file, match[3] ?? match[4]!);
      if (!target) continue;
      allImports.add(target);
      if (!match[2]) valueImports.add(target);
    }
    modules.set(file, { file, lines: text.split('\n').length, valueImports: [...valueImports], allImports: [...allImports] });
  }
  return modules;
}

/**
 * Every cycle of value imports, each once, as the list of its modules. `withTypes`: type-only
 * imports count too (they run nothing, but two files that name each other are one file to read).
 */
export function findCycles(modules: Map<string, Module>, withTypes = false): string[][] {
  // Tarjan's strongly connected components: a component of two or more modules is a cycle.
  let index = 0;
  const indices = new Map<string, number>();
  const lowLinks = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    indices.set(file, index);
    lowLinks.set(file, index);
    index += 1;
    stack.push(file);
    onStack.add(file);
    const source = modules.get(file);
    for (const target of (withTypes ? source?.allImports : source?.valueImports) ?? []) {
      if (!modules.has(target)) continue;
      if (!indices.has(target)) {
        visit(target);
        lowLinks.set(file, Math.min(lowLinks.get(file)!, lowLinks.get(target)!));
      } else if (onStack.has(target)) {
        lowLinks.set(file, Math.min(lowLinks.get(file)!, indices.get(target)!));
      }
    }
    if (lowLinks.get(file) === indices.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const file of modules.keys()) if (!indices.has(file)) visit(file);
  return cycles;
}

const layerOf = (file: string) => LAYERS.findIndex((layer) => file.startsWith(`${layer}/`));

/** Imports from a lower layer to a higher one (a file of lib/ that imports one of components/). */
export function upwardImports(modules: Map<string, Module>): string[] {
  const arrows: string[] = [];
  for (const source of modules.values()) {
    const from = layerOf(source.file);
    if (from < 0) continue;
    for (const target of source.allImports) {
      const to = layerOf(target);
      if (to >= 0 && to < from) arrows.push(`${source.file} → ${target}`);
    }
  }
  return arrows;
}

// ---- Folder level: the domains of lib/ and their order (issue 37) ----

/**
 * The domains of `lib/`, bottom to top: a domain may import from itself and the ones before it,
 * never from one after it, so there is no loop between folders. A domain is a folder of `lib/`
 * or a file directly in it (named without its extension). Where a domain's parts sit on two
 * layers they are two folders (issue 45 point 5): the events' plain rules and recurrence
 * (`event-rules/`, `recurrence/`, used by the browser, the calendar, the wizard and the mails)
 * below the stored events; the meeting's server side (`meeting-server/`) above the rooms and
 * billing it checks, its protocol, keys and browser side (`meeting/`) below them.
 */
export const DOMAIN_ORDER = [
  // plain modules: no domain below them (the seam: the keys the server layer and the app share)
  'server-seam',
  'process-slot',
  'shared-class',
  'environment',
  'redis',
  'log',
  'meeting-address',
  'version',
  'errors',
  'cache',
  'time',
  'colors',
  'color-field',
  'email-address',
  'email-field',
  'storable-text',
  'theme',
  'search',
  'chunk-watchdog',
  'early-input',
  'after-answer',
  'toast',
  'brand',
  'location',
  'pwa',
  // what the domains stand on: languages, the database, settings, limits, counters, the audit log
  'i18n',
  'db',
  'configuration',
  'security',
  'request-context',
  'metrics',
  'audit',
  // the events' plain rules, the mail that tells them, the views and the wizard built on them
  'event-rules',
  'recurrence',
  'mail',
  'calendar',
  'schedule',
  // accounts, the HTTP layer, and the meeting's protocol, rooms and billing the calls check
  'registration',
  'public-site',
  'users',
  'auth',
  'api',
  'meeting',
  'rooms',
  'billing',
  // the SFU's nodes, rooms and tickets (issue 38), below the meeting server that hands them out
  'sfu',
  // the features
  'seo',
  'navigation',
  'contacts',
  'groups',
  'ratings',
  'events',
  'meeting-server',
  // the build's manifest (issue 47): what the server publishes of its own code
  'release',
  'support',
  'account',
  'admin',
  // the process's start and stop (with the fast paths it registers), and what every page render reads
  'fast-paths',
  'startup-checks',
  'server-shutdown',
  'server-start',
  'page',
] as const;

/** The domain of a module of lib/, or null outside lib/. */
export function domainOf(file: string): string | null {
  if (!file.startsWith('lib/')) return null;
  const [first, ...rest] = file.slice('lib/'.length).split('/');
  return rest.length > 0 ? first! : first!.replace(/\.[a-z]+$/, '');
}

/** For each domain, the domains it imports (type-only imports included) with one example each. */
export function domainImports(modules: Map<string, Module>, folderOf: (file: string) => string | null = domainOf): Map<string, Map<string, string>> {
  const imports = new Map<string, Map<string, string>>();
  for (const source of modules.values()) {
    const from = folderOf(source.file);
    if (!from) continue;
    if (!imports.has(from)) imports.set(from, new Map());
    for (const target of source.allImports) {
      const to = folderOf(target);
      if (to && to !== from && !imports.get(from)!.has(to)) imports.get(from)!.set(to, `${source.file} → ${target}`);
    }
  }
  return imports;
}

/**
 * The meeting's browser side is one domain cut into parts (call, sfu, keys, links, files…): each
 * part's folder, so that two parts importing each other show as a loop too (issue 49).
 */
export function meetingClientPartOf(file: string): string | null {
  const match = /^lib\/meeting\/client\/([^/]+)\//.exec(file);
  return match ? match[1]! : null;
}

/** Every loop of domains (or of the folders `folderOf` names) that import each other, directly or around a circle, each once. */
export function folderLoops(modules: Map<string, Module>, folderOf: (file: string) => string | null = domainOf): string[][] {
  const imports = domainImports(modules, folderOf);
  // Tarjan's strongly connected components over the domains: two or more make a loop.
  let index = 0;
  const indices = new Map<string, number>();
  const lowLinks = new Map<string, number>();
  const stack: string[] = [];
  const loops: string[][] = [];
  const visit = (domain: string) => {
    indices.set(domain, index);
    lowLinks.set(domain, index);
    index += 1;
    stack.push(domain);
    for (const target of imports.get(domain)?.keys() ?? []) {
      if (!indices.has(target)) {
        visit(target);
        lowLinks.set(domain, Math.min(lowLinks.get(domain)!, lowLinks.get(target)!));
      } else if (stack.includes(target)) {
        lowLinks.set(domain, Math.min(lowLinks.get(domain)!, indices.get(target)!));
      }
    }
    if (lowLinks.get(domain) !== indices.get(domain)) return;
    const loop = stack.splice(stack.indexOf(domain));
    if (loop.length > 1) loops.push(loop.sort());
  };
  for (const domain of imports.keys()) if (!indices.has(domain)) visit(domain);
  return loops;
}

/** Imports from a domain to one higher in DOMAIN_ORDER, and domains the order does not name. */
export function domainOrderBreaks(modules: Map<string, Module>): string[] {
  const order: readonly string[] = DOMAIN_ORDER;
  const imports = domainImports(modules);
  const breaks = [...imports.keys()].filter((domain) => !order.includes(domain)).map((domain) => `lib/${domain} has no place in DOMAIN_ORDER`);
  for (const [from, targets] of imports) {
    for (const [to, example] of targets) {
      if (order.includes(from) && order.includes(to) && order.indexOf(to) > order.indexOf(from)) breaks.push(`${from} → ${to} (${example})`);
    }
  }
  return breaks;
}

function printDomains(modules: Map<string, Module>) {
  const loops = folderLoops(modules);
  const breaks = domainOrderBreaks(modules);
  const imports = domainImports(modules);
  console.log(`
folder loops inside lib/: ${loops.length}`);
  for (const loop of loops) {
    console.log(`  ${loop.join(' ↔ ')}`);
    for (const from of loop) for (const [to, example] of imports.get(from) ?? []) if (loop.includes(to)) console.log(`    ${example}`);
  }
  const parts = folderLoops(modules, meetingClientPartOf);
  const partImports = domainImports(modules, meetingClientPartOf);
  console.log(`
folder loops inside lib/meeting/client/: ${parts.length}`);
  for (const loop of parts) {
    console.log(`  ${loop.join(' ↔ ')}`);
    for (const from of loop) for (const [to, example] of partImports.get(from) ?? []) if (loop.includes(to)) console.log(`    ${example}`);
  }
  console.log(`
imports against the domain order (${DOMAIN_ORDER.length} domains, bottom to top): ${breaks.length}`);
  for (const line of breaks) console.log(`  ${line}`);
}

function main() {
  const modules = readModules();
  const largest = [...modules.values()].sort((a, b) => b.lines - a.lines).slice(0, 12);
  const cycles = findCycles(modules);
  const circles = findCycles(modules, true);
  const upward = upwardImports(modules);
  console.log(`${modules.size} modules`);
  console.log('\nlargest files (lines):');
  for (const { lines, file } of largest) console.log(`  ${String(lines).padStart(5)}  ${file}`);
  console.log(`\nimport cycles: ${cycles.length}`);
  for (const cycle of cycles) console.log(`  ${cycle.join(' ↔ ')}`);
  console.log(`\nfile circles, type-only imports included: ${circles.length}`);
  for (const circle of circles) console.log(`  ${circle.join(' ↔ ')}`);
  console.log(`\nimports that point up the layers (${LAYERS.join(' > ')}): ${upward.length}`);
  for (const arrow of upward) console.log(`  ${arrow}`);
  printDomains(modules);
}

if (process.argv[1] && path.resolve(process.argv[1]) === __filename) main();
