import { processSlot } from '@/lib/process-slot';

// Issue 45: one way to keep one value per process. Next.js may load a module once per route
// bundle; a slot is found by every copy, where a module-level variable would exist twice.
describe('a process slot', () => {
  it('is shared by two copies of the module that declares it', async () => {
    let first: typeof import('@/lib/process-slot') | undefined;
    let second: typeof import('@/lib/process-slot') | undefined;
    await jest.isolateModulesAsync(async () => {
      first = await import('@/lib/process-slot');
    });
    await jest.isolateModulesAsync(async () => {
      second = await import('@/lib/process-slot');
    });
    expect(first).not.toBe(second);
    const made = first!.processSlot<object>('test.shared').getOrCreate(() => ({ made: 'by the first copy' }));
    expect(second!.processSlot<object>('test.shared').getOrCreate(() => ({ made: 'by the second copy' }))).toBe(made);
  });

  it('makes its value once, forgets it when set to undefined, and answers what it held', () => {
    const slot = processSlot<number>('test.counter');
    const create = jest.fn(() => 41);
    expect(slot.getOrCreate(create)).toBe(41);
    expect(slot.getOrCreate(create)).toBe(41);
    expect(create).toHaveBeenCalledTimes(1);
    expect(slot.set(undefined)).toBe(41);
    expect(slot.get()).toBeUndefined();
    expect(slot.getOrCreate(() => 42)).toBe(42);
  });

  it('keeps slots of different names apart', () => {
    processSlot<string>('test.a').set('a');
    expect(processSlot<string>('test.b').get()).toBeUndefined();
  });
});
