import 'server-only';
import { config } from '@/lib/environment';

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

let parsed: { value: string | undefined; nodes: SfuNode[] } | undefined;

/** The configured nodes (config.sfuUrls), parsed once per value; [] without SFU_URLS. */
export function sfuNodes(): SfuNode[] {
  if (!parsed || parsed.value !== config.sfuUrls) parsed = { value: config.sfuUrls, nodes: parseSfuUrls(config.sfuUrls) };
  return parsed.nodes;
}

/** An SFU needs both its nodes and the secret they share with the app. */
export function sfuConfigured(): boolean {
  return Boolean(config.sfuSecret) && sfuNodes().length > 0;
}
