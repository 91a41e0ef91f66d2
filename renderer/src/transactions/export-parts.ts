/**
 * The CSV export in parts (the desktop window, whose preload bridge carries whole answers, not
 * streams): GET /rest/transactions/export with `limit`, then again after the X-Next-Starting-After
 * of each part with `header=0`, until a part names no next one; progress after each part (rows of
 * the X-Total-Count of the first), Cancel between parts. The parts joined are the file one streamed
 * export gives. Free of the DOM and of Node, so node:test runs it against the real bridge.
 */
import { EXPORT_NEXT_HEADER, EXPORT_TOTAL_HEADER } from '../../../contract/transaction-list.js';
import { pathOf } from '../../../contract/paths.js';

export interface ExportProgress {
  rows: number;
  bytes: number;
  /** Rows of the whole export, as the gateway counted them at its start. */
  total: number | null;
}

export interface ExportResult {
  blob: Blob;
  filename: string;
  rows: number;
  bytes: number;
}

/** An answer as the app's transport gives it (api/transport.ts TransportResponse). */
export interface PartAnswer {
  status: number;
  headers: { get(name: string): string | null };
  body: unknown;
}

/** Rows of one export part in the desktop window. */
export const PART_ROWS = 5000;

const QUOTE = 34;
const NEWLINE = 10;

/**
 * Counts the lines of a CSV as its bytes arrive, part by part: a line break inside a quoted field
 * (a message or additional data may hold one) starts no new line. In UTF-8 neither byte occurs
 * inside another character.
 */
export function csvLineCounter(): { add: (bytes: Uint8Array) => void; readonly lines: number } {
  let lines = 0;
  let quoted = false;
  return {
    add(bytes) {
      for (const byte of bytes) {
        if (byte === QUOTE) quoted = !quoted;
        else if (byte === NEWLINE && !quoted) lines += 1;
      }
    },
    get lines() {
      return lines;
    },
  };
}

const two = (n: number) => String(n).padStart(2, '0');

/** `transactions-20261123-1405.csv`, as the gateway names a streamed export. */
export function exportFilename(at: Date): string {
  return `transactions-${at.getFullYear()}${two(at.getMonth() + 1)}${two(at.getDate())}-${two(at.getHours())}${two(at.getMinutes())}.csv`;
}

/**
 * The export of `query` (filters, columns, time zone) part by part through `get`; `refused` turns
 * an answer other than a part into the error to throw.
 */
export async function exportInParts(
  get: (path: string) => Promise<PartAnswer>,
  query: URLSearchParams,
  onProgress: (progress: ExportProgress) => void,
  signal: AbortSignal,
  refused: (answer: PartAnswer) => Error,
  partRows = PART_ROWS,
): Promise<ExportResult> {
  const parts: string[] = [];
  const counter = csvLineCounter();
  const encoder = new TextEncoder();
  const started = new Date();
  let bytes = 0;
  let total: number | null = null;
  let next: string | null = null;
  for (let first = true; first || next; first = false) {
    if (signal.aborted) throw new DOMException('The export was cancelled.', 'AbortError');
    const partQuery = new URLSearchParams(query);
    partQuery.set('limit', String(partRows));
    if (next) {
      partQuery.set('starting_after', next);
      partQuery.set('header', '0');
    }
    const answer = await get(pathOf('transactions.export', { query: Object.fromEntries(partQuery) }));
    // A later part with no rows left comes back empty.
    if (answer.status === 200 && answer.body === undefined && !first) break;
    if (answer.status !== 200 || typeof answer.body !== 'string') throw refused(answer);
    if (first) {
      const counted = Number(answer.headers.get(EXPORT_TOTAL_HEADER) ?? Number.NaN);
      total = Number.isFinite(counted) ? counted : null;
    }
    parts.push(answer.body);
    const encoded = encoder.encode(answer.body);
    bytes += encoded.byteLength;
    counter.add(encoded);
    next = answer.headers.get(EXPORT_NEXT_HEADER);
    onProgress({ rows: Math.max(0, counter.lines - 1), bytes, total });
  }
  if (signal.aborted) throw new DOMException('The export was cancelled.', 'AbortError');
  return {
    blob: new Blob(parts, { type: 'text/csv;charset=utf-8' }),
    filename: exportFilename(started),
    rows: Math.max(0, counter.lines - 1),
    bytes,
  };
}
