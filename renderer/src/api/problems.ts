/**
 * How a back-office screen takes a failed call: a 401 means the session ended on the gateway (the
 * app goes back to its login); anything else is said in the API's own words, or that the gateway
 * did not answer.
 */
import { useSession } from '../session-store.js';
import { ApiError } from './transport.js';

/** A 401 means the session ended: back to the login screen. True when that happened. */
export function sessionEnded(error: unknown): boolean {
  if (error instanceof ApiError && error.kind === 'api' && error.status === 401) {
    useSession.getState().ended();
    return true;
  }
  return false;
}

/** What to say when a call failed; the API's own words when it answered. */
export function problemText(error: unknown, what: string): string {
  if (error instanceof ApiError && error.kind === 'network') return `${what}: the gateway did not answer. Try again.`;
  return error instanceof Error && error.message ? error.message : `${what} failed.`;
}
