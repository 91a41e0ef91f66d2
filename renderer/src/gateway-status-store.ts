/** Whether the gateway behind this window runs, and which API version it speaks. */
import { create } from 'zustand';
import { fetchHealth, type HealthFailure } from './gateway-client.js';

/** The outcome of the last finished check. */
export type GatewayStatus =
  | { phase: 'unknown' }
  | { phase: 'running'; version: string }
  | { phase: 'failed'; failure: HealthFailure };

interface GatewayStatusState {
  baseUrl: string;
  status: GatewayStatus;
  /** A check is under way; the last outcome stays shown meanwhile, so a Retry button keeps focus. */
  checking: boolean;
  /** Checks /health again; a check already under way is reused, not doubled. */
  check: () => Promise<void>;
}

let inFlight: Promise<void> | undefined;

export const useGatewayStatus = create<GatewayStatusState>()((set, get) => ({
  baseUrl: window.location.origin,
  status: { phase: 'unknown' },
  checking: false,
  check: () => {
    inFlight ??= (async () => {
      set({ checking: true });
      const result = await fetchHealth(get().baseUrl);
      set({
        checking: false,
        status: result.ok ? { phase: 'running', version: result.health.version } : { phase: 'failed', failure: result.failure },
      });
    })().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  },
}));
