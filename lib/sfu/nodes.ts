import 'server-only';
import { parseSfuUrls, type SfuNode } from '@/lib/configuration/sfu-urls';
import { config } from '@/lib/environment';

export type { SfuNode };

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
