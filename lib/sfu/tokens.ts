import 'server-only';
import { createHmac } from 'node:crypto';

// What the app signs or derives with SFU_SECRET, the secret it shares with every Janus node
// (janus.jcfg's token_auth_secret and the VideoRoom plugin's admin_key): nothing here is stored.

export const VIDEOROOM_PLUGIN = 'janus.plugin.videoroom';

/**
 * A Janus core token (token_auth_secret): `<expiry>,janus,<plugin>:<signature>`, the signature
 * base64(HMAC-SHA1(secret, "<expiry>,janus,<plugin>")), expiry in Unix seconds. Janus checks it on
 * every request (a session's keep-alives too) and refuses it once expired, or for another plugin.
 */
export function janusToken(secret: string, expiresAtMs: number, plugins: readonly string[] = [VIDEOROOM_PLUGIN]): string {
  const data = [String(Math.floor(expiresAtMs / 1000)), 'janus', ...plugins].join(',');
  return `${data}:${createHmac('sha1', secret).update(data).digest('base64')}`;
}

const derive = (secret: string, label: string, ...parts: string[]) =>
  createHmac('sha256', secret)
    .update([label, ...parts].join('\0'))
    .digest('base64url');

/**
 * The meeting's VideoRoom id: derived, so every app instance names the same room without storing
 * it, and unguessable, so a participant of one meeting cannot look up another's room on the node.
 */
export const sfuRoomId = (secret: string, meetingId: string) => `m${derive(secret, 'enclave sfu room', meetingId).slice(0, 22)}`;

/** The room's own `secret` (edits, allowed list, kicks, destroy): only the app knows it. */
export const sfuRoomSecret = (secret: string, room: string) => derive(secret, 'enclave sfu room secret', room);

/** A participant's entry in the room's `allowed` list: the `token` of their VideoRoom joins. */
export const sfuRoomToken = (secret: string, room: string, participantId: string) => derive(secret, 'enclave sfu room token', room, participantId).slice(0, 32);
