import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP relay in front of a server that a test can freeze (connections stay open, nothing moves:
 * a hung host or a partition), cut (every connection refused and reset: the server is down) or
 * slow down (every answer arrives `ms` late, in order: an overloaded server).
 */
export class TcpProxy {
  private readonly sockets = new Set<net.Socket>();
  private frozen = false;
  private down = false;
  private delayMs = 0;
  private readonly server = net.createServer((client) => this.relay(client));
  port = 0;

  private constructor(private readonly target: { host: string; port: number }) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    proxy.port = (proxy.server.address() as AddressInfo).port;
    return proxy;
  }

  freeze(): void {
    this.frozen = true;
    for (const socket of this.sockets) socket.pause();
  }

  cut(): void {
    this.down = true;
    for (const socket of this.sockets) socket.destroy();
  }

  slow(ms: number): void {
    this.delayMs = ms;
  }

  restore(): void {
    this.frozen = false;
    this.down = false;
    this.delayMs = 0;
    for (const socket of this.sockets) socket.resume();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private relay(client: net.Socket): void {
    if (this.down) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(this.target);
    for (const [from, to] of [[client, upstream], [upstream, client]]) {
      this.sockets.add(from);
      if (this.frozen) from.pause();
      const answers = from === upstream;
      let lastDue = 0;
      from.on('data', (chunk) => {
        if (!answers) return void to.write(chunk);
        // Never before an earlier chunk (timers due in order fire in order), so the stream stays whole.
        lastDue = Math.max(Date.now() + this.delayMs, lastDue);
        setTimeout(() => to.write(chunk), lastDue - Date.now());
      });
      from.on('close', () => {
        this.sockets.delete(from);
        to.destroy();
      });
      from.on('error', () => to.destroy());
    }
  }
}
