// The test probe (probe.ts) is loaded only on a server that asks for it (MEETING_TEST_PROBE=1):
// production meeting pages never download its code. The meeting page starts loading it at once,
// so it is there long before a call view attaches it.
let loading: Promise<typeof import('./probe')> | null = null;

export function loadProbe(): Promise<typeof import('./probe')> {
  loading ??= import('./probe');
  return loading;
}
