// Content-Security-Policy values. Pages get a per-request nonce; API answers a closed policy.
import { closedPolicy } from './base-headers.mjs';

// Which page gets which policy (page-policy.ts): the browser's link guard reads the same rules.
export { isWasmPage, STRIPE_PAGES } from './page-policy';

const stripe = {
  script: ' https://js.stripe.com',
  frame: 'https://js.stripe.com https://hooks.stripe.com',
  connect: ' https://api.stripe.com',
  img: ' https://*.stripe.com',
};

/*
 * The meeting page (/now/{id}) compiles WebAssembly: the noise filter's RNNoise, in an AudioWorklet,
 * which runs under the page's policy. 'wasm-unsafe-eval' allows compiling wasm and nothing else
 * (no eval of JavaScript); no other page gets it.
 */

export function pagePolicy(nonce: string, development: boolean, options: { stripe?: boolean; wasm?: boolean; connect?: string[] } = {}): string {
  const s = options.stripe;
  const evaluation = development ? " 'unsafe-eval'" : options.wasm ? " 'wasm-unsafe-eval'" : '';
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${s ? stripe.script : ''}${evaluation}`,
    // React sets style attributes; inline styles cannot run code, so they are allowed.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' blob: data:${s ? stripe.img : ''}`,
    "font-src 'self'",
    "media-src 'self' blob:",
    `connect-src 'self'${s ? stripe.connect : ''}${(options.connect ?? []).map((origin) => ` ${origin}`).join('')}`,
    ...(s ? [`frame-src ${stripe.frame}`] : []),
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * What a page asks of its scripts (issue 47): none runs that does not carry its integrity hash
 * (scripts/build-integrity.mjs gives every chunk one). Only behind the server layer, which gives
 * the tags React writes theirs (server/integrity-html.mjs; not under `next start`). Not on the
 * pages that load Stripe.js, which Stripe changes under one address without a hash to pin; not in
 * development, which has none.
 */
export function integrityPolicy(development: boolean, stripe: boolean, serverLayer: boolean): string | null {
  return development || stripe || !serverLayer ? null : 'blocked-destinations=(script)';
}

/** Every answer that is not a page: the closed policy the server layer gives its own answers too. */
export const apiPolicy = closedPolicy;

/**
 * A file a person uploaded (support ticket attachments): the API's closed policy and `sandbox`, so
 * that even a file a browser chose to render runs no script, in an opaque origin without cookies.
 */
export const attachmentPolicy = `${apiPolicy}; sandbox`;

/** GET /api/tickets/{id}/attachments/{attachmentId}, with or without a trailing slash. */
export const isAttachmentPath = (pathname: string) => /^\/api\/tickets\/[^/]+\/attachments\/[^/]+\/?$/.test(pathname);

/** The service worker's own policy: it fetches pages and assets of this origin, and nothing else. */
export const serviceWorkerPolicy = "default-src 'none'; connect-src 'self'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'";
