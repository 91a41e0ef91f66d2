/**
 * The gateway core: every feature's use cases wired to the ports. Both hosts (Electron and the
 * headless CLI) build it through compose.ts; transports (HTTP, IPC) call only this object.
 */
import { Authenticator, type LockoutPolicy } from './merchants/authenticator.js';
import { Merchants } from './merchants/merchants.js';
import { Idempotency } from './idempotency/idempotency.js';
import { Mandates } from './mandates/mandates.js';
import { Operations } from './operations.js';
import type { Clock, Ids, Logger, Store, Vault } from './ports.js';
import { TransactionQueries } from './transactions/queries.js';

export interface CoreSettings {
  idempotencyRetentionMs: number;
  lockout: LockoutPolicy;
}

export interface CoreDeps {
  store: Store;
  clock: Clock;
  ids: Ids;
  vault: Vault;
  logger: Logger;
  settings: CoreSettings;
}

export interface Gateway {
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly merchants: Merchants;
  readonly auth: Authenticator;
  readonly idempotency: Idempotency;
  readonly operations: Operations;
  readonly transactions: TransactionQueries;
  readonly mandates: Mandates;
}

export function createGateway(deps: CoreDeps): Gateway {
  const { store, clock, ids, vault, logger, settings } = deps;
  const idempotency = new Idempotency(store, clock, settings.idempotencyRetentionMs);
  return {
    store,
    clock,
    logger,
    merchants: new Merchants(store, clock, ids, vault),
    auth: new Authenticator(store, clock, settings.lockout),
    idempotency,
    operations: new Operations(store, idempotency),
    transactions: new TransactionQueries(store),
    mandates: new Mandates(clock, ids, vault),
  };
}
