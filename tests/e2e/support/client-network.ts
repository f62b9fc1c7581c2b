// A browser's own network address on a single machine. Linux gives every connection to a 127.x
// destination the source 127.0.0.1 (`ip route get 127.0.0.5` → src 127.0.0.1), and Chromium
// cannot choose its source address, so all browsers would look alike to a reverse proxy. Each
// browser context gets this small forward proxy instead (HTTP CONNECT, the TLS passes through
// untouched): it opens the browser's connections from the loopback address given, as if the
// browser sat on its own host. It tunnels only to the names it maps, so nothing leaves loopback.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface ClientNetwork {
  /** The proxy for the browser context: http://127.0.0.1:port. */
  proxy: string;
  /** The address the browser's connections come from. */
  address: string;
  stop: () => Promise<void>;
}

/** `hosts`: the names the browser may reach ("enclave.test") and the loopback address each stands for. */
export async function startClientNetwork(address: string, hosts: Record<string, string>): Promise<ClientNetwork> {
  const tunnels = new Set<Socket>();
  const server: Server = createServer((_request, response) => {
    // Only tunnels: a plain http:// request through this proxy is not a browser's path to the app.
    response.writeHead(405, { Connection: 'close' }).end();
  });
  server.on('connect', (request, client: Socket, head: Buffer) => {
    const [name = '', port = ''] = (request.url ?? '').split(':');
    const target = hosts[name];
    if (!target || !/^\d+$/.test(port)) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = connect({ host: target, port: Number(port), localAddress: address }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      tunnels.add(socket);
      socket.on('close', () => tunnels.delete(socket));
    }
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    proxy: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    address,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of tunnels) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
