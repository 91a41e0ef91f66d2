/**
 * ESC/POS receipt printers through node-thermal-printer (docs/decisions.md): Epson's command set,
 * which most receipt printers speak, over the network (raw TCP, port 9100, the library's network
 * interface) or to a USB printer's device file (e.g. /dev/usb/lp0). Each print is one job: ESC @
 * (initialise), the code page (Windows-1252: €, •, umlauts, accents), the lines the core laid out,
 * a feed and a full cut. The device file is written here, opened without O_CREAT (an unplugged
 * printer is an error, never a new file) and with a time limit; the library's file interface
 * would retry for minutes in the background. Never throws: a printer that does not answer is a
 * `failed` outcome whose message names the problem, never the receipt's content.
 */
import { constants as fsConstants } from 'node:fs';
import { open } from 'node:fs/promises';
import { BreakLine, CharacterSet, PrinterTypes, ThermalPrinter } from 'node-thermal-printer';
import type { PrintDocument, PrinterOutcome, PrinterTarget, ReceiptPrinter } from '../core/receipts/ports.js';

const INITIALIZE = Buffer.from([0x1b, 0x40]);
const TIMEOUT_MS = 4000;

/** One print job for a network printer (the library's TCP interface), or only its bytes (getBuffer). */
export function escPosJob(document: PrintDocument, host = 'localhost', port = 9100): ThermalPrinter {
  const printer = new ThermalPrinter({
    type: PrinterTypes.EPSON,
    interface: `tcp://${host}:${port}`,
    // The core lays lines out for the printer's width; the library must not fold them again.
    width: 64,
    breakLine: BreakLine.NONE,
    options: { timeout: TIMEOUT_MS },
  });
  printer.add(INITIALIZE);
  printer.setCharacterSet(CharacterSet.WPC1252);
  for (const line of document.lines) {
    if (line.align === 'center') printer.alignCenter();
    else printer.alignLeft();
    if (line.bold) printer.bold(true);
    if (line.tall) printer.setTextDoubleHeight();
    printer.println(line.text);
    if (line.tall) printer.setTextNormal();
    if (line.bold) printer.bold(false);
  }
  printer.alignLeft();
  printer.newLine();
  printer.cut();
  return printer;
}

function reason(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : '';
  if (code === 'ECONNREFUSED') return 'connection refused (is it switched on, and is the port right?)';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'not reachable on the network';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host name not found';
  if (code === 'ENOENT') return 'no such device (is it plugged in?)';
  if (code === 'EACCES' || code === 'EPERM') return 'no permission to write to the device';
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : 'unknown error';
  return /timeout/i.test(text) ? 'no answer (timed out)' : text.slice(0, 200);
}

/** Writes a job to a USB printer's device file, which must exist (no O_CREAT), within the time limit. */
async function writeDevice(device: string, bytes: Buffer): Promise<void> {
  const handle = await open(device, fsConstants.O_WRONLY | (fsConstants.O_NOCTTY ?? 0));
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      handle.writeFile(bytes),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    await handle.close().catch(() => undefined);
  }
}

export function createEscPosPrinter(): ReceiptPrinter {
  return {
    async print(target: PrinterTarget, document: PrintDocument): Promise<PrinterOutcome> {
      try {
        if (target.connection === 'network') {
          await escPosJob(document, target.host, target.port).execute();
        } else {
          await writeDevice(target.device, escPosJob(document).getBuffer());
        }
        return { kind: 'printed' };
      } catch (error) {
        return { kind: 'failed', message: reason(error) };
      }
    },
  };
}
