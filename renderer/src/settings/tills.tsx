/**
 * Settings -> Tills (admin; issue 26): the shop's tills with their till id (the terminal id of
 * their payments, receipts and day reports), their shop and who has each open on a screen; a new
 * till, a rename, and retiring a till after confirmation (it takes no sale from then on, its past
 * stays). The gateway refuses to retire a till with a payment of unknown outcome, with sales of a
 * day not closed, or the last active one; the dialog says so in plain words. Retired tills are
 * listed after the active ones.
 */
import { useCallback, useState, type FormEvent } from 'react';
import { defaultTillName, TILL_ID_PATTERN, TILL_RETIRE_REFUSED } from '../../../contract/constants.js';
import { ApiError } from '../api/client.js';
import { tillsClient, type StoreLimits, type Till, type TillInvite } from '../tills/tills-client.js';
import { ConfirmDialog } from '../ui/detail-parts.js';
import { FormActions } from '../ui/dialog-parts.js';
import { formatDateTime, formatTime } from '../ui/format.js';
import { formatMoney } from '../till/money.js';
import { CopyValue } from '../ui/copy-value.js';
import { Modal } from '../ui/modal.js';
import { toneClass } from '../ui/tags.js';
import { settingsClient, type Shop } from './settings-client.js';
import { focusFirst, FormProblem, Pending, problemsOf, SettingField, useLoaded, type Problems } from './settings-parts.js';

type Dialog = { kind: 'create' } | { kind: 'rename'; till: Till } | { kind: 'retire'; till: Till } | { kind: 'invite'; till: Till } | { kind: 'limits'; till: Till } | null;

const NAME_MAX = 60;

/** The till a new one would most likely be: the first TILL-n not taken (retired ids stay taken). */
function nextTillId(tills: readonly Till[]): string {
  const taken = new Set(tills.map((t) => t.till_id.toUpperCase()));
  let n = 1;
  while (taken.has(`TILL-${n}`)) n += 1;
  return `TILL-${n}`;
}

/** Free, open on a screen (whose, seen when), or retired (when). */
function TillStatus({ till }: { till: Till }) {
  if (till.retired_at) return <span className={toneClass('off')}>Retired {formatDateTime(till.retired_at)}</span>;
  if (till.holder) {
    const where = till.holder.this_screen ? 'Open on this screen' : `Open on a screen${till.holder.staff_name ? ` (${till.holder.staff_name})` : ''}`;
    return <span className={toneClass('info')}>{`${where}, seen ${formatTime(till.holder.seen_at)}`}</span>;
  }
  return <span className={toneClass('ok')}>Free</span>;
}

/** A till on another computer, as it last reported: seen when, what it holds, a warning when it went quiet. */
function RemoteState({ till }: { till: Till }) {
  const remote = till.remote;
  if (!remote) return null;
  const { stored } = remote;
  const totals = stored.totals.map((t) => formatMoney(t.amount, t.currency)).join(' + ');
  return (
    <div className="till-remote">
      <span className="muted">
        On another computer{remote.version ? ` (version ${remote.version})` : ''} · {remote.last_seen_at ? `seen ${formatTime(remote.last_seen_at)}` : 'not seen since it joined'}
        {remote.open_attempt ? ' · a card payment in progress' : ''}
      </span>
      {stored.count > 0 && (
        <span className={toneClass('wait')}>
          {stored.count} stored {stored.count === 1 ? 'sale' : 'sales'} ({totals}){stored.oldest_at ? `, the oldest from ${formatTime(stored.oldest_at)}` : ''}
        </span>
      )}
      {remote.last_forward_at && <span className="muted">Last forwarded {formatDateTime(remote.last_forward_at)}</span>}
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
  if (till.retired_at) return null;
  const since = till.day.opened_at ? `since ${formatDateTime(till.day.opened_at)}` : 'since its first sale';
  return till.day.open ? <span>{`Day ${till.day.sequence} open ${since}`}</span> : <span className="muted">{`Nothing since ${till.day.opened_at ? `the close of ${formatDateTime(till.day.opened_at)}` : 'it was added'}`}</span>;
}

export function TillSettings() {
  const read = useCallback(async () => {
    const [list, shops] = await Promise.all([tillsClient.list({ retired: true }), settingsClient.shops()]);
    return { tills: list.tills, shops };
  }, []);
  const { data, problem, load } = useLoaded(read, 'The tills');
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
        <h2 id="tills-title">Tills</h2>
        <button type="button" className="button button-primary" onClick={() => setDialog({ kind: 'create' })} disabled={!data}>
          Add a till
        </button>
      </div>
      <p className="lead">
        Each till sells on its own screen and closes its own day. Its till id is the terminal id on its payments, receipts and reports; a screen chooses its till once, and one till is open on one
        screen at a time.
      </p>
      <p className="settings-message" role="status">
        {message}
      </p>
      {!data ? (
        <Pending problem={problem} retry={() => void load()} />
      ) : (
        <table className="settings-table">
          <caption className="visually-hidden">Tills of this shop, retired ones last</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Till id</th>
              <th scope="col">Shop</th>
              <th scope="col">Status</th>
              <th scope="col">Day</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.tills.map((till) => (
              <tr key={till.till_id} className={till.retired_at ? 'settings-row-retired' : undefined}>
                <td>{till.name}</td>
                <td className="mono">{till.till_id}</td>
                <td>{shopName(till.shop_id) ?? <span className="muted">No shop</span>}</td>
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
                        Rename<span className="visually-hidden"> till {till.till_id}</span>
                      </button>
                      {till.remote && (
                        <button type="button" className="button button-small" onClick={() => setDialog({ kind: 'limits', till })}>
                          Limits<span className="visually-hidden"> of till {till.till_id}</span>
                        </button>
                      )}
                      <button type="button" className="button button-small" onClick={() => setDialog({ kind: 'invite', till })}>
                        {till.remote ? 'Join again' : 'Join from another computer'}
                        <span className="visually-hidden"> till {till.till_id}</span>
                      </button>
                      <button type="button" className="button button-small button-danger" onClick={() => setDialog({ kind: 'retire', till })}>
                        Retire<span className="visually-hidden"> till {till.till_id}</span>
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
        <CreateTillDialog tills={data.tills} shops={data.shops} onClose={() => setDialog(null)} onDone={(till) => done(`${till.name} (${till.till_id}) added${till.shop_id ? ` to ${shopName(till.shop_id)}` : ''}.`)} />
      )}
      {dialog?.kind === 'invite' && <InviteDialog till={dialog.till} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'limits' && <LimitsDialog till={dialog.till} onClose={() => setDialog(null)} onDone={() => done(`${dialog.till.name} (${dialog.till.till_id}) has its new limits within seconds.`)} />}
      {dialog?.kind === 'rename' && <RenameTillDialog till={dialog.till} onClose={() => setDialog(null)} onDone={(till) => done(`${till.till_id} is now called ${till.name}.`)} />}
      {dialog?.kind === 'retire' && (
        <ConfirmDialog
          title={`Retire ${dialog.till.name}?`}
          keepLabel="Keep the till"
          confirmLabel="Retire till"
          busyLabel="Retiring…"
          what="Retiring the till"
          run={() => retire(dialog.till)}
          onClose={() => setDialog(null)}
          onDone={(till) => done(`${till.name} (${till.till_id}) is retired: it takes no sale from now on.`)}
        >
          <p>
            Once retired, {dialog.till.name} ({dialog.till.till_id}) takes no sale and no screen can open it. Its past sales, receipts and Z reports stay as they are. Retiring cannot be undone.
          </p>
          {dialog.till.holder && !dialog.till.holder.this_screen && <p>{dialog.till.holder.staff_name ?? 'Someone'} has it open on a screen now; that screen sells on it no more once it is retired.</p>}
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
  const words: Record<string, string> = {
    [TILL_RETIRE_REFUSED.openAttempt]: `${till.name} has a card payment whose outcome is not known yet. Retire it once the till screen shows how that payment ended.`,
    [TILL_RETIRE_REFUSED.dayNotClosed]: `${till.name} has sales of a day that is not closed yet. Close its day first (Cashier, Close the day, on ${till.name}), then retire it.`,
    [TILL_RETIRE_REFUSED.lastTill]: `${till.name} is the shop's last active till, and a shop keeps at least one. Add the till that replaces it first.`,
  };
  const said = reason === undefined ? undefined : words[reason];
  return said ? new Error(said) : error;
}

type CreateField = 'till_id' | 'name' | 'shop_id';
const CREATE_FIELDS: Record<CreateField, string> = { till_id: 'till id', name: 'name', shop_id: 'shop' };

function CreateTillDialog({ tills, shops, onClose, onDone }: { tills: readonly Till[]; shops: readonly Shop[]; onClose: () => void; onDone: (till: Till) => void }) {
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
    if (!TILL_ID_PATTERN.test(typedId)) local.till_id = `Till id must be 1 to 40 letters, digits, '-', '_' or '.', starting with a letter or digit, such as ${suggested}.`;
    setProblems(local);
    if (Object.keys(local).length) return focusFirst('till', local);
    setBusy(true);
    try {
      const made = await tillsClient.create({ till_id: typedId, ...(name.trim() ? { name: name.trim() } : {}), ...(shopId ? { shop_id: shopId } : {}) });
      onDone(made);
    } catch (error) {
      const found = problemsOf(error, 'The till was not added', CREATE_FIELDS);
      setProblems(found);
      focusFirst('till', found);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title="Add a till" onClose={onClose} busy={busy}>
      <form onSubmit={(event) => void create(event)} noValidate>
        <FormProblem text={problems.form} />
        <SettingField id="till-till_id" label="Till id" problem={problems.till_id} note="The terminal id on its payments, receipts and reports; fixed once added">
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
        <SettingField id="till-name" label="Name" optional problem={problems.name} note={`What staff see on the till screen; empty: ${defaultName}`}>
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
        <SettingField id="till-shop_id" label="Shop" optional problem={problems.shop_id} note={shops.length ? "Its payments follow the shop's payment methods and fees" : 'No shops yet: add them in Shops and terminals'}>
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
              <option value="">No shop</option>
              {shops.map((shop) => (
                <option key={shop.shop_id} value={shop.shop_id}>
                  {shop.name}
                </option>
              ))}
            </select>
          )}
        </SettingField>
        <FormActions submitLabel="Add till" busyLabel="Adding…" busy={busy} onCancel={onClose} />
      </form>
    </Modal>
  );
}

function RenameTillDialog({ till, onClose, onDone }: { till: Till; onClose: () => void; onDone: (till: Till) => void }) {
  const [name, setName] = useState(till.name);
  const [problems, setProblems] = useState<Problems<'name'>>({});
  const [busy, setBusy] = useState(false);

  const rename = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!name.trim()) {
      const local = { name: 'Give the till a name.' };
      setProblems(local);
      return focusFirst('rename', local);
    }
    setBusy(true);
    try {
      onDone(await tillsClient.update(till.till_id, { name: name.trim() }));
    } catch (error) {
      const found = problemsOf(error, 'The till was not renamed', { name: 'name' });
      setProblems(found);
      focusFirst('rename', found);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title={`Rename ${till.name}`} onClose={onClose} busy={busy}>
      <form onSubmit={(event) => void rename(event)} noValidate>
        <FormProblem text={problems.form} />
        <SettingField id="rename-name" label="Name" problem={problems.name} note={`Till id ${till.till_id} stays: its payments and reports name it so`}>
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
        <FormActions submitLabel="Save name" busyLabel="Saving…" busy={busy} onCancel={onClose} />
      </form>
    </Modal>
  );
}

/**
 * A one-time pairing code for the till on another computer: typed in at that computer's first start
 * ("Join a shop's gateway") or given to `gateway till join`. Shown once; valid 24 hours.
 */
function InviteDialog({ till, onClose }: { till: Till; onClose: () => void }) {
  const [invite, setInvite] = useState<TillInvite | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const make = async () => {
    setBusy(true);
    try {
      setInvite(await tillsClient.invite(till.till_id));
      setProblem(null);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : 'No pairing code was made');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title={`${till.name} on another computer`} onClose={onClose} busy={busy}>
      <p>
        A till on another computer sells on this gateway: its sales are recorded here, and while this gateway cannot be reached it stores card sales and sends them once it answers. On that
        computer, choose &ldquo;Join a shop&rsquo;s gateway&rdquo; at the first start (or run <code>gateway till join</code>) and enter the pairing code.
      </p>
      {till.remote && <p>{till.name} is joined already: a new code joins a replacement computer, and the old one is cut off when the new one joins.</p>}
      <FormProblem text={problem ?? undefined} />
      {invite ? (
        <>
          <CopyValue label="Pairing code" value={invite.code} />
          <p className="muted">Valid once, until {formatDateTime(invite.expires_at)}. It is not shown again.</p>
          <div className="modal-actions">
            <button type="button" className="button button-primary" onClick={onClose}>
              Done
            </button>
          </div>
        </>
      ) : (
        <div className="modal-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="button button-primary" aria-disabled={busy} onClick={() => void make()}>
            {busy ? 'Making the code…' : 'Make a pairing code'}
          </button>
        </div>
      )}
    </Modal>
  );
}

type LimitField = keyof StoreLimits;
const LIMIT_FIELDS: ReadonlyArray<{ field: LimitField; label: string; note: string; step: string }> = [
  { field: 'per_payment', label: 'Most per sale', note: 'in the shop\u2019s currency', step: '0.01' },
  { field: 'total_per_currency', label: 'Most in all per currency', note: 'all stored sales of one currency together', step: '0.01' },
  { field: 'count', label: 'Most sales', note: 'how many sales may be stored', step: '1' },
  { field: 'age_hours', label: 'Oldest (hours)', note: 'no sale is stored once the oldest is this old', step: '1' },
];

/** What a till on another computer may store while this gateway cannot be reached; 0 turns storing off. */
function LimitsDialog({ till, onClose, onDone }: { till: Till; onClose: () => void; onDone: () => void }) {
  const [values, setValues] = useState<Record<LimitField, string>>(() => {
    const limits = till.remote?.limits;
    return { per_payment: String(limits?.per_payment ?? ''), total_per_currency: String(limits?.total_per_currency ?? ''), count: String(limits?.count ?? ''), age_hours: String(limits?.age_hours ?? '') };
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
      if (values[field].trim() === '' || !Number.isFinite(value) || value < 0 || (field === 'count' && !Number.isInteger(value))) local[field] = `${label}: a number, 0 or more${field === 'count' ? ', whole' : ''}.`;
      else limits[field] = value;
    }
    setProblems(local);
    if (Object.keys(local).length) return focusFirst('limits', local);
    setBusy(true);
    try {
      await tillsClient.setLimits(till.till_id, limits);
      onDone();
    } catch (error) {
      const found = problemsOf(error, 'The limits were not saved', { per_payment: 'most per sale', total_per_currency: 'most in all', count: 'most sales', age_hours: 'oldest' });
      setProblems(found);
      focusFirst('limits', found);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title={`What ${till.name} may store`} onClose={onClose} busy={busy}>
      <form onSubmit={(event) => void save(event)} noValidate>
        <p>While this gateway cannot be reached, {till.name} stores card sales within these limits and sends them when it answers again. 0 turns storing off.</p>
        <FormProblem text={problems.form} />
        {LIMIT_FIELDS.map(({ field, label, note, step }, index) => (
          <SettingField key={field} id={`limits-${field}`} label={label} problem={problems[field]} note={note}>
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
        <FormActions submitLabel="Save limits" busyLabel="Saving…" busy={busy} onCancel={onClose} />
      </form>
    </Modal>
  );
}
