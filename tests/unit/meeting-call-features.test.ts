/** @jest-environment node */
import { CallFeatures, type CallFeature, type FeatureContext, type FeatureDefinition } from '@/lib/meeting/client/call/features';
import { FILES } from '@/lib/meeting/client/files/files-feature';
import { featureContext } from '../support/feature-context';

// The call-feature seam (issue 49 point 2): messages go to the feature whose prefix they carry,
// channels to the feature whose label prefix they carry (others are closed), and every feature
// hears a main channel open, a peer gone and the call's end. The session (session.ts) only hands
// these over; what each feature does is its own.

const CTX: FeatureContext = featureContext({
  selfId: 'me',
  fileLimit: 1024,
  peers: () => [],
  send: () => false,
  openChannel: async () => null,
  isHost: () => false,
  selfIsHost: () => false,
  setApart: () => undefined,
  inAnotherRoom: () => false,
});

/** A feature that writes down what it heard. */
function recorder(prefix: string, channelPrefix?: string) {
  const heard: string[] = [];
  const feature: CallFeature = {
    prefix,
    channelPrefix,
    receive: (peerId, message) => void heard.push(`receive ${peerId} ${message.t}`),
    channel: (peerId, channel) => void heard.push(`channel ${peerId} ${channel.label}`),
    channelOpen: (peerId) => void heard.push(`open ${peerId}`),
    peerGone: (peerId) => void heard.push(`gone ${peerId}`),
    close: () => void heard.push('close'),
  };
  return { feature, heard };
}

/** A data channel as the registry sees it: a label, and whether someone closed it. */
const channelNamed = (label: string) => {
  const channel = { label, closed: false, close: () => void (channel.closed = true) };
  return channel;
};

function twoFeatures() {
  const features = new CallFeatures(CTX);
  const poll = recorder('poll-');
  const files = recorder('file-', 'file:');
  features.register(poll.feature);
  features.register(files.feature);
  return { features, poll, files };
}

describe('messages by prefix', () => {
  it.each([
    { raw: { t: 'poll-vote', choice: 1 }, taken: true, poll: ['receive a poll-vote'], files: [] },
    { raw: { t: 'file-offer', id: 'x' }, taken: true, poll: [], files: ['receive a file-offer'] },
    { raw: { t: 'chat', text: 'hi' }, taken: false, poll: [], files: [] },
    { raw: { t: 'filex' }, taken: false, poll: [], files: [] },
    { raw: 'file-offer', taken: false, poll: [], files: [] },
    { raw: { t: 7 }, taken: false, poll: [], files: [] },
    { raw: null, taken: false, poll: [], files: [] },
  ])('$raw → taken $taken', ({ raw, taken, poll, files }) => {
    const call = twoFeatures();
    expect(call.features.receive('a', raw)).toBe(taken);
    expect(call.poll.heard).toEqual(poll);
    expect(call.files.heard).toEqual(files);
  });
});

describe('data channels by label', () => {
  it.each([
    { label: 'file:123', closed: false, files: ['channel a file:123'] },
    { label: 'poll:1', closed: true, files: [] },
    { label: 'whatever', closed: true, files: [] },
  ])('$label → closed $closed', ({ label, closed, files }) => {
    const call = twoFeatures();
    const channel = channelNamed(label);
    call.features.channel('a', channel as unknown as RTCDataChannel);
    expect(channel.closed).toBe(closed);
    expect(call.files.heard).toEqual(files);
    expect(call.poll.heard).toEqual([]);
  });
});

it('tells every feature of a main channel open and a peer gone, and closes each once at the end; nothing after', () => {
  const { features, poll, files } = twoFeatures();
  features.channelOpen('b');
  features.peerGone('a');
  features.close();
  features.close();
  expect(features.receive('a', { t: 'poll-vote' })).toBe(false);
  features.channelOpen('c');
  const late = channelNamed('file:9');
  features.channel('a', late as unknown as RTCDataChannel);
  expect(late.closed).toBe(true);
  for (const { heard } of [poll, files]) expect(heard).toEqual(['open b', 'gone a', 'close']);
});

it('refuses a feature whose prefix overlaps one registered, and forgets one unregistered', () => {
  const features = new CallFeatures(CTX);
  const files = recorder('file-', 'file:');
  const unregister = features.register(files.feature);
  expect(() => features.register(recorder('file-x').feature)).toThrow(/overlaps/);
  expect(() => features.register(recorder('fil').feature)).toThrow(/overlaps/);
  expect(() => features.register(recorder('board-', 'file:').feature)).toThrow(/overlaps/);
  unregister();
  expect(features.receive('a', { t: 'file-offer' })).toBe(false);
  expect(() => features.register(recorder('file-').feature)).not.toThrow();
});

it('makes a defined feature once per call (use), registered from then on', () => {
  let made = 0;
  const definition: FeatureDefinition<CallFeature> = {
    name: 'counted',
    create: () => {
      made += 1;
      return recorder('count-').feature;
    },
  };
  const features = new CallFeatures(CTX);
  expect(features.use(definition)).toBe(features.use(definition));
  expect(made).toBe(1);
  expect(features.receive('a', { t: 'count-1' })).toBe(true);
});

it('file transfer is a registered feature: a file channel before any transfer is refused, a file message loads the transfers', async () => {
  const features = new CallFeatures(CTX);
  const files = features.use(FILES);
  const early = channelNamed('file:1');
  features.channel('a', early as unknown as RTCDataChannel);
  expect(early.closed).toBe(true);
  expect(features.receive('a', { t: 'file-cancel', id: 'nothing' })).toBe(true);
  const transfers = await files.load();
  expect(transfers.getSnapshot()).toEqual([]);
  expect(transfers.limit).toBe(1024);
  features.close();
});
