/**
 * Postback integrity (decisions.md D7): `checksum` is the lowercase hex HMAC-SHA256 of the RFC 8785
 * canonical JSON of the body without `checksum`, keyed with the whole webhook key string; the
 * Standard Webhooks headers sign "{id}.{timestamp}.{raw body}" with the key's decoded bytes.
 */
import { createHmac } from 'node:crypto';
import canonicalizeModule from 'canonicalize';

const canonicalize = canonicalizeModule as unknown as (input: unknown) => string | undefined;

export function postbackChecksum(body: Record<string, unknown>, webhookKey: string): string {
  const { checksum: _ignored, ...rest } = body;
  return createHmac('sha256', Buffer.from(webhookKey, 'utf8'))
    .update(canonicalize(rest) ?? '')
    .digest('hex');
}

/** The secret bytes of a `whsec_` key, as the Standard Webhooks specification defines them. */
export function webhookSecretBytes(webhookKey: string): Buffer {
  return Buffer.from(webhookKey.startsWith('whsec_') ? webhookKey.slice('whsec_'.length) : webhookKey, 'base64');
}

export function standardSignature(id: string, timestampSeconds: number, rawBody: string, webhookKey: string): string {
  const mac = createHmac('sha256', webhookSecretBytes(webhookKey)).update(`${id}.${timestampSeconds}.${rawBody}`).digest('base64');
  return `v1,${mac}`;
}

export interface SignedPostback {
  rawBody: string;
  headers: Record<string, string>;
}

/**
 * The body (payload plus event_id, sequence, checksum) and headers of one attempt. During a key
 * rotation both keys sign `webhook-signature` (space-separated, as the specification allows);
 * `checksum` uses the current key.
 */
export function signPostback(
  payload: Record<string, unknown>,
  meta: { eventId: string; sequence: number; attempt: number; timestampSeconds: number },
  keys: { current: string; previous?: string },
): SignedPostback {
  const body: Record<string, unknown> = { ...payload, event_id: meta.eventId, sequence: meta.sequence };
  body.checksum = postbackChecksum(body, keys.current);
  const rawBody = JSON.stringify(body);
  const signatures = [standardSignature(meta.eventId, meta.timestampSeconds, rawBody, keys.current)];
  if (keys.previous) signatures.push(standardSignature(meta.eventId, meta.timestampSeconds, rawBody, keys.previous));
  return {
    rawBody,
    headers: {
      'content-type': 'application/json',
      'webhook-id': meta.eventId,
      'webhook-timestamp': String(meta.timestampSeconds),
      'webhook-signature': signatures.join(' '),
      'x-postback-attempt': String(meta.attempt),
      'user-agent': 'Tillgate-Postbacks/1',
    },
  };
}
