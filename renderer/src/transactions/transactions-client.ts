/**
 * The transaction calls of the back office (and the till's refund): the list (GET /rest/transactions with its filters and
 * keyset paging), the detail (GET /ui/transactions/{id}), capture, release and refund (the API's own
 * routes; a back-office session may call them and each is audited under the staff member's name),
 * and the CSV export (GET /rest/transactions/export). Typed by the contract; same transports and
 * error shape as the other clients (api/call.ts, api/transport.ts).
 *
 * The export streams: in a browser a fetch reader counts bytes and rows as they arrive (progress)
 * and an AbortController cancels; in the desktop window (the preload bridge carries whole answers)
 * it asks for parts of 5,000 rows, one after the other, with the same progress and cancel.
 */
import type { CaptureResponse, RefundResponse, ReverseResponse } from '../../../contract/api/payments.js';
import type { Transaction, TransactionDetail } from '../../../contract/api/transactions.js';
import { EXPORT_TOTAL_HEADER } from '../../../contract/transaction-list.js';
import { caller } from '../api/call.js';
import { pathOf } from '../../../contract/paths.js';
import { ApiError, defaultTransport, errorOf as answerError, isObject, type Transport, type TransportResponse } from '../api/transport.js';
import { translate } from '../ui/i18n.js';
import { csvLineCounter, exportInParts, type ExportProgress, type ExportResult } from './export-parts.js';

export type { Transaction, TransactionDetail };
export type { CaptureResponse, RefundResponse, ReverseResponse };
export type { ExportProgress, ExportResult };

/** Rows a page of the list asks for. */
export const PAGE_SIZE = 200;

export interface TransactionsClient {
  /** One page of the list, newest first, after `startingAfter` (the previous page's last id). */
  list(query: URLSearchParams, startingAfter?: string): Promise<Transaction[]>;
  detail(id: string): Promise<TransactionDetail>;
  capture(id: string, amount: number, idempotencyKey: string): Promise<CaptureResponse>;
  release(id: string, amount: number, idempotencyKey: string): Promise<ReverseResponse>;
  /**
   * POST /rest/refund; at the till a cashier's refund carries a manager's approval token
   * (staff/staff-client.ts approve), harmless for others.
   */
  refund(id: string, amount: number, reason: string, idempotencyKey: string, approvalToken?: string): Promise<RefundResponse>;
  /** The CSV of the filter (`query` holds the filters, `columns`, `time_zone`); reports progress; stops on `signal`. */
  exportCsv(query: URLSearchParams, onProgress: (progress: ExportProgress) => void, signal: AbortSignal): Promise<ExportResult>;
}

/** The ApiError of an answer that is not the export's part: the gateway's error, or one this app does not understand. */
function errorOf(response: TransportResponse): ApiError {
  if (response.status < 200 || response.status > 299) return answerError(response);
  return isObject(response.body)
    ? new ApiError('unexpected', translate('transactions.client.http', { status: String(response.status) }), response.status)
    : new ApiError('unexpected', translate('transactions.client.notUnderstood'), response.status);
}

/** The export in a browser: one streamed answer, read as it arrives. */
async function streamedExport(
  query: URLSearchParams,
  onProgress: (progress: ExportProgress) => void,
  signal: AbortSignal,
): Promise<ExportResult> {
  let response: Response;
  try {
    response = await fetch(pathOf('transactions.export', { query: Object.fromEntries(query) }), {
      credentials: 'same-origin',
      cache: 'no-store',
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new ApiError('network', translate('transactions.client.noAnswer'));
  }
  if (!response.ok || !response.body) {
    const text = await response.text().catch(() => '');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    throw errorOf({ status: response.status, headers: response.headers, body });
  }
  const total = Number(response.headers.get(EXPORT_TOTAL_HEADER));
  const filename = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? 'transactions.csv';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const counter = csvLineCounter();
  const progress = () => onProgress({ rows: Math.max(0, counter.lines - 1), bytes, total: Number.isFinite(total) ? total : null });
  progress();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      bytes += value.byteLength;
      counter.add(value);
      progress();
    }
  } catch (error) {
    if (signal.aborted) throw error;
    throw new ApiError('network', translate('transactions.client.brokeOff'));
  }
  return {
    blob: new Blob(chunks as BlobPart[], { type: 'text/csv;charset=utf-8' }),
    filename,
    rows: Math.max(0, counter.lines - 1),
    bytes,
  };
}

export function createTransactionsClient(transport: Transport = defaultTransport()): TransactionsClient {
  const call = caller(transport);
  const headers = (idempotencyKey: string) => ({ 'Idempotency-Key': idempotencyKey });
  return {
    list(query, startingAfter) {
      const page = new URLSearchParams(query);
      page.set('limit', String(PAGE_SIZE));
      if (startingAfter) page.set('starting_after', startingAfter);
      return call('transactions.list', { query: Object.fromEntries(page) });
    },
    detail: (id) => call('transactions.detail', { params: { transaction_id: id } }),
    capture: (id, amount, key) => call('payments.capture', { body: { transaction_id: id, amount }, headers: headers(key) }),
    release: (id, amount, key) => call('payments.reverse', { body: { transaction_id: id, amount }, headers: headers(key) }),
    refund: (id, amount, reason, key, approvalToken) =>
      call('payments.refund', {
        body: { transaction_id: id, amount, merchant_reference: reason },
        headers: { ...headers(key), ...(approvalToken ? { 'X-Manager-Approval': approvalToken } : {}) },
      }),
    exportCsv(query, onProgress, signal) {
      const bridged = typeof window !== 'undefined' && window.tillgate !== undefined;
      if (!bridged) return streamedExport(query, onProgress, signal);
      return exportInParts((path) => transport.send({ method: 'GET', path, timeoutMs: 120_000 }), query, onProgress, signal, errorOf);
    },
  };
}

export const transactionsClient: TransactionsClient = createTransactionsClient();
