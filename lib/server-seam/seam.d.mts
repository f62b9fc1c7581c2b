// Types of seam.mjs: what the server layer, instrumentation.ts and the app put on globalThis for each other.
import type { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { RequestState } from '../request-context';

export declare const REQUEST_STATE: unique symbol;
export declare const REQUEST_START: unique symbol;
export declare const FAST_PATHS: unique symbol;
export declare const SHUTDOWN_HOOKS: unique symbol;
export declare const COUNT_DATABASE_ERROR: unique symbol;

/** An answer the server layer writes as it is. */
export interface FastAnswer {
  status: number;
  headers: Record<string, string>;
  body?: Buffer;
}

/** A request as the server layer sees it before Next.js: the request line and Node's parsed headers. */
export interface FastRequest {
  method: string;
  /** The path and query of the request line. */
  url: string;
  headers: IncomingHttpHeaders;
}

/**
 * A route the server layer answers without Next.js's routing (issue 17). Optional by rule
 * (docs/decisions.md, "A fast path is optional"): the route answers the same without it.
 */
export interface FastPath {
  /** For logs, tests and docs ("calendar"). */
  name: string;
  matches(request: FastRequest): boolean;
  /** Set when the answer needs the body: read up to this many bytes, then given to `answer`. */
  maxBodyBytes?: number;
  /**
   * The route's answer, or null to leave the request to Next.js — only when no body was read, since
   * a body cannot be read twice. The fast path answers its own errors; a throw is answered 500.
   */
  answer(request: FastRequest & { body?: Buffer }): Promise<FastAnswer | null>;
}

/** Two steps around the HTTP server's close (lib/server-shutdown.ts). */
export interface ShutdownHooks {
  drain(): Promise<void>;
  close(): Promise<void>;
}

export interface Seam {
  [REQUEST_STATE]: AsyncLocalStorage<RequestState>;
  [REQUEST_START]: (request: IncomingMessage, response: ServerResponse) => void;
  [FAST_PATHS]: readonly FastPath[];
  [SHUTDOWN_HOOKS]: ShutdownHooks;
  [COUNT_DATABASE_ERROR]: (error: unknown) => void;
}

export declare function fromSeam<Key extends keyof Seam>(key: Key): Seam[Key] | undefined;
export declare function putOnSeam<Key extends keyof Seam>(key: Key, value: Seam[Key]): Seam[Key];
