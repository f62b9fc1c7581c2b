import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';

// Issue 16, item 10: installs are reproducible. `npm ci` (which README and .ci/run use) refuses a
// lockfile that drifted from package.json; these checks say so in `npm test` too, and check that
// every locked package supports the oldest Node that `engines` promises.
const read = (file: string) => JSON.parse(readFileSync(path.join(process.cwd(), file), 'utf8'));
const pkg = read('package.json');
const lock = read('package-lock.json');

describe('package-lock.json matches package.json', () => {
  it.each(['dependencies', 'devDependencies'])('the same %s, at the same ranges', (field) => {
    expect(lock.packages[''][field]).toEqual(pkg[field]);
  });

  it('every dependency is locked to a version its range accepts', () => {
    for (const [name, range] of Object.entries({ ...pkg.dependencies, ...pkg.devDependencies } as Record<string, string>)) {
      const locked = lock.packages[`node_modules/${name}`]?.version;
      expect([name, locked && semver.satisfies(locked, range)]).toEqual([name, true]);
    }
  });
});

describe('every locked package runs on the Node version of engines', () => {
  const oldest = semver.minVersion(pkg.engines.node)!.version;

  it(`engines names a Node 20 release (${oldest})`, () => {
    expect(semver.major(oldest)).toBe(20);
  });

  it('no package asks for a newer Node', () => {
    const refusing = Object.entries(lock.packages as Record<string, { engines?: { node?: string } | string[] }>)
      .filter(([name, meta]) => name && meta.engines && !Array.isArray(meta.engines) && meta.engines.node)
      .filter(([, meta]) => !semver.satisfies(oldest, (meta.engines as { node: string }).node))
      .map(([name, meta]) => `${name} (node ${(meta.engines as { node: string }).node})`);
    expect(refusing).toEqual([]);
  });
});
