/** Whether the gateway behind this window runs, and which API version it speaks. */
import { create } from 'zustand';
import { fetchHealth, fetchHealthViaBridge, type HealthFailure } from './gateway-client.js';

/** The outcome of the last finished check. */
export type GatewayStatus = { phase: 'unknown' } | { phase: 'running'; version: string } | { phase: 'failed'; failure: HealthFailure };

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
      const bridge = window.tillgate;
      if (bridge) {
        // Inside Electron the page's origin is app://; the REST API listens where the main process says.
        const info = await bridge.invoke('gateway:info').catch(() => undefined);
        if (info?.restUrl) set({ baseUrl: info.restUrl });
      }
      const result = bridge ? await fetchHealthViaBridge() : await fetchHealth(get().baseUrl);
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
