// The SFU side's code loads on the first move to the SFU (lib/meeting/client/call/sfu-route.ts).
// A load that failed (offline, a deploy replaced the chunk) is not kept: the route's retry
// imports it again and the call reaches the SFU, where the failed promise used to fail every retry.
import { SfuRoute } from '@/lib/meeting/client/call/sfu-route';
import type { RouteInput } from '@/lib/meeting/client/call/route-decisions';
import type { SfuSessionContext } from '@/lib/meeting/client/sfu/sfu-session';

class FakeSfuSession {
  async toSfu() {
    return 'sfu' as const;
  }
  regroup() {}
  close() {}
}

const moved = (route: SfuRoute) =>
  new Promise<RouteInput>((resolve) => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    route.run({ type: 'to-sfu' }, (input) => {
      warn.mockRestore();
      resolve(input);
    });
  });

it('imports the SFU side again after a load that failed', async () => {
  let loads = 0;
  const code = async () => {
    loads += 1;
    if (loads === 1) throw new Error('chunk did not arrive');
    return { SfuSession: FakeSfuSession } as never;
  };
  const route = new SfuRoute({} as SfuSessionContext, code);
  expect(await moved(route)).toEqual({ type: 'moved', outcome: 'failed' });
  expect(await moved(route)).toEqual({ type: 'moved', outcome: 'sfu' });
  expect(loads).toBe(2);
  expect(route.side).toBeInstanceOf(FakeSfuSession);
});

it('loads the code once while it holds', async () => {
  let loads = 0;
  const route = new SfuRoute({} as SfuSessionContext, async () => {
    loads += 1;
    return { SfuSession: FakeSfuSession } as never;
  });
  await moved(route);
  await moved(route);
  expect(loads).toBe(1);
});
