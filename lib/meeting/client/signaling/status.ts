// The signaling channel's state as the call screen shows it (a plain type: the machine holds it
// without importing fetch).
export type SignalingStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';
