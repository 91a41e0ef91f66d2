/**
 * The report calls of the renderer (main/http/routes/reports/routes.ts): the open day's X report, closing
 * the day (Z report, with a manager's approval for a cashier), past Z reports and their receipt
 * lines, typed by the contract (contract/api/reports.ts). Same transports and error shape as
 * the other clients (api/call.ts, api/transport.ts).
 */
import type { PrintResult } from '../../../contract/api/receipts.js';
import type { DayReport, ReceiptLines, ZReportList } from '../../../contract/api/reports.js';
import { caller } from '../api/call.js';
import { pathOf } from '../../../contract/paths.js';
import type { Credentials } from '../../../contract/api/staff.js';
import { defaultTransport, type Transport } from '../api/transport.js';

/** `?terminal_id=` of another till's report (a manager's view); nothing for this screen's till. */
const of = (tillId?: string) => (tillId ? { terminal_id: tillId } : {});

export interface ReportsClient {
  /** This screen's till's open day, or (a manager) another till's. */
  xReport(tillId?: string): Promise<DayReport>;
  /** A manager's single-use approval of closing the day (a cashier needs it). */
  approveClose(credentials: Credentials): Promise<string>;
  /** Closes the open day; the same key on a retry answers with the day already closed. */
  closeDay(approvalToken: string | undefined, idempotencyKey: string): Promise<DayReport>;
  zReports(): Promise<ZReportList>;
  zReport(sequence: number): Promise<DayReport>;
  zReceipt(sequence: number): Promise<ReceiptLines>;
  xReceipt(tillId?: string): Promise<ReceiptLines>;
  /** Sends the report to the shop's ESC/POS receipt printer; null sequence: the X report. */
  printOnReceiptPrinter(sequence: number | null, tillId?: string): Promise<PrintResult>;
}

export function createReportsClient(transport: Transport = defaultTransport()): ReportsClient {
  const call = caller(transport);
  return {
    xReport: (tillId) => call('reports.x', { query: of(tillId) }),
    approveClose: async (credentials) => (await call('staff.approve', { body: { action: 'day_close', ...credentials } })).approval_token,
    closeDay: (approvalToken, idempotencyKey) =>
      call('reports.closeDay', {
        headers: { 'Idempotency-Key': idempotencyKey, ...(approvalToken ? { 'X-Manager-Approval': approvalToken } : {}) },
      }),
    zReports: () => call('reports.zList', { query: { limit: '100' } }),
    zReport: (sequence) => call('reports.z', { params: { sequence: String(sequence) } }),
    zReceipt: (sequence) => call('reports.zReceipt', { params: { sequence: String(sequence) } }),
    xReceipt: (tillId) => call('reports.xReceipt', { query: of(tillId) }),
    printOnReceiptPrinter: (sequence, tillId) =>
      sequence === null
        ? call('reports.printX', { query: of(tillId) })
        : call('reports.printZ', { params: { sequence: String(sequence) }, query: of(tillId) }),
  };
}

export const reportsClient: ReportsClient = createReportsClient();

/** Where the browser opens a report's PDF (same origin as the gateway; not through the desktop bridge). */
export function pdfHref(sequence: number | null, tillId?: string): string {
  return sequence === null
    ? pathOf('reports.xPdf', { query: of(tillId) })
    : pathOf('reports.zPdf', { params: { sequence: String(sequence) }, query: of(tillId) });
}
