// What the large-room benchmark runs inside the browsers' pages: init scripts (before the app)
// and functions given to page.evaluate. Reads the app's test probe (window.enclaveProbe)
// defensively: without it, audio is read from the connections the page made.

/**
 * Init script: every RTCPeerConnection the page makes, the trusted click on "Join now", and the
 * signals the page posts (requests and envelopes: lib/meeting/client/signaling/signaling.ts send). A
 * link to another participant is marked (`meshLink`): it makes its main channel negotiated
 * (links/link-channels.ts), the SFU's connections never do (sfu/sfu-channels.ts), and both kinds
 * carry data channels now.
 */
export function watchPage() {
  const Native = window.RTCPeerConnection;
  const connections = [];
  const signals = { requests: 0, envelopes: 0 };
  window.largeRoom = { connections, click: null, signals };
  const nativeFetch = window.fetch.bind(window);
  window.fetch = (input, init) => {
    try {
      const url = new URL(typeof input === 'string' ? input : (input?.url ?? String(input)), location.href);
      if (init?.method === 'POST' && url.pathname.endsWith('/signal') && typeof init.body === 'string') {
        const message = JSON.parse(init.body);
        if (message.type === 'signal' || message.type === 'signals') {
          signals.requests += 1;
          signals.envelopes += message.type === 'signals' ? message.envelopes.length : 1;
        }
      }
    } catch {
      // not one to count
    }
    const started = performance.now();
    const answer = nativeFetch(input, init);
    // The join's answer is its event stream (resource timing only sees it end): when its headers came.
    if (init?.method === 'POST' && /\/api\/meeting\/[^/]+\/join$/.test(String(input?.url ?? input)))
      void answer.then(() => (window.largeRoom.join = { started, answered: performance.now() })).catch(() => undefined);
    return answer;
  };
  // Room for every signal of a join of 50 (joinRequests); the default keeps 250 entries.
  performance.setResourceTimingBufferSize(20_000);
  window.RTCPeerConnection = class extends Native {
    constructor(...args) {
      super(...args);
      connections.push(this);
    }

    createDataChannel(label, init) {
      if (init?.negotiated) this.meshLink = true;
      return super.createDataChannel(label, init);
    }
  };
  document.addEventListener(
    'click',
    (event) => {
      const button = event.target instanceof Element ? event.target.closest('button') : null;
      if (event.isTrusted && window.largeRoom.click === null && button?.textContent?.trim() === 'Join now') {
        window.largeRoom.click = event.timeStamp;
        performance.clearResourceTimings();
      }
    },
    true,
  );
}

/** Init script: the camera size asked for (CAMERA=WxH), whatever the app's own constraints. */
export function cameraSize([width, height]) {
  const devices = navigator.mediaDevices;
  const getUserMedia = devices.getUserMedia.bind(devices);
  devices.getUserMedia = (constraints) =>
    getUserMedia(
      constraints?.video
        ? { ...constraints, video: { ...(typeof constraints.video === 'object' ? constraints.video : {}), width: { exact: width }, height: { exact: height } } }
        : constraints,
    );
}

/**
 * Per remote participant: audio samples received and frames decrypted (cumulative), or per
 * connection when the app's probe is gone; plus the page clock. Through the SFU, samples are per
 * received stream (`streams`), Janus's mids not being matched to participants here.
 */
export async function audioByPeer() {
  const probe = window.enclaveProbe;
  const out = { at: performance.now(), click: window.largeRoom?.click ?? null, probe: !!probe, peers: {} };
  // Through the SFU: frames opened per sender (the worker's 'sfu:<id>'), and the audio streams the
  // SFU's receiving connection decodes (the connections not marked as links are the SFU's).
  if (probe?.mediaRoute?.() === 'sfu') {
    const crypto = await probe.encryptionStats();
    // Those in the call now (a browser that left keeps its counters in the worker).
    for (const peer of probe.getState().peers) {
      const received = crypto[`sfu:${peer.id}`]?.received;
      const failed = received ? Object.values(received.failed).reduce((a, b) => a + b, 0) : 0;
      out.peers[peer.id] = {
        connected: true,
        samples: null,
        decrypted: received?.decrypted ?? 0,
        failed,
        failedBy: received?.failed,
        name: peer.name,
        keys: peer.keys,
        track: !!peer.tracks.audio,
      };
    }
    out.sfu = true;
    // Every sender the worker has counted, those gone too: where a stream's frames went.
    out.workers = Object.fromEntries(
      Object.entries(crypto)
        .filter(([key]) => key.startsWith('sfu:'))
        .map(([key, entry]) => [key.slice(4), { decrypted: entry.received.decrypted, failed: entry.received.failed }]),
    );
    out.streams = {};
    for (const [index, pc] of (window.largeRoom?.connections ?? []).entries()) {
      if (pc.connectionState === 'closed' || pc.meshLink) continue;
      (await pc.getStats()).forEach((s) => {
        if (s.type === 'inbound-rtp' && s.kind === 'audio') out.streams[`${index}:${s.id}`] = s.totalSamplesReceived ?? 0;
      });
    }
    return out;
  }
  if (probe?.stats && probe?.encryptionStats) {
    const [links, crypto] = await Promise.all([probe.stats(), probe.encryptionStats()]);
    for (const [id, link] of Object.entries(links)) {
      const received = crypto[id]?.received;
      const failed = received ? Object.values(received.failed).reduce((a, b) => a + b, 0) : 0;
      out.peers[id] = { connected: link.connection === 'connected', samples: link.audioSamplesReceived, decrypted: received?.decrypted ?? 0, failed };
    }
    return out;
  }
  for (const [index, pc] of (window.largeRoom?.connections ?? []).entries()) {
    if (pc.connectionState === 'closed') continue;
    let samples = 0;
    (await pc.getStats()).forEach((s) => {
      if (s.type === 'inbound-rtp' && s.kind === 'audio') samples += s.totalSamplesReceived ?? 0;
    });
    out.peers[`connection ${index}`] = { connected: pc.connectionState === 'connected', samples, decrypted: null, failed: null };
  }
  return out;
}

/**
 * What the page sends (and receives, all kinds): bytes per kind summed over its open connections, and each camera
 * sender's encoding (the quality policy's setParameters) and resolution.
 */
export async function uplink() {
  const out = { at: performance.now(), connections: 0, audioBytes: 0, videoBytes: 0, receivedBytes: 0, receivedPackets: 0, camera: [] };
  for (const pc of window.largeRoom?.connections ?? []) {
    if (pc.connectionState !== 'connected') continue;
    out.connections += 1;
    const cameraSender = pc.getTransceivers()[1]?.sender;
    const encodings = cameraSender?.getParameters().encodings ?? [];
    const encoding = encodings[0] ?? {};
    // Through the SFU the camera goes up in simulcast layers: each one's cap.
    let camera = {
      maxBitrate: encodings.length > 1 ? encodings.map((e) => e.maxBitrate ?? null).join('/') : (encoding.maxBitrate ?? null),
      heights: [],
      active: encoding.active ?? null,
      scale: encoding.scaleResolutionDownBy ?? null,
      fps: encoding.maxFramerate ?? null,
      bytes: 0,
      height: null,
      track: !!cameraSender?.track,
    };
    const cameraMid = pc.getTransceivers()[1]?.mid;
    (await pc.getStats()).forEach((s) => {
      if (s.type === 'inbound-rtp') {
        out.receivedBytes += s.bytesReceived ?? 0;
        out.receivedPackets += s.packetsReceived ?? 0;
      }
      if (s.type !== 'outbound-rtp') return;
      if (s.kind === 'audio') out.audioBytes += s.bytesSent ?? 0;
      if (s.kind === 'video') {
        out.videoBytes += s.bytesSent ?? 0;
        if (s.mid === cameraMid)
          camera = {
            ...camera,
            bytes: camera.bytes + (s.bytesSent ?? 0),
            height: s.frameHeight ?? camera.height,
            heights: [...camera.heights, s.frameHeight ?? 0],
          };
      }
    });
    out.camera.push(camera);
  }
  return out;
}

/**
 * Where a join's time goes on the network, on the page's clock since the click on "Join now"
 * (resource timing): the join request, the event stream's first byte, the SFU ticket, and the
 * signals this page sent (key exchange and sender keys) with the first and last of them.
 */
export function joinRequests() {
  const click = window.largeRoom?.click;
  if (click === null || click === undefined) return null;
  const entries = performance.getEntriesByType('resource').filter((entry) => entry.startTime >= click - 50);
  const at = (ms) => Math.round(ms - click);
  const first = (pattern) => entries.find((entry) => pattern.test(entry.name));
  const signals = entries.filter((entry) => /\/signal$/.test(new URL(entry.name).pathname));
  const join = first(/\/api\/meeting\/[^/]+\/join$/);
  const stream = first(/\/api\/meeting\/[^/]+\/stream/);
  const ticket = first(/\/api\/meeting\/[^/]+\/sfu$/);
  return {
    join: join
      ? `${at(join.startTime)}→${at(join.responseEnd)}`
      : window.largeRoom.join
        ? `${at(window.largeRoom.join.started)}→answered ${at(window.largeRoom.join.answered)}`
        : '-',
    stream: stream ? `${at(stream.startTime)}→first byte ${at(stream.responseStart)}` : '-',
    ticket: ticket ? `${at(ticket.startTime)}→${at(ticket.responseEnd)}` : '-',
    signals: signals.length ? `${signals.length} sent, ${at(signals[0].startTime)}→${at(signals.at(-1).responseEnd)}` : 'none',
    // Code the join loaded after the click (the SFU side is imported on the first move to it: call/sfu-route.ts).
    scripts: entries
      .filter((entry) => entry.initiatorType === 'script' || /\.js$/.test(new URL(entry.name).pathname))
      .map((entry) => `${new URL(entry.name).pathname.split('/').pop()} ${at(entry.startTime)}→${at(entry.responseEnd)}`),
  };
}

/** The signals this page posted so far (watchPage). */
export function signalsSent() {
  return window.largeRoom?.signals ?? { requests: 0, envelopes: 0 };
}

/**
 * The call's messages and connections as the page holds them (crowd-policy.ts PageMessages): what
 * its SFU side opened and dropped (the probe's sfuMessages), the chats it shows, its links to other
 * participants (held, connected) and every RTCPeerConnection not closed (links and the SFU's two).
 */
export async function messagesInPage() {
  const probe = window.enclaveProbe;
  const reports = probe?.stats ? await probe.stats() : {};
  const links = Object.values(reports);
  return {
    sfu: probe?.sfuMessages?.() ?? null,
    chats: probe?.getState?.().chat.length ?? 0,
    links: links.length,
    linksConnected: links.filter((link) => link.connection === 'connected').length,
    connections: (window.largeRoom?.connections ?? []).filter((pc) => pc.connectionState !== 'closed').length,
  };
}
