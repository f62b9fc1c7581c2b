// A tap on the e2e server's Janus (serve.mjs) or a test's own node: VideoRoom's RTP forward of one publisher's camera
// to a UDP port of the test, to show what Janus itself handles. The room's name and secret are
// derived as lib/sfu/tokens.ts derives them (that module is server-only);
// tests/unit/sfu-tap.test.ts keeps the two equal.
import { createHmac } from 'node:crypto';
import dgram from 'node:dgram';
import { E2E_JANUS_BASE_PORT, E2E_SFU_SECRET } from './constants.mjs';

const derive = (secret: string, label: string, ...parts: string[]) =>
  createHmac('sha256', secret)
    .update([label, ...parts].join('\0'))
    .digest('base64url');

export const tapRoomId = (secret: string, meetingId: string) => `m${derive(secret, 'enclave sfu room', meetingId).slice(0, 22)}`;
export const tapRoomSecret = (secret: string, room: string) => derive(secret, 'enclave sfu room secret', room);
export function tapJanusToken(secret: string, expiresAtMs: number) {
  const data = `${Math.floor(expiresAtMs / 1000)},janus,janus.plugin.videoroom`;
  return `${data}:${createHmac('sha1', secret).update(data).digest('base64')}`;
}

const E2E_API = `http://127.0.0.1:${E2E_JANUS_BASE_PORT + 1}/janus`;

async function janus(path: string, body: Record<string, unknown>, { api = E2E_API, secret = E2E_SFU_SECRET }: TapNode = {}) {
  const response = await fetch(`${api}${path}`, {
    method: 'POST',
    body: JSON.stringify({ ...body, transaction: Math.random().toString(36).slice(2), token: tapJanusToken(secret, Date.now() + 60_000) }),
  });
  const answer = (await response.json()) as { janus: string; data?: { id: number }; plugindata?: { data: Record<string, unknown> }; error?: unknown };
  if (answer.janus === 'error' || answer.plugindata?.data.error) throw new Error(`janus: ${JSON.stringify(answer)}`);
  return answer;
}

/** Another Janus than serve.mjs's (a test's own nodes): its HTTP API and the app's SFU_SECRET. */
export interface TapNode {
  api?: string;
  secret?: string;
}

/**
 * Forwards one of the publisher's streams (its camera, mid 1, unless `mid` says another: 0 is its
 * microphone) for `seconds`, and on until `atLeast` packets came or `maxSeconds` ran out: how many
 * packets came, all their bytes, and each packet. A loaded machine's camera sends a few frames a
 * second (23 packets in 4 s on a CI run), so a test that needs a count waits for it.
 */
export async function tapPublisher(
  meetingId: string,
  publisherId: string,
  {
    seconds,
    atLeast = 0,
    maxSeconds = seconds,
    node = {},
    mid = '1',
  }: { seconds: number; atLeast?: number; maxSeconds?: number; node?: TapNode; mid?: string },
) {
  const { secret: sfuSecret = E2E_SFU_SECRET } = node;
  const socket = dgram.createSocket('udp4');
  const chunks: Buffer[] = [];
  socket.on('message', (packet) => chunks.push(packet));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const port = socket.address().port;
  const room = tapRoomId(sfuSecret, meetingId);
  const secret = tapRoomSecret(sfuSecret, room);
  const session = (await janus('', { janus: 'create' }, node)).data!.id;
  try {
    const handle = (await janus(`/${session}`, { janus: 'attach', plugin: 'janus.plugin.videoroom' }, node)).data!.id;
    const forwarded = await janus(
      `/${session}/${handle}`,
      {
        janus: 'message',
        body: {
          request: 'rtp_forward',
          room,
          publisher_id: publisherId,
          host: '127.0.0.1',
          host_family: 'ipv4',
          streams: [{ mid, port }],
          secret,
          admin_key: sfuSecret,
        },
      },
      node,
    );
    const streamId = (forwarded.plugindata?.data.forwarders as { stream_id?: number }[] | undefined)?.[0]?.stream_id;
    const until = Date.now() + maxSeconds * 1000;
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    while (chunks.length < atLeast && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 200));
    if (streamId !== undefined)
      await janus(
        `/${session}/${handle}`,
        {
          janus: 'message',
          body: { request: 'stop_rtp_forward', room, publisher_id: publisherId, stream_id: streamId, secret, admin_key: sfuSecret },
        },
        node,
      );
  } finally {
    await janus(`/${session}`, { janus: 'destroy' }, node).catch(() => undefined);
    socket.close();
  }
  return { packets: chunks.length, payloads: Buffer.concat(chunks), each: chunks };
}

/** Who is in the meeting's room on this node; null when the node has no such room or does not answer. */
export async function roomParticipants(meetingId: string, node: TapNode = {}): Promise<string[] | null> {
  const room = tapRoomId(node.secret ?? E2E_SFU_SECRET, meetingId);
  try {
    const session = (await janus('', { janus: 'create' }, node)).data!.id;
    try {
      const handle = (await janus(`/${session}`, { janus: 'attach', plugin: 'janus.plugin.videoroom' }, node)).data!.id;
      const answer = await janus(`/${session}/${handle}`, { janus: 'message', body: { request: 'listparticipants', room } }, node);
      return ((answer.plugindata?.data.participants ?? []) as { id: string }[]).map((participant) => participant.id);
    } finally {
      await janus(`/${session}`, { janus: 'destroy' }, node).catch(() => undefined);
    }
  } catch {
    return null;
  }
}
