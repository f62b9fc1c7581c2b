// One value per process: Next.js may load a module once per route bundle, and server/server.mjs's
// fast paths and instrumentation.ts run outside those bundles, so a module-level variable could
// exist several times over (two in-memory meeting hubs would split a meeting in two). A slot keeps
// its value on globalThis under a registered symbol, which every copy of a module finds (issue 45:
// ten singletons had each declared their own way of doing this).

export interface ProcessSlot<T> {
  /** The value, or undefined before it is set. */
  get(): T | undefined;
  /** The value, made by `create` the first time. */
  getOrCreate(create: () => T): T;
  /** Sets the value (undefined forgets it) and answers what it held. */
  set(value: T | undefined): T | undefined;
}

/** The process's slot named `name` (under `Symbol.for('enclave.<name>')`). */
export function processSlot<T>(name: string): ProcessSlot<T> {
  const key = Symbol.for(`enclave.${name}`);
  const holder = globalThis as unknown as Record<symbol, T | undefined>;
  return {
    get: () => holder[key],
    getOrCreate(create) {
      if (holder[key] === undefined) holder[key] = create();
      return holder[key];
    },
    set(value) {
      const previous = holder[key];
      holder[key] = value;
      return previous;
    },
  };
}
