/** A currency code field for Settings' forms: typed or picked from the gateway's currencies (ISO 4217). */
import { currencyList } from '../../../contract/money.js';

const CURRENCIES = currencyList();

export function CurrencyOptions({ id }: { id: string }) {
  return (
    <datalist id={id}>
      {CURRENCIES.map((c) => (
        <option key={c.code} value={c.code}>
          {c.name}
        </option>
      ))}
    </datalist>
  );
}
