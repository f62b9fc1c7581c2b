// Citations of the project's own files in docs/, READMEs and comments: a path from the root
// (`lib/x.ts`), a module specifier without its extension (`components/shell/ShellFrame`), a
// folder (`lib/sfu/`), a glob (`tests/unit/e2ee-*.test.ts`), a file named by its last folders or
// by its name alone (`call/session.ts`, `quality.ts`), and a symbol in it (`file.ts#symbol`, or
// `file.ts symbolName` in a comment). tests/unit/citations.test.ts fails when one names a place
// the code has left, so that a comment cannot quietly go stale (issue 45).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..');

const TOP_FOLDERS = ['.ci', 'app', 'components', 'lib', 'server', 'scripts', 'tests', 'bench', 'docs', 'deploy', 'drizzle', 'messages', 'public'];
const CITING_FILES = /\.(md|ts|tsx|mjs|js|cjs|sh|ya?ml|conf)$/;
const PROSE_FILES = /\.md$/;
const MODULE_EXTENSIONS = ['.ts', '.tsx', '.mjs', '.js', '.d.ts'];
// A symbol written after a file's name with a space: camelCase, PascalCase with an inner capital, or CONSTANT.
const SYMBOL_NAME = /[a-z]+[A-Z][\w]*|[A-Z][a-z]+[A-Z]\w*|[A-Z][A-Z0-9_]{2,}/;
const PATH_CHARACTERS = '[\\w.\\-/\\[\\]()@*]';
// A path from the root starts at a top folder that no word, dot, slash or @ precedes (not a URL's
// or a package's path) and ends on a character that is not punctuation.
const ROOTED = new RegExp(
  `(?<![\\w./@*-])((?:${TOP_FOLDERS.map((folder) => folder.replace('.', '\\.')).join('|')})/${PATH_CHARACTERS}*[\\w\\])/*])(?:#([A-Za-z_$][\\w$]*)| (${SYMBOL_NAME.source})\\b)?`,
  'g',
);
// A source file named by its name, perhaps with folders before it, perhaps with a symbol after it.
const NAMED = new RegExp(
  String.raw`(?<![\w./@-])((?:[\w.[\]-]+\/)*[\w-]+(?:\.[\w-]+)*\.(?:ts|tsx|mjs|cjs))(?![\w/])(?:#([A-Za-z_$][\w$]*)| (${SYMBOL_NAME.source})\b)?`,
  'g',
);
// A symbol named before its file: "`routePin` in sfu-route.ts".
const SYMBOL_IN = /`([A-Za-z_$][\w$]*)` in `?((?:[\w.[\]-]+\/)*[\w-]+(?:\.[\w-]+)*\.(?:ts|tsx|mjs|cjs))(?![\w/])/g;
// Prose and names that look like paths: "messages/s" is a rate; these files belong to packages.
const NOT_OURS = /^(messages\/s|next-env\.d\.ts|middleware\.ts|workletProcessor\.js|tflite-simd\.mjs|connection\.js)$/;

// The old name in a note of a rename ("`lib/api/client.ts` → `lib/api/browser.ts`") is history.
const RENAMED = /^`?\s*(→|->)/;

/**
 * The part of a line that is prose: all of a Markdown file, the comment of a code line (a line of
 * a block comment, or what follows `//` or `#`). Code is checked by the compiler, not here.
 */
function proseOf(file: string, line: string): string {
  if (PROSE_FILES.test(file)) return line;
  const trimmed = line.trimStart();
  if (trimmed.startsWith('*') || trimmed.startsWith('/*') || trimmed.startsWith('#')) return line;
  const comment = line.search(/(^|\s)\/\/\s/);
  return comment === -1 ? '' : line.slice(comment);
}

export interface BrokenCitation {
  file: string;
  line: number;
  cited: string;
}

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file && existsSync(path.join(root, file)));
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob
    .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
    .replace(/\*\*/g, '\u0000')
    .replace(/\*/g, '[^/]*')
    .replace(/\u0000/g, '.*');
  return new RegExp(`^${escaped}(/.*)?$`);
}

/** The files a path from the root names: as written, as a module without its extension, or a glob. */
function resolveRooted(cited: string, files: string[]): string[] {
  if (cited.includes('*')) return files.filter((file) => globToRegExp(cited).test(file)).slice(0, 1);
  const bare = cited.replace(/\/$/, '');
  const candidates = [bare, ...MODULE_EXTENSIONS.map((extension) => bare + extension), ...MODULE_EXTENSIONS.map((extension) => `${bare}/index${extension}`)];
  return candidates.filter((candidate) => existsSync(path.join(root, candidate))).slice(0, 1);
}

/** The files whose path ends with a name, or with its last folders and name. */
function resolveNamed(cited: string, files: string[]): string[] {
  const tail = `/${cited.replace(/^(\.\.?\/)+/, '')}`;
  return files.filter((file) => `/${file}`.endsWith(tail));
}

/** Trims what the pattern took from the prose around it: Markdown's bold, an unmatched ")", a full stop. */
function trimProse(cited: string): string {
  let trimmed = cited.replace(/([^/])\*\*$/, '$1');
  const count = (text: string, character: string) => text.split(character).length - 1;
  while (trimmed.endsWith(')') && count(trimmed, '(') < count(trimmed, ')')) trimmed = trimmed.slice(0, -1);
  return trimmed.replace(/\.+$/, '');
}

function declares(file: string, symbol: string): boolean {
  const target = path.join(root, file);
  return statSync(target).isFile() && new RegExp(`\\b${symbol.replace(/\$/g, '\\$')}\\b`).test(readFileSync(target, 'utf8'));
}

export function brokenCitations(): BrokenCitation[] {
  const files = trackedFiles();
  const broken: BrokenCitation[] = [];
  // This file's comments show the forms, with examples that need not exist.
  const citing = files.filter((tracked) => (CITING_FILES.test(tracked) || tracked === '.ci/run') && tracked !== 'scripts/citations.ts');
  for (const file of citing) {
    const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
    lines.forEach((line, index) => {
      const text = proseOf(file, line);
      const check = (cited: string, symbol: string | undefined, targets: string[], after: string) => {
        if (NOT_OURS.test(cited) || RENAMED.test(after)) return;
        if (targets.length === 0 || (symbol !== undefined && !targets.some((target) => declares(target, symbol)))) {
          broken.push({ file, line: index + 1, cited: symbol ? `${cited}#${symbol}` : cited });
        }
      };
      const rootedSpans: [number, number][] = [];
      for (const match of text.matchAll(ROOTED)) {
        rootedSpans.push([match.index, match.index + match[0].length]);
        const cited = trimProse(match[1]!);
        check(cited, match[2] ?? match[3], resolveRooted(cited, files), text.slice(match.index + match[0].length));
      }
      for (const match of text.matchAll(NAMED)) {
        if (rootedSpans.some(([start, end]) => match.index >= start && match.index < end)) continue;
        check(match[1]!, match[2] ?? match[3], resolveNamed(match[1]!, files), text.slice(match.index + match[0].length));
      }
      for (const match of text.matchAll(SYMBOL_IN)) check(match[2]!, match[1], [...resolveRooted(match[2]!, files), ...resolveNamed(match[2]!, files)], '');
    });
  }
  return broken;
}

if (require.main === module) {
  const broken = brokenCitations();
  for (const { file, line, cited } of broken) console.log(`${file}:${line}: ${cited}`);
  console.log(`${broken.length} citation(s) of places that do not exist`);
  process.exit(broken.length ? 1 : 0);
}
