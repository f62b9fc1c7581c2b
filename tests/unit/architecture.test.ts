import { findCycles, readModules, upwardImports } from '../../scripts/import-graph';

// The map of docs/architecture.md holds only while these do (issue 19): `npm run graph` prints
// the same figures with the largest files.
describe('the import graph', () => {
  const modules = readModules();

  it('reads the whole app', () => {
    expect(modules.size).toBeGreaterThan(300);
    expect(modules.get('app/login/route.ts')?.valueImports).toContain('lib/auth/accounts.ts');
  });

  it('has no cycles of modules that import each other', () => {
    expect(findCycles(modules)).toEqual([]);
  });

  it('never points up the layers: lib never imports components or app, components never app', () => {
    expect(upwardImports(modules)).toEqual([]);
  });
});
