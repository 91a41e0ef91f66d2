/**
 * The desktop's first start, "join a shop's gateway" (issue 26): this computer becomes a till of the
 * shop's gateway on another computer with its address and a pairing code (Settings -> Tills there).
 * Shown instead of the login while this gateway has no shop and no centre; the staff of the shop log
 * in once it has joined.
 */
import { useState, type FormEvent, type InputHTMLAttributes, type Ref } from 'react';
import { ApiError } from '../api/client.js';
import { useAutoFocus } from '../ui/use-keys.js';
import { tillsClient, type JoinSummary } from './tills-client.js';

export function JoinShop({ onJoined }: { onJoined: (joined: JoinSummary) => void }) {
  const [centre, setCentre] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<{ centre?: string; code?: string; form?: string }>({});
  const centreRef = useAutoFocus<HTMLInputElement>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const local: typeof problems = {};
    if (!/^https?:\/\/\S+$/.test(centre.trim())) local.centre = "Enter the shop's gateway's address, such as https://backoffice.local:8420.";
    if (!code.trim()) local.code = 'Enter the pairing code from Settings -> Tills on the shop\u2019s gateway.';
    setProblems(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      onJoined(await tillsClient.joinShop(centre.trim(), code.trim()));
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'api') {
        const byField = Object.fromEntries(error.errors.map((e) => [e.field, e.message]));
        setProblems({
          ...(byField.centre ? { centre: `The address ${byField.centre}.` } : {}),
          ...(byField.code ? { code: `The pairing code ${byField.code}: make a new one on the shop\u2019s gateway.` } : {}),
          // Said once: beside the field it is about, or here when it is about neither.
          ...(byField.centre || byField.code ? {} : { form: error.message }),
        });
      } else setProblems({ form: error instanceof Error ? error.message : 'This computer did not join the shop.' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="login-wrap">
      <section className="panel login-panel" aria-labelledby="join-title">
        <h1 id="join-title">Join a shop&rsquo;s gateway</h1>
        <p className="login-lead">
          This computer becomes another till of a shop whose gateway runs on another computer. On that computer, open Settings &rarr; Tills, choose the till and &ldquo;Join from another
          computer&rdquo;, and enter its address and the pairing code here.
        </p>
        <form onSubmit={(event) => void submit(event)} noValidate>
          <JoinField
            id="join-centre"
            label="Address of the shop’s gateway"
            value={centre}
            problem={problems.centre}
            onChange={setCentre}
            inputRef={centreRef}
            input={{ inputMode: 'url', placeholder: 'https://backoffice.local:8420' }}
          />
          <JoinField id="join-code" label="Pairing code" value={code} problem={problems.code} onChange={setCode} input={{ autoCapitalize: 'characters', autoComplete: 'off', className: 'input mono' }} />
          <p className="form-problem" role="alert">
            {problems.form ?? ''}
          </p>
          <button type="submit" className="button button-primary button-lg button-block" aria-disabled={busy}>
            {busy ? 'Joining…' : 'Join the shop'}
          </button>
        </form>
      </section>
    </div>
  );
}

/** One labelled field of the form, with its problem said beside it. */
function JoinField(props: {
  id: string;
  label: string;
  value: string;
  problem: string | undefined;
  onChange: (value: string) => void;
  inputRef?: Ref<HTMLInputElement>;
  input: InputHTMLAttributes<HTMLInputElement>;
}) {
  const { id, label, value, problem, onChange, inputRef, input } = props;
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input
        ref={inputRef}
        className="input"
        autoCapitalize="none"
        spellCheck={false}
        {...input}
        value={value}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {problem && (
        <span id={`${id}-problem`} className="field-error">
          {problem}
        </span>
      )}
    </label>
  );
}
