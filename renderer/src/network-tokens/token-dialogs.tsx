/**
 * The token detail's dialogs: a cryptogram (made on request, shown once with Copy, never kept) and
 * archiving with confirmation. Dialogs are ui/modal.tsx: focus stays inside, Esc closes (not while
 * a request runs), focus goes back to the button that opened it.
 */
import { useRef, useState } from 'react';
import { CopyValue } from '../ui/copy-value.js';
import { ConfirmDialog } from '../ui/detail-parts.js';
import { Actions, Problem, useAction } from '../ui/dialog-parts.js';
import { useT } from '../ui/i18n.js';
import { Modal } from '../ui/modal.js';
import { lastFour, networkName } from './token-format.js';
import { networkTokensClient, type BackOfficeToken, type Cryptogram } from './network-tokens-client.js';

/** The Electronic Commerce Indicator's own abbreviation: the same in every language. */
const ECI = 'ECI';

/** A cryptogram's type with its network (names, not words). */
const cryptogramType = (type: Cryptogram['type']) => (type === 'TAVV' ? 'TAVV (Visa)' : 'DSRP (Mastercard)');

/** Creates one cryptogram and shows it once: after Close it is gone from this app. */
export function CryptogramDialog({ token, onClose, onCreated }: { token: BackOfficeToken; onClose: () => void; onCreated: () => void }) {
  const action = useAction();
  const t = useT();
  const [cryptogram, setCryptogram] = useState<Cryptogram | null>(null);
  // One key for this dialog: a retry after a lost answer cannot make a second cryptogram.
  const key = useRef(crypto.randomUUID());
  const create = async () => {
    const made = await action.run(t('tokens.cryptogram.what'), () => networkTokensClient.cryptogram(token.id, key.current));
    if (made) {
      setCryptogram(made);
      onCreated();
    }
  };
  return (
    <Modal
      title={cryptogram ? t('tokens.cryptogram.title', { type: cryptogram.type }) : t('tokens.cryptogram.ask')}
      onClose={onClose}
      busy={action.busy}
      className={cryptogram ? 'modal-wide' : 'modal-narrow'}
    >
      {cryptogram ? (
        <>
          <p className="reveal-warning">{t('tokens.cryptogram.once')}</p>
          <CopyValue label={t('tokens.cryptogram.authentication')} value={cryptogram.authentication_data} />
          <dl className="facts detail-facts">
            <dt>{t('tokens.cryptogram.type')}</dt>
            <dd>{cryptogramType(cryptogram.type)}</dd>
            <dt>{ECI}</dt>
            <dd>{t('tokens.cryptogram.eciValue')}</dd>
            <dt>{t('tokens.cryptogram.panSequence')}</dt>
            <dd className="mono">{cryptogram.pan_sequence_number}</dd>
            <dt>{t('tokens.cryptogram.track2')}</dt>
            <dd className="mono">{cryptogram.track2_equivalent}</dd>
          </dl>
          <p className="field-note">{t('tokens.cryptogram.howToPay')}</p>
        </>
      ) : (
        <p>
          {t('tokens.cryptogram.intro', {
            type: token.network === 'visa' ? 'TAVV' : 'DSRP',
            network: networkName(token.network),
            number: lastFour(token.token_last_four),
          })}
        </p>
      )}
      <Problem text={action.problem} />
      <Actions>
        {cryptogram ? (
          <button type="button" className="button button-primary" onClick={onClose} data-autofocus>
            {t('common.close')}
          </button>
        ) : (
          <>
            <button type="button" className="button button-quiet" onClick={onClose} disabled={action.busy}>
              {t('common.cancel')}
            </button>
            <button type="button" className="button button-primary" onClick={() => void create()} disabled={action.busy} data-autofocus>
              {t(action.busy ? 'tokens.cryptogram.busy' : 'tokens.detail.createCryptogram')}
            </button>
          </>
        )}
      </Actions>
    </Modal>
  );
}

export function ArchiveDialog({ token, onClose, onDone }: { token: BackOfficeToken; onClose: () => void; onDone: () => void }) {
  const t = useT();
  return (
    <ConfirmDialog
      title={t('tokens.archive.title', { number: lastFour(token.token_last_four) })}
      keepLabel={t('tokens.archive.keep')}
      confirmLabel={t('tokens.archive.confirm')}
      busyLabel={t('tokens.archive.busy')}
      what={t('tokens.archive.what')}
      run={async () => {
        await networkTokensClient.archive(token.id);
        return true;
      }}
      onClose={onClose}
      onDone={onDone}
    >
      <p>{t('tokens.archive.text', { network: networkName(token.network), card: lastFour(token.card_last_four) })}</p>
    </ConfirmDialog>
  );
}
