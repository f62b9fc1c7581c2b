#!/usr/bin/env node
// Builds this folder's sources a second time, in another folder, and compares the two builds'
// .next/static byte for byte (issue 47: a build anyone can reproduce). The build already in
// .next is one of the two: `npm test` runs this after the end-to-end tests, which built it, so
// the check costs one build. Exits non-zero, naming each file that differs.
//   node scripts/reproducible-build.mjs [folder of the first build, default .next]
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const first = path.resolve(root, process.argv[2] ?? '.next');
if (!existsSync(path.join(first, 'BUILD_ID'))) {
  console.error(`No build in ${first}: build first (npm run build).`);
  process.exit(1);
}

/** Every file under `dir`/static, relative path → sha256. */
function files(dir) {
  const found = {};
  const visit = (folder) => {
    for (const name of readdirSync(folder)) {
      const file = path.join(folder, name);
      if (statSync(file).isDirectory()) visit(file);
      else found[path.relative(path.join(dir, 'static'), file)] = createHash('sha256').update(readFileSync(file)).digest('hex');
    }
  };
  visit(path.join(dir, 'static'));
  return found;
}

// The sources as git sees them (tracked, and new files not ignored), in a folder of another name.
const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
const second = mkdtempSync(path.join(os.tmpdir(), 'enclave-second-build-'));
const began = Date.now();
try {
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    if (existsSync(path.join(root, file))) cpSync(path.join(root, file), path.join(second, file), { recursive: true });
  }
  // Turbopack compiles nothing outside its root (next.config.mjs): node_modules must be inside, not
  // a link out. Hard links (a few seconds): the build only adds files, never changes one.
  const linked = spawnSync('cp', ['-al', path.join(root, 'node_modules'), path.join(second, 'node_modules')], { encoding: 'utf8' });
  if (linked.status !== 0) throw new Error(`copying node_modules failed: ${linked.stderr}`);
  // The same commit as the first build, whose id it is (next.config.mjs), whatever git says here.
  const env = { ...process.env, ENCLAVE_COMMIT: readFileSync(path.join(first, 'BUILD_ID'), 'utf8').trim(), NEXT_TELEMETRY_DISABLED: '1' };
  for (const args of [[path.join(second, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], [path.join(second, 'scripts', 'build-integrity.mjs')]]) {
    const built = spawnSync(process.execPath, args, { cwd: second, env, encoding: 'utf8' });
    if (built.status !== 0) {
      process.stderr.write(built.stdout + built.stderr);
      throw new Error(`the second build failed: ${args.join(' ')}`);
    }
  }
  const a = files(first);
  const b = files(path.join(second, '.next'));
  const differences = [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .sort()
    .filter((file) => a[file] !== b[file])
    .map((file) => `${file}: ${!a[file] ? 'only in the second build' : !b[file] ? 'only in the first build' : 'differs'}`);
  const seconds = ((Date.now() - began) / 1000).toFixed(1);
  if (differences.length) {
    console.error(
      `The two builds differ (${differences.length} of ${Object.keys(a).length} files under .next/static; ${seconds} s):\n${differences.join('\n')}`,
    );
    process.exitCode = 1;
  } else {
    console.log(`Reproducible: ${Object.keys(a).length} files under .next/static are the same in both builds (second build in ${seconds} s).`);
  }
} finally {
  rmSync(second, { recursive: true, force: true });
}
