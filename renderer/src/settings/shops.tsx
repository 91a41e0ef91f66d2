/**
 * Settings -> Shops and terminals (admin; decisions.md D15): the merchant's shops, the terminal ids
 * (pos_data.terminal.id; this till is TILL-1) whose payments belong to each, a new shop, and a
 * terminal assigned to a shop or taken out of it. A terminal belongs to one shop: assigning it to
 * another moves it. Which payment methods each shop offers is set by the merchant's partner.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { ApiError, client, type Shop } from '../api/client.js';
import './settings.css';

type Message = { text: string; problem: boolean } | null;

function problemText(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.errors.length) return `${fallback}: ${error.errors.map((e) => `${e.field.replaceAll('_', ' ')} ${e.message}`).join('; ')}.`;
  return error instanceof Error ? `${fallback}: ${error.message}` : `${fallback}.`;
}

export function ShopsSettings() {
  const [shops, setShops] = useState<Shop[] | null>(null);
  const [loadProblem, setLoadProblem] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [terminal, setTerminal] = useState('');
  const [shopId, setShopId] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>(null);

  const load = useCallback(async () => {
    try {
      const list = await client.shops();
      setShops(list);
      setLoadProblem(null);
      setShopId((current) => (current && list.some((s) => s.shop_id === current) ? current : (list[0]?.shop_id ?? '')));
    } catch (error) {
      setLoadProblem(problemText(error, 'The shops could not be loaded'));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const run = async (work: () => Promise<string>, failure: string) => {
    if (busy) return;
    setBusy(true);
    setMessage(null);
    try {
      const done = await work();
      // The list first, then the word: what the message says is already on the screen.
      await load();
      setMessage({ text: done, problem: false });
    } catch (error) {
      setMessage({ text: problemText(error, failure), problem: true });
    } finally {
      setBusy(false);
    }
  };

  const addShop = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setMessage({ text: 'Give the shop a name.', problem: true });
      return;
    }
    void run(async () => {
      const shop = await client.createShop(trimmed);
      setName('');
      setShopId(shop.shop_id);
      return `Shop ${shop.name} added.`;
    }, 'The shop was not added');
  };

  const assign = (event: FormEvent) => {
    event.preventDefault();
    const id = terminal.trim();
    if (!id || !shopId) {
      setMessage({ text: 'Give the terminal id and choose its shop.', problem: true });
      return;
    }
    if (!/^[\x21-\x7e]{1,64}$/.test(id)) {
      setMessage({ text: 'A terminal id is 1 to 64 letters, digits or signs, without spaces, as the POS sends it.', problem: true });
      return;
    }
    void run(async () => {
      const result = await client.assignTerminal(shopId, id);
      setTerminal('');
      const target = shops?.find((s) => s.shop_id === result.shop_id)?.name ?? 'the shop';
      const before = shops?.find((s) => s.shop_id === result.previous_shop_id)?.name;
      return before ? `Terminal ${result.terminal_id} moved from ${before} to ${target}.` : `Terminal ${result.terminal_id} belongs to ${target}.`;
    }, 'The terminal was not assigned');
  };

  const unassign = (terminalId: string, shop: Shop) =>
    void run(async () => {
      await client.unassignTerminal(terminalId);
      return `Terminal ${terminalId} no longer belongs to ${shop.name}.`;
    }, 'The terminal was not taken out');

  return (
    <>
      <h1>Settings</h1>
      <p className="lead">
        Shops and their terminals. A payment from a terminal belongs to its shop and follows that shop's payment methods, fees and
        contactless PIN limit, which your partner sets. This till's terminal is <code>TILL-1</code>.
      </p>
      <p className={message?.problem ? 'settings-message settings-message-problem' : 'settings-message'} role={message?.problem ? 'alert' : 'status'}>
        {message?.text ?? ''}
      </p>
      <section className="card" aria-labelledby="shops-heading">
        <h2 id="shops-heading">Shops</h2>
        {loadProblem && (
          <p className="settings-message settings-message-problem" role="alert">
            {loadProblem}{' '}
            <button type="button" className="button button-quiet button-small" onClick={() => void load()}>
              Retry
            </button>
          </p>
        )}
        {shops === null && !loadProblem && <p>Loading the shops…</p>}
        {shops?.length === 0 && <p>No shops yet: every payment belongs to the merchant. Add the first shop below.</p>}
        {shops && shops.length > 0 && (
          <ul className="shop-list">
            {shops.map((shop) => (
              <li key={shop.shop_id} className="shop-item">
                <h3 className="shop-name">{shop.name}</h3>
                {shop.terminals.length === 0 ? (
                  <p className="shop-note">No terminals</p>
                ) : (
                  <ul className="terminal-list" aria-label={`Terminals of ${shop.name}`}>
                    {shop.terminals.map((id) => (
                      <li key={id} className="terminal-item">
                        <code>{id}</code>
                        <button type="button" className="button button-quiet button-small" aria-disabled={busy} onClick={() => unassign(id, shop)}>
                          Take out<span className="visually-hidden"> terminal {id}</span>
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
          <h2 id="add-shop-heading">Add a shop</h2>
          <form onSubmit={addShop} noValidate>
            <label className="field">
              <span className="field-label">Shop name</span>
              <input className="input" value={name} maxLength={120} autoComplete="off" onChange={(event) => setName(event.target.value)} />
            </label>
            <button type="submit" className="button button-primary" aria-disabled={busy}>
              Add shop
            </button>
          </form>
        </section>
        <section className="card" aria-labelledby="assign-heading">
          <h2 id="assign-heading">Assign a terminal</h2>
          <form onSubmit={assign} noValidate>
            <label className="field">
              <span className="field-label">Terminal id</span>
              <input className="input" value={terminal} maxLength={64} autoComplete="off" spellCheck={false} placeholder="TILL-1" onChange={(event) => setTerminal(event.target.value)} />
              <span className="field-note">As the POS sends it in pos_data.terminal.id. A terminal of another shop moves.</span>
            </label>
            <div className="field">
              {/* A label of its own (not around the select): the select's name stays "Shop", not "Shop High Street". */}
              <label className="field-label" htmlFor="assign-shop">
                Shop
              </label>
              <select id="assign-shop" className="input" value={shopId} onChange={(event) => setShopId(event.target.value)} disabled={!shops?.length}>
                {!shops?.length && <option value="">Add a shop first</option>}
                {shops?.map((shop) => (
                  <option key={shop.shop_id} value={shop.shop_id}>
                    {shop.name}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="button button-primary" aria-disabled={busy || !shops?.length}>
              Assign terminal
            </button>
          </form>
        </section>
      </div>
    </>
  );
}
