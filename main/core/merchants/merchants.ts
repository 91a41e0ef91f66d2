/**
 * Merchants, their API credentials and their invoice channels. Creating a merchant returns the
 * API password and webhook key once; only the scrypt hash and the sealed webhook key are kept.
 */
import { defaultTillName, TILL_TERMINAL_ID } from '../../../contract/constants.js';
import { isCurrency } from '../../../contract/money.js';
import { ErrorCode } from '../../../contract/codes.js';
import { apiError, created, failure, fieldError, type Outcome } from '../errors.js';
import type { Clock, Ids, Vault } from '../kernel.js';
import type { MerchantRecord, MerchantsUnit } from './ports.js';
import type { Store } from '../unit-of-work.js';
import { hashPassword, newWebhookKey } from './credentials.js';

export interface CreateMerchantInput {
  name: string;
  currency?: string;
  language?: 'en' | 'de' | 'pt';
  /** The partner that manages the merchant (decisions.md D15). */
  partnerId?: string;
}

export interface CreatedMerchant {
  merchant_id: string;
  name: string;
  api_key: string;
  api_password: string;
  webhook_key: string;
  channel: { url_name: string };
  partner_id: string | null;
}

export interface MerchantView {
  merchant_id: string;
  name: string;
  currency: string;
  created_at: string;
  partner_id: string | null;
}

function slug(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return base || 'shop';
}

export class Merchants {
  constructor(
    private readonly store: Store<MerchantsUnit>,
    private readonly clock: Clock,
    private readonly ids: Ids,
    private readonly vault: Vault,
  ) {}

  async create(input: CreateMerchantInput): Promise<Outcome<CreatedMerchant>> {
    const name = input.name.trim();
    if (!name || name.length > 120) return failure(fieldError('name', 'must be 1 to 120 characters'));
    const currency = input.currency ?? 'EUR';
    if (!isCurrency(currency)) return failure(fieldError('currency', 'must be an ISO 4217 currency code'));

    const apiKey = `tg_test_${this.ids.randomToken(15)}`;
    const apiPassword = this.ids.randomToken(24);
    const webhookKey = newWebhookKey();
    const passwordHash = await hashPassword(apiPassword);
    const now = this.clock.now().toISOString();
    const merchant: MerchantRecord = {
      id: this.ids.newId(),
      name,
      webhookKeySealed: this.vault.seal(webhookKey),
      previousWebhookKeySealed: null,
      previousWebhookKeyUntil: null,
      currency,
      createdAt: now,
      partnerId: input.partnerId ?? null,
      language: input.language ?? 'en',
    };

    const urlName = await this.store.run(async (tx) => {
      if (input.partnerId !== undefined && !(await tx.partners.get(input.partnerId))) return undefined;
      await tx.merchants.insert(merchant);
      await tx.credentials.insert({
        id: this.ids.newId(),
        merchantId: merchant.id,
        kind: 'merchant',
        apiKey,
        passwordHash,
        createdAt: now,
        revokedAt: null,
      });
      const base = slug(name);
      let candidate = base;
      for (let n = 2; await tx.channels.findByUrlName(candidate); n += 1) candidate = `${base}-${n}`;
      // Every shop has a till from the start: the one its first screen sells on.
      await tx.tills.insert({
        merchantId: merchant.id,
        tillId: TILL_TERMINAL_ID,
        name: defaultTillName(TILL_TERMINAL_ID),
        createdAt: now,
        retiredAt: null,
      });
      await tx.channels.insert({
        id: this.ids.newId(),
        merchantId: merchant.id,
        urlName: candidate,
        name,
        currency,
        language: input.language ?? 'en',
        senderEmail: null,
        createdAt: now,
      });
      return candidate;
    });
    if (urlName === undefined)
      return failure(apiError(ErrorCode.notFound, 'Partner not found', [{ field: 'partner', message: 'no such partner' }]));

    return created({
      merchant_id: merchant.id,
      name,
      api_key: apiKey,
      api_password: apiPassword,
      webhook_key: webhookKey,
      channel: { url_name: urlName },
      partner_id: merchant.partnerId ?? null,
    });
  }

  async list(): Promise<MerchantView[]> {
    const merchants = await this.store.read((r) => r.merchants.list());
    return merchants.map((m) => ({
      merchant_id: m.id,
      name: m.name,
      currency: m.currency,
      created_at: m.createdAt,
      partner_id: m.partnerId ?? null,
    }));
  }
}
