// `instanceof` that holds across copies of a module. Next.js may load a module once per route
// bundle (lib/process-slot.ts), and Turbopack may inline one module into two server chunks of the
// same route: the production build of 2026-11-30 had lib/sfu/janus-http.ts in both the ticket's
// chunk and the kept session's (lib/sfu/janus-kept.ts, which lib/server-shutdown.ts imports on its
// own), so a JanusHttpError thrown by one copy was no JanusHttpError to the other. Janus's "room
// exists" then failed every ticket but the first of a call moving to the SFU together, and
// ApiError was inlined seven times. A class marked here is recognised by its registered symbol
// (`Symbol.for('enclave.class.<name>')`), which every copy shares.

/** Marks `instance` as one of the class named `name`; call it in the class's constructor. */
export function markShared(instance: object, name: string): void {
  Object.defineProperty(instance, Symbol.for(`enclave.class.${name}`), { value: true });
}

/** Whether `value` was marked as one of the class named `name`: the class's `static [Symbol.hasInstance]`. */
export function isShared(value: unknown, name: string): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[Symbol.for(`enclave.class.${name}`)] === true;
}
