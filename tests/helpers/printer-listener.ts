/**
 * A stand-in for a network receipt printer: a TCP listener on 127.0.0.1 (port 9100 style) that
 * keeps the bytes of every connection, one print job per connection, for tests to read back.
 */
import { createServer, type Server, type Socket } from 'node:net';

export interface PrintJob {
  bytes: Buffer;
  /** The job as text: ESC/POS bytes decoded as Windows-1252 (the code page the gateway selects). */
  text: string;
}

export interface PrinterListener {
  host: string;
  port: number;
  jobs: PrintJob[];
  /** Resolves once `count` jobs have arrived (or rejects after `timeoutMs`). */
  waitForJobs(count: number, timeoutMs?: number): Promise<PrintJob[]>;
  close(): Promise<void>;
}

/** Windows-1252 where it differs from Latin-1 (Node's TextDecoder reads 'windows-1252' as Latin-1). */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

export function decodeWindows1252(bytes: Buffer): string {
  let text = '';
  for (const byte of bytes) text += byte >= 0x80 && byte <= 0x9f ? CP1252_HIGH[byte - 0x80] : String.fromCharCode(byte);
  return text;
}

export async function startPrinterListener(): Promise<PrinterListener> {
  const jobs: PrintJob[] = [];
  const sockets = new Set<Socket>();
  const waiters: Array<() => void> = [];
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      if (chunks.length === 0) return;
      const bytes = Buffer.concat(chunks);
      jobs.push({ bytes, text: decodeWindows1252(bytes) });
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  return {
    host: '127.0.0.1',
    port: address.port,
    jobs,
    async waitForJobs(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (jobs.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} print jobs, got ${jobs.length}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 100);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return jobs.slice(0, count);
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
