/**
 * What staff read when the gateway refuses a call (D21): REST error messages stay English (they are
 * the API's, for POS developers and logs), so a screen in German, Portuguese or Croatian says the
 * error in its own words by the D3 body's `error_code`, naming the fields the gateway named. In
 * English the API's own message is already the staff's text and is shown as it is.
 */
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import { ErrorCode } from '../../../contract/codes.js';
import { screenLanguage, translate } from '../ui/language.js';

/** Each error code's text on a staff screen (a new code without one does not compile). */
const CODE_TEXTS: Readonly<Record<ErrorCode, MessageId>> = {
  [ErrorCode.validation]: 'errors.code.validation',
  [ErrorCode.invalidState]: 'errors.code.invalidState',
  [ErrorCode.amountLimit]: 'errors.code.amountLimit',
  [ErrorCode.paymentType]: 'errors.code.paymentType',
  [ErrorCode.unauthenticated]: 'errors.code.unauthenticated',
  [ErrorCode.forbidden]: 'errors.code.forbidden',
  [ErrorCode.notFound]: 'errors.code.notFound',
  [ErrorCode.idempotencyInFlight]: 'errors.code.inFlight',
  [ErrorCode.idempotencyMismatch]: 'errors.code.mismatch',
  [ErrorCode.bodyTooLarge]: 'errors.code.tooLarge',
  [ErrorCode.rateLimited]: 'errors.code.rateLimited',
  [ErrorCode.tillInUse]: 'errors.code.tillInUse',
  [ErrorCode.repeatedSale]: 'errors.code.repeatedSale',
  [ErrorCode.processor]: 'errors.code.processor',
  [ErrorCode.internal]: 'errors.code.internal',
  [ErrorCode.storage]: 'errors.code.storage',
  [ErrorCode.shuttingDown]: 'errors.code.shuttingDown',
  [ErrorCode.centreAway]: 'errors.code.centreAway',
};

function isErrorCode(code: number): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(CODE_TEXTS, code);
}

/** Whether the screens speak English now (then the API's English message is the text). */
export function screensSpeakEnglish(): boolean {
  const { language, pseudo } = screenLanguage();
  return language === 'en' && !pseudo;
}

/** A refused call's text in the screens' language. */
export function apiErrorText(apiMessage: string, code: number, fields: readonly string[], retryAfterSeconds: number | undefined): string {
  if (screensSpeakEnglish()) return apiMessage;
  const message = isErrorCode(code)
    ? translate(CODE_TEXTS[code], { seconds: retryAfterSeconds ?? 60 })
    : translate('errors.code.other', { code });
  const named = [...new Set(fields.filter((field) => field !== ''))];
  return named.length > 0 ? translate('errors.fields', { message, fields: named.join(', ') }) : message;
}
