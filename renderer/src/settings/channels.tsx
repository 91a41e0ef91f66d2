/**
 * Settings -> Channels (admin): the merchant's channels (how invoices name them by url_name, their
 * name, currency, language and the sender of their e-mails), a new channel and a channel's edit,
 * each in a dialog. url_name is fixed once created: invoices and API clients name the channel by it.
 */
import { useCallback, useState, type FormEvent } from 'react';
import { CHANNEL_URL_NAME_PATTERN } from '../../../contract/constants.js';
import { Actions } from '../ui/dialog-parts.js';
import { formatDateTime } from '../ui/format.js';
import { Modal } from '../ui/modal.js';
import { adminClient, type Channel, type MerchantProfile } from './admin-client.js';
import { CurrencyField, LanguageField } from './currency-field.js';
import { focusFirst, FormProblem, LANGUAGE_NAMES, Pending, problemsOf, SettingField, useLoaded, type Problems } from './settings-parts.js';

type Field = 'url_name' | 'name' | 'currency' | 'language' | 'sender_email';
const FIELDS: Record<Field, string> = { url_name: 'url name', name: 'name', currency: 'currency', language: 'language', sender_email: 'sender e-mail' };

export function ChannelSettings() {
  const read = useCallback(async () => ({ channels: await adminClient.channels(), profile: await adminClient.profile() }), []);
  const { data, problem, load } = useLoaded(read, 'The channels');
  const [editing, setEditing] = useState<Channel | 'new' | null>(null);
  const [message, setMessage] = useState('');

  const done = (text: string) => {
    setEditing(null);
    setMessage(text);
    void load();
  };

  return (
    <section className="card" aria-labelledby="channels-title">
      <div className="page-head">
        <h2 id="channels-title">Channels</h2>
        <button type="button" className="button button-primary" onClick={() => setEditing('new')} disabled={!data}>
          New channel
        </button>
      </div>
      <p className="lead">Invoices belong to a channel and take its currency, language and sender. The url name is how the API names the channel.</p>
      <p className="settings-message" role="status">
        {message}
      </p>
      {!data ? (
        <Pending problem={problem} retry={() => void load()} />
      ) : (
        <table className="settings-table">
          <caption className="visually-hidden">Channels of this merchant</caption>
          <thead>
            <tr>
              <th scope="col">Url name</th>
              <th scope="col">Name</th>
              <th scope="col">Currency</th>
              <th scope="col">Language</th>
              <th scope="col">Sender e-mail</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.channels.map((channel) => (
              <tr key={channel.url_name}>
                <td className="mono">{channel.url_name}</td>
                <td>{channel.name}</td>
                <td>{channel.currency}</td>
                <td>{LANGUAGE_NAMES[channel.language] ?? channel.language}</td>
                <td>{channel.sender_email ?? <span className="muted">The SMTP sender</span>}</td>
                <td>{formatDateTime(channel.created_at)}</td>
                <td>
                  <button type="button" className="button button-small" onClick={() => setEditing(channel)}>
                    Edit<span className="visually-hidden"> channel {channel.url_name}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing && data && <ChannelDialog channel={editing === 'new' ? null : editing} profile={data.profile} onClose={() => setEditing(null)} onDone={done} />}
    </section>
  );
}

function ChannelDialog({ channel, profile, onClose, onDone }: { channel: Channel | null; profile: MerchantProfile; onClose: () => void; onDone: (message: string) => void }) {
  const [urlName, setUrlName] = useState(channel?.url_name ?? '');
  const [name, setName] = useState(channel?.name ?? '');
  const [currency, setCurrency] = useState(channel?.currency ?? profile.currency);
  const [language, setLanguage] = useState<string>(channel?.language ?? profile.language);
  const [sender, setSender] = useState(channel?.sender_email ?? '');
  const [problems, setProblems] = useState<Problems<Field>>({});
  const clear = (field: Field) => setProblems((p) => (p[field] ? { ...p, [field]: undefined } : p));
  const [busy, setBusy] = useState(false);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const local: Problems<Field> = {};
    if (!channel && !CHANNEL_URL_NAME_PATTERN.test(urlName)) local.url_name = 'Url name must be 2 to 40 lower-case letters, digits or dashes.';
    if (!name.trim()) local.name = 'Give the channel a name.';
    if (!/^[A-Z]{3}$/.test(currency.trim())) local.currency = 'Currency must be a three-letter ISO 4217 code, such as EUR.';
    setProblems(local);
    if (Object.keys(local).length) return focusFirst('channel', local);
    setBusy(true);
    try {
      const fields = { name: name.trim(), currency: currency.trim(), language, sender_email: sender.trim() || null };
      const saved = channel ? await adminClient.updateChannel(channel.url_name, fields) : await adminClient.createChannel({ url_name: urlName, ...fields });
      onDone(channel ? `Channel ${saved.url_name} saved.` : `Channel ${saved.url_name} created.`);
    } catch (error) {
      const found = problemsOf(error, channel ? 'The channel was not saved' : 'The channel was not created', FIELDS);
      setProblems(found);
      focusFirst('channel', found);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title={channel ? `Edit channel ${channel.url_name}` : 'New channel'} onClose={onClose} busy={busy}>
      <form onSubmit={(event) => void save(event)} noValidate>
        <FormProblem text={problems.form} />
        {channel ? (
          <p className="field-note">Url name {channel.url_name} stays: invoices and API clients name the channel by it.</p>
        ) : (
          <SettingField id="channel-url_name" label="Url name" problem={problems.url_name} note="2 to 40 lower-case letters, digits or dashes; fixed once created">
            {(props) => <input {...props} className="input" value={urlName} maxLength={40} autoComplete="off" spellCheck={false} data-autofocus onChange={(e) => {
                setUrlName(e.target.value.toLowerCase());
                clear('url_name');
              }} />}
          </SettingField>
        )}
        <SettingField id="channel-name" label="Name" problem={problems.name} note="Shown to customers on invoices and pay pages">
          {(props) => <input {...props} className="input" value={name} maxLength={120} autoComplete="off" {...(channel ? { 'data-autofocus': true } : {})} onChange={(e) => {
                setName(e.target.value);
                clear('name');
              }} />}
        </SettingField>
        <CurrencyField form="channel" label="Currency" value={currency} problem={problems.currency} onChange={(value) => {
          setCurrency(value);
          clear('currency');
        }} />
        <LanguageField form="channel" label="Language" value={language} problem={problems.language} onChange={(value) => {
          setLanguage(value);
          clear('language');
        }} />
        <SettingField id="channel-sender_email" label="Sender e-mail" optional problem={problems.sender_email} note="Empty: the sender of the SMTP settings">
          {(props) => <input {...props} className="input" type="email" value={sender} maxLength={254} autoComplete="off" spellCheck={false} onChange={(e) => {
                setSender(e.target.value);
                clear('sender_email');
              }} />}
        </SettingField>
        <Actions>
          <button type="button" className="button button-quiet" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" aria-disabled={busy}>
            {busy ? 'Saving…' : channel ? 'Save channel' : 'Create channel'}
          </button>
        </Actions>
      </form>
    </Modal>
  );
}
