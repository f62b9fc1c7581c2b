import { clientAddress, parseTrustedProxies, PEER_HEADER } from '@/lib/security/client-address';

// Issue 16, item 1: per-client limits key on the TCP peer; X-Forwarded-For only via trusted proxies.
const ask = (peer: string | null, forwarded: string | null, trusted = '') => {
  const headers = new Headers();
  if (peer !== null) headers.set(PEER_HEADER, peer);
  if (forwarded !== null) headers.set('x-forwarded-for', forwarded);
  return clientAddress(headers, parseTrustedProxies(trusted));
};

describe('the client address', () => {
  it.each([
    ['no proxy: the peer, whatever the client wrote', '203.0.113.9', '10.72.1.1', '', '203.0.113.9'],
    ['no proxy, no header', '203.0.113.9', null, '', '203.0.113.9'],
    ['an IPv4 peer on a dual-stack socket', '::ffff:203.0.113.9', null, '', '203.0.113.9'],
    ['an IPv6 peer', '2001:db8::7', '10.0.0.1', '', '2001:db8::7'],
    ['behind nginx on loopback: the hop before it', '127.0.0.1', '198.51.100.4', '127.0.0.1', '198.51.100.4'],
    ['a spoofed first entry is skipped: the right-most untrusted hop', '127.0.0.1', '6.6.6.6, 198.51.100.4', '127.0.0.1', '198.51.100.4'],
    ['two trusted proxies (CIDR) in a row', '10.0.0.2', '6.6.6.6, 198.51.100.4, 10.0.0.9', '10.0.0.0/8', '198.51.100.4'],
    ['a trusted proxy that forwards nothing is the client', '127.0.0.1', null, '127.0.0.1', '127.0.0.1'],
    ['a peer that is not a trusted proxy is the client, forwarded header or not', '198.51.100.4', '6.6.6.6', '10.0.0.0/8', '198.51.100.4'],
    ['garbage in the forwarded header is ignored', '127.0.0.1', 'unknown, <script>, 198.51.100.4', '127.0.0.1', '198.51.100.4'],
    ['IPv6 loopback proxy', '::1', '2001:db8::5', '::1', '2001:db8::5'],
    ['a platform that writes the header (*)', null, '198.51.100.4', '*', '198.51.100.4'],
    // Issue 32, item 3: a hop that is not an address ends the walk at the last trusted proxy.
    ['a last hop "unknown" is not skipped', '127.0.0.1', '6.6.6.6, unknown', '127.0.0.1', '127.0.0.1'],
    ['an obfuscated id (RFC 7239) is not skipped', '127.0.0.1', '6.6.6.6, _hidden', '127.0.0.1', '127.0.0.1'],
    ['a bracketed IPv6 hop without port is one', '::1', '6.6.6.6, [2001:db8::5]', '::1', '2001:db8::5'],
    // Issue 44, item 3: a hop with its port is its address (some gateways write the client's port);
    // reading it as "not an address" made every visitor the proxy, sharing one rate-limit bucket.
    ['a last hop written as ip:port is its address', '127.0.0.1', '6.6.6.6, 198.51.100.4:5123', '127.0.0.1', '198.51.100.4'],
    ['an IPv6 hop with its port in brackets is its address', '::1', '6.6.6.6, [2001:db8::5]:443', '::1', '2001:db8::5'],
    ['an IPv4-mapped hop in brackets with a port', '::1', '[::ffff:198.51.100.4]:443', '::1', '198.51.100.4'],
    ['a trusted hop with a port is walked past', '10.0.0.2', '6.6.6.6, 198.51.100.4:40001, 10.0.0.9:80', '10.0.0.0/8', '198.51.100.4'],
    ['a client-written hop with a port left of the real one is still skipped', '127.0.0.1', '127.0.0.1:80, 198.51.100.4:40001', '127.0.0.1', '198.51.100.4'],
    ['an unbracketed IPv6 address keeps its last group (it is not a port)', '::1', '2001:db8::5:443', '::1', '2001:db8::5:443'],
    ['a port out of range is not read', '127.0.0.1', '198.51.100.4:123456', '127.0.0.1', '127.0.0.1'],
    ['an empty port is not read', '127.0.0.1', '198.51.100.4:', '127.0.0.1', '127.0.0.1'],
    ['an unclosed bracket is not read', '::1', '[2001:db8::5:443', '::1', '::1'],
    ['a host name with a port is not read', '127.0.0.1', 'proxy.internal:8080', '127.0.0.1', '127.0.0.1'],
    ['an empty forwarded header: the trusted proxy is the client', '127.0.0.1', '', '127.0.0.1', '127.0.0.1'],
    ['a non-address between two trusted proxies ends the walk there', '10.0.0.2', '6.6.6.6, unknown, 10.0.0.9', '10.0.0.0/8', '10.0.0.9'],
    ['IPv6 CIDR', '2001:db8::1', '198.51.100.4', '2001:db8::/32', '198.51.100.4'],
    ['an IPv4-mapped hop is its IPv4 address', '127.0.0.1', '::ffff:198.51.100.4', '127.0.0.1', '198.51.100.4'],
  ])('%s', (_name, peer, forwarded, trusted, expected) => expect(ask(peer, forwarded, trusted)).toBe(expected));

  it('says once, not per request, that a trusted proxy sends hops it cannot read, without the hop', () => {
    jest.isolateModules(() => {
      // A fresh copy of the module: the table above has already met "unknown".
      const fresh = jest.requireActual<typeof import('@/lib/security/client-address')>('@/lib/security/client-address');
      const lines: string[] = [];
      const spy = jest.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
      try {
        const headers = (forwarded: string | null) => {
          const result = new Headers({ [fresh.PEER_HEADER]: '127.0.0.1' });
          if (forwarded !== null) result.set('x-forwarded-for', forwarded);
          return result;
        };
        const trusted = fresh.parseTrustedProxies('127.0.0.1');
        // A proxy that forwards nothing, or readable hops, is not worth a line.
        for (const forwarded of [null, '', '198.51.100.4', '198.51.100.4:40001', '[2001:db8::5]:443']) fresh.clientAddress(headers(forwarded), trusted);
        expect(lines).toEqual([]);
        for (let i = 0; i < 5; i += 1) expect(fresh.clientAddress(headers(`unknown-${i}`), trusted)).toBe('127.0.0.1');
        expect(lines).toHaveLength(1);
        expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'warn', proxy: '127.0.0.1', message: expect.stringContaining('X-Forwarded-For') });
        expect(lines[0]).not.toContain('unknown-');
      } finally {
        spy.mockRestore();
      }
    });
  });

  it('without the peer and without "*", a forwarded header is not believed', () => {
    expect(ask(null, '198.51.100.4')).toBe('unknown');
  });

  it.each([
    ['10.0.0.0/8, nginx', 'nginx'],
    ['localhost', 'localhost'],
    ['127.0.0.1/33', '127.0.0.1/33'],
    ['::1/129', '::1/129'],
    ['10.0.0.0/-1', '10.0.0.0/-1'],
    ['10.0.0.0/8/8', '10.0.0.0/8/8'],
    ['10.0.0.0/', '10.0.0.0/'],
    ['10.0.0.0/8.5', '10.0.0.0/8.5'],
    ['127.0.0.1:8080', '127.0.0.1:8080'],
  ])('refuses %j, naming the entry, rather than trusting the wrong hops', (value, entry) => {
    expect(() => parseTrustedProxies(value)).toThrow(`TRUSTED_PROXIES: "${entry}"`);
  });

  it.each(['', '*', '127.0.0.1', '10.0.0.0/8, ::1', '2001:db8::/32', '0.0.0.0/0', '::/0', ' 192.168.1.1 , 172.16.0.0/12 '])('reads %j', (value) => {
    expect(() => parseTrustedProxies(value)).not.toThrow();
  });
});
