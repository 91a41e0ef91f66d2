/**
 * Settings -> Channels (admin): the merchant's channels (how invoices name them by url_name, their
 * name, currency, language and the sender of their e-mails), a new channel and a channel's edit,
 * each in a dialog. url_name is fixed once created: invoices and API clients name the channel by it.
 */
import { useCallback, useState, type FormEvent } from 'react';
import { CHANNEL_LANGUAGES, CHANNEL_URL_NAME_PATTERN } from '../../../contract/constants.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import { isStaffLanguage, LANGUAGE_NAMES } from '../../../contract/i18n/languages.js';
import { Actions } from '../ui/dialog-parts.js';
import { formatDateTime } from '../ui/format.js';
import { translate, useT } from '../ui/i18n.js';
import { Modal } from '../ui/modal.js';
import { settingsClient, type Channel, type MerchantProfile } from './settings-client.js';
import { CurrencyField, LanguageField } from './currency-field.js';
import { focusFirst, FormProblem, hidden, Pending, problemsOf, SettingField, useLoaded, useRich, type Problems } from './settings-parts.js';

type Field = 'url_name' | 'name' | 'currency' | 'language' | 'sender_email';
const FIELDS: Record<Field, MessageId> = {
  url_name: 'settings.channels.urlName',
  name: 'settings.field.name',
  currency: 'common.currency',
  language: 'common.language',
  sender_email: 'settings.channels.sender',
};

/** A language by its own name (Deutsch), or its code where it is none of the staff languages. */
const languageName = (language: string) => (isStaffLanguage(language) ? LANGUAGE_NAMES[language] : language);

export function ChannelSettings() {
  const t = useT();
  const rich = useRich();
  const read = useCallback(async () => ({ channels: await settingsClient.channels(), profile: await settingsClient.profile() }), []);
  const { data, problem, load } = useLoaded(read, 'settings.channels.loadFailed');
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
        <h2 id="channels-title">{t('settings.section.channels')}</h2>
        <button type="button" className="button button-primary" onClick={() => setEditing('new')} disabled={!data}>
          {t('settings.channels.new')}
        </button>
      </div>
      <p className="lead">{t('settings.channels.lead')}</p>
      <p className="settings-message" role="status">
        {message}
      </p>
      {!data ? (
        <Pending problem={problem} retry={() => void load()} />
      ) : (
        <table className="settings-table">
          <caption className="visually-hidden">{t('settings.channels.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('settings.channels.urlName')}</th>
              <th scope="col">{t('settings.field.name')}</th>
              <th scope="col">{t('common.currency')}</th>
              <th scope="col">{t('common.language')}</th>
              <th scope="col">{t('settings.channels.sender')}</th>
              <th scope="col">{t('settings.created')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('settings.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.channels.map((channel) => (
              <tr key={channel.url_name}>
                <td className="mono">{channel.url_name}</td>
                <td>{channel.name}</td>
                <td>{channel.currency}</td>
                <td>{languageName(channel.language)}</td>
                <td>{channel.sender_email ?? <span className="muted">{t('settings.channels.smtpSender')}</span>}</td>
                <td>{formatDateTime(channel.created_at)}</td>
                <td>
                  <button type="button" className="button button-small" onClick={() => setEditing(channel)}>
                    {rich('settings.channels.edit', { urlName: channel.url_name, hidden })}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing && data && (
        <ChannelDialog channel={editing === 'new' ? null : editing} profile={data.profile} onClose={() => setEditing(null)} onDone={done} />
      )}
    </section>
  );
}

function ChannelDialog({
  channel,
  profile,
  onClose,
  onDone,
}: {
  channel: Channel | null;
  profile: MerchantProfile;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const [urlName, setUrlName] = useState(channel?.url_name ?? '');
  const [name, setName] = useState(channel?.name ?? '');
  const [currency, setCurrency] = useState(channel?.currency ?? profile.currency);
  // A new channel starts in the shop's language where invoices speak it (not Croatian yet), else English.
  const [language, setLanguage] = useState<string>(
    channel?.language ?? ((CHANNEL_LANGUAGES as readonly string[]).includes(profile.language) ? profile.language : 'en'),
  );
  const [sender, setSender] = useState(channel?.sender_email ?? '');
  const [problems, setProblems] = useState<Problems<Field>>({});
  const clear = (field: Field) => setProblems((p) => (p[field] ? { ...p, [field]: undefined } : p));
  const [busy, setBusy] = useState(false);
  const t = useT();

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const local: Problems<Field> = {};
    if (!channel && !CHANNEL_URL_NAME_PATTERN.test(urlName)) local.url_name = t('settings.channels.urlNameInvalid');
    if (!name.trim()) local.name = t('settings.channels.nameMissing');
    if (!/^[A-Z]{3}$/.test(currency.trim())) local.currency = t('settings.currencyInvalid');
    setProblems(local);
    if (Object.keys(local).length) return focusFirst('channel', local);
    setBusy(true);
    try {
      const fields = { name: name.trim(), currency: currency.trim(), language, sender_email: sender.trim() || null };
      const saved = channel
        ? await settingsClient.updateChannel(channel.url_name, fields)
        : await settingsClient.createChannel({ url_name: urlName, ...fields });
      onDone(t(channel ? 'settings.channels.saved' : 'settings.channels.created', { urlName: saved.url_name }));
    } catch (error) {
      const found = problemsOf(error, translate(channel ? 'settings.channels.notSaved' : 'settings.channels.notCreated'), FIELDS);
      setProblems(found);
      focusFirst('channel', found);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title={channel ? t('settings.channels.editTitle', { urlName: channel.url_name }) : t('settings.channels.new')}
      onClose={onClose}
      busy={busy}
    >
      <form onSubmit={(event) => void save(event)} noValidate>
        <FormProblem text={problems.form} />
        {channel ? (
          <p className="field-note">{t('settings.channels.urlNameStays', { urlName: channel.url_name })}</p>
        ) : (
          <SettingField
            id="channel-url_name"
            label={t('settings.channels.urlName')}
            problem={problems.url_name}
            note={t('settings.channels.urlNameNote')}
          >
            {(props) => (
              <input
                {...props}
                className="input"
                value={urlName}
                maxLength={40}
                autoComplete="off"
                spellCheck={false}
                data-autofocus
                onChange={(e) => {
                  setUrlName(e.target.value.toLowerCase());
                  clear('url_name');
                }}
              />
            )}
          </SettingField>
        )}
        <SettingField id="channel-name" label={t('settings.field.name')} problem={problems.name} note={t('settings.channels.nameNote')}>
          {(props) => (
            <input
              {...props}
              className="input"
              value={name}
              maxLength={120}
              autoComplete="off"
              {...(channel ? { 'data-autofocus': true } : {})}
              onChange={(e) => {
                setName(e.target.value);
                clear('name');
              }}
            />
          )}
        </SettingField>
        <CurrencyField
          form="channel"
          label={t('common.currency')}
          value={currency}
          problem={problems.currency}
          onChange={(value) => {
            setCurrency(value);
            clear('currency');
          }}
        />
        <LanguageField
          form="channel"
          languages={CHANNEL_LANGUAGES}
          label={t('common.language')}
          value={language}
          problem={problems.language}
          onChange={(value) => {
            setLanguage(value);
            clear('language');
          }}
        />
        <SettingField
          id="channel-sender_email"
          label={t('settings.channels.sender')}
          optional
          problem={problems.sender_email}
          note={t('settings.channels.senderNote')}
        >
          {(props) => (
            <input
              {...props}
              className="input"
              type="email"
              value={sender}
              maxLength={254}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => {
                setSender(e.target.value);
                clear('sender_email');
              }}
            />
          )}
        </SettingField>
        <Actions>
          <button type="button" className="button button-quiet" onClick={onClose} disabled={busy}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button-primary" aria-disabled={busy}>
            {busy ? t('common.saving') : channel ? t('settings.channels.save') : t('settings.channels.create')}
          </button>
        </Actions>
      </form>
    </Modal>
  );
}
