// Waiting for a data channel's send buffer to empty enough (transfers.ts pump).

/** Resolves when the channel's buffer falls below its threshold, or the channel closes. */
export function drained(channel: RTCDataChannel): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      channel.removeEventListener('bufferedamountlow', done);
      channel.removeEventListener('close', done);
      resolve();
    };
    channel.addEventListener('bufferedamountlow', done);
    channel.addEventListener('close', done);
  });
}
