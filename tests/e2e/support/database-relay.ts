// A TCP relay between an app instance and the real PostgreSQL, which a test cuts and restores:
// cut, the listener is closed and every open connection dropped, so the app sees what a stopped
// database gives it (connections closed, then ECONNREFUSED); restored, it connects again.
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface DatabaseRelay {
  /** The database URL through the relay. */
  url: string;
  cut: () => Promise<void>;
  restore: () => Promise<void>;
}

export async function startDatabaseRelay(databaseUrl: string, port: number): Promise<DatabaseRelay> {
  const target = new URL(databaseUrl);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = createConnection(Number(target.port || 5432), target.hostname);
        track(client);
        track(upstream);
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
  await listen();
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    cut: async () => {
      const closed = new Promise((resolve) => server?.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    restore: listen,
  };
}
