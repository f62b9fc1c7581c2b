// Bench only: "encryption off" for `npm run bench:join`. The app has no such switch and must never
// get one (E2EE.md: a call is never admitted without frame encryption), so the benchmark changes
// the browser instead. Given to Playwright's `context.addInitScript`, this runs in every page
// before the app and turns WebRTC into plain DTLS-SRTP:
// - RTCPeerConnection drops `encodedInsertableStreams` from its config, so frames go from the
//   encoder to the packetizer (and from the depacketizer to the decoder) natively, never through JS;
// - createEncodedStreams() stays on RTCRtpSender/RTCRtpReceiver, so the app still finds a frame API
//   (framePath() refuses a browser without one), but it returns streams that never carry a frame:
//   the app's transforms sit idle, its keys are made and its counters stay at zero;
// - RTCRtpScriptTransform is hidden, so no worker path can pick the frames up either.
// Signaling, key exchange, signed descriptions and data-channel encryption are untouched: "off"
// measures only the per-frame cost. The function must be self-contained (Playwright serializes it).
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
  window.enclaveBenchPlain = true;
}
