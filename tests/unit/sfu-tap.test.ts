/** @jest-environment node */
// The e2e tap on Janus (tests/e2e/support/janus-tap.ts) derives the room, its secret and Janus's
// token as lib/sfu/tokens.ts does (a server-only module the e2e tests cannot import): the same here.
import { janusToken, sfuRoomId, sfuRoomSecret } from '@/lib/sfu/tokens';
import { tapJanusToken, tapRoomId, tapRoomSecret } from '../e2e/support/janus-tap';

it("derives the meeting's room, its secret and Janus's token as the app does", () => {
  const secret = 'a-shared-secret-of-some-length';
  const room = sfuRoomId(secret, 'meeting-1');
  expect(tapRoomId(secret, 'meeting-1')).toBe(room);
  expect(tapRoomId(secret, 'meeting-2')).not.toBe(room);
  expect(tapRoomSecret(secret, room)).toBe(sfuRoomSecret(secret, room));
  expect(tapJanusToken(secret, 1_800_000_000_000)).toBe(janusToken(secret, 1_800_000_000_000));
});
