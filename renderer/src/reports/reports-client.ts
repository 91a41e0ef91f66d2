/**
 * The report calls of the renderer (main/http/routes/reports.ts): the open day's X report, closing
 * the day (Z report, with a manager's approval for a cashier), past Z reports and their receipt
 * lines, typed by the contract (contract/api/reports.ts). Same transports and error shape as
 * api/client.ts.
 */
import type { PrintResult } from '../../../contract/api/receipts.js';
import type { DayReport, ReceiptLines, ZReportList } from '../../../contract/api/reports.js';
import { defaultTransport, expectObject, type Credentials, type Transport } from '../api/client.js';

/** `?terminal_id=` of another till's report (a manager's view); nothing for this screen's till. */
const of = (tillId?: string) => (tillId ? `?terminal_id=${encodeURIComponent(tillId)}` : '');

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
  const get = async <T>(path: string, required: readonly string[]) => expectObject<T>(await transport.send({ method: 'GET', path }), required);
  return {
    xReport: (tillId) => get<DayReport>(`/ui/reports/x${of(tillId)}`, ['report', 'totals']),
    async approveClose(credentials) {
      const response = await transport.send({ method: 'POST', path: '/ui/approvals', body: { action: 'day_close', ...credentials } });
      return expectObject<{ approval_token: string }>(response, ['approval_token']).approval_token;
    },
    async closeDay(approvalToken, idempotencyKey) {
      const response = await transport.send({
        method: 'POST',
        path: '/ui/reports/z',
        headers: { 'Idempotency-Key': idempotencyKey, ...(approvalToken ? { 'X-Manager-Approval': approvalToken } : {}) },
      });
      return expectObject<DayReport>(response, ['report', 'sequence', 'totals']);
    },
    zReports: () => get<ZReportList>('/ui/reports/z?limit=100', ['items']),
    zReport: (sequence) => get<DayReport>(`/ui/reports/z/${sequence}`, ['report', 'totals']),
    zReceipt: (sequence) => get<ReceiptLines>(`/ui/reports/z/${sequence}/receipt`, ['lines']),
    xReceipt: (tillId) => get<ReceiptLines>(`/ui/reports/x/receipt${of(tillId)}`, ['lines']),
    async printOnReceiptPrinter(sequence, tillId) {
      const response = await transport.send({ method: 'POST', path: `${sequence === null ? '/ui/reports/x/print' : `/ui/reports/z/${sequence}/print`}${of(tillId)}` });
      return expectObject<PrintResult>(response, ['printed', 'message']);
    },
  };
}

export const reportsClient: ReportsClient = createReportsClient();

/** Where the browser opens a report's PDF (same origin as the gateway; not through the desktop bridge). */
export function pdfHref(sequence: number | null, tillId?: string): string {
  return sequence === null ? `/ui/reports/x.pdf${of(tillId)}` : `/ui/reports/z/${sequence}.pdf${of(tillId)}`;
}
