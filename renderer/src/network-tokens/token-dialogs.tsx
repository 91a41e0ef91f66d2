/**
 * The token detail's dialogs: a cryptogram (made on request, shown once with Copy, never kept) and
 * archiving with confirmation. Dialogs are ui/modal.tsx: focus stays inside, Esc closes (not while
 * a request runs), focus goes back to the button that opened it.
 */
import { useRef, useState } from 'react';
import { CopyValue } from '../ui/copy-value.js';
import { ConfirmDialog } from '../ui/detail-parts.js';
import { Actions, Problem, useAction } from '../ui/dialog-parts.js';
import { Modal } from '../ui/modal.js';
import { lastFour, networkName } from './token-format.js';
import { tokensClient, type BackOfficeToken, type Cryptogram } from './tokens-client.js';

/** Creates one cryptogram and shows it once: after Close it is gone from this app. */
export function CryptogramDialog({ token, onClose, onCreated }: { token: BackOfficeToken; onClose: () => void; onCreated: () => void }) {
  const action = useAction();
  const [cryptogram, setCryptogram] = useState<Cryptogram | null>(null);
  // One key for this dialog: a retry after a lost answer cannot make a second cryptogram.
  const key = useRef(crypto.randomUUID());
  const create = async () => {
    const made = await action.run('Creating the cryptogram', () => tokensClient.cryptogram(token.id, key.current));
    if (made) {
      setCryptogram(made);
      onCreated();
    }
  };
  return (
    <Modal title={cryptogram ? `${cryptogram.type} cryptogram` : 'Create a cryptogram?'} onClose={onClose} busy={action.busy} className={cryptogram ? 'modal-wide' : 'modal-narrow'}>
      {cryptogram ? (
        <>
          <p className="reveal-warning">Shown once: copy it now. It is good for one payment within 24 hours and is not kept here.</p>
          <CopyValue label="Authentication data" value={cryptogram.authentication_data} />
          <dl className="facts detail-facts">
            <dt>Type</dt>
            <dd>{cryptogram.type === 'TAVV' ? 'TAVV (Visa)' : 'DSRP (Mastercard)'}</dd>
            <dt>ECI</dt>
            <dd>05 or 07 with the payment</dd>
            <dt>PAN sequence number</dt>
            <dd className="mono">{cryptogram.pan_sequence_number}</dd>
            <dt>Track 2 equivalent</dt>
            <dd className="mono">{cryptogram.track2_equivalent}</dd>
          </dl>
          <p className="field-note">Pay with the token number as card number and this authentication data as threeds_wallet_cryptogram.</p>
        </>
      ) : (
        <p>
          A {token.network === 'visa' ? 'TAVV' : 'DSRP'} cryptogram for one payment with the {networkName(token.network)} token {lastFour(token.token_last_four)}. It is valid for
          24 hours, used once, and shown only now.
        </p>
      )}
      <Problem text={action.problem} />
      <Actions>
        {cryptogram ? (
          <button type="button" className="button button-primary" onClick={onClose} data-autofocus>
            Close
          </button>
        ) : (
          <>
            <button type="button" className="button button-quiet" onClick={onClose} disabled={action.busy}>
              Cancel
            </button>
            <button type="button" className="button button-primary" onClick={() => void create()} disabled={action.busy} data-autofocus>
              {action.busy ? 'Creating…' : 'Create cryptogram'}
            </button>
          </>
        )}
      </Actions>
    </Modal>
  );
}

export function ArchiveDialog({ token, onClose, onDone }: { token: BackOfficeToken; onClose: () => void; onDone: () => void }) {
  return (
    <ConfirmDialog
      title={`Archive token ${lastFour(token.token_last_four)}?`}
      keepLabel="Keep it"
      confirmLabel="Archive token"
      busyLabel="Archiving…"
      what="Archiving the token"
      run={async () => {
        await tokensClient.archive(token.id);
        return true;
      }}
      onClose={onClose}
      onDone={onDone}
    >
      <p>
        The {networkName(token.network)} token of the card {lastFour(token.card_last_four)} is archived for good: payments with it are declined and it cannot be made active again.
        The card can be tokenized anew.
      </p>
    </ConfirmDialog>
  );
}
