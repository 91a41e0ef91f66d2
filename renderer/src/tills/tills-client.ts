/**
 * The calls about a shop's tills (main/http/routes/tills/routes.ts): the list, this screen's till (take,
 * keep, let go), an admin's changes, and the shop's day. Typed by the contract
 * (contract/api/tills.ts, contract/api/reports.ts); same transports and error shape as the other clients (api/call.ts, api/transport.ts).
 */
import type { JoinSummary, SetupState, StoreLimits, TillInvite, TillLinkStatus } from '../../../contract/api/centre.js';
import type { ShopDay } from '../../../contract/api/reports.js';
import type { CreateTillRequest, TakenTill, Till, TillList, UpdateTillRequest } from '../../../contract/api/tills.js';
import { caller } from '../api/call.js';
import { defaultTransport, type Transport } from '../api/transport.js';

export type { JoinSummary, SetupState, ShopDay, StoreLimits, TakenTill, Till, TillInvite, TillLinkStatus, TillList };

export interface TillsClient {
  list(options?: { retired?: boolean }): Promise<TillList>;
  /**
   * This screen takes the till, or says it still has it open, with the claim it was given (if any);
   * 409 (4005) while another screen has it. The answer may carry a new claim to keep.
   */
  take(tillId: string, claim: string | undefined, takeOver?: boolean): Promise<TakenTill>;
  release(): Promise<void>;
  create(request: CreateTillRequest): Promise<Till>;
  update(tillId: string, request: UpdateTillRequest): Promise<Till>;
  shopDay(): Promise<ShopDay>;
  /** What a till on another computer may store while this gateway is away (admin). */
  setLimits(tillId: string, limits: StoreLimits): Promise<{ till_id: string; limits: StoreLimits }>;
  /** A one-time pairing code for the till on another computer (admin). */
  invite(tillId: string): Promise<TillInvite>;
  /** Whether this gateway has a shop yet (no login needed). */
  setup(): Promise<SetupState>;
  /** The first start's "join a shop's gateway" with its address and a pairing code. */
  joinShop(centre: string, code: string): Promise<JoinSummary>;
  /** This till's link to its centre (joined: false on an ordinary gateway). */
  link(): Promise<TillLinkStatus>;
  /** The cashier has seen a forwarded decline. */
  declineSeen(transactionId: string): Promise<TillLinkStatus>;
}

export function createTillsClient(transport: Transport = defaultTransport()): TillsClient {
  const call = caller(transport);
  return {
    list: (options = {}) => call('tills.list', { query: options.retired ? { retired: 'true' } : {} }),
    take: (tillId, claim, takeOver = false) =>
      call('tills.take', {
        body: { till_id: tillId, ...(claim === undefined ? {} : { claim }), ...(takeOver ? { take_over: true } : {}) },
      }),
    async release() {
      await call('tills.release');
    },
    create: (request) => call('tills.create', { body: request }),
    update: (tillId, request) => call('tills.update', { params: { till_id: tillId }, body: request }),
    shopDay: () => call('reports.shopDay'),
    setLimits: (tillId, limits) => call('tills.setLimits', { params: { till_id: tillId }, body: limits }),
    invite: (tillId) => call('tills.invite', { params: { till_id: tillId } }),
    setup: () => call('centre.setup'),
    joinShop: (centre, code) => call('centre.joinShop', { body: { centre, code } }),
    link: () => call('centre.tillLink'),
    declineSeen: (transactionId) => call('centre.seeDecline', { params: { transaction_id: transactionId } }),
  };
}

export const tillsClient: TillsClient = createTillsClient();
