/**
 * Partners, shops and terminals (decisions.md D15). A partner (a reseller or POS vendor) has its
 * own API credentials (shown once) and manages the merchants it created or was given; a merchant
 * has shops; a `cardpos` terminal id belongs to at most one shop of its merchant, and a payment
 * sent from it belongs to that shop. Shop and terminal changes are audited.
 */
import type { Shop, TerminalAssignment } from '../../../contract/api/payment-methods.js';
import { ErrorCode } from '../../../contract/codes.js';
import { apiError, created, failure, fieldError, success, type ApiError, type Outcome } from '../errors.js';
import type { AuditRecord } from '../kernel.js';
import type { Clock, Ids } from '../kernel.js';
import type { Store } from '../unit-of-work.js';
import type { MerchantsUnit, ShopRecord } from './ports.js';
import { hashPassword } from './credentials.js';

export interface CreatedPartner {
  partner_id: string;
  name: string;
  api_key: string;
  api_password: string;
}

export interface PartnerView {
  partner_id: string;
  name: string;
  created_at: string;
}

/** Who changed a shop or terminal: a staff member in the app, or the operator's command line. */
export interface ShopActor {
  staffId: string | null;
}

const TERMINAL_ID_PATTERN = /^[\x21-\x7e]{1,64}$/;

function notFound(field: string, what: string): ApiError {
  return apiError(ErrorCode.notFound, `${what} not found`, [{ field, message: `no such ${what.toLowerCase()}` }]);
}

function nameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  return trimmed && trimmed.length <= 120 ? undefined : 'must be 1 to 120 characters';
}

export class Partners {
  constructor(
    private readonly store: Store<MerchantsUnit>,
    private readonly clock: Clock,
    private readonly ids: Ids,
  ) {}

  async create(input: { name: string }): Promise<Outcome<CreatedPartner>> {
    const problem = nameProblem(input.name);
    if (problem) return failure(fieldError('name', problem));
    const apiKey = `tg_test_pt_${this.ids.randomToken(15)}`;
    const apiPassword = this.ids.randomToken(24);
    const passwordHash = await hashPassword(apiPassword);
    const now = this.clock.now().toISOString();
    const id = this.ids.newId();
    const name = input.name.trim();
    await this.store.run(async (tx) => {
      await tx.partners.insert({ id, name, createdAt: now });
      await tx.credentials.insert({
        id: this.ids.newId(),
        merchantId: null,
        partnerId: id,
        kind: 'partner',
        apiKey,
        passwordHash,
        createdAt: now,
        revokedAt: null,
      });
    });
    return created({ partner_id: id, name, api_key: apiKey, api_password: apiPassword });
  }

  async list(): Promise<PartnerView[]> {
    const partners = await this.store.read((r) => r.partners.list());
    return partners.map((p) => ({ partner_id: p.id, name: p.name, created_at: p.createdAt }));
  }

  /** Gives a merchant to a partner (it manages it from then on), or takes it away (`partnerId` null). */
  async assignMerchant(merchantId: string, partnerId: string | null): Promise<Outcome<{ merchant_id: string; partner_id: string | null }>> {
    return this.store.run(async (tx) => {
      if (!(await tx.merchants.get(merchantId))) return failure(notFound('merchant', 'Merchant'));
      if (partnerId !== null && !(await tx.partners.get(partnerId))) return failure(notFound('partner', 'Partner'));
      await tx.merchants.setPartner(merchantId, partnerId);
      return success({ merchant_id: merchantId, partner_id: partnerId });
    });
  }

  private audit(
    merchantId: string,
    actor: ShopActor,
    action: string,
    subjectId: string,
    detail: string,
    oldValue: unknown,
    newValue: unknown,
  ): AuditRecord {
    return {
      id: this.ids.newId(),
      merchantId,
      staffId: actor.staffId,
      approvedBy: null,
      action,
      subjectId,
      detail,
      createdAt: this.clock.now().toISOString(),
      oldValue,
      newValue,
    };
  }

  private async view(repos: MerchantsUnit, shop: ShopRecord): Promise<Shop> {
    const terminals = (await repos.shops.terminals(shop.merchantId)).filter((t) => t.shopId === shop.id).map((t) => t.terminalId);
    return { shop_id: shop.id, merchant_id: shop.merchantId, name: shop.name, terminals, created_at: shop.createdAt };
  }

  async createShop(merchantId: string, name: string, actor: ShopActor = { staffId: null }): Promise<Outcome<Shop>> {
    const problem = nameProblem(name);
    if (problem) return failure(fieldError('name', problem));
    const shop: ShopRecord = { id: this.ids.newId(), merchantId, name: name.trim(), createdAt: this.clock.now().toISOString() };
    return this.store.run(async (tx) => {
      if (!(await tx.merchants.get(merchantId))) return failure(notFound('merchant', 'Merchant'));
      await tx.shops.insert(shop);
      await tx.audit.record(this.audit(merchantId, actor, 'shop_created', shop.id, shop.name, null, { name: shop.name }));
      return created(await this.view(tx, shop));
    });
  }

  async listShops(merchantId: string): Promise<Shop[]> {
    return this.store.read(async (r) => {
      const shops = await r.shops.listByMerchant(merchantId);
      const terminals = await r.shops.terminals(merchantId);
      return shops.map((shop) => ({
        shop_id: shop.id,
        merchant_id: shop.merchantId,
        name: shop.name,
        terminals: terminals.filter((t) => t.shopId === shop.id).map((t) => t.terminalId),
        created_at: shop.createdAt,
      }));
    });
  }

  /**
   * Assigns a terminal id to a shop: its payments belong to the shop from then on. A terminal of
   * another shop of the same merchant moves (a terminal belongs to at most one shop). `merchantId`
   * limits the shop to one merchant (the app's admin); the command line gives none.
   */
  async assignTerminal(
    input: { shopId: string; terminalId: string; merchantId?: string },
    actor: ShopActor = { staffId: null },
  ): Promise<Outcome<TerminalAssignment>> {
    if (!TERMINAL_ID_PATTERN.test(input.terminalId))
      return failure(fieldError('terminal_id', 'must be 1 to 64 printable characters without spaces'));
    return this.store.run(async (tx) => {
      const shop = await tx.shops.get(input.shopId);
      if (!shop || (input.merchantId !== undefined && shop.merchantId !== input.merchantId)) return failure(notFound('shop', 'Shop'));
      const before = await tx.shops.terminal(shop.merchantId, input.terminalId);
      await tx.shops.assignTerminal({
        merchantId: shop.merchantId,
        terminalId: input.terminalId,
        shopId: shop.id,
        assignedAt: this.clock.now().toISOString(),
      });
      if (before?.shopId !== shop.id) {
        await tx.audit.record(
          this.audit(
            shop.merchantId,
            actor,
            'terminal_assigned',
            input.terminalId,
            `terminal ${input.terminalId} to shop ${shop.name}`,
            before ? { shop_id: before.shopId } : null,
            { shop_id: shop.id },
          ),
        );
      }
      return success({
        terminal_id: input.terminalId,
        shop_id: shop.id,
        merchant_id: shop.merchantId,
        previous_shop_id: before && before.shopId !== shop.id ? before.shopId : null,
      });
    });
  }

  /** Takes a terminal out of its shop: its payments belong to the merchant only. */
  async unassignTerminal(
    merchantId: string,
    terminalId: string,
    actor: ShopActor = { staffId: null },
  ): Promise<Outcome<{ terminal_id: string; previous_shop_id: string }>> {
    return this.store.run(async (tx) => {
      const before = await tx.shops.terminal(merchantId, terminalId);
      if (!before || !(await tx.shops.unassignTerminal(merchantId, terminalId)))
        return failure(
          apiError(ErrorCode.notFound, `Terminal ${terminalId} is not assigned to a shop`, [
            { field: 'terminal_id', message: 'is not assigned to a shop of this merchant' },
          ]),
        );
      await tx.audit.record(
        this.audit(merchantId, actor, 'terminal_unassigned', terminalId, `terminal ${terminalId}`, { shop_id: before.shopId }, null),
      );
      return success({ terminal_id: terminalId, previous_shop_id: before.shopId });
    });
  }
}
