/** @jest-environment node */
// How the meeting session tells React of a new state (state-publisher.ts): not in the task that
// changed it — the change's effects (sealing a key, making an offer) go first — and once for
// all the changes of one task.
import { StatePublisher } from '@/lib/meeting/client/call/state-publisher';
import { until } from '../support/until';

// Node delivers a port's messages in a later turn of its loop than a zero timer: the test waits for them.

describe('StatePublisher', () => {
  it('tells its listeners in the next task, once for every change made in this one, and not after they left', async () => {
    const publisher = new StatePublisher();
    const heard: string[] = [];
    const leave = publisher.subscribe(() => heard.push('a'));
    publisher.subscribe(() => heard.push('b'));

    publisher.publish();
    publisher.publish();
    // Microtasks run before React would hear: the effects' first steps.
    await Promise.resolve();
    expect(heard).toEqual([]);
    await until(() => heard.length >= 2, 'the listeners');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heard).toEqual(['a', 'b']);

    leave();
    publisher.publish();
    await until(() => heard.length >= 3, 'the listeners');
    expect(heard).toEqual(['a', 'b', 'b']);
  });

  it('what the person did is told at once', () => {
    const publisher = new StatePublisher();
    let heard = 0;
    publisher.subscribe(() => (heard += 1));
    publisher.publish(true);
    expect(heard).toBe(1);
  });

  it('a change after the listeners heard is told again', async () => {
    const publisher = new StatePublisher();
    let heard = 0;
    publisher.subscribe(() => (heard += 1));
    publisher.publish();
    await until(() => heard === 1, 'the first change');
    publisher.publish();
    await until(() => heard === 2, 'the second change');
    expect(heard).toBe(2);
  });
});
