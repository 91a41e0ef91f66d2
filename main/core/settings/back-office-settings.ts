/**
 * The back office's Settings (admin; docs/decisions.md "Back office: settings, staff and audit"):
 * the merchant's profile, its channels, API credentials for POS software, the merchant's SMTP
 * server and its test e-mail, and the audit log viewer's page. Every change writes its audit entry
 * (who, what, the object, old and new values, never a secret) in the unit of work of the change.
 */
import type { FieldError } from '../../../contract/api/common.js';
import type {
  ApiCredential,
  AuditLogPage,
  AuditLogQuery,
  Channel,
  CreateChannelRequest,
  CreatedApiCredential,
  MerchantProfile,
  SmtpSettings,
  SmtpTestResult,
  UpdateChannelRequest,
  UpdateProfileRequest,
  UpdateSmtpRequest,
} from '../../../contract/api/settings.js';
import { ErrorCode } from '../../../contract/codes.js';
import {
  AUDIT_DEFAULT_PER_PAGE,
  AUDIT_MAX_PER_PAGE,
  CHANNEL_URL_NAME_PATTERN,
  SMTP_SECURITY,
  type ChannelLanguage,
  type MerchantLanguage,
} from '../../../contract/constants.js';
import { isCurrency } from '../../../contract/money.js';
import { isEmailAddress, isMailSender } from '../../../contract/text-rules.js';
import { apiError, created, failure, success, validationError, type Outcome } from '../errors.js';
import type { Authenticator } from '../merchants/authenticator.js';
import { hashPassword } from '../merchants/credentials.js';
import type { AuditRecord } from '../kernel.js';
import type { ChannelRecord, CredentialRecord } from '../merchants/ports.js';
import type { Clock, Ids, Vault } from '../kernel.js';
import type { Store } from '../unit-of-work.js';
import type { SettingsUnit } from './ports.js';
import type { SmtpMailerFactory, SmtpServer, SmtpSettingsRecord } from '../mail/ports.js';
import type { Staff } from '../staff/staff.js';

/** The admin making a change: their merchant, staff id and session. */
export interface Actor {
  merchantId: string;
  staffId: string;
}

const HOST = /^[A-Za-z0-9.:_-]{1,253}$/;

/** `created_at[min]` / `[max]` as the API takes them: ISO 8601 date or date-time. */
function isTime(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) && !Number.isNaN(Date.parse(value));
}

function channelView(c: ChannelRecord): Channel {
  return {
    channel_id: c.publicId ?? null,
    url_name: c.urlName,
    name: c.name,
    currency: c.currency,
    language: c.language,
    sender_email: c.senderEmail,
    created_at: c.createdAt,
  };
}

function credentialView(c: CredentialRecord): ApiCredential {
  return { credential_id: c.id, api_key: c.apiKey, created_at: c.createdAt, revoked_at: c.revokedAt };
}

/** What the audit log keeps of SMTP settings: never the password, only whether one is set. */
function smtpAudit(s: SmtpSettingsRecord | undefined): Record<string, unknown> | null {
  return s
    ? { host: s.host, port: s.port, security: s.security, user: s.user, password: s.passwordSealed ? 'set' : 'not set', from: s.mailFrom }
    : null;
}

export interface BackOfficeSettingsDeps {
  store: Store<SettingsUnit>;
  clock: Clock;
  ids: Ids;
  vault: Vault;
  auth: Authenticator;
  staff: Staff;
  /** Makes a mailer for the merchant's SMTP server (absent: only the host's mailer exists). */
  smtpMailer?: SmtpMailerFactory;
  /** What customers' links start with (shown with the profile). */
  publicUrl: () => string;
}

export class BackOfficeSettings {
  constructor(private readonly deps: BackOfficeSettingsDeps) {}

  private audit(
    actor: Actor,
    action: string,
    subjectId: string | null,
    detail: string | null,
    oldValue: unknown,
    newValue: unknown,
  ): AuditRecord {
    return { ...this.deps.staff.auditRecord(actor.merchantId, actor.staffId, null, action, subjectId, detail), oldValue, newValue };
  }

  // ---- profile

  async profile(merchantId: string): Promise<Outcome<MerchantProfile>> {
    const merchant = await this.deps.store.read((r) => r.merchants.get(merchantId));
    if (!merchant) return failure(apiError(ErrorCode.notFound, 'Merchant not found'));
    return success({
      merchant_id: merchant.id,
      name: merchant.name,
      currency: merchant.currency,
      language: merchant.language ?? 'en',
      created_at: merchant.createdAt,
      customer_links_base: this.deps.publicUrl(),
    });
  }

  /** The profile form's field checks (also run when the schema refused other fields). */
  profileErrors(body: Partial<UpdateProfileRequest>): FieldError[] {
    const errors: FieldError[] = [];
    if (typeof body.name === 'string' && (!body.name.trim() || body.name.trim().length > 120))
      errors.push({ field: 'name', message: 'must be 1 to 120 characters' });
    if (typeof body.currency === 'string' && !isCurrency(body.currency))
      errors.push({ field: 'currency', message: 'must be an ISO 4217 currency code' });
    return errors;
  }

  async updateProfile(actor: Actor, body: UpdateProfileRequest): Promise<Outcome<MerchantProfile>> {
    const errors = this.profileErrors(body);
    if (errors.length) return failure(validationError(errors));
    const next = { name: body.name.trim(), currency: body.currency, language: body.language as MerchantLanguage };
    const found = await this.deps.store.run(async (tx) => {
      const merchant = await tx.merchants.get(actor.merchantId);
      if (!merchant) return false;
      const before = { name: merchant.name, currency: merchant.currency, language: merchant.language ?? 'en' };
      await tx.merchants.updateProfile(actor.merchantId, next);
      const changed = (Object.keys(next) as Array<keyof typeof next>).filter((k) => before[k] !== next[k]);
      await tx.audit.record(
        this.audit(
          actor,
          'profile_update',
          actor.merchantId,
          changed.length ? `changed ${changed.join(', ')}` : 'saved unchanged',
          before,
          next,
        ),
      );
      return true;
    });
    return found ? this.profile(actor.merchantId) : failure(apiError(ErrorCode.notFound, 'Merchant not found'));
  }

  // ---- channels

  async channels(merchantId: string): Promise<Channel[]> {
    return (await this.deps.store.read((r) => r.channels.listByMerchant(merchantId))).map(channelView);
  }

  /** A channel form's field checks; `url_name` only on create. */
  channelErrors(body: Partial<CreateChannelRequest>): FieldError[] {
    const errors: FieldError[] = [];
    if (typeof body.url_name === 'string' && !CHANNEL_URL_NAME_PATTERN.test(body.url_name)) {
      errors.push({ field: 'url_name', message: 'must be 2 to 40 lower-case letters, digits or dashes, starting with a letter or digit' });
    }
    if (typeof body.name === 'string' && (!body.name.trim() || body.name.trim().length > 120))
      errors.push({ field: 'name', message: 'must be 1 to 120 characters' });
    if (typeof body.currency === 'string' && !isCurrency(body.currency))
      errors.push({ field: 'currency', message: 'must be an ISO 4217 currency code' });
    if (typeof body.sender_email === 'string' && body.sender_email.trim() !== '' && !isEmailAddress(body.sender_email.trim())) {
      errors.push({ field: 'sender_email', message: 'must be an e-mail address' });
    }
    return errors;
  }

  async createChannel(actor: Actor, body: CreateChannelRequest): Promise<Outcome<Channel>> {
    const errors = this.channelErrors(body);
    if (errors.length) return failure(validationError(errors));
    const record: ChannelRecord = {
      id: this.deps.ids.newId(),
      merchantId: actor.merchantId,
      urlName: body.url_name,
      name: body.name.trim(),
      currency: body.currency,
      language: body.language as ChannelLanguage,
      senderEmail: body.sender_email?.trim() || null,
      createdAt: this.deps.clock.now().toISOString(),
    };
    const made = await this.deps.store.run(async (tx) => {
      // url_names are unique across merchants: they name the channel in invoice requests.
      if (await tx.channels.findByUrlName(record.urlName)) return undefined;
      await tx.channels.insert(record);
      const stored = await tx.channels.findByUrlName(record.urlName);
      const view = stored ? channelView(stored) : channelView(record);
      const { created_at: _created, channel_id: _id, ...values } = view;
      await tx.audit.record(this.audit(actor, 'channel_create', record.urlName, `channel ${record.name}`, null, values));
      return view;
    });
    if (!made) return failure(validationError([{ field: 'url_name', message: 'is taken' }]));
    return created(made);
  }

  async updateChannel(actor: Actor, urlName: string, body: UpdateChannelRequest): Promise<Outcome<Channel>> {
    const errors = this.channelErrors(body);
    if (errors.length) return failure(validationError(errors));
    const updated = await this.deps.store.run(async (tx) => {
      const current = await tx.channels.findByUrlName(urlName);
      if (!current || current.merchantId !== actor.merchantId) return undefined;
      const next: ChannelRecord = {
        ...current,
        name: body.name.trim(),
        currency: body.currency,
        language: body.language as ChannelLanguage,
        senderEmail: body.sender_email?.trim() || null,
      };
      await tx.channels.update(next);
      const fields = ['name', 'currency', 'language', 'senderEmail'] as const;
      const pick = (c: ChannelRecord) => ({ name: c.name, currency: c.currency, language: c.language, sender_email: c.senderEmail });
      const changed = fields.filter((f) => current[f] !== next[f]).map((f) => (f === 'senderEmail' ? 'sender_email' : f));
      await tx.audit.record(
        this.audit(
          actor,
          'channel_update',
          urlName,
          changed.length ? `changed ${changed.join(', ')}` : 'saved unchanged',
          pick(current),
          pick(next),
        ),
      );
      return channelView(next);
    });
    return updated ? success(updated) : failure(apiError(ErrorCode.notFound, 'Channel not found'));
  }

  // ---- API credentials

  async credentials(merchantId: string): Promise<ApiCredential[]> {
    const list = await this.deps.store.read((r) => r.credentials.listByMerchant(merchantId));
    return list.filter((c) => c.kind === 'merchant').map(credentialView);
  }

  async createCredential(actor: Actor): Promise<Outcome<CreatedApiCredential>> {
    const apiKey = `tg_test_${this.deps.ids.randomToken(15)}`;
    const password = this.deps.ids.randomToken(24);
    const record: CredentialRecord = {
      id: this.deps.ids.newId(),
      merchantId: actor.merchantId,
      kind: 'merchant',
      apiKey,
      passwordHash: await hashPassword(password),
      createdAt: this.deps.clock.now().toISOString(),
      revokedAt: null,
    };
    await this.deps.store.run(async (tx) => {
      await tx.credentials.insert(record);
      await tx.audit.record(this.audit(actor, 'credential_create', apiKey, 'API credentials for POS software', null, { api_key: apiKey }));
    });
    return created({ credential_id: record.id, api_key: apiKey, api_password: password, created_at: record.createdAt });
  }

  /** Revokes a credential: from the next request on it answers 401 (the authenticator's cache forgets it first). */
  async revokeCredential(actor: Actor, credentialId: string): Promise<Outcome<ApiCredential>> {
    const now = this.deps.clock.now().toISOString();
    let forgotten: string | undefined;
    const revoke = this.deps.store.run(async (tx): Promise<Outcome<ApiCredential>> => {
      const current = await tx.credentials.get(credentialId);
      if (!current || current.merchantId !== actor.merchantId || current.kind !== 'merchant')
        return failure(apiError(ErrorCode.notFound, 'API credentials not found'));
      if (current.revokedAt) return failure(apiError(ErrorCode.invalidState, 'These API credentials are revoked already'));
      // The cache forgets it inside the unit of work: no request can be answered from it after the commit.
      this.deps.auth.forgetCredential(current.id);
      forgotten = current.id;
      await tx.credentials.revoke(current.id, now);
      await tx.audit.record(
        this.audit(actor, 'credential_revoke', current.apiKey, 'API credentials revoked', { revoked_at: null }, { revoked_at: now }),
      );
      return success(credentialView({ ...current, revokedAt: now }));
    });
    try {
      return await revoke;
    } catch (error) {
      // Nothing was stored: the credentials still work.
      if (forgotten) this.deps.auth.keepCredential(forgotten);
      throw error;
    }
  }

  // ---- SMTP

  async smtp(merchantId: string): Promise<SmtpSettings> {
    const s = await this.deps.store.read((r) => r.smtpSettings.get(merchantId));
    if (!s)
      return {
        configured: false,
        host: null,
        port: 587,
        security: 'starttls',
        user: null,
        password_set: false,
        from: null,
        updated_at: null,
      };
    return {
      configured: true,
      host: s.host,
      port: s.port,
      security: s.security,
      user: s.user,
      password_set: s.passwordSealed !== null,
      from: s.mailFrom,
      updated_at: s.updatedAt,
    };
  }

  smtpErrors(body: Partial<UpdateSmtpRequest>): FieldError[] {
    const errors: FieldError[] = [];
    if (typeof body.host === 'string' && !HOST.test(body.host.trim()))
      errors.push({ field: 'host', message: 'must be a host name or IP address' });
    if (typeof body.security === 'string' && !(SMTP_SECURITY as readonly string[]).includes(body.security))
      errors.push({ field: 'security', message: 'must be starttls, implicit or none' });
    if (typeof body.user === 'string' && /\s/.test(body.user.trim())) errors.push({ field: 'user', message: 'must not contain spaces' });
    if (typeof body.from === 'string' && !isMailSender(body.from.trim()))
      errors.push({ field: 'from', message: 'must be a sender such as Shop <billing@shop.example>' });
    if (typeof body.password === 'string' && body.password === '')
      errors.push({ field: 'password', message: 'must not be empty (send null to remove it)' });
    return errors;
  }

  async updateSmtp(actor: Actor, body: UpdateSmtpRequest): Promise<Outcome<SmtpSettings>> {
    const errors = this.smtpErrors(body);
    if (errors.length) return failure(validationError(errors));
    await this.deps.store.run(async (tx) => {
      const current = await tx.smtpSettings.get(actor.merchantId);
      const passwordSealed =
        body.password === undefined
          ? (current?.passwordSealed ?? null)
          : body.password === null
            ? null
            : this.deps.vault.seal(body.password);
      const next: SmtpSettingsRecord = {
        merchantId: actor.merchantId,
        host: body.host.trim(),
        port: body.port,
        security: body.security as SmtpSettingsRecord['security'],
        user: body.user?.trim() || null,
        passwordSealed,
        mailFrom: body.from.trim(),
        updatedAt: this.deps.clock.now().toISOString(),
      };
      await tx.smtpSettings.save(next);
      const passwordNote =
        body.password === undefined ? 'password unchanged' : body.password === null ? 'password removed' : 'password changed';
      await tx.audit.record(
        this.audit(actor, 'smtp_update', `${next.host}:${next.port}`, passwordNote, smtpAudit(current), smtpAudit(next)),
      );
    });
    return success(await this.smtp(actor.merchantId));
  }

  /** The merchant's SMTP server with its password unsealed (for sending only), if one is set. */
  async smtpServer(merchantId: string, repositories?: SettingsUnit): Promise<SmtpServer | undefined> {
    const s = repositories
      ? await repositories.smtpSettings.get(merchantId)
      : await this.deps.store.read((r) => r.smtpSettings.get(merchantId));
    if (!s) return undefined;
    return {
      host: s.host,
      port: s.port,
      security: s.security,
      user: s.user,
      password: s.passwordSealed ? this.deps.vault.open(s.passwordSealed) : null,
      from: s.mailFrom,
    };
  }

  smtpTestErrors(body: { to?: unknown }): FieldError[] {
    return typeof body.to === 'string' && !isEmailAddress(body.to.trim()) ? [{ field: 'to', message: 'must be an e-mail address' }] : [];
  }

  /**
   * Sends a test e-mail through the saved SMTP server and answers what the server said: its
   * acceptance (e.g. `250 Ok: queued as ...`) or the error (the password never in it). Audited.
   */
  async testSmtp(actor: Actor, to: string): Promise<Outcome<SmtpTestResult>> {
    const errors = this.smtpTestErrors({ to });
    if (errors.length) return failure(validationError(errors));
    const server = await this.smtpServer(actor.merchantId);
    if (!server || !this.deps.smtpMailer) {
      return failure(apiError(ErrorCode.invalidState, 'Save the SMTP settings first: without them e-mails go to the local test outbox'));
    }
    const profile = await this.deps.store.read((r) => r.merchants.get(actor.merchantId));
    const result = await this.deps.smtpMailer(server).send({
      merchantId: actor.merchantId,
      from: null,
      to: to.trim(),
      subject: `Tillgate test e-mail${profile ? ` for ${profile.name}` : ''}`,
      text: `This is a test e-mail from Tillgate, sent through ${server.host}:${server.port} (${server.security}).\nInvoice and receipt e-mails will be sent the same way.`,
    });
    const answer: SmtpTestResult =
      result.kind === 'failed'
        ? { accepted: false, response: result.message }
        : { accepted: true, response: result.kind === 'sent' ? (result.response ?? 'accepted') : 'kept in the test outbox' };
    await this.deps.store.run((tx) =>
      tx.audit.record(
        this.audit(
          actor,
          'smtp_test',
          to.trim(),
          `${answer.accepted ? 'accepted' : 'refused'}: ${answer.response.slice(0, 300)}`,
          null,
          null,
        ),
      ),
    );
    return success(answer);
  }

  // ---- audit log viewer

  auditQueryErrors(query: Partial<AuditLogQuery>): FieldError[] {
    const errors: FieldError[] = [];
    for (const key of ['created_at[min]', 'created_at[max]'] as const) {
      const value = query[key];
      if (typeof value === 'string' && !isTime(value)) errors.push({ field: key, message: 'must be an ISO 8601 date or date-time' });
    }
    if (typeof query.page === 'string' && Number(query.page) < 1) errors.push({ field: 'page', message: 'must be 1 or more' });
    if (typeof query.per === 'string' && (Number(query.per) < 1 || Number(query.per) > AUDIT_MAX_PER_PAGE))
      errors.push({ field: 'per', message: `must be 1 to ${AUDIT_MAX_PER_PAGE}` });
    return errors;
  }

  async auditPage(merchantId: string, query: AuditLogQuery): Promise<Outcome<AuditLogPage>> {
    const errors = this.auditQueryErrors(query);
    if (errors.length) return failure(validationError(errors));
    const per = query.per ? Number(query.per) : AUDIT_DEFAULT_PER_PAGE;
    const page = query.page ? Number(query.page) : 1;
    const iso = (value: string | undefined, end: boolean) => {
      if (value === undefined) return undefined;
      // A bare date is the whole day (UTC): from its start, to its end.
      return /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z` : new Date(value).toISOString();
    };
    const from = iso(query['created_at[min]'], false);
    const to = iso(query['created_at[max]'], true);
    const filter = {
      ...(query.staff_id ? { staffId: query.staff_id } : {}),
      ...(query.action ? { action: query.action } : {}),
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      limit: per,
      offset: (page - 1) * per,
    };
    const { records, total, actions, members } = await this.deps.store.read(async (r) => ({
      ...(await r.staff.auditPage(merchantId, filter)),
      actions: await r.staff.auditActions(merchantId),
      members: await r.staff.listByMerchant(merchantId),
    }));
    const names = new Map(members.map((m) => [m.id, m.displayName]));
    const nameOf = (id: string | null) => (id === null ? null : (names.get(id) ?? null));
    return success({
      data_set: records.map((r) => ({
        id: r.id,
        created_at: r.createdAt,
        action: r.action,
        staff_id: r.staffId,
        staff_name: nameOf(r.staffId),
        approved_by: r.approvedBy,
        approved_by_name: nameOf(r.approvedBy),
        subject_id: r.subjectId,
        detail: r.detail,
        partner_id: r.partnerId ?? null,
        old_value: r.oldValue ?? null,
        new_value: r.newValue ?? null,
      })),
      metadata: { per_page: per, total_items: total, current_page: page, total_pages: Math.max(1, Math.ceil(total / per)) },
      actions,
    });
  }
}
