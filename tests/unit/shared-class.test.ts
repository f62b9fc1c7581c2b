// lib/shared-class.ts: an error thrown by one copy of a module is still that error to another copy.
// The production build of 2026-11-30 inlined lib/sfu/janus-http.ts into two chunks, and Janus's
// "room exists" from the kept session's copy was not a JanusHttpError to the ticket's: every
// ticket but the first of a call moving to the SFU together failed.
type Modules = {
  janus: typeof import('@/lib/sfu/janus-http');
  errors: typeof import('@/lib/errors');
  lock: typeof import('@/lib/db/data-dir-lock');
};

async function copy(): Promise<Modules> {
  let loaded: Modules | undefined;
  await jest.isolateModulesAsync(async () => {
    loaded = { janus: await import('@/lib/sfu/janus-http'), errors: await import('@/lib/errors'), lock: await import('@/lib/db/data-dir-lock') };
  });
  return loaded!;
}

describe('a class marked as shared', () => {
  it('recognises an instance made by another copy of its module', async () => {
    const [first, second] = [await copy(), await copy()];
    expect(first.janus.JanusHttpError).not.toBe(second.janus.JanusHttpError);
    const exists = new first.janus.JanusHttpError('plugin', 'Janus plugin: Room r already exists', 427);
    expect(exists).toBeInstanceOf(second.janus.JanusHttpError);
    expect(exists).toBeInstanceOf(Error);
    expect(new first.errors.ApiError('room_not_found')).toBeInstanceOf(second.errors.ApiError);
    const holder = { pid: 1, host: 'h', command: 'c', since: 's' };
    expect(new first.lock.DataDirInUseError('/data', holder)).toBeInstanceOf(second.lock.DataDirInUseError);
  });

  it('still tells its classes apart, and from look-alikes', async () => {
    const { janus, errors } = await copy();
    expect(new errors.ApiError('room_not_found')).not.toBeInstanceOf(janus.JanusHttpError);
    expect(new janus.JanusHttpError('unreachable', 'down')).not.toBeInstanceOf(errors.ApiError);
    const lookalike = Object.assign(new Error('room_not_found'), { name: 'ApiError', code: 'room_not_found' });
    expect(lookalike).not.toBeInstanceOf(errors.ApiError);
    expect(null).not.toBeInstanceOf(errors.ApiError);
  });
});

describe('every error class another server module catches by instanceof', () => {
  const { readdirSync, readFileSync } = jest.requireActual<typeof import('node:fs')>('node:fs');
  const under = (folder: string) =>
    readdirSync(folder, { recursive: true, encoding: 'utf8' })
      .map((file) => `${folder}/${file.split('\\').join('/')}`)
      .filter((file) => /\.tsx?$/.test(file) && !file.startsWith('lib/meeting/client/'));
  // Classes are declared in lib/; they are caught there and in app/'s pages and routes.
  const sources = new Map([...under('lib'), ...under('app')].map((file) => [file, readFileSync(file, 'utf8')]));

  it('is marked shared, so that a copy of its module elsewhere in the build still matches', () => {
    const unmarked: string[] = [];
    for (const [file, text] of sources)
      for (const [, name] of text.matchAll(/^export class (\w+) extends Error\b/gm)) {
        const caughtElsewhere = [...sources].some(([other, code]) => other !== file && code.includes(`instanceof ${name}`));
        if (caughtElsewhere && !text.includes(`markShared(this, '${name}')`)) unmarked.push(`${file}#${name}`);
      }
    expect(unmarked).toEqual([]);
  });
});
