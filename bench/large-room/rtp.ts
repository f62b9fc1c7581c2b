// The few RTP bits a Node participant needs (RFC 3550): a 12-byte header for the audio it sends,
// and where the payload of a received packet starts. Its RTP payload is one encrypted Opus frame
// in the app's frame format (lib/meeting/e2ee/frame.ts), exactly what the browser's
// depacketizer hands its receiver transform.

export interface RtpSender {
  ssrc: number;
  payloadType: number;
  sequence: number;
  timestamp: number;
}

export function newRtpSender(payloadType: number): RtpSender {
  return {
    ssrc: (Math.random() * 0xffffffff) >>> 0 || 1,
    payloadType,
    sequence: (Math.random() * 0xffff) >>> 0,
    timestamp: (Math.random() * 0xffffffff) >>> 0,
  };
}

/** One packet for `payload`; advances the sender's sequence number and clock by `samples`. */
export function rtpPacket(sender: RtpSender, payload: Uint8Array, samples: number): Buffer {
  const packet = Buffer.alloc(12 + payload.length);
  packet[0] = 0x80;
  packet[1] = sender.payloadType & 0x7f;
  packet.writeUInt16BE(sender.sequence, 2);
  packet.writeUInt32BE(sender.timestamp >>> 0, 4);
  packet.writeUInt32BE(sender.ssrc, 8);
  packet.set(payload, 12);
  sender.sequence = (sender.sequence + 1) & 0xffff;
  sender.timestamp = (sender.timestamp + samples) >>> 0;
  return packet;
}

/** The payload of an RTP packet, or null for RTCP and anything malformed. */
export function rtpPayload(packet: Uint8Array): Uint8Array | null {
  if (packet.length < 12 || packet[0]! >> 6 !== 2) return null;
  const type = packet[1]! & 0x7f;
  if (type >= 64 && type <= 95) return null; // RTCP (SR, RR, SDES, BYE, feedback)
  let start = 12 + 4 * (packet[0]! & 0x0f);
  if (packet[0]! & 0x10) {
    if (packet.length < start + 4) return null;
    start += 4 + 4 * ((packet[start + 2]! << 8) | packet[start + 3]!);
  }
  const padding = packet[0]! & 0x20 ? packet[packet.length - 1]! : 0;
  const end = packet.length - padding;
  return end > start ? packet.subarray(start, end) : null;
}
