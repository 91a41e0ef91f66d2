/**
 * A TCP proxy of the test's own between a till and its centre (issue 26): `cut()` drops every open
 * connection and refuses new ones (it stops listening), `restore()` listens on the same port again,
 * `delayMs` holds each chunk,
 * so a test can take the network away at any moment of a sale or of forwarding.
 */
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  url: string;
  port: number;
  cut(): void;
  restore(): void;
  /** Holds each chunk this long before passing it on (0: none). */
  delayMs: number;
  /** Connections opened so far (a test can wait for traffic). */
  readonly opened: number;
  /** Sends new connections to another port (a centre restarted on a new one); open ones are dropped. */
  retarget(port: number): void;
  close(): Promise<void>;
}

export async function startTcpProxy(initial: { host: string; port: number }): Promise<TcpProxy> {
  let target = initial;
  const open = new Set<Socket>();
  let cut = false;
  let opened = 0;
  const proxy: TcpProxy = {
    url: '',
    port: 0,
    delayMs: 0,
    get opened() {
      return opened;
    },
    cut() {
      // A cut link refuses new connections (as an unplugged network does not accept them) and drops open ones.
      if (!cut) server.close();
      cut = true;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    retarget(port) {
      target = { ...target, port };
      for (const socket of open) socket.destroy();
      open.clear();
    },
    restore() {
      if (cut) server.listen(proxy.port, '127.0.0.1');
      cut = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        const listening = !cut;
        proxy.cut();
        if (listening) server.once('close', () => resolve());
        else resolve();
      }),
  };
  const pass = (from: Socket, to: Socket) =>
    from.on('data', (chunk: Buffer) => {
      if (proxy.delayMs > 0) setTimeout(() => to.destroyed || to.write(chunk), proxy.delayMs);
      else if (!to.destroyed) to.write(chunk);
    });
  const server: Server = createServer((client) => {
    opened += 1;
    const upstream = connect(target.port, target.host);
    open.add(client);
    open.add(upstream);
    pass(client, upstream);
    pass(upstream, client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    // A side that closes ends the other once the chunks still held (delayMs) have gone through.
    const later = () => (proxy.delayMs > 0 ? setTimeout(end, proxy.delayMs + 5) : end());
    for (const socket of [client, upstream]) {
      socket.on('error', end);
      socket.on('close', later);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.port = (server.address() as AddressInfo).port;
  proxy.url = `http://127.0.0.1:${proxy.port}`;
  return proxy;
}
