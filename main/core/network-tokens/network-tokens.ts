/**
 * Network tokens (docs/api.md and docs/decisions.md "Network tokens"), with a simulated token
 * service: the network comes from the card's BIN (visa, mastercard); a new token is `requested` and
 * becomes `active` (or `failed` for the provisioning test card) after the simulated delay, with a
 * postback; the same card for the same merchant returns the existing token. Token numbers and
 * cryptograms are HMAC-derived under the Vault's fingerprint key; card and token numbers are only
 * stored sealed. Cryptograms are single use and valid 24 hours; `TokenCryptograms` lets the
 * payments engine accept a token number with its cryptogram in place of a card.
 */
import type { FieldError, PageMetadata } from '../../../contract/api/common.js';
import type {
  BackOfficeToken,
  BackOfficeTokenDetail,
  BackOfficeTokenList,
  NetworkTokenRequest,
  NetworkToken,
  TokenData,
  Cryptogram,
  Envelope,
  NetworkTokenList,
  NetworkTokenListQuery,
} from '../../../contract/api/network-tokens.js';
import { cardBrand, cardExpiryProblems, luhnValid, tokenCardNumberProblem } from '../../../contract/cards.js';
import { ErrorCode } from '../../../contract/codes.js';
import { pathOf } from '../../../contract/paths.js';
import {
  NETWORK_TOKEN_STATUSES,
  NETWORK_TOKENS_DEFAULT_PER_PAGE,
  NETWORK_TOKENS_MAX_PER_PAGE,
  TOKEN_NETWORKS,
  type NetworkTokenStatus,
  type SimulateAction,
} from '../../../contract/constants.js';
import { isEmailAddress } from '../../../contract/text-rules.js';
import { accepted, apiError, created, failure, success, validationError, type Outcome } from '../errors.js';
import type { Operation } from '../idempotency/operation-runner.js';
import { oneOf, pageLinks, pageMetadata, readPageQuery } from '../paging.js';
import { isCountryCode } from '../countries.js';
import { isLocalHost } from '../addresses.js';
import type { Clock, Ids, ScheduledTask, Vault } from '../kernel.js';
import type { NetworkTokenFilter, NetworkTokenRecord, NetworkTokensUnit } from './ports.js';
import type { Store } from '../unit-of-work.js';
import type { Scheduler } from '../scheduler.js';

export const CRYPTOGRAM_TTL_MS = 24 * 60 * 60 * 1000;

/** Token BIN ranges of the simulated token service, distinct from the cards' ranges. */
const TOKEN_BIN: Record<string, string> = { visa: '4895', mastercard: '5204' };
/** Test cards whose token provisioning fails (main/processor/test-cards.ts). */
const PROVISIONING_FAILS = new Set(['5105105105105100']);
const PAR_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** ECIs a token payment's cryptogram may carry (D12). */
const TOKEN_ECIS = new Set(['05', '07']);

const BILLING_KEYS = [
  'card_holder',
  'email',
  'phone',
  'billing_country',
  'billing_city',
  'billing_line1',
  'billing_line2',
  'billing_postal_code',
  'billing_state',
] as const;

/** What a payment with a token number learns about its cryptogram. */
export type CryptogramCheck = { kind: 'not_token' } | { kind: 'invalid' } | { kind: 'valid'; tokenId: string; cryptogramId: string };

/** The payments engine's view of network tokens (a cardecom payment with a token number). */
export interface TokenCryptograms {
  /** Whether `pan` is one of the merchant's token numbers, and whether `cryptogram` is valid for it. */
  check(merchantId: string, pan: string, cryptogram: { cryptogram: string; eci: string } | undefined): Promise<CryptogramCheck>;
  /** Uses the cryptogram inside the payment's unit of work; false when it was used meanwhile. */
  consume(tx: NetworkTokensUnit, cryptogramId: string): Promise<boolean>;
}

export interface NetworkTokensDeps {
  store: Store<NetworkTokensUnit>;
  clock: Clock;
  ids: Ids;
  vault: Vault;
  scheduler: Scheduler;
  /** The simulated provisioning delay (the payments' simDelayMs). */
  simDelayMs: () => number;
  /**
   * Postbacks may go to loopback and private addresses (the `postbackPrivateAddresses` setting):
   * then a postback_url may also be plain http to such a local receiver. Default true.
   */
  localPostbacks?: boolean;
}

interface SealedCard {
  pan: string;
  expiryMonth: number;
  expiryYear: number;
}

interface SealedToken {
  number: string;
  expiryMonth: number;
  expiryYear: number;
}

type ApiErrorOutcome = Outcome<never>;

function notFound(id: string): ApiErrorOutcome {
  return failure(
    apiError(ErrorCode.notFound, `Network token ${id} not found`, [{ field: 'id', message: 'no such network token for this merchant' }]),
  );
}

function invalidState(record: NetworkTokenRecord, what: string): ApiErrorOutcome {
  return failure(
    apiError(ErrorCode.invalidState, `${what} is not possible while the network token is ${record.status}`, [
      { field: 'id', message: `is ${record.status}` },
    ]),
  );
}

function withCheckDigit(payload: string): string {
  for (let digit = 0; digit <= 9; digit += 1) {
    if (luhnValid(`${payload}${digit}`)) return `${payload}${digit}`;
  }
  throw new Error('no Luhn check digit');
}

/** HTTPS; or plain http to a receiver on this machine or the shop's network, when `local` allows it. */
function postbackUrlOk(value: string, local: boolean): boolean {
  try {
    const url = new URL(value);
    if (url.hostname === '') return false;
    return url.protocol === 'https:' || (local && url.protocol === 'http:' && isLocalHost(url.hostname));
  } catch {
    return false;
  }
}

export class NetworkTokens implements TokenCryptograms {
  constructor(private readonly deps: NetworkTokensDeps) {
    deps.scheduler.register('provision_network_token', (task) => this.provision(task));
    deps.scheduler.register('archive_network_token', (task) => this.finishArchive(task));
  }

  /** The 32-byte HMAC (under the Vault's fingerprint key) of a label. */
  private hmac(label: string): Buffer {
    return Buffer.from(this.deps.vault.fingerprint(label), 'base64url');
  }

  private tokenNumber(network: string, id: string): string {
    const digits = (BigInt(`0x${this.hmac(`network-token-number:${id}`).toString('hex')}`) % 10n ** 11n).toString().padStart(11, '0');
    return withCheckDigit(`${TOKEN_BIN[network] ?? '4895'}${digits}`);
  }

  /** The Payment Account Reference: the same for every token of one card account, 29 characters. */
  private par(network: string, pan: string): string {
    const bytes = this.hmac(`payment-account-reference:${pan}`);
    let text = network === 'visa' ? 'V001' : 'M001';
    for (let i = 0; text.length < 29; i += 1) text += PAR_ALPHABET[(bytes[i % bytes.length] ?? 0) % PAR_ALPHABET.length];
    return text;
  }

  validate(request: NetworkTokenRequest): FieldError[] {
    const errors: FieldError[] = [];
    const now = this.deps.clock.now();
    const cardProblem = tokenCardNumberProblem(request.card_number);
    if (cardProblem) errors.push({ field: 'card_number', message: cardProblem });
    const expiry = cardExpiryProblems(request.expiry_month, request.expiry_year, now);
    if (expiry.expiry_month) errors.push({ field: 'expiry_month', message: expiry.expiry_month });
    if (expiry.expiry_year) errors.push({ field: 'expiry_year', message: expiry.expiry_year });
    if (request.card_cvv !== undefined && !/^\d{3}$/.test(request.card_cvv))
      errors.push({ field: 'card_cvv', message: 'must be 3 digits' });
    if (request.card_holder !== undefined) {
      if (request.card_holder.length > 120) errors.push({ field: 'card_holder', message: 'must be at most 120 characters' });
      else if (!/^[\p{L}\p{N}][\p{L}\p{N} .'-]*$/u.test(request.card_holder))
        errors.push({ field: 'card_holder', message: "must be letters, digits, spaces and . ' -" });
    }
    if (request.email !== undefined && !isEmailAddress(request.email))
      errors.push({ field: 'email', message: 'must be an e-mail address' });
    if (request.phone !== undefined && !/^\+?[0-9][0-9 ()-]{2,29}$/.test(request.phone))
      errors.push({ field: 'phone', message: 'must be a phone number' });
    if (request.billing_country !== undefined && !isCountryCode(request.billing_country)) {
      errors.push({ field: 'billing_country', message: 'must be an ISO 3166-1 alpha-2 code' });
    }
    if (request.billing_postal_code !== undefined && !/^[A-Za-z0-9]{1,16}$/.test(request.billing_postal_code)) {
      errors.push({ field: 'billing_postal_code', message: 'must be 1 to 16 letters and digits, without spaces' });
    }
    const local = this.deps.localPostbacks ?? true;
    if (request.postback_url !== undefined && !postbackUrlOk(request.postback_url, local)) {
      errors.push({
        field: 'postback_url',
        message: local ? 'must be an HTTPS URL (plain http only to a loopback or private-network address)' : 'must be an HTTPS URL',
      });
    }
    return errors;
  }

  view(record: NetworkTokenRecord): NetworkToken {
    return {
      id: record.id,
      merchant_id: record.merchantId,
      status: record.status,
      type: record.type,
      network: record.network,
      provider: record.provider,
      last_token_refresh: record.lastTokenRefresh,
      ...(record.status === 'failed' ? { error: { code: record.errorCode ?? 'unknown', detail: record.errorDetail ?? '' } } : {}),
      created_at: record.createdAt,
      updated_at: record.updatedAt,
    };
  }

  async create(operation: Operation, request: NetworkTokenRequest): Promise<Outcome<Envelope<NetworkToken>>> {
    const errors = this.validate(request);
    if (errors.length) return failure(validationError(errors));
    const merchantId = operation.context.merchantId;
    const now = this.deps.clock.now().toISOString();
    const cardFingerprint = this.deps.vault.fingerprint(request.card_number);
    const network = cardBrand(request.card_number);
    const id = this.deps.ids.newId();
    const number = this.tokenNumber(network, id);
    const billing: Record<string, string> = {};
    for (const key of BILLING_KEYS) {
      const value = request[key];
      if (value !== undefined) billing[key] = value;
    }
    const card: SealedCard = { pan: request.card_number, expiryMonth: request.expiry_month, expiryYear: request.expiry_year };
    const token: SealedToken = { number, expiryMonth: request.expiry_month, expiryYear: request.expiry_year };
    const record: NetworkTokenRecord = {
      id,
      merchantId,
      status: 'requested',
      type: 'merchant',
      network,
      provider: 'simulator',
      cardFingerprint,
      cardSealed: this.deps.vault.seal(JSON.stringify(card)),
      tokenFingerprint: this.deps.vault.fingerprint(number),
      tokenSealed: this.deps.vault.seal(JSON.stringify(token)),
      paymentAccountReference: this.par(network, request.card_number),
      billing,
      postbackUrl: request.postback_url ?? null,
      errorCode: null,
      errorDetail: null,
      lastTokenRefresh: null,
      createdAt: now,
      updatedAt: now,
    };
    const outcome = await operation.commit(this.deps.store, async (tx) => {
      // The same card for the same merchant: the token it already has (D12).
      const existing = await tx.networkTokens.byCard(merchantId, cardFingerprint, ['requested', 'active', 'suspended']);
      if (existing) return success({ result: 'OK' as const, data: this.view(existing) });
      await tx.networkTokens.insert(record);
      await this.deps.scheduler.schedule(tx, 'provision_network_token', id, merchantId, new Date(Date.parse(now) + this.deps.simDelayMs()));
      return created({ result: 'OK' as const, data: this.view(record) });
    });
    this.deps.scheduler.wake();
    return outcome;
  }

  private async owned(merchantId: string, id: string): Promise<NetworkTokenRecord | undefined> {
    const record = await this.deps.store.read((r) => r.networkTokens.get(id));
    return record && record.merchantId === merchantId ? record : undefined;
  }

  async read(merchantId: string, id: string): Promise<Outcome<Envelope<NetworkToken>>> {
    const record = await this.owned(merchantId, id);
    if (!record) return notFound(id);
    return success({ result: 'OK', data: this.view(record) });
  }

  /** The filters and page of a list query, or every bad parameter. */
  private listQuery(
    query: NetworkTokenListQuery,
  ): Outcome<{ filter: Omit<NetworkTokenFilter, 'limit' | 'offset'>; page: number; per: number }> {
    const errors: FieldError[] = [];
    const status = oneOf('status', query.status, NETWORK_TOKEN_STATUSES, errors);
    const network = oneOf('network', query.network, TOKEN_NETWORKS, errors);
    const { page, per, createdFrom, createdTo } = readPageQuery(
      query,
      NETWORK_TOKENS_DEFAULT_PER_PAGE,
      NETWORK_TOKENS_MAX_PER_PAGE,
      errors,
    );
    if (errors.length) return failure(validationError(errors));
    const filter = {
      ...(status ? { status } : {}),
      ...(network ? { network } : {}),
      ...(createdFrom ? { createdFrom } : {}),
      ...(createdTo ? { createdTo } : {}),
    };
    return success({ filter, page, per });
  }

  /** Every bad parameter of a list query (none: the query is good). Reads nothing. */
  listQueryErrors(query: NetworkTokenListQuery): FieldError[] {
    const parsed = this.listQuery(query);
    return parsed.ok ? [] : parsed.error.errors;
  }

  private async readPage(
    merchantId: string,
    query: NetworkTokenListQuery,
  ): Promise<Outcome<{ records: NetworkTokenRecord[]; metadata: PageMetadata }>> {
    const parsed = this.listQuery(query);
    if (!parsed.ok) return parsed;
    const { filter, page, per } = parsed.value;
    const { records, total } = await this.deps.store.read(async (r) => ({
      records: await r.networkTokens.list(merchantId, { ...filter, limit: per, offset: (page - 1) * per }),
      total: await r.networkTokens.count(merchantId, filter),
    }));
    return success({ records, metadata: pageMetadata(total, page, per) });
  }

  async list(merchantId: string, query: NetworkTokenListQuery): Promise<Outcome<NetworkTokenList>> {
    const read = await this.readPage(merchantId, query);
    if (!read.ok) return read;
    const { records, metadata } = read.value;
    const { current_page: page, per_page: per, total_pages: totalPages } = metadata;
    const href = (target: number): string => {
      const { status, network, 'created_at[min]': from, 'created_at[max]': to } = query;
      return pathOf('network-tokens.list', {
        query: { status, network, 'created_at[min]': from, 'created_at[max]': to, page: String(target), per: String(per) },
      });
    };
    return success({
      result: 'OK',
      data_set: records.map((record) => this.view(record)),
      metadata,
      links: pageLinks(href, page, totalPages),
    });
  }

  // ---- the back office ----

  /** What the back office shows of a token: the API's view, the last fours (opened from the sealed numbers) and the holder. */
  private backOfficeView(record: NetworkTokenRecord): BackOfficeToken {
    const card = JSON.parse(this.deps.vault.open(record.cardSealed)) as SealedCard;
    const token = JSON.parse(this.deps.vault.open(record.tokenSealed)) as SealedToken;
    return {
      ...this.view(record),
      token_last_four: token.number.slice(-4),
      card_last_four: card.pan.slice(-4),
      card_holder: record.billing.card_holder ?? null,
    };
  }

  /** The list with the API's filters and paging, each token with its last fours. */
  async backOfficeList(merchantId: string, query: NetworkTokenListQuery): Promise<Outcome<BackOfficeTokenList>> {
    const read = await this.readPage(merchantId, query);
    if (!read.ok) return read;
    return success({ data_set: read.value.records.map((record) => this.backOfficeView(record)), metadata: read.value.metadata });
  }

  /** One token with its status history. */
  async backOfficeDetail(merchantId: string, id: string): Promise<Outcome<BackOfficeTokenDetail>> {
    const record = await this.owned(merchantId, id);
    if (!record) return notFound(id);
    const events = await this.deps.store.read((r) => r.networkTokens.events(id));
    return success({
      token: this.backOfficeView(record),
      history: events.map((e) => ({ event: e.event, status: e.status, at: e.createdAt })),
    });
  }

  /**
   * The token data (active or suspended tokens). When a staff member reads it (`reader`), the read
   * is written to the audit log first, under them: no token data leaves unaudited to staff.
   */
  async data(merchantId: string, id: string, reader?: { staffId: string; via: string }): Promise<Outcome<Envelope<TokenData>>> {
    const record = await this.owned(merchantId, id);
    if (!record) return notFound(id);
    if (record.status !== 'active' && record.status !== 'suspended') return invalidState(record, 'Reading the token data');
    const token = JSON.parse(this.deps.vault.open(record.tokenSealed)) as SealedToken;
    if (reader) {
      const now = this.deps.clock.now().toISOString();
      await this.deps.store.run((tx) =>
        tx.audit.record({
          id: this.deps.ids.newId(),
          merchantId,
          staffId: reader.staffId,
          approvedBy: null,
          action: 'token_reveal',
          subjectId: id,
          detail: `token data shown (${reader.via})`,
          createdAt: now,
        }),
      );
    }
    return success({
      result: 'OK',
      data: {
        id: record.id,
        number: token.number,
        expiry_month: token.expiryMonth,
        expiry_year: token.expiryYear,
        payment_account_reference: record.paymentAccountReference,
      },
    });
  }

  /** A TAVV (visa) or DSRP (mastercard) cryptogram for one payment: single use, valid 24 hours. */
  async cryptogram(operation: Operation, id: string): Promise<Outcome<Envelope<Cryptogram>>> {
    const record = await this.owned(operation.context.merchantId, id);
    if (!record) return notFound(id);
    if (record.status !== 'active') return invalidState(record, 'A cryptogram');
    const now = this.deps.clock.now();
    const cryptogramId = this.deps.ids.newId();
    const authenticationData = this.hmac(`network-token-cryptogram:${record.id}:${cryptogramId}`).subarray(0, 20).toString('base64');
    const token = JSON.parse(this.deps.vault.open(record.tokenSealed)) as SealedToken;
    const expiry = `${String(token.expiryYear % 100).padStart(2, '0')}${String(token.expiryMonth).padStart(2, '0')}`;
    const discretionary = this.hmac(`network-token-track2:${cryptogramId}`).subarray(0, 4).toString('hex').toUpperCase();
    const type = record.network === 'visa' ? ('TAVV' as const) : ('DSRP' as const);
    return operation.commit(this.deps.store, async (tx) => {
      await tx.networkTokens.insertCryptogram({
        id: cryptogramId,
        tokenId: record.id,
        type,
        hash: this.cryptogramHash(authenticationData),
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + CRYPTOGRAM_TTL_MS).toISOString(),
        usedAt: null,
      });
      return success({
        result: 'OK' as const,
        data: {
          id: cryptogramId,
          type,
          authentication_data: authenticationData,
          pan_sequence_number: '01',
          track2_equivalent: `${token.number}D${expiry}201${discretionary}`,
          created: now.toISOString(),
        },
      });
    });
  }

  private cryptogramHash(authenticationData: string): string {
    return this.deps.vault.fingerprint(`network-token-cryptogram-hash:${authenticationData}`);
  }

  /** DELETE: archive_pending now, archived after the simulated delay; irreversible. */
  async archive(operation: Operation, id: string): Promise<Outcome<undefined>> {
    const merchantId = operation.context.merchantId;
    const record = await this.owned(merchantId, id);
    if (!record) return notFound(id);
    const now = this.deps.clock.now();
    const outcome = await operation.commit(this.deps.store, async (tx) => {
      const from: NetworkTokenStatus[] = ['requested', 'active', 'suspended', 'failed'];
      // Archived or being archived already: asked again, nothing more to do.
      if (!(await tx.networkTokens.transition(id, from, 'archive_pending', now.toISOString()))) return accepted(undefined);
      await this.deps.scheduler.schedule(tx, 'archive_network_token', id, merchantId, new Date(now.getTime() + this.deps.simDelayMs()));
      await this.notify(tx, id);
      return accepted(undefined);
    });
    this.deps.scheduler.wake();
    return outcome;
  }

  /** Test mode of the simulated token service: the network suspends, resumes or refreshes a token. */
  async simulate(operation: Operation, id: string, action: SimulateAction): Promise<Outcome<Envelope<NetworkToken>>> {
    const record = await this.owned(operation.context.merchantId, id);
    if (!record) return notFound(id);
    if (record.provider !== 'simulator') return invalidState(record, 'Simulating token service events');
    const from: NetworkTokenStatus[] = action === 'suspend' ? ['active'] : action === 'resume' ? ['suspended'] : ['active', 'suspended'];
    if (!from.includes(record.status)) return invalidState(record, `The ${action} action`);
    const now = this.deps.clock.now().toISOString();
    return operation.commit(this.deps.store, async (tx) => {
      const changed =
        action === 'refresh'
          ? await tx.networkTokens.transition(id, [record.status], record.status, now, { lastTokenRefresh: now })
          : await tx.networkTokens.transition(id, from, action === 'suspend' ? 'suspended' : 'active', now);
      if (!changed) return invalidState(record, `The ${action} action`);
      await this.notify(tx, id);
      const updated = await tx.networkTokens.get(id);
      return success({ result: 'OK' as const, data: this.view(updated ?? record) });
    });
  }

  private async provision(task: ScheduledTask): Promise<void> {
    await this.deps.store.run(async (tx) => {
      const record = await tx.networkTokens.get(task.subjectId);
      if (!record || record.status !== 'requested') return;
      const card = JSON.parse(this.deps.vault.open(record.cardSealed)) as SealedCard;
      const now = this.deps.clock.now().toISOString();
      const moved = PROVISIONING_FAILS.has(card.pan)
        ? await tx.networkTokens.transition(record.id, ['requested'], 'failed', now, {
            errorCode: 'provisioning_declined',
            errorDetail: 'The issuer declined to provision a network token for this card',
          })
        : await tx.networkTokens.transition(record.id, ['requested'], 'active', now);
      if (moved) await this.notify(tx, record.id);
    });
  }

  private async finishArchive(task: ScheduledTask): Promise<void> {
    await this.deps.store.run(async (tx) => {
      if (await tx.networkTokens.transition(task.subjectId, ['archive_pending'], 'archived', this.deps.clock.now().toISOString())) {
        await this.notify(tx, task.subjectId);
      }
    });
  }

  /** Queues the token postback (D7: id, status, network, error) when the token has a postback URL. */
  private async notify(tx: NetworkTokensUnit, id: string): Promise<void> {
    const record = await tx.networkTokens.get(id);
    if (!record?.postbackUrl) return;
    const now = this.deps.clock.now().toISOString();
    await tx.outbox.append({
      id: this.deps.ids.newId(),
      merchantId: record.merchantId,
      subjectType: 'token',
      subjectId: record.id,
      orderId: null,
      url: record.postbackUrl,
      payload: {
        id: record.id,
        status: record.status,
        network: record.network,
        error: record.status === 'failed' ? { code: record.errorCode, detail: record.errorDetail } : null,
      },
      state: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
    });
  }

  // ---- TokenCryptograms (the payments engine) ----

  async check(merchantId: string, pan: string, cryptogram: { cryptogram: string; eci: string } | undefined): Promise<CryptogramCheck> {
    const record = await this.deps.store.read((r) => r.networkTokens.byTokenNumber(merchantId, this.deps.vault.fingerprint(pan)));
    if (!record) return { kind: 'not_token' };
    if (record.status !== 'active' || !cryptogram || !TOKEN_ECIS.has(cryptogram.eci)) return { kind: 'invalid' };
    const found = await this.deps.store.read((r) => r.networkTokens.findCryptogram(record.id, this.cryptogramHash(cryptogram.cryptogram)));
    if (!found || found.usedAt !== null || Date.parse(found.expiresAt) <= this.deps.clock.now().getTime()) return { kind: 'invalid' };
    return { kind: 'valid', tokenId: record.id, cryptogramId: found.id };
  }

  async consume(tx: NetworkTokensUnit, cryptogramId: string): Promise<boolean> {
    return tx.networkTokens.useCryptogram(cryptogramId, this.deps.clock.now().toISOString());
  }
}
