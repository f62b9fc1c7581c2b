import { SFU_FROM } from '@/lib/meeting/client/call/route-pin';

// Issue 48, point 9: the public texts (home, its features, the home's description for search
// engines, the terms and the privacy policy) said calls have no media server, untrue where an SFU
// is configured (lib/sfu/nodes.ts). Each such text has a twin key ending in `Sfu`; the server
// component that renders it picks one, so the choice adds nothing to a page's JavaScript.

/** The message key true on this server: `key` (mesh only) or its twin `${key}Sfu`. */
export function mediaTextKey<K extends string>(key: K, hasSfu: boolean): K | `${K}Sfu` {
  return hasSfu ? `${key}Sfu` : key;
}

/** What the `Sfu` texts fill `{count}` with: from this many participants a call moves to the SFU. */
export const mediaTextValues = { count: String(SFU_FROM) } as const;
