/**
 * Settings -> Shops and terminals (admin; decisions.md D15): the merchant's shops, the terminal ids
 * (pos_data.terminal.id; a till's is its till id, Settings -> Tills) whose payments belong to each, a new shop, and a
 * terminal assigned to a shop or taken out of it. A terminal belongs to one shop: assigning it to
 * another moves it. Which payment methods each shop offers is set by the merchant's partner.
 */
import { Link } from '@tanstack/react-router';
import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import { ApiError } from '../api/transport.js';
import { translate, useT } from '../ui/i18n.js';
import { paymentMethodsClient as client, type Shop } from '../payment-methods/payment-methods-client.js';
import { fieldProblem, hidden, useRich } from './settings-parts.js';

type Message = { text: string; problem: boolean } | null;
/** A form's problems: one per field (shown at the field), or one for the whole form. */
type FormProblems = Record<string, string>;

/** The names of the fields a refusal names, as the forms label them. */
const FIELD_NAMES: Readonly<Record<string, MessageId>> = {
  name: 'settings.field.name',
  terminal_id: 'settings.shops.terminalId',
  shop_id: 'settings.field.shop',
};

/** The field problems of a refusal (the API names each field), else one for the form. */
function problemsOf(error: unknown, fallback: string, fields: readonly string[]): FormProblems {
  if (error instanceof ApiError && error.errors.length && error.errors.every((e) => fields.includes(e.field))) {
    return Object.fromEntries(error.errors.map((e) => [e.field, fieldName(e.field, e.message)]));
  }
  return { form: problemText(error, fallback) };
}

function fieldName(field: string, message: string): string {
  const known = FIELD_NAMES[field];
  if (known) return fieldProblem(known, message);
  const words = field.replaceAll('_', ' ');
  return translate('settings.problem.field', { field: words.charAt(0).toUpperCase() + words.slice(1), problem: message });
}

/** An example of a terminal id, as the POS sends it (an id: the same in every language). */
const TERMINAL_EXAMPLE = 'TILL-1';

function problemText(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.errors.length)
    return translate('settings.problem.others', {
      what: fallback,
      problems: error.errors.map((e) => `${e.field.replaceAll('_', ' ')} ${e.message}`).join('; '),
    });
  return error instanceof Error
    ? translate('settings.problem.because', { what: fallback, problem: error.message })
    : translate('settings.problem.plain', { what: fallback });
}

const settingsTills = (chunks: ReactNode[]) => <Link to="/settings/tills">{chunks}</Link>;

export function ShopsSettings() {
  const t = useT();
  const rich = useRich();
  const [shops, setShops] = useState<Shop[] | null>(null);
  const [loadProblem, setLoadProblem] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [terminal, setTerminal] = useState('');
  const [shopId, setShopId] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  const [shopProblems, setShopProblems] = useState<FormProblems>({});
  const [terminalProblems, setTerminalProblems] = useState<FormProblems>({});

  const load = useCallback(async () => {
    try {
      const list = await client.shops();
      setShops(list);
      setLoadProblem(null);
      setShopId((current) => (current && list.some((s) => s.shop_id === current) ? current : (list[0]?.shop_id ?? '')));
    } catch (error) {
      setLoadProblem(problemText(error, translate('settings.shops.loadFailed')));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  /** Runs a change; a refusal goes to the form's fields (`fields`) through `refused`, else to the message line. */
  const run = async (
    work: () => Promise<string>,
    failure: string,
    refused?: { fields: readonly string[]; show: (problems: FormProblems) => void },
  ) => {
    if (busy) return;
    setBusy(true);
    setMessage(null);
    try {
      const done = await work();
      // The list first, then the word: what the message says is already on the screen.
      await load();
      setMessage({ text: done, problem: false });
    } catch (error) {
      if (refused) refused.show(problemsOf(error, failure, refused.fields));
      else setMessage({ text: problemText(error, failure), problem: true });
    } finally {
      setBusy(false);
    }
  };

  const addShop = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setShopProblems({ name: t('settings.shops.nameMissing') });
      setMessage(null);
      return;
    }
    setShopProblems({});
    void run(
      async () => {
        const shop = await client.createShop(trimmed);
        setName('');
        setShopId(shop.shop_id);
        return translate('settings.shops.added', { name: shop.name });
      },
      t('settings.shops.notAdded'),
      { fields: ['name'], show: setShopProblems },
    );
  };

  const assign = (event: FormEvent) => {
    event.preventDefault();
    const id = terminal.trim();
    const problems: FormProblems = {};
    if (!id) problems.terminal_id = t('settings.shops.terminalMissing');
    else if (!/^[\x21-\x7e]{1,64}$/.test(id)) problems.terminal_id = t('settings.shops.terminalInvalid');
    if (!shopId) problems.shop_id = t('settings.shops.shopFirst');
    setTerminalProblems(problems);
    if (Object.keys(problems).length) {
      setMessage(null);
      return;
    }
    void run(
      async () => {
        const result = await client.assignTerminal(shopId, id);
        setTerminal('');
        const target = shops?.find((s) => s.shop_id === result.shop_id)?.name;
        const before = shops?.find((s) => s.shop_id === result.previous_shop_id)?.name;
        if (!target) return translate('settings.shops.assignedThere', { terminal: result.terminal_id });
        return before
          ? translate('settings.shops.moved', { terminal: result.terminal_id, before, target })
          : translate('settings.shops.assigned', { terminal: result.terminal_id, target });
      },
      t('settings.shops.notAssigned'),
      { fields: ['terminal_id', 'shop_id'], show: setTerminalProblems },
    );
  };

  const unassign = (terminalId: string, shop: Shop) =>
    void run(async () => {
      await client.unassignTerminal(terminalId);
      return translate('settings.shops.takenOut', { terminal: terminalId, shop: shop.name });
    }, t('settings.shops.notTakenOut'));

  return (
    <>
      <h2 className="visually-hidden">{t('settings.section.shops')}</h2>
      <p className="lead">{rich('settings.shops.lead', { link: settingsTills })}</p>
      <p
        className={message?.problem ? 'settings-message settings-message-problem' : 'settings-message'}
        role={message?.problem ? 'alert' : 'status'}
      >
        {message?.text ?? ''}
      </p>
      <section className="card" aria-labelledby="shops-heading">
        <h2 id="shops-heading">{t('settings.shops.title')}</h2>
        {loadProblem && (
          <p className="settings-message settings-message-problem" role="alert">
            {loadProblem}{' '}
            <button type="button" className="button button-quiet button-small" onClick={() => void load()}>
              {t('common.retry')}
            </button>
          </p>
        )}
        {shops === null && !loadProblem && <p>{t('settings.shops.loading')}</p>}
        {shops?.length === 0 && <p>{t('settings.shops.none')}</p>}
        {shops && shops.length > 0 && (
          <ul className="shop-list">
            {shops.map((shop) => (
              <li key={shop.shop_id} className="shop-item">
                <h3 className="shop-name">{shop.name}</h3>
                {shop.terminals.length === 0 ? (
                  <p className="shop-note">{t('settings.shops.noTerminals')}</p>
                ) : (
                  <ul className="terminal-list" aria-label={t('settings.shops.terminalsOf', { shop: shop.name })}>
                    {shop.terminals.map((id) => (
                      <li key={id} className="terminal-item">
                        <code>{id}</code>
                        <button
                          type="button"
                          className="button button-quiet button-small"
                          aria-disabled={busy}
                          onClick={() => unassign(id, shop)}
                        >
                          {rich('settings.shops.takeOut', { terminal: id, hidden })}
                        </button>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <div className="settings-forms">
        <section className="card" aria-labelledby="add-shop-heading">
          <h2 id="add-shop-heading">{t('settings.shops.addTitle')}</h2>
          <form onSubmit={addShop} noValidate>
            <FormProblem text={shopProblems.form} />
            <TextField
              id="shop-name"
              label={t('settings.shops.shopName')}
              value={name}
              maxLength={120}
              problem={shopProblems.name}
              onChange={setName}
            />
            <button type="submit" className="button button-primary" aria-disabled={busy}>
              {t('settings.shops.add')}
            </button>
          </form>
        </section>
        <section className="card" aria-labelledby="assign-heading">
          <h2 id="assign-heading">{t('settings.shops.assignTitle')}</h2>
          <form onSubmit={assign} noValidate>
            <FormProblem text={terminalProblems.form} />
            <TextField
              id="terminal-id"
              label={t('settings.shops.terminalId')}
              value={terminal}
              maxLength={64}
              placeholder={TERMINAL_EXAMPLE}
              note={t('settings.shops.terminalNote')}
              problem={terminalProblems.terminal_id}
              onChange={setTerminal}
            />
            <div className="field">
              {/* A label of its own (not around the select): the select's name stays "Shop", not "Shop High Street". */}
              <label className="field-label" htmlFor="assign-shop">
                {t('settings.field.shop')}
              </label>
              <select
                id="assign-shop"
                className="input"
                value={shopId}
                onChange={(event) => setShopId(event.target.value)}
                disabled={!shops?.length}
                aria-invalid={terminalProblems.shop_id ? true : undefined}
                aria-describedby={terminalProblems.shop_id ? 'assign-shop-error' : undefined}
              >
                {!shops?.length && <option value="">{t('settings.shops.addFirst')}</option>}
                {shops?.map((shop) => (
                  <option key={shop.shop_id} value={shop.shop_id}>
                    {shop.name}
                  </option>
                ))}
              </select>
              <FieldProblem id="assign-shop-error" text={terminalProblems.shop_id} />
            </div>
            <button type="submit" className="button button-primary" aria-disabled={busy || !shops?.length}>
              {t('settings.shops.assign')}
            </button>
          </form>
        </section>
      </div>
    </>
  );
}

interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  maxLength: number;
  onChange: (value: string) => void;
  /** Shown under the field, which is then marked invalid and described by it. */
  problem: string | undefined;
  note?: string;
  placeholder?: string;
}

/** A labelled text input with its problem and note (ids, words as typed: no spell check). */
function TextField({ id, label, value, maxLength, onChange, problem, note, placeholder }: TextFieldProps) {
  const describedBy = [problem ? `${id}-error` : '', note ? `${id}-note` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input"
        value={value}
        maxLength={maxLength}
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        aria-invalid={problem ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      <FieldProblem id={`${id}-error`} text={problem} />
      {note && (
        <span className="field-note" id={`${id}-note`}>
          {note}
        </span>
      )}
    </div>
  );
}

/** A field's problem, right under it (the control points at it with aria-describedby). */
function FieldProblem({ id, text }: { id: string; text: string | undefined }) {
  if (!text) return null;
  return (
    <p className="field-error" id={id} role="alert">
      {text}
    </p>
  );
}

/** A refusal that names no field of the form, at the top of the form. */
function FormProblem({ text }: { text: string | undefined }) {
  if (!text) return null;
  return (
    <p className="settings-message settings-message-problem" role="alert">
      {text}
    </p>
  );
}
