/**
 * A message whose arguments are elements (D21): `{time}` as a `<time>`, `{file}` as a `<strong>`,
 * so a sentence stays one message in every language while a part of it is marked up. The messages
 * themselves hold no tags (a translator never places markup; the catalogue test formats every
 * message without values for tags). The transaction, checkout and invoice screens use it; plain
 * text comes from useT().
 */
import { useMemo, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import type { MessageId } from '../../../contract/i18n/catalogues.js';

export type RichValues = Record<string, ReactNode>;

/** `rich('transactions.export.saved', { file: <strong>{name}</strong> })`. */
export function useRichT(): (id: MessageId, values?: RichValues) => ReactNode {
  const intl = useIntl();
  return useMemo(
    () =>
      (id: MessageId, values: RichValues = {}) =>
        intl.formatMessage({ id }, values) as ReactNode,
    [intl],
  );
}
