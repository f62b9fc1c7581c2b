// The import graph of the app's own code (server/, app/, components/, lib/, proxy.ts): the cycles between
// modules and the imports that point up the layers. `npm run graph` prints it with the largest
// files; tests/unit/architecture.test.ts keeps cycles and upward arrows at zero.
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

/** Every cycle of value imports, each once, as the list of its modules. */
export function findCycles(modules: Map<string, Module>): string[][] {
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
    for (const target of modules.get(file)?.valueImports ?? []) {
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

/** Imports from a lower layer to a higher one ("lib/x.ts → components/y.tsx"). */
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

function main() {
  const modules = readModules();
  const largest = [...modules.values()].sort((a, b) => b.lines - a.lines).slice(0, 12);
  const cycles = findCycles(modules);
  const upward = upwardImports(modules);
  console.log(`${modules.size} modules`);
  console.log('\nlargest files (lines):');
  for (const { lines, file } of largest) console.log(`  ${String(lines).padStart(5)}  ${file}`);
  console.log(`\nimport cycles: ${cycles.length}`);
  for (const cycle of cycles) console.log(`  ${cycle.join(' ↔ ')}`);
  console.log(`\nimports that point up the layers (${LAYERS.join(' > ')}): ${upward.length}`);
  for (const arrow of upward) console.log(`  ${arrow}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === __filename) main();
