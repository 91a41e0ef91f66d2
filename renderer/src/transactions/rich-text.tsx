/**
 * A message with markup in it (D21): `<b>…</b>` for the words a sentence stresses and `{name}`
 * arguments that are elements (a `<time>`), so a sentence stays one message in every language and
 * its stress sits where that language puts it. The transaction, checkout and invoice screens use it;
 * plain text comes from useT().
 */
import { useMemo, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import type { MessageId } from '../../../contract/i18n/catalogues.js';

export type RichValues = Record<string, ReactNode | ((chunks: ReactNode[]) => ReactNode)>;

const strong = (chunks: ReactNode[]) => <strong>{chunks}</strong>;

/** `rich('transactions.money.finalRefund', { money })`: `<b>` is <strong>; other values may be elements. */
export function useRichT(): (id: MessageId, values?: RichValues) => ReactNode {
  const intl = useIntl();
  return useMemo(() => (id: MessageId, values: RichValues = {}) => intl.formatMessage({ id }, { b: strong, ...values }) as ReactNode, [intl]);
}
