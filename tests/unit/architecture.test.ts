import { domainOf, domainOrderBreaks, findCycles, folderLoops, meetingClientPartOf, readModules, upwardImports } from '../../scripts/import-graph';

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

  it('keeps every source file at 400 lines or fewer (a longer one does more than one job)', () => {
    const long = [...modules.values()].filter(({ lines }) => lines > 400).map(({ file, lines }) => `${file} (${lines})`);
    expect(long).toEqual([]);
  });

  it('has no two files that name each other, not even for a type', () => {
    expect(findCycles(modules, true)).toEqual([]);
  });

  it('never points up the layers: lib never imports components or app, components never app', () => {
    expect(upwardImports(modules)).toEqual([]);
  });

  it('has no folder loop inside lib/: no two domains import each other, directly or around a circle', () => {
    expect(folderLoops(modules)).toEqual([]);
  });

  it('has no folder loop between the parts of the meeting browser side (call, sfu, keys, links, files…)', () => {
    expect(meetingClientPartOf('lib/meeting/client/sfu/sfu-session.ts')).toBe('sfu');
    expect(meetingClientPartOf('lib/meeting/client/probe.ts')).toBeNull();
    expect(folderLoops(modules, meetingClientPartOf)).toEqual([]);
  });

  it('keeps the domains of lib/ in their order (scripts/import-graph.ts, DOMAIN_ORDER), each one named there', () => {
    expect(domainOf('lib/meeting-server/join.ts')).toBe('meeting-server');
    expect(domainOf('lib/meeting/client/call/session.ts')).toBe('meeting');
    expect(domainOf('lib/meeting/protocol.ts')).toBe('meeting');
    expect(domainOf('lib/log.ts')).toBe('log');
    expect(domainOrderBreaks(modules)).toEqual([]);
  });
});
