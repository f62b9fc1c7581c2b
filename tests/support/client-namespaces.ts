// Which message namespaces the client components under a file ask for: follows the project's
// imports ('@/…' and relative, dynamic import() included) from a page, layout or component, and
// collects useTranslations('Namespace…') from every module that runs in the browser — a
// 'use client' file and everything it imports. Server components read the server's messages
// (all of them) and are only walked through. A regular-expression reading of the sources, enough
// for this codebase's one way of asking for texts (tests/unit/client-messages.test.ts).
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const extensions = ['.tsx', '.ts', '/index.tsx', '/index.ts'];

function resolve(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith('@/')) base = path.join(root, specifier.slice(2));
  else if (specifier.startsWith('.')) base = path.resolve(path.dirname(from), specifier);
  else return null; // a package
  if (existsSync(base) && statSync(base).isFile()) return base;
  for (const ext of extensions) if (existsSync(base + ext)) return base + ext;
  return null;
}

const importPattern = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?[^'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g;
const namespacePattern = /useTranslations\(\s*'([A-Za-z]+)/g;

/** The namespaces the browser-side modules reachable from `entry` ask for. */
export function clientNamespaces(entry: string): Set<string> {
  const found = new Set<string>();
  const visited = new Map<string, boolean>(); // file → visited as client code
  const visit = (file: string, client: boolean) => {
    if (visited.get(file) === true || (visited.has(file) && !client)) return;
    visited.set(file, client);
    const source = readFileSync(file, 'utf8');
    const isClient = client || /^\s*['"]use client['"]/.test(source);
    if (isClient) for (const match of source.matchAll(namespacePattern)) found.add(match[1]!);
    for (const match of source.matchAll(importPattern)) {
      if (match[1]) continue; // import type: no code
      const target = resolve(file, match[2] ?? match[3]!);
      if (target) visit(target, isClient);
    }
  };
  visit(path.resolve(root, entry), false);
  return found;
}
