/**
 * Settings -> Audit log (admin): who did what, when, to which object, with the details and the
 * changed values (never a secret), newest first; filtered by person, action and a range of days,
 * paged by the gateway, all of it in the URL.
 */
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { createColumnHelper } from '@tanstack/react-table';
import { useEffect, useMemo, useState } from 'react';
import type { ApiAuditAction } from '../../../contract/access.js';
import { AUDIT_DEFAULT_PER_PAGE, type CLOSE_DAY_ACTION } from '../../../contract/constants.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import { FilterBar } from '../ui/detail-parts.js';
import { formatDateTimeSeconds } from '../ui/format.js';
import { useT } from '../ui/i18n.js';
import { SelectFilter } from '../ui/list-filters.js';
import { dayEndIso, dayStartIso, filtered } from '../ui/list-search.js';
import { createListStore } from '../ui/list-store.js';
import { PagedTable } from '../ui/paged-table.js';
import { settingsClient, type AuditLogEntry } from './settings-client.js';
import { staffClient, type StaffMember } from '../staff/staff-client.js';
import type { AuditSearch } from './audit-search.js';

export const useAuditLog = createListStore(
  (search: AuditSearch) =>
    settingsClient.audit({
      ...(search.staff ? { staff_id: search.staff } : {}),
      ...(search.action ? { action: search.action } : {}),
      ...(search.from ? { 'created_at[min]': dayStartIso(search.from) } : {}),
      ...(search.to ? { 'created_at[max]': dayEndIso(search.to) } : {}),
      page: String(search.page ?? 1),
      per: String(AUDIT_DEFAULT_PER_PAGE),
    }),
  'The audit log',
);

/**
 * The actions the gateway writes to the audit log: the API routes' (contract/access.ts, so a new one
 * there does not compile without its words here), the close of a day, and those the /ui routes and
 * the core write themselves (main/core: settings, staff, tills, shops, the centre, receipts,
 * exports, checkouts, tokens).
 */
type UiAuditAction =
  | 'login'
  | 'pin_set'
  | 'pin_changed'
  | 'staff_create'
  | 'staff_reset_password'
  | 'staff_reset_pin'
  | 'staff_disable'
  | 'profile_update'
  | 'channel_create'
  | 'channel_update'
  | 'credential_create'
  | 'credential_revoke'
  | 'smtp_update'
  | 'smtp_test'
  | 'till_create'
  | 'till_rename'
  | 'till_retire'
  | 'till_limits'
  | 'till_invite'
  | 'till_join'
  | 'forwarded_decline_handled'
  | 'shop_created'
  | 'terminal_assigned'
  | 'terminal_unassigned'
  | 'payment_method_set'
  | 'payment_method_removed'
  | 'receipt_printer'
  | 'export'
  | 'checkout_create'
  | 'checkout_cancel'
  | 'token_reveal';
type AuditAction = ApiAuditAction | UiAuditAction | typeof CLOSE_DAY_ACTION;

/** Each action in words: "smtp_test" -> "SMTP test". */
const ACTION_NAMES: Readonly<Record<AuditAction, MessageId>> = {
  refund: 'settings.audit.action.refund',
  void: 'settings.audit.action.void',
  capture: 'settings.audit.action.capture',
  invoice_create: 'settings.audit.action.invoiceCreate',
  invoice_update: 'settings.audit.action.invoiceUpdate',
  invoice_status: 'settings.audit.action.invoiceStatus',
  invoice_delete: 'settings.audit.action.invoiceDelete',
  invoice_plan_create: 'settings.audit.action.invoicePlanCreate',
  invoice_plan_cancel: 'settings.audit.action.invoicePlanCancel',
  invoice_reminder: 'settings.audit.action.invoiceReminder',
  token_create: 'settings.audit.action.tokenCreate',
  token_cryptogram: 'settings.audit.action.tokenCryptogram',
  token_archive: 'settings.audit.action.tokenArchive',
  token_simulate: 'settings.audit.action.tokenSimulate',
  token_reveal: 'settings.audit.action.tokenReveal',
  postback_resend: 'settings.audit.action.postbackResend',
  postback_resend_failed: 'settings.audit.action.postbackResendFailed',
  webhook_key_rotate: 'settings.audit.action.webhookKeyRotate',
  day_close: 'settings.audit.action.dayClose',
  login: 'settings.audit.action.login',
  pin_set: 'settings.audit.action.pinSet',
  pin_changed: 'settings.audit.action.pinChanged',
  staff_create: 'settings.audit.action.staffCreate',
  staff_reset_password: 'settings.audit.action.staffResetPassword',
  staff_reset_pin: 'settings.audit.action.staffResetPin',
  staff_disable: 'settings.audit.action.staffDisable',
  profile_update: 'settings.audit.action.profileUpdate',
  channel_create: 'settings.audit.action.channelCreate',
  channel_update: 'settings.audit.action.channelUpdate',
  credential_create: 'settings.audit.action.credentialCreate',
  credential_revoke: 'settings.audit.action.credentialRevoke',
  smtp_update: 'settings.audit.action.smtpUpdate',
  smtp_test: 'settings.audit.action.smtpTest',
  till_create: 'settings.audit.action.tillCreate',
  till_rename: 'settings.audit.action.tillRename',
  till_retire: 'settings.audit.action.tillRetire',
  till_limits: 'settings.audit.action.tillLimits',
  till_invite: 'settings.audit.action.tillInvite',
  till_join: 'settings.audit.action.tillJoin',
  forwarded_decline_handled: 'settings.audit.action.forwardedDeclineHandled',
  shop_created: 'settings.audit.action.shopCreated',
  terminal_assigned: 'settings.audit.action.terminalAssigned',
  terminal_unassigned: 'settings.audit.action.terminalUnassigned',
  payment_method_set: 'settings.audit.action.paymentMethodSet',
  payment_method_removed: 'settings.audit.action.paymentMethodRemoved',
  receipt_printer: 'settings.audit.action.receiptPrinter',
  export: 'settings.audit.action.export',
  checkout_create: 'settings.audit.action.checkoutCreate',
  checkout_cancel: 'settings.audit.action.checkoutCancel',
};

/** An action's message, or none for one this screen does not know (an older or newer gateway's). */
const actionMessage = (action: string): MessageId | undefined =>
  Object.hasOwn(ACTION_NAMES, action) ? ACTION_NAMES[action as AuditAction] : undefined;

/** A changed setting's values as short text: `name: Old → New`. */
function changes(entry: AuditLogEntry): string {
  const before = (entry.old_value ?? {}) as Record<string, unknown>;
  const after = (entry.new_value ?? {}) as Record<string, unknown>;
  if (typeof before !== 'object' || typeof after !== 'object') return '';
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const text = (value: unknown) =>
    value === null || value === undefined
      ? '—'
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value as string | number | boolean);
  return keys
    .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .map((key) => (key in before ? `${key}: ${text(before[key])} → ${text(after[key])}` : `${key}: ${text(after[key])}`))
    .join('; ');
}

const column = createColumnHelper<AuditLogEntry>();
const NOTHING = '—';

export function AuditLogScreen() {
  const t = useT();
  const search = useSearch({ from: '/settings/audit' });
  const navigate = useNavigate({ from: '/settings/audit' });
  const { status, list, error, load } = useAuditLog();
  const [staff, setStaff] = useState<StaffMember[]>([]);

  useEffect(() => {
    void load(search);
  }, [load, search]);
  useEffect(() => {
    staffClient.list().then(setStaff, () => setStaff([]));
  }, []);

  const filter = (change: Partial<AuditSearch>) => void navigate({ search: filtered(search, change) });
  const isFiltered = Object.keys(search).some((key) => key !== 'page');
  const rows = status === 'ready' && list ? list.data_set : [];
  const people = useMemo(() => staff.map((m) => ({ value: m.staff_id, label: `${m.display_name} (${m.login})` })), [staff]);
  const actionName = useMemo(
    () => (action: string) => {
      const message = actionMessage(action);
      return message ? t(message) : action;
    },
    [t],
  );
  const actions = useMemo(
    () =>
      [...new Set([...(list?.actions ?? []), ...(search.action ? [search.action] : [])])].map((value) => ({
        value,
        label: actionName(value),
      })),
    [list, search.action, actionName],
  );
  const columns = useMemo(
    () => [
      column.accessor('created_at', { header: () => t('settings.audit.when'), cell: (info) => formatDateTimeSeconds(info.getValue()) }),
      column.accessor('staff_name', {
        header: () => t('settings.audit.who'),
        cell: (info) => {
          const row = info.row.original;
          const who =
            row.staff_name ??
            t(row.partner_id ? 'settings.audit.partner' : row.staff_id ? 'settings.audit.formerStaff' : 'settings.audit.system');
          return row.approved_by_name ? t('settings.audit.approvedBy', { who, manager: row.approved_by_name }) : who;
        },
      }),
      column.accessor('action', { header: () => t('settings.audit.what'), cell: (info) => actionName(info.getValue()) }),
      column.accessor('subject_id', {
        header: () => t('settings.audit.object'),
        cell: (info) => (info.getValue() ? <span className="mono">{info.getValue()}</span> : <span className="muted">{NOTHING}</span>),
      }),
      column.accessor('detail', {
        header: () => t('settings.audit.details'),
        cell: (info) => {
          const changed = changes(info.row.original);
          const detail = [info.getValue(), changed].filter(Boolean).join(' · ');
          return detail ? <span className="audit-detail">{detail}</span> : <span className="muted">{NOTHING}</span>;
        },
      }),
    ],
    [t, actionName],
  );

  return (
    <section className="card" aria-labelledby="audit-title">
      <h2 id="audit-title">{t('settings.section.audit')}</h2>
      <FilterBar label={t('settings.audit.filter')} active={isFiltered} onClear={() => void navigate({ search: {} })}>
        <SelectFilter
          label={t('settings.audit.person')}
          value={search.staff}
          anyLabel={t('settings.audit.anyone')}
          options={people}
          onChange={(value) => filter({ staff: value })}
        />
        <SelectFilter
          label={t('settings.audit.action')}
          value={search.action}
          anyLabel={t('settings.audit.anyAction')}
          options={actions}
          onChange={(value) => filter({ action: value })}
        />
        <DayRange from={search.from} to={search.to} onChange={(range) => filter(range)} />
      </FilterBar>
      <PagedTable
        caption={t('settings.audit.caption')}
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        loading={status === 'loading' || status === 'idle'}
        error={error}
        retry={() => void load(search)}
        empty={isFiltered ? t('settings.audit.noMatch') : t('settings.audit.empty')}
        metadata={list?.metadata}
        pagerLabel={t('settings.audit.pages')}
        keyboardScroll
        link={(target, text, rel) => (
          <Link
            to="/settings/audit"
            search={{ ...search, page: target > 1 ? target : undefined }}
            className="button button-quiet"
            rel={rel}
          >
            {text}
          </Link>
        )}
      />
    </section>
  );
}

/** "From" and "To": two days (YYYY-MM-DD) of the till's time zone, each bounding the other. */
function DayRange({
  from,
  to,
  onChange,
}: {
  from: string | undefined;
  to: string | undefined;
  onChange: (range: { from?: string | undefined; to?: string | undefined }) => void;
}) {
  const t = useT();
  return (
    <>
      <div className="field">
        <label className="field-label" htmlFor="audit-from">
          {t('settings.audit.from')}
        </label>
        <input
          id="audit-from"
          className="input"
          type="date"
          value={from ?? ''}
          max={to}
          onChange={(event) => onChange({ from: event.target.value || undefined })}
        />
      </div>
      <div className="field">
        <label className="field-label" htmlFor="audit-to">
          {t('settings.audit.to')}
        </label>
        <input
          id="audit-to"
          className="input"
          type="date"
          value={to ?? ''}
          min={from}
          onChange={(event) => onChange({ to: event.target.value || undefined })}
        />
      </div>
    </>
  );
}
