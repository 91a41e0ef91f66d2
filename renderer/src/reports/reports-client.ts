/**
 * The report calls of the renderer (main/http/routes/reports.ts): the open day's X report, closing
 * the day (Z report, with a manager's approval for a cashier), past Z reports and their receipt
 * lines. Same transports and error shape as api/client.ts.
 */
import { ApiError, defaultTransport, type Credentials, type Transport, type TransportResponse } from '../api/client.js';

export interface Figure {
  count: number;
  amount: number;
}

export interface FigureRow {
  currency: string;
  approved: Figure;
  declined: Figure;
  refunded: Figure;
  net: number;
}

export interface StaffRef {
  staff_id: string;
  name: string;
}

export interface DayReport {
  report: 'x' | 'z';
  shop_name: string;
  terminal_id: string;
  sequence: number;
  opened_at: string | null;
  closed_at: string | null;
  generated_at: string;
  first_entry_at: string | null;
  last_entry_at: string | null;
  closed_by: StaffRef | null;
  approved_by: StaffRef | null;
  ledger: { from: number; to: number };
  totals: FigureRow[];
  by_card_brand: Array<FigureRow & { card_brand: string }>;
  by_entry_mode: Array<FigureRow & { entry_mode: string }>;
  by_cashier: Array<FigureRow & { staff_id: string | null; name: string }>;
}

export interface ZReportSummary {
  sequence: number;
  terminal_id: string;
  opened_at: string | null;
  closed_at: string;
  closed_by: StaffRef;
  approved_by: StaffRef | null;
  totals: FigureRow[];
}

export interface ZReportList {
  terminal_id: string;
  total: number;
  items: ZReportSummary[];
}

export interface ReceiptLines {
  columns: number;
  lines: string[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function expect<T>(response: TransportResponse, required: readonly string[]): T {
  if (response.status < 200 || response.status > 299) {
    const body = isObject(response.body) ? response.body : {};
    const errors = Array.isArray(body.errors) ? body.errors.filter(isObject).map((e) => ({ field: String(e.field ?? ''), message: String(e.message ?? '') })) : [];
    const retryAfter = Number(response.headers.get('Retry-After'));
    throw new ApiError(
      'api',
      typeof body.message === 'string' && body.message ? body.message : `The gateway answered HTTP ${response.status}.`,
      response.status,
      typeof body.error_code === 'number' ? body.error_code : 0,
      errors,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    );
  }
  if (!isObject(response.body) || required.some((key) => !(key in (response.body as Record<string, unknown>)))) {
    throw new ApiError('unexpected', 'The gateway sent an answer this app does not understand.', response.status);
  }
  return response.body as T;
}

export interface PrintResult {
  printed: boolean;
  printer: string;
  message: string;
}

export interface ReportsClient {
  xReport(): Promise<DayReport>;
  /** A manager's single-use approval of closing the day (a cashier needs it). */
  approveClose(credentials: Credentials): Promise<string>;
  /** Closes the open day; the same key on a retry answers with the day already closed. */
  closeDay(approvalToken: string | undefined, idempotencyKey: string): Promise<DayReport>;
  zReports(): Promise<ZReportList>;
  zReport(sequence: number): Promise<DayReport>;
  zReceipt(sequence: number): Promise<ReceiptLines>;
  xReceipt(): Promise<ReceiptLines>;
  /** Sends the report to the shop's ESC/POS receipt printer; null sequence: the X report. */
  printOnReceiptPrinter(sequence: number | null): Promise<PrintResult>;
}

export function createReportsClient(transport: Transport = defaultTransport()): ReportsClient {
  const get = async <T>(path: string, required: readonly string[]) => expect<T>(await transport.send({ method: 'GET', path }), required);
  return {
    xReport: () => get<DayReport>('/ui/reports/x', ['report', 'totals']),
    async approveClose(credentials) {
      const response = await transport.send({ method: 'POST', path: '/ui/approvals', body: { action: 'day_close', ...credentials } });
      return expect<{ approval_token: string }>(response, ['approval_token']).approval_token;
    },
    async closeDay(approvalToken, idempotencyKey) {
      const response = await transport.send({
        method: 'POST',
        path: '/ui/reports/z',
        headers: { 'Idempotency-Key': idempotencyKey, ...(approvalToken ? { 'X-Manager-Approval': approvalToken } : {}) },
      });
      return expect<DayReport>(response, ['report', 'sequence', 'totals']);
    },
    zReports: () => get<ZReportList>('/ui/reports/z?limit=100', ['items']),
    zReport: (sequence) => get<DayReport>(`/ui/reports/z/${sequence}`, ['report', 'totals']),
    zReceipt: (sequence) => get<ReceiptLines>(`/ui/reports/z/${sequence}/receipt`, ['lines']),
    xReceipt: () => get<ReceiptLines>('/ui/reports/x/receipt', ['lines']),
    async printOnReceiptPrinter(sequence) {
      const response = await transport.send({ method: 'POST', path: sequence === null ? '/ui/reports/x/print' : `/ui/reports/z/${sequence}/print` });
      return expect<PrintResult>(response, ['printed', 'message']);
    },
  };
}

export const reportsClient: ReportsClient = createReportsClient();

/** Where the browser opens a report's PDF (same origin as the gateway; not through the desktop bridge). */
export function pdfHref(sequence: number | null): string {
  return sequence === null ? '/ui/reports/x.pdf' : `/ui/reports/z/${sequence}.pdf`;
}
