/**
 * One Idempotency-Key per request body, for a form that creates something: sending the same body
 * again (a retry after a lost answer) reuses its key, so the gateway creates it once; another body
 * gets a new key.
 */
import { useRef } from 'react';

export function useIdempotencyKeys(): (body: unknown) => string {
  const keys = useRef(new Map<string, string>());
  return (body) => {
    const fingerprint = JSON.stringify(body);
    const key = keys.current.get(fingerprint) ?? crypto.randomUUID();
    keys.current.set(fingerprint, key);
    return key;
  };
}
