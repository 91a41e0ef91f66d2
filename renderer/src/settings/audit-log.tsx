/**
 * Settings -> Audit log (admin): who did what, when, to which object, with the details and the
 * changed values (never a secret), newest first; filtered by person, action and a range of days,
 * paged by the gateway, all of it in the URL.
 */
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { createColumnHelper } from '@tanstack/react-table';
import { useEffect, useMemo, useState } from 'react';
import { AUDIT_DEFAULT_PER_PAGE } from '../../../contract/constants.js';
import { FilterBar } from '../ui/detail-parts.js';
import { formatDateTimeSeconds } from '../ui/format.js';
import { SelectFilter } from '../ui/list-filters.js';
import { dayEndIso, dayStartIso, filtered } from '../ui/list-search.js';
import { createListStore } from '../ui/list-store.js';
import { PagedTable } from '../ui/paged-table.js';
import { adminClient, type AuditLogEntry, type StaffMember } from './admin-client.js';
import type { AuditSearch } from './audit-search.js';

export const useAuditLog = createListStore(
  (search: AuditSearch) =>
    adminClient.audit({
      ...(search.staff ? { staff_id: search.staff } : {}),
      ...(search.action ? { action: search.action } : {}),
      ...(search.from ? { 'created_at[min]': dayStartIso(search.from) } : {}),
      ...(search.to ? { 'created_at[max]': dayEndIso(search.to) } : {}),
      page: String(search.page ?? 1),
      per: String(AUDIT_DEFAULT_PER_PAGE),
    }),
  'The audit log',
);

/** "credential_revoke" -> "Credential revoke". */
/** An action's words: "smtp_test" -> "SMTP test", "staff_reset_pin" -> "Staff reset PIN". */
const ACRONYMS: Record<string, string> = { smtp: 'SMTP', pin: 'PIN', api: 'API', url: 'URL', z: 'Z', x: 'X' };
const actionName = (action: string) => {
  const words = action.split('_').map((word) => ACRONYMS[word] ?? word);
  const [first = '', ...rest] = words;
  return [first.charAt(0).toUpperCase() + first.slice(1), ...rest].join(' ');
};

/** A changed setting's values as short text: `name: Old → New`. */
function changes(entry: AuditLogEntry): string {
  const before = (entry.old_value ?? {}) as Record<string, unknown>;
  const after = (entry.new_value ?? {}) as Record<string, unknown>;
  if (typeof before !== 'object' || typeof after !== 'object') return '';
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const text = (value: unknown) => (value === null || value === undefined ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value as string | number | boolean));
  return keys
    .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .map((key) => (key in before ? `${key}: ${text(before[key])} → ${text(after[key])}` : `${key}: ${text(after[key])}`))
    .join('; ');
}

const column = createColumnHelper<AuditLogEntry>();
const COLUMNS = [
  column.accessor('created_at', { header: 'When', cell: (info) => formatDateTimeSeconds(info.getValue()) }),
  column.accessor('staff_name', {
    header: 'Who',
    cell: (info) => {
      const row = info.row.original;
      const who = row.staff_name ?? (row.partner_id ? 'Partner' : row.staff_id ? 'Former staff' : 'System');
      return row.approved_by_name ? `${who} (approved by ${row.approved_by_name})` : who;
    },
  }),
  column.accessor('action', { header: 'What', cell: (info) => actionName(info.getValue()) }),
  column.accessor('subject_id', { header: 'Object', cell: (info) => (info.getValue() ? <span className="mono">{info.getValue()}</span> : <span className="muted">—</span>) }),
  column.accessor('detail', {
    header: 'Details',
    cell: (info) => {
      const changed = changes(info.row.original);
      const detail = [info.getValue(), changed].filter(Boolean).join(' · ');
      return detail ? <span className="audit-detail">{detail}</span> : <span className="muted">—</span>;
    },
  }),
];

export function AuditLogScreen() {
  const search = useSearch({ from: '/settings/audit' });
  const navigate = useNavigate({ from: '/settings/audit' });
  const { status, list, error, load } = useAuditLog();
  const [staff, setStaff] = useState<StaffMember[]>([]);

  useEffect(() => {
    void load(search);
  }, [load, search]);
  useEffect(() => {
    adminClient.staff().then(setStaff, () => setStaff([]));
  }, []);

  const filter = (change: Partial<AuditSearch>) => void navigate({ search: filtered(search, change) });
  const isFiltered = Object.keys(search).some((key) => key !== 'page');
  const rows = status === 'ready' && list ? list.data_set : [];
  const people = useMemo(() => staff.map((m) => ({ value: m.staff_id, label: `${m.display_name} (${m.login})` })), [staff]);
  const actions = useMemo(() => [...new Set([...(list?.actions ?? []), ...(search.action ? [search.action] : [])])].map((value) => ({ value, label: actionName(value) })), [list, search.action]);

  return (
    <section className="card" aria-labelledby="audit-title">
      <h2 id="audit-title">Audit log</h2>
      <FilterBar label="Filter the audit log" active={isFiltered} onClear={() => void navigate({ search: {} })}>
        <SelectFilter label="Person" value={search.staff} anyLabel="Anyone" options={people} onChange={(value) => filter({ staff: value })} />
        <SelectFilter label="Action" value={search.action} anyLabel="Any action" options={actions} onChange={(value) => filter({ action: value })} />
        <DayRange from={search.from} to={search.to} onChange={(range) => filter(range)} />
      </FilterBar>
      <PagedTable
        caption="Audit log, newest first"
        columns={COLUMNS}
        rows={rows}
        rowKey={(row) => row.id}
        loading={status === 'loading' || status === 'idle'}
        error={error}
        retry={() => void load(search)}
        empty={isFiltered ? 'No entry matches these filters.' : 'The audit log is empty.'}
        metadata={list?.metadata}
        pagerLabel="Pages of the audit log"
        keyboardScroll
        link={(target, text, rel) => (
          <Link to="/settings/audit" search={{ ...search, page: target > 1 ? target : undefined }} className="button button-quiet" rel={rel}>
            {text}
          </Link>
        )}
      />
    </section>
  );
}

/** "From" and "To": two days (YYYY-MM-DD) of the till's time zone, each bounding the other. */
function DayRange({ from, to, onChange }: { from: string | undefined; to: string | undefined; onChange: (range: { from?: string | undefined; to?: string | undefined }) => void }) {
  return (
    <>
      <div className="field">
        <label className="field-label" htmlFor="audit-from">
          From
        </label>
        <input id="audit-from" className="input" type="date" value={from ?? ''} max={to} onChange={(event) => onChange({ from: event.target.value || undefined })} />
      </div>
      <div className="field">
        <label className="field-label" htmlFor="audit-to">
          To
        </label>
        <input id="audit-to" className="input" type="date" value={to ?? ''} min={from} onChange={(event) => onChange({ to: event.target.value || undefined })} />
      </div>
    </>
  );
}
