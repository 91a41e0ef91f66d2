/** How the Postbacks area names statuses, kinds and attempts (words from the `postbacks` catalogue). */
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import type { Translate } from '../../../contract/i18n/format.js';
import type { PostbackLogStatus, PostbackSubjectType } from '../../../contract/constants.js';
import { toneClass, type Tone } from '../ui/tags.js';

/** Each status's name (a new status fails to compile until it has one). */
export const POSTBACK_STATUS_NAMES: Record<PostbackLogStatus, MessageId> = {
  queued: 'postbacks.status.queued',
  retrying: 'postbacks.status.retrying',
  delivered: 'postbacks.status.delivered',
  failed: 'postbacks.status.failed',
};

export const POSTBACK_STATUS_NOTES: Record<PostbackLogStatus, MessageId> = {
  queued: 'postbacks.statusNote.queued',
  retrying: 'postbacks.statusNote.retrying',
  delivered: 'postbacks.statusNote.delivered',
  failed: 'postbacks.statusNote.failed',
};

const TONES: Record<PostbackLogStatus, Tone> = { queued: 'wait', retrying: 'warn', delivered: 'ok', failed: 'bad' };
export const postbackStatusClass = (status: PostbackLogStatus) => toneClass(TONES[status]);

export const KIND_NAMES: Record<PostbackSubjectType, MessageId> = {
  transaction: 'postbacks.kind.transaction',
  token: 'postbacks.kind.token',
  checkout: 'postbacks.kind.checkout',
};
/** What a postback is about, in words; a kind this screen does not know as the API names it. */
export const kindName = (t: Translate, kind: string) =>
  Object.hasOwn(KIND_NAMES, kind) ? t(KIND_NAMES[kind as PostbackSubjectType]) : kind;

/** An id shortened for a list: its start and its end (ids made within a minute share their start). */
export const shortId = (id: string) => (id.length > 14 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id);

/** `HTTP 500`, or the failure without an answer (the gateway's words), or "No answer". */
export function answerText(t: Translate, httpStatus: number | null, error: string | null): string {
  if (httpStatus !== null) return `HTTP ${httpStatus}`;
  return error ?? t('postbacks.noAnswer');
}

/** A JSON text pretty-printed; a text that is not JSON as it is. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export const ATTEMPT_OUTCOME_TONES: Record<string, Tone> = { delivered: 'ok', failed: 'bad', refused: 'bad' };
