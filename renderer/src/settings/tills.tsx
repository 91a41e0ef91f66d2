/**
 * Settings -> Tills (admin; issue 26): the shop's tills with their till id (the terminal id of
 * their payments, receipts and day reports), their shop and who has each open on a screen; a new
 * till, a rename, and retiring a till after confirmation (it takes no sale from then on, its past
 * stays). The gateway refuses to retire a till with a payment of unknown outcome, with sales of a
 * day not closed, or the last active one; the dialog says so in plain words. Retired tills are
 * listed after the active ones.
 */
import { useCallback, useState, type FormEvent, type ReactNode } from 'react';
import { defaultTillName, TILL_ID_PATTERN, TILL_RETIRE_REFUSED } from '../../../contract/constants.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import { ApiError } from '../api/transport.js';
import { tillsClient, type StoreLimits, type Till, type TillInvite } from '../tills/tills-client.js';
import { ConfirmDialog } from '../ui/detail-parts.js';
import { FormActions } from '../ui/dialog-parts.js';
import { formatDateTime, formatTime } from '../ui/format.js';
import { translate, useT } from '../ui/i18n.js';
import { formatMoney } from '../till-screen/money.js';
import { CopyValue } from '../ui/copy-value.js';
import { Modal } from '../ui/modal.js';
import { toneClass } from '../ui/tags.js';
import { paymentMethodsClient, type Shop } from '../payment-methods/payment-methods-client.js';
import { focusFirst, FormProblem, hidden, Pending, problemsOf, SettingField, useLoaded, useRich, type Problems } from './settings-parts.js';

type Dialog =
  | { kind: 'create' }
  | { kind: 'rename'; till: Till }
  | { kind: 'retire'; till: Till }
  | { kind: 'invite'; till: Till }
  | { kind: 'limits'; till: Till }
  | null;

const NAME_MAX = 60;
/** What a till on another computer runs to join from its command line (a command: the same in every language). */
const JOIN_COMMAND = 'gateway till join';
const code = (chunks: ReactNode[]) => <code>{chunks}</code>;

/** The till a new one would most likely be: the first TILL-n not taken (retired ids stay taken). */
function nextTillId(tills: readonly Till[]): string {
  const taken = new Set(tills.map((t) => t.till_id.toUpperCase()));
  let n = 1;
  while (taken.has(`TILL-${n}`)) n += 1;
  return `TILL-${n}`;
}

/** Free, open on a screen (whose, seen when), or retired (when). */
function TillStatus({ till }: { till: Till }) {
  const t = useT();
  if (till.retired_at)
    return <span className={toneClass('off')}>{t('settings.tills.retiredAt', { when: formatDateTime(till.retired_at) })}</span>;
  if (till.holder) {
    const where = till.holder.this_screen ? 'here' : till.holder.staff_name ? 'named' : 'other';
    return (
      <span className={toneClass('info')}>
        {t('settings.tills.open', { where, name: till.holder.staff_name ?? '', seen: formatTime(till.holder.seen_at) })}
      </span>
    );
  }
  return <span className={toneClass('ok')}>{t('settings.tills.free')}</span>;
}

/** A till on another computer, as it last reported: seen when, what it holds, a warning when it went quiet. */
function RemoteState({ till }: { till: Till }) {
  const t = useT();
  const remote = till.remote;
  if (!remote) return null;
  const { stored } = remote;
  const totals = stored.totals.map((total) => formatMoney(total.amount, total.currency)).join(' + ');
  const facts = [
    remote.version ? t('settings.tills.remote.versioned', { version: remote.version }) : t('settings.tills.remote.where'),
    remote.last_seen_at ? t('settings.tills.remote.seen', { seen: formatTime(remote.last_seen_at) }) : t('settings.tills.remote.notSeen'),
    ...(remote.open_attempt ? [t('settings.tills.remote.inProgress')] : []),
  ];
  return (
    <div className="till-remote">
      <span className="muted">{facts.join(' · ')}</span>
      {stored.count > 0 && (
        <span className={toneClass('wait')}>
          {stored.oldest_at
            ? t('settings.tills.remote.storedSince', { count: stored.count, totals, oldest: formatTime(stored.oldest_at) })
            : t('settings.tills.remote.stored', { count: stored.count, totals })}
        </span>
      )}
      {remote.last_forward_at && (
        <span className="muted">{t('settings.tills.remote.forwarded', { when: formatDateTime(remote.last_forward_at) })}</span>
      )}
      {remote.warning && (
        <span className={toneClass('bad')} role="note">
          {remote.warning}
        </span>
      )}
    </div>
  );
}

/** Which day the till is on: open since the last close (with sales), or nothing since. */
function TillDay({ till }: { till: Till }) {
  const t = useT();
  if (till.retired_at) return null;
  const { open, sequence, opened_at: openedAt } = till.day;
  if (open)
    return (
      <span>
        {openedAt
          ? t('settings.tills.day.openSince', { sequence, since: formatDateTime(openedAt) })
          : t('settings.tills.day.openFirstSale', { sequence })}
      </span>
    );
  return (
    <span className="muted">
      {openedAt ? t('settings.tills.day.closedSince', { since: formatDateTime(openedAt) }) : t('settings.tills.day.nothingYet')}
    </span>
  );
}

export function TillSettings() {
  const t = useT();
  const rich = useRich();
  const read = useCallback(async () => {
    const [list, shops] = await Promise.all([tillsClient.list({ retired: true }), paymentMethodsClient.shops()]);
    return { tills: list.tills, shops };
  }, []);
  const { data, problem, load } = useLoaded(read, 'settings.tills.loadFailed');
  const [dialog, setDialog] = useState<Dialog>(null);
  const [message, setMessage] = useState('');

  const done = (text: string) => {
    setDialog(null);
    setMessage(text);
    void load();
  };
  const shopName = (shopId: string | null) => (shopId ? (data?.shops.find((s) => s.shop_id === shopId)?.name ?? shopId) : null);

  return (
    <section className="card" aria-labelledby="tills-title">
      <div className="page-head">
        <h2 id="tills-title">{t('settings.section.tills')}</h2>
        <button type="button" className="button button-primary" onClick={() => setDialog({ kind: 'create' })} disabled={!data}>
          {t('settings.tills.add')}
        </button>
      </div>
      <p className="lead">{t('settings.tills.lead')}</p>
      <p className="settings-message" role="status">
        {message}
      </p>
      {!data ? (
        <Pending problem={problem} retry={() => void load()} />
      ) : (
        <table className="settings-table">
          <caption className="visually-hidden">{t('settings.tills.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('settings.field.name')}</th>
              <th scope="col">{t('settings.tills.tillId')}</th>
              <th scope="col">{t('settings.field.shop')}</th>
              <th scope="col">{t('common.status')}</th>
              <th scope="col">{t('settings.tills.day')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('settings.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.tills.map((till) => (
              <tr key={till.till_id} className={till.retired_at ? 'settings-row-retired' : undefined}>
                <td>{till.name}</td>
                <td className="mono">{till.till_id}</td>
                <td>{shopName(till.shop_id) ?? <span className="muted">{t('settings.tills.noShop')}</span>}</td>
                <td>
                  <TillStatus till={till} />
                  <RemoteState till={till} />
                </td>
                <td>
                  <TillDay till={till} />
                </td>
                <td>
                  {!till.retired_at && (
                    <div className="settings-row-actions">
                      <button type="button" className="button button-small" onClick={() => setDialog({ kind: 'rename', till })}>
                        {rich('settings.tills.rename', { tillId: till.till_id, hidden })}
                      </button>
                      {till.remote && (
                        <button type="button" className="button button-small" onClick={() => setDialog({ kind: 'limits', till })}>
                          {rich('settings.tills.limits', { tillId: till.till_id, hidden })}
                        </button>
                      )}
                      <button type="button" className="button button-small" onClick={() => setDialog({ kind: 'invite', till })}>
                        {rich(till.remote ? 'settings.tills.joinAgain' : 'settings.tills.join', { tillId: till.till_id, hidden })}
                      </button>
                      <button
                        type="button"
                        className="button button-small button-danger"
                        onClick={() => setDialog({ kind: 'retire', till })}
                      >
                        {rich('settings.tills.retire', { tillId: till.till_id, hidden })}
                      </button>
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {dialog?.kind === 'create' && data && (
        <CreateTillDialog
          tills={data.tills}
          shops={data.shops}
          onClose={() => setDialog(null)}
          onDone={(till) =>
            done(
              till.shop_id
                ? t('settings.tills.addedTo', { name: till.name, tillId: till.till_id, shop: shopName(till.shop_id) })
                : t('settings.tills.added', { name: till.name, tillId: till.till_id }),
            )
          }
        />
      )}
      {dialog?.kind === 'invite' && <InviteDialog till={dialog.till} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'limits' && (
        <LimitsDialog
          till={dialog.till}
          onClose={() => setDialog(null)}
          onDone={() => done(t('settings.tills.limitsSaved', { name: dialog.till.name, tillId: dialog.till.till_id }))}
        />
      )}
      {dialog?.kind === 'rename' && (
        <RenameTillDialog
          till={dialog.till}
          onClose={() => setDialog(null)}
          onDone={(till) => done(t('settings.tills.renamed', { tillId: till.till_id, name: till.name }))}
        />
      )}
      {dialog?.kind === 'retire' && (
        <ConfirmDialog
          title={t('settings.tills.retireTitle', { name: dialog.till.name })}
          keepLabel={t('settings.tills.keep')}
          confirmLabel={t('settings.tills.retireConfirm')}
          busyLabel={t('settings.tills.retiring')}
          what={t('settings.tills.retireWhat')}
          run={() => retire(dialog.till)}
          onClose={() => setDialog(null)}
          onDone={(till) => done(t('settings.tills.retired', { name: till.name, tillId: till.till_id }))}
        >
          <p>{t('settings.tills.retireBody', { name: dialog.till.name, tillId: dialog.till.till_id })}</p>
          {dialog.till.holder && !dialog.till.holder.this_screen && (
            <p>
              {dialog.till.holder.staff_name
                ? t('settings.tills.retireHeld', { name: dialog.till.holder.staff_name })
                : t('settings.tills.retireHeldSomeone')}
            </p>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}

/** Retires a till; the gateway's refusal (400 naming `retired`) comes back in words that say what to do. */
async function retire(till: Till): Promise<Till> {
  try {
    return await tillsClient.update(till.till_id, { retired: true });
  } catch (error) {
    throw plainRefusal(error, till);
  }
}

function plainRefusal(error: unknown, till: Till): Error {
  if (!(error instanceof ApiError) || error.kind !== 'api') return error instanceof Error ? error : new Error(String(error));
  const reason = error.errors.find((e) => e.field === 'retired')?.message;
  const words: Record<string, MessageId> = {
    [TILL_RETIRE_REFUSED.openAttempt]: 'settings.tills.refused.openAttempt',
    [TILL_RETIRE_REFUSED.dayNotClosed]: 'settings.tills.refused.dayNotClosed',
    [TILL_RETIRE_REFUSED.lastTill]: 'settings.tills.refused.lastTill',
  };
  const said = reason === undefined ? undefined : words[reason];
  return said ? new Error(translate(said, { name: till.name })) : error;
}

type CreateField = 'till_id' | 'name' | 'shop_id';
const CREATE_FIELDS: Record<CreateField, MessageId> = {
  till_id: 'settings.tills.tillId',
  name: 'settings.field.name',
  shop_id: 'settings.field.shop',
};

function CreateTillDialog({
  tills,
  shops,
  onClose,
  onDone,
}: {
  tills: readonly Till[];
  shops: readonly Shop[];
  onClose: () => void;
  onDone: (till: Till) => void;
}) {
  const t = useT();
  const suggested = nextTillId(tills);
  const [tillId, setTillId] = useState('');
  const [name, setName] = useState('');
  const [shopId, setShopId] = useState('');
  const [problems, setProblems] = useState<Problems<CreateField>>({});
  const clear = (field: CreateField) => setProblems((p) => (p[field] ? { ...p, [field]: undefined } : p));
  const [busy, setBusy] = useState(false);
  const typedId = tillId.trim();
  // The name the gateway gives a till created without one, for the id as typed.
  const defaultName = defaultTillName(TILL_ID_PATTERN.test(typedId) ? typedId : suggested);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const local: Problems<CreateField> = {};
    if (!TILL_ID_PATTERN.test(typedId)) local.till_id = t('settings.tills.tillIdInvalid', { example: suggested });
    setProblems(local);
    if (Object.keys(local).length) return focusFirst('till', local);
    setBusy(true);
    try {
      const made = await tillsClient.create({
        till_id: typedId,
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(shopId ? { shop_id: shopId } : {}),
      });
      onDone(made);
    } catch (error) {
      const found = problemsOf(error, translate('settings.tills.notAdded'), CREATE_FIELDS);
      setProblems(found);
      focusFirst('till', found);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title={t('settings.tills.add')} onClose={onClose} busy={busy}>
      <form onSubmit={(event) => void create(event)} noValidate>
        <FormProblem text={problems.form} />
        <SettingField id="till-till_id" label={t('settings.tills.tillId')} problem={problems.till_id} note={t('settings.tills.tillIdNote')}>
          {(props) => (
            <input
              {...props}
              className="input"
              value={tillId}
              maxLength={40}
              placeholder={suggested}
              autoComplete="off"
              spellCheck={false}
              data-autofocus
              onChange={(e) => {
                setTillId(e.target.value);
                clear('till_id');
              }}
            />
          )}
        </SettingField>
        <SettingField
          id="till-name"
          label={t('settings.field.name')}
          optional
          problem={problems.name}
          note={t('settings.tills.nameNote', { name: defaultName })}
        >
          {(props) => (
            <input
              {...props}
              className="input"
              value={name}
              maxLength={NAME_MAX}
              placeholder={defaultName}
              autoComplete="off"
              onChange={(e) => {
                setName(e.target.value);
                clear('name');
              }}
            />
          )}
        </SettingField>
        <SettingField
          id="till-shop_id"
          label={t('settings.field.shop')}
          optional
          problem={problems.shop_id}
          note={shops.length ? t('settings.tills.shopNote') : t('settings.tills.noShops')}
        >
          {(props) => (
            <select
              {...props}
              className="input"
              value={shopId}
              onChange={(e) => {
                setShopId(e.target.value);
                clear('shop_id');
              }}
            >
              <option value="">{t('settings.tills.noShop')}</option>
              {shops.map((shop) => (
                <option key={shop.shop_id} value={shop.shop_id}>
                  {shop.name}
                </option>
              ))}
            </select>
          )}
        </SettingField>
        <FormActions submitLabel={t('settings.tills.addSubmit')} busyLabel={t('settings.tills.adding')} busy={busy} onCancel={onClose} />
      </form>
    </Modal>
  );
}

function RenameTillDialog({ till, onClose, onDone }: { till: Till; onClose: () => void; onDone: (till: Till) => void }) {
  const t = useT();
  const [name, setName] = useState(till.name);
  const [problems, setProblems] = useState<Problems<'name'>>({});
  const [busy, setBusy] = useState(false);

  const rename = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!name.trim()) {
      const local = { name: t('settings.tills.nameMissing') };
      setProblems(local);
      return focusFirst('rename', local);
    }
    setBusy(true);
    try {
      onDone(await tillsClient.update(till.till_id, { name: name.trim() }));
    } catch (error) {
      const found = problemsOf(error, translate('settings.tills.notRenamed'), { name: 'settings.field.name' });
      setProblems(found);
      focusFirst('rename', found);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title={t('settings.tills.renameTitle', { name: till.name })} onClose={onClose} busy={busy}>
      <form onSubmit={(event) => void rename(event)} noValidate>
        <FormProblem text={problems.form} />
        <SettingField
          id="rename-name"
          label={t('settings.field.name')}
          problem={problems.name}
          note={t('settings.tills.renameNote', { tillId: till.till_id })}
        >
          {(props) => (
            <input
              {...props}
              className="input"
              value={name}
              maxLength={NAME_MAX}
              autoComplete="off"
              data-autofocus
              onChange={(e) => {
                setName(e.target.value);
                setProblems({});
              }}
            />
          )}
        </SettingField>
        <FormActions submitLabel={t('settings.tills.saveName')} busyLabel={t('common.saving')} busy={busy} onCancel={onClose} />
      </form>
    </Modal>
  );
}

/**
 * A one-time pairing code for the till on another computer: typed in at that computer's first start
 * ("Join a shop's gateway") or given to `gateway till join`. Shown once; valid 24 hours.
 */
function InviteDialog({ till, onClose }: { till: Till; onClose: () => void }) {
  const t = useT();
  const rich = useRich();
  const [invite, setInvite] = useState<TillInvite | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const make = async () => {
    setBusy(true);
    try {
      setInvite(await tillsClient.invite(till.till_id));
      setProblem(null);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : translate('settings.tills.invite.failed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title={t('settings.tills.invite.title', { name: till.name })} onClose={onClose} busy={busy}>
      <p>{rich('settings.tills.invite.body', { command: JOIN_COMMAND, code })}</p>
      {till.remote && <p>{t('settings.tills.invite.joined', { name: till.name })}</p>}
      <FormProblem text={problem ?? undefined} />
      {invite ? (
        <>
          <CopyValue label={t('settings.tills.invite.code')} value={invite.code} />
          <p className="muted">{t('settings.tills.invite.valid', { until: formatDateTime(invite.expires_at) })}</p>
          <div className="modal-actions">
            <button type="button" className="button button-primary" onClick={onClose}>
              {t('settings.tills.invite.done')}
            </button>
          </div>
        </>
      ) : (
        <div className="modal-actions">
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="button" className="button button-primary" aria-disabled={busy} onClick={() => void make()}>
            {busy ? t('settings.tills.invite.making') : t('settings.tills.invite.make')}
          </button>
        </div>
      )}
    </Modal>
  );
}

type LimitField = keyof StoreLimits;
const LIMIT_FIELDS: ReadonlyArray<{ field: LimitField; label: MessageId; note: MessageId; step: string }> = [
  { field: 'per_payment', label: 'settings.tills.limits.perPayment', note: 'settings.tills.limits.perPaymentNote', step: '0.01' },
  { field: 'total_per_currency', label: 'settings.tills.limits.total', note: 'settings.tills.limits.totalNote', step: '0.01' },
  { field: 'count', label: 'settings.tills.limits.count', note: 'settings.tills.limits.countNote', step: '1' },
  { field: 'age_hours', label: 'settings.tills.limits.age', note: 'settings.tills.limits.ageNote', step: '1' },
];
/** Each limit as a refusal names it. */
const LIMIT_PROBLEM_FIELDS: Readonly<Record<LimitField, MessageId>> = {
  per_payment: 'settings.tills.limits.perPayment',
  total_per_currency: 'settings.tills.limits.totalShort',
  count: 'settings.tills.limits.count',
  age_hours: 'settings.tills.limits.ageShort',
};

/** What a till on another computer may store while this gateway cannot be reached; 0 turns storing off. */
function LimitsDialog({ till, onClose, onDone }: { till: Till; onClose: () => void; onDone: () => void }) {
  const t = useT();
  const [values, setValues] = useState<Record<LimitField, string>>(() => {
    const limits = till.remote?.limits;
    return {
      per_payment: String(limits?.per_payment ?? ''),
      total_per_currency: String(limits?.total_per_currency ?? ''),
      count: String(limits?.count ?? ''),
      age_hours: String(limits?.age_hours ?? ''),
    };
  });
  const [problems, setProblems] = useState<Problems<LimitField>>({});
  const [busy, setBusy] = useState(false);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const local: Problems<LimitField> = {};
    const limits = {} as StoreLimits;
    for (const { field, label } of LIMIT_FIELDS) {
      const value = Number(values[field]);
      if (values[field].trim() === '' || !Number.isFinite(value) || value < 0 || (field === 'count' && !Number.isInteger(value)))
        local[field] = t(field === 'count' ? 'settings.tills.limits.wholeInvalid' : 'settings.tills.limits.numberInvalid', {
          label: t(label),
        });
      else limits[field] = value;
    }
    setProblems(local);
    if (Object.keys(local).length) return focusFirst('limits', local);
    setBusy(true);
    try {
      await tillsClient.setLimits(till.till_id, limits);
      onDone();
    } catch (error) {
      const found = problemsOf(error, translate('settings.tills.limits.notSaved'), LIMIT_PROBLEM_FIELDS);
      setProblems(found);
      focusFirst('limits', found);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title={t('settings.tills.limits.title', { name: till.name })} onClose={onClose} busy={busy}>
      <form onSubmit={(event) => void save(event)} noValidate>
        <p>{t('settings.tills.limits.lead', { name: till.name })}</p>
        <FormProblem text={problems.form} />
        {LIMIT_FIELDS.map(({ field, label, note, step }, index) => (
          <SettingField key={field} id={`limits-${field}`} label={t(label)} problem={problems[field]} note={t(note)}>
            {(props) => (
              <input
                {...props}
                className="input"
                type="number"
                min="0"
                step={step}
                inputMode="decimal"
                value={values[field]}
                {...(index === 0 ? { 'data-autofocus': true } : {})}
                onChange={(e) => {
                  setValues((v) => ({ ...v, [field]: e.target.value }));
                  setProblems({});
                }}
              />
            )}
          </SettingField>
        ))}
        <FormActions submitLabel={t('settings.tills.limits.save')} busyLabel={t('common.saving')} busy={busy} onCancel={onClose} />
      </form>
    </Modal>
  );
}
