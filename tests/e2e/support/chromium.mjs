// Debian's Chromium and the flags every run uses (tests and benchmarks alike): off the closed
// network, fake camera and microphone, and loopback WebRTC in headless mode (E2EE.md
// "Testing in headless Chromium": without the last two a host with only `lo` gathers no ICE
// candidate, and mDNS hides the addresses peers need).
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Off the closed network: nothing that calls Google (and waits on it). Benchmarks use these too. */
export const offlineArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const chromiumArgs = [
  ...offlineArgs,
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  '--auto-select-desktop-capture-source=Entire screen',
  '--allow-loopback-in-peer-connection',
  '--disable-features=WebRtcHideLocalIpsWithMdns',
];
