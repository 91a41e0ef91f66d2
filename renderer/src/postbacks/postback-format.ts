/** How the Postbacks area names statuses, kinds and attempts. */
import type { PostbackLogStatus, PostbackSubjectType } from '../../../contract/constants.js';
import { toneClass, type Tone } from '../ui/tags.js';

export const POSTBACK_STATUS_NAMES: Record<PostbackLogStatus, string> = { queued: 'Queued', retrying: 'Retrying', delivered: 'Delivered', failed: 'Failed' };

export const POSTBACK_STATUS_NOTES: Record<PostbackLogStatus, string> = {
  queued: 'Waiting for its first attempt.',
  retrying: 'The receiver did not answer 2xx; the gateway tries again on its schedule.',
  delivered: 'The receiver answered 2xx.',
  failed: 'No 2xx answer within 3 days of tries (or the address was refused): nothing more is sent unless you resend it.',
};

const TONES: Record<PostbackLogStatus, Tone> = { queued: 'wait', retrying: 'warn', delivered: 'ok', failed: 'bad' };
export const postbackStatusClass = (status: PostbackLogStatus) => toneClass(TONES[status]);

export const KIND_NAMES: Record<PostbackSubjectType, string> = { transaction: 'Transaction', token: 'Network token', checkout: 'Checkout' };
export const kindName = (kind: string) => KIND_NAMES[kind as PostbackSubjectType] ?? kind;

/** An id shortened for a list: its start and its end (ids made within a minute share their start). */
export const shortId = (id: string) => (id.length > 14 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id);

/** `HTTP 500`, or the failure without an answer. */
export function answerText(httpStatus: number | null, error: string | null): string {
  if (httpStatus !== null) return `HTTP ${httpStatus}`;
  return error ?? 'No answer';
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
