/**
 * The desktop's first start, "join a shop's gateway" (issue 26): this computer becomes a till of the
 * shop's gateway on another computer with its address and a pairing code (Settings -> Tills there).
 * Shown instead of the login while this gateway has no shop and no centre; the staff of the shop log
 * in once it has joined.
 */
import { useState, type FormEvent, type InputHTMLAttributes, type Ref } from 'react';
import { ApiError } from '../api/transport.js';
import { useT } from '../ui/i18n.js';
import { useAutoFocus } from '../ui/use-keys.js';
import { tillsClient, type JoinSummary } from './tills-client.js';

/** An address of a shop's gateway, as an example in the field. */
const CENTRE_EXAMPLE = 'https://backoffice.local:8420';

export function JoinShop({ onJoined }: { onJoined: (joined: JoinSummary) => void }) {
  const [centre, setCentre] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<{ centre?: string; code?: string; form?: string }>({});
  const centreRef = useAutoFocus<HTMLInputElement>();
  const t = useT();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const local: typeof problems = {};
    if (!/^https?:\/\/\S+$/.test(centre.trim())) local.centre = t('tills.join.addressMissing');
    if (!code.trim()) local.code = t('tills.join.codeMissing');
    setProblems(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      onJoined(await tillsClient.joinShop(centre.trim(), code.trim()));
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'api') {
        const byField = Object.fromEntries(error.errors.map((e) => [e.field, e.message]));
        setProblems({
          // The gateway's words about the field (English) go into the sentence as they came.
          ...(byField.centre ? { centre: t('tills.join.addressProblem', { problem: byField.centre }) } : {}),
          ...(byField.code ? { code: t('tills.join.codeProblem', { problem: byField.code }) } : {}),
          // Said once: beside the field it is about, or here when it is about neither.
          ...(byField.centre || byField.code ? {} : { form: error.message }),
        });
      } else setProblems({ form: error instanceof Error ? error.message : t('tills.join.failed') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="login-wrap">
      <section className="panel login-panel" aria-labelledby="join-title">
        <h1 id="join-title">{t('tills.join.title')}</h1>
        <p className="login-lead">{t('tills.join.lead')}</p>
        <form onSubmit={(event) => void submit(event)} noValidate>
          <JoinField
            id="join-centre"
            label={t('tills.join.address')}
            value={centre}
            problem={problems.centre}
            onChange={setCentre}
            inputRef={centreRef}
            input={{ inputMode: 'url', placeholder: CENTRE_EXAMPLE }}
          />
          <JoinField
            id="join-code"
            label={t('tills.join.code')}
            value={code}
            problem={problems.code}
            onChange={setCode}
            input={{ autoCapitalize: 'characters', autoComplete: 'off', className: 'input mono' }}
          />
          <p className="form-problem" role="alert">
            {problems.form ?? ''}
          </p>
          <button type="submit" className="button button-primary button-lg button-block" aria-disabled={busy}>
            {t(busy ? 'tills.join.joining' : 'tills.join.submit')}
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
