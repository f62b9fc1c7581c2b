// SFU_URLS, read in one place (issue 45): the SFU's nodes for tickets and placement
// (lib/sfu/nodes.ts), their origins for the meeting page's policy (lib/security/csp.ts), and the
// start-up check (lib/startup-checks.ts), which stops a server whose value this cannot read.
// Pure, without server-only: proxy.ts reads it too.

/**
 * A Janus node as SFU_URLS describes it: the WebSocket address browsers open (public, through the
 * HTTPS proxy) and the HTTP API address only the app reaches (loopback or a private network).
 */
export interface SfuNode {
  /** wss://… (ws:// on loopback): what a ticket gives browsers. Also the node's name in placements. */
  publicUrl: string;
  /** http://…/janus: where the app creates rooms and manages who may enter them. */
  apiUrl: string;
}

/**
 * SFU_URLS: one or more nodes separated by commas, each `<public ws url>|<private http url>`:
 *   wss://meet.example.org/sfu|http://127.0.0.1:8088/janus,wss://sfu2.example.org|http://10.0.0.6:8088/janus
 * Unset or blank: no SFU (meetings stay meshes). A malformed value is an error, never half-read.
 */
export function parseSfuUrls(value: string | undefined): SfuNode[] {
  if (!value?.trim()) return [];
  const nodes = value.split(',').map((part, index) => {
    const [publicUrl, apiUrl, extra] = part.split('|').map((piece) => piece.trim());
    if (!publicUrl || !apiUrl || extra !== undefined) throw new Error(`SFU_URLS: node ${index + 1} must be "<ws(s) url>|<http(s) url>"`);
    if (!hasProtocol(publicUrl, ['ws:', 'wss:'])) throw new Error(`SFU_URLS: node ${index + 1}'s browser address must start with wss:// (or ws://)`);
    if (!hasProtocol(apiUrl, ['http:', 'https:'])) throw new Error(`SFU_URLS: node ${index + 1}'s API address must start with http:// (or https://)`);
    return { publicUrl, apiUrl: apiUrl.replace(/\/+$/, '') };
  });
  const names = new Set(nodes.map((node) => node.publicUrl));
  if (names.size !== nodes.length) throw new Error('SFU_URLS: a browser address appears twice');
  return nodes;
}

function hasProtocol(url: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

/**
 * The nodes' WebSocket origins, which the meeting page may connect to. A value the start-up check
 * refused gives none (the server does not start with it; a page never gets half of it).
 */
export function sfuOrigins(value: string | undefined): string[] {
  try {
    return [...new Set(parseSfuUrls(value).map((node) => new URL(node.publicUrl).origin))];
  } catch {
    return [];
  }
}

/**
 * What the start-up check says of SFU_URLS and SFU_SECRET: a problem (the server does not start)
 * for a value it cannot read or for nodes without the secret, else a note for the log.
 */
export function sfuSettingsReport(urls: string | undefined, secret: string | undefined): { problem: string | null; note: string } {
  let nodes: SfuNode[];
  try {
    nodes = parseSfuUrls(urls);
  } catch (error) {
    return { problem: `Enclave will not start: ${(error as Error).message} (docs/self-hosting/sfu.md).`, note: '' };
  }
  const hasSecret = Boolean(secret?.trim());
  if (nodes.length > 0 && !hasSecret) {
    return {
      problem: 'Enclave will not start: SFU_URLS is set without SFU_SECRET, the secret Janus shares with the app (docs/self-hosting/sfu.md).',
      note: '',
    };
  }
  if (nodes.length === 0) {
    // A secret alone is what .env.example starts with: said, not refused.
    const secretAlone = hasSecret ? ' SFU_SECRET is set but not used until SFU_URLS names the Janus nodes.' : '';
    return { problem: null, note: `SFU: off (SFU_URLS is not set): every call is peer to peer, which suits calls of up to about 5 people.${secretAlone}` };
  }
  return {
    problem: null,
    note: `SFU: ${nodes.length} Janus node${nodes.length === 1 ? '' : 's'} (${nodes.map((node) => node.publicUrl).join(', ')}): calls of 6 or more go through it, end-to-end encrypted.`,
  };
}
