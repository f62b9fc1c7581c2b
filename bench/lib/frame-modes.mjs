// Bench only: init scripts for `npm run bench:join`, given to Playwright's
// `context.addInitScript` so they run in every page before the app. The app has no switch for
// any of this and must never get one (docs/e2ee-crypto.md: a call is never admitted without frame
// encryption), so the benchmark changes the browser instead. Each function must be
// self-contained (Playwright serializes it).

/**
 * "off": plain DTLS-SRTP under the same app.
 * - RTCPeerConnection drops `encodedInsertableStreams` from its config, so frames go from the
 *   encoder to the packetizer (and from the depacketizer to the decoder) natively, never through JS;
 * - createEncodedStreams() stays on RTCRtpSender/RTCRtpReceiver, so the app still finds a frame API
 *   (framePath() refuses a browser without one), but it returns streams that never carry a frame:
 *   the app's transforms sit idle, its keys are made and its counters stay at zero;
 * - RTCRtpScriptTransform is hidden, so no worker path can pick the frames up either.
 * Signaling, key exchange, signed descriptions and data-channel encryption are untouched: "off"
 * measures only the per-frame cost.
 */
export function plainWebRtc() {
  const NativePeerConnection = window.RTCPeerConnection;
  class PlainPeerConnection extends NativePeerConnection {
    constructor(config, ...rest) {
      const plain = { ...config };
      delete plain.encodedInsertableStreams;
      super(plain, ...rest);
    }
  }
  // Static generateCertificate() comes along with `extends`.
  window.RTCPeerConnection = PlainPeerConnection;

  const inertStreams = () => ({ readable: new ReadableStream(), writable: new WritableStream() });
  RTCRtpSender.prototype.createEncodedStreams = inertStreams;
  RTCRtpReceiver.prototype.createEncodedStreams = inertStreams;
  delete window.RTCRtpScriptTransform;
  // For the benchmark's own check that this script ran.
  window.enclaveBenchMode = 'off';
}

/**
 * "identity": every frame goes through Chromium's encoded-frame plumbing exactly as with
 * encryption (encodedInsertableStreams, createEncodedStreams(), the streams handed to a worker),
 * but the worker passes it on untouched. What "identity" costs over "off" is the browser's price
 * for any frame transform; what "on" costs over "identity" is Enclave's encryption. The app gets
 * inert streams, as with "off". Needs a context with `bypassCSP` (the worker is a blob).
 */
export function identityFrames() {
  const worker = new Worker(
    URL.createObjectURL(
      new Blob(
        [
          'onmessage = ({ data: { readable, writable } }) => {' +
            ' readable.pipeThrough(new TransformStream({ transform(frame, controller) { controller.enqueue(frame); } })).pipeTo(writable); };',
        ],
        { type: 'text/javascript' },
      ),
    ),
  );
  const NativePeerConnection = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends NativePeerConnection {
    constructor(config, ...rest) {
      super({ ...config, encodedInsertableStreams: true }, ...rest);
    }
  };
  for (const prototype of [RTCRtpSender.prototype, RTCRtpReceiver.prototype]) {
    const native = prototype.createEncodedStreams;
    prototype.createEncodedStreams = function identity() {
      const { readable, writable } = native.call(this);
      worker.postMessage({ readable, writable }, [readable, writable]);
      return { readable: new ReadableStream(), writable: new WritableStream() };
    };
  }
  delete window.RTCRtpScriptTransform;
  window.enclaveBenchMode = 'identity';
}

/**
 * Every mode: keeps the page's peer connections in `window.enclaveBenchConnections`, so the
 * benchmark can read what the camera senders send (resolution, frame rate, what limits them).
 */
export function watchPeerConnections() {
  const NativePeerConnection = window.RTCPeerConnection;
  const connections = [];
  window.enclaveBenchConnections = connections;
  window.RTCPeerConnection = class extends NativePeerConnection {
    constructor(...args) {
      super(...args);
      connections.push(this);
    }
  };
}

/**
 * CAMERA=WxH: the camera the app asks for, whatever its own constraints (1280x720), so that a
 * call of four fits on two cores. The app's sending policy still applies on top.
 */
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
 * What a person feels when joining, on the page's own clock: from the trusted click on "Join
 * now" (its event.timeStamp) to each remote participant's first video frame presented on screen
 * (requestVideoFrameCallback) — the moment other products' join figures start and end.
 * `trace`: also poll each connection's stats for JOIN_TRACE's breakdown (it costs the page time).
 */
export function markJoin(options = {}) {
  const remote = new Set();
  const NativePeerConnection = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends NativePeerConnection {
    constructor(...args) {
      super(...args);
      join.connections.push({
        created: performance.now(),
        connected: null,
        track: null,
        packet: null,
        decoded: null,
        encoded: null,
        sent: null,
        local: null,
        remote: null,
        candidate: null,
        ice: null,
      });
      const mark = join.connections.at(-1);
      // The negotiation's steps: our description set, theirs, their first candidate (in it or alone), ICE connected.
      this.addEventListener('signalingstatechange', () => {
        if (this.localDescription) mark.local ??= performance.now();
        if (this.remoteDescription) mark.remote ??= performance.now();
        // Their first candidates, when their description carries them (local-candidates.ts).
        if (this.remoteDescription?.sdp.includes('a=candidate:')) mark.candidate ??= performance.now();
      });
      this.addEventListener('iceconnectionstatechange', () => {
        if (this.iceConnectionState === 'connected' || this.iceConnectionState === 'completed') mark.ice ??= performance.now();
      });
      // With JOIN_TRACE: when each negotiation step was called and when it settled.
      if (options.trace) {
        mark.calls = [];
        for (const name of ['setRemoteDescription', 'createAnswer', 'createOffer', 'setLocalDescription']) {
          const method = this[name].bind(this);
          this[name] = (...callArgs) => {
            const started = performance.now();
            const result = method(...callArgs);
            void result.finally(() => mark.calls.push({ name, started, settled: performance.now() }));
            return result;
          };
        }
      }
      const addIceCandidate = this.addIceCandidate.bind(this);
      this.addIceCandidate = (candidate) => {
        if (candidate?.candidate) mark.candidate ??= performance.now();
        return addIceCandidate(candidate);
      };
      this.addEventListener('track', (event) => {
        remote.add(event.track.id);
        if (event.track.kind === 'video') mark.track ??= performance.now();
      });
      this.addEventListener('connectionstatechange', () => {
        if (this.connectionState !== 'connected' || mark.connected !== null) return;
        mark.connected = performance.now();
        // After DTLS, with JOIN_TRACE only: when the first video packet arrived and the first
        // frame was decoded. getStats() every 5 ms costs the page (and WebRTC's signaling
        // thread) time the measured join would otherwise have.
        if (!options.trace) return;
        const poll = async () => {
          const stats = await this.getStats().catch(() => new Map());
          if (mark.encoded === null) {
            const video = this.getSenders().find((sender) => sender.track?.kind === 'video');
            const encoding = video?.getParameters().encodings?.[0];
            mark.polls = [
              ...(mark.polls ?? []),
              `${Math.round(performance.now() - mark.connected)}:${video ? (encoding?.active === false ? 'inactive' : 'active') : 'no-track'}`,
            ];
            stats.forEach((stat) => {
              if (stat.type === 'media-source' && stat.kind === 'video') mark.polls.push(`src${stat.frames}`);
              if (stat.type === 'outbound-rtp' && stat.kind === 'video')
                mark.polls.push(`lim:${stat.qualityLimitationReason}/${Math.round((stat.targetBitrate ?? 0) / 1000)}k/${stat.frameWidth ?? '-'}`);
              if (stat.type === 'candidate-pair' && stat.nominated) mark.polls.push(`bwe:${Math.round((stat.availableOutgoingBitrate ?? 0) / 1000)}k`);
            });
          }
          stats.forEach((stat) => {
            if (stat.type === 'outbound-rtp' && stat.kind === 'video') {
              if (stat.targetBitrate > 0) mark.target ??= performance.now();
              if (stat.framesEncoded > 0) mark.encoded ??= performance.now();
              if (stat.packetsSent > 0) mark.sent ??= performance.now();
            }
            if (stat.type !== 'inbound-rtp' || stat.kind !== 'video') return;
            if (stat.packetsReceived > 0) mark.packet ??= performance.now();
            if (stat.framesDecoded > 0) mark.decoded ??= performance.now();
          });
          if ((mark.decoded === null || mark.sent === null) && this.connectionState === 'connected') setTimeout(poll, 5);
        };
        void poll();
      });
    }
  };
  // Where the time goes: each connection's creation and its DTLS "connected", on the same clock,
  // and when each API answer's headers came (a stream's too, which resource timing shows late).
  const join = { click: null, clickEpoch: null, frames: [], connections: [], fetches: [], events: [] };
  const nativeFetch = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const entry = {
      url: String(input instanceof Request ? input.url : input),
      method: init?.method ?? 'GET',
      start: performance.now(),
      headers: null,
      what: describeBody(init?.body),
    };
    join.fetches.push(entry);
    const response = await nativeFetch(input, init);
    entry.headers = performance.now();
    if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
    // The event stream (GET …/signal, or the one POST …/join opens): when each event arrived (on the epoch clock, to compare pages).
    const [forApp, forTrace] = response.body.tee();
    void (async () => {
      const reader = forTrace.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        for (const match of decoder.decode(value, { stream: true }).matchAll(/event: ([\w-]+)\ndata: (.*)\n/g)) {
          let what = match[1];
          try {
            const event = JSON.parse(match[2]);
            if (event.envelope) what = `signal ${describeBody(JSON.stringify({ envelope: event.envelope }))}`;
          } catch {
            // a partial line: the type is enough
          }
          join.events.push({ at: performance.timeOrigin + performance.now(), what });
        }
      }
    })();
    return new Response(forApp, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  window.enclaveJoin = join;
  // What a signaling POST carried: its envelopes' kinds, a signed one by what it signs.
  function describeBody(body) {
    try {
      const message = JSON.parse(body);
      const envelopes = message.envelopes ?? (message.envelope ? [message.envelope] : []);
      return envelopes
        .map((text) => {
          const envelope = JSON.parse(text);
          if (envelope.k !== 'signed') return envelope.k;
          const signed = envelope.signal?.body ?? {};
          if (signed.description) return signed.description.type;
          return signed.candidate ? 'candidate' : 'end-of-candidates';
        })
        .join('+');
    } catch {
      return '';
    }
  }
  document.addEventListener(
    'click',
    (event) => {
      const button = event.target instanceof Element ? event.target.closest('button') : null;
      if (event.isTrusted && join.click === null && button?.textContent?.trim() === 'Join now') {
        join.click = event.timeStamp;
        join.clickEpoch = performance.timeOrigin + event.timeStamp;
      }
    },
    true,
  );
  const hooked = new WeakSet();
  const scan = () => {
    for (const video of document.querySelectorAll('video')) {
      const track = video.srcObject instanceof MediaStream ? video.srcObject.getVideoTracks()[0] : undefined;
      if (!track || hooked.has(video) || !remote.has(track.id)) continue;
      hooked.add(video);
      video.requestVideoFrameCallback((now) => join.frames.push({ track: track.id, at: now }));
    }
    requestAnimationFrame(scan);
  };
  requestAnimationFrame(scan);
}
