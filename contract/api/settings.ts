/**
 * The back office's Settings (admin; issue 16, 4; docs/decisions.md "Back office: settings, staff
 * and audit"): the merchant's profile, its channels, API credentials for POS software, staff
 * accounts' resets and disabling, the SMTP server with its test e-mail, and the audit log viewer's
 * page. Secrets are answered once (a new API password, a generated staff password or PIN) or never
 * (the SMTP password: only whether it is set).
 */
import { Type, type Static } from '@sinclair/typebox';
import { CHANNEL_LANGUAGES, MERCHANT_LANGUAGES, SMTP_SECURITY, STAFF_SECRETS } from '../constants.js';
import { Nullable, PageMetadataSchema, StringEnum, StringIn } from './common.js';
import { AuditEntrySchema, StaffMemberSchema } from './staff.js';
import type { SchemasOf } from './operation-schemas.js';

// ---- merchant profile

export const MerchantProfileSchema = Type.Object({
  merchant_id: Type.String(),
  name: Type.String(),
  currency: Type.String({ description: 'ISO 4217; the default of new channels and of the till' }),
  language: StringEnum(MERCHANT_LANGUAGES, {
    description:
      "the shop's language: its staff screens' (unless a staff member chose their own) and its receipts'; new channels start with it where invoices speak it (en, de, pt)",
  }),
  created_at: Type.String({ format: 'date-time' }),
  customer_links_base: Type.String({
    description:
      "what customers' links (pay links, checkout and receipt pages, their QR codes) start with: the gateway's public URL (GATEWAY_PUBLIC_URL), else the address it listens on; a host setting, not changed here",
  }),
});
export type MerchantProfile = Static<typeof MerchantProfileSchema>;

export const UpdateProfileRequestSchema = Type.Object(
  {
    name: Type.String({ maxLength: 120, description: '1 to 120 characters' }),
    currency: Type.String({ maxLength: 3, description: 'ISO 4217 code' }),
    language: StringIn(MERCHANT_LANGUAGES),
  },
  { additionalProperties: false },
);
export type UpdateProfileRequest = Static<typeof UpdateProfileRequestSchema>;

// ---- channels

export const ChannelSchema = Type.Object({
  channel_id: Nullable(Type.Integer({ description: 'the number invoices answer as channel_id' })),
  url_name: Type.String({ description: 'how invoices name the channel; fixed once created' }),
  name: Type.String(),
  currency: Type.String(),
  language: StringEnum(CHANNEL_LANGUAGES),
  sender_email: Nullable(Type.String({ description: "the sender of the channel's invoice e-mails; null: the SMTP settings' sender" })),
  created_at: Type.String({ format: 'date-time' }),
});
export type Channel = Static<typeof ChannelSchema>;

const channelFields = {
  name: Type.String({ maxLength: 120, description: '1 to 120 characters' }),
  currency: Type.String({ maxLength: 3, description: 'ISO 4217 code' }),
  language: StringIn(CHANNEL_LANGUAGES),
  sender_email: Type.Optional(Nullable(Type.String({ maxLength: 254, description: 'an e-mail address; null or empty: none' }))),
};

export const CreateChannelRequestSchema = Type.Object(
  { url_name: Type.String({ maxLength: 40, description: '2 to 40 lower-case letters, digits and dashes' }), ...channelFields },
  { additionalProperties: false },
);
export type CreateChannelRequest = Static<typeof CreateChannelRequestSchema>;
export const UpdateChannelRequestSchema = Type.Object(channelFields, { additionalProperties: false });
export type UpdateChannelRequest = Static<typeof UpdateChannelRequestSchema>;
export const ChannelParams = Type.Object({ url_name: Type.String({ maxLength: 40 }) });

// ---- API credentials for POS software

export const ApiCredentialSchema = Type.Object({
  credential_id: Type.String(),
  api_key: Type.String({ description: 'the user name of HTTP Basic; the password is never answered again' }),
  created_at: Type.String({ format: 'date-time' }),
  revoked_at: Nullable(Type.String({ format: 'date-time' })),
});
export type ApiCredential = Static<typeof ApiCredentialSchema>;

export const CreatedApiCredentialSchema = Type.Object({
  credential_id: Type.String(),
  api_key: Type.String(),
  api_password: Type.String({ description: 'shown once' }),
  created_at: Type.String({ format: 'date-time' }),
});
export type CreatedApiCredential = Static<typeof CreatedApiCredentialSchema>;
export const CredentialParams = Type.Object({ credential_id: Type.String({ maxLength: 64 }) });

// ---- staff accounts

export const StaffParams = Type.Object({ staff_id: Type.String({ maxLength: 64 }) });

export const ResetStaffSecretRequestSchema = Type.Object(
  {
    secret: StringIn(STAFF_SECRETS, { description: 'password or pin' }),
    value: Type.Optional(
      Type.String({ maxLength: 200, description: 'the new password (8 or more characters) or PIN (4 to 8 digits); omitted: generated' }),
    ),
  },
  { additionalProperties: false },
);
export type ResetStaffSecretRequest = Static<typeof ResetStaffSecretRequestSchema>;

export const ResetStaffSecretSchema = Type.Object({
  staff_id: Type.String(),
  secret: StringEnum(STAFF_SECRETS),
  value: Nullable(Type.String({ description: 'the generated password or PIN, shown once; null when it was given' })),
  sessions_ended: Type.Integer({ description: "the member's sessions that ended with the reset" }),
});
export type ResetStaffSecret = Static<typeof ResetStaffSecretSchema>;

// ---- SMTP

export const SmtpSettingsSchema = Type.Object({
  configured: Type.Boolean({ description: 'false: invoice and receipt e-mails go to the local test outbox (or the host settings)' }),
  host: Nullable(Type.String()),
  port: Type.Integer(),
  security: StringEnum(SMTP_SECURITY),
  user: Nullable(Type.String()),
  password_set: Type.Boolean({ description: 'the password itself is never answered' }),
  from: Nullable(Type.String({ description: 'the sender of e-mails whose channel names none' })),
  updated_at: Nullable(Type.String({ format: 'date-time' })),
});
export type SmtpSettings = Static<typeof SmtpSettingsSchema>;

export const UpdateSmtpRequestSchema = Type.Object(
  {
    host: Type.String({ maxLength: 253, description: 'host name or IP address' }),
    port: Type.Integer({ minimum: 1, maximum: 65535 }),
    security: StringIn(SMTP_SECURITY, { description: 'starttls (required), implicit (TLS from the first byte) or none' }),
    user: Type.Optional(Nullable(Type.String({ maxLength: 254, description: 'null or empty: no login' }))),
    password: Type.Optional(Nullable(Type.String({ maxLength: 1024, description: 'write-only; omitted: unchanged; null: removed' }))),
    from: Type.String({ maxLength: 254, description: 'a sender such as Shop <billing@shop.example>' }),
  },
  { additionalProperties: false },
);
export type UpdateSmtpRequest = Static<typeof UpdateSmtpRequestSchema>;

export const SmtpTestRequestSchema = Type.Object(
  { to: Type.String({ maxLength: 254, description: 'where the test e-mail goes' }) },
  { additionalProperties: false },
);
export type SmtpTestRequest = Static<typeof SmtpTestRequestSchema>;

export const SmtpTestResultSchema = Type.Object({
  accepted: Type.Boolean({ description: 'the SMTP server accepted the message' }),
  response: Type.String({ description: "the server's answer (e.g. 250 Ok: queued), or why it failed" }),
});
export type SmtpTestResult = Static<typeof SmtpTestResultSchema>;

// ---- audit log viewer

export const AuditLogQuerySchema = Type.Object(
  {
    staff_id: Type.Optional(Type.String({ maxLength: 64, description: 'who did it' })),
    action: Type.Optional(Type.String({ maxLength: 64, description: 'what was done, e.g. credential_revoke' })),
    'created_at[min]': Type.Optional(Type.String({ description: 'ISO 8601; at or after' })),
    'created_at[max]': Type.Optional(Type.String({ description: 'ISO 8601; at or before' })),
    page: Type.Optional(Type.String({ pattern: '^[0-9]+$', description: 'default 1' })),
    per: Type.Optional(Type.String({ pattern: '^[0-9]+$', description: 'default 50, at most 200' })),
  },
  { additionalProperties: false },
);
export type AuditLogQuery = Static<typeof AuditLogQuerySchema>;

export const AuditLogEntrySchema = Type.Composite([Type.Object({ id: Type.String() }), AuditEntrySchema]);
export type AuditLogEntry = Static<typeof AuditLogEntrySchema>;

export const AuditLogPageSchema = Type.Object({
  data_set: Type.Array(AuditLogEntrySchema),
  metadata: PageMetadataSchema,
  actions: Type.Array(Type.String(), { description: "every action in this merchant's log (the action filter's choices)" }),
});
export type AuditLogPage = Static<typeof AuditLogPageSchema>;

/** The settings operations (contract/operation-table.ts). */
export const settingsOperations = {
  'settings.profile': { response: { 200: MerchantProfileSchema } },
  'settings.setProfile': { body: UpdateProfileRequestSchema, response: { 200: MerchantProfileSchema } },
  'settings.channels': { response: { 200: Type.Array(ChannelSchema) } },
  'settings.createChannel': { body: CreateChannelRequestSchema, response: { 201: ChannelSchema } },
  'settings.updateChannel': { params: ChannelParams, body: UpdateChannelRequestSchema, response: { 200: ChannelSchema } },
  'settings.credentials': { response: { 200: Type.Array(ApiCredentialSchema) } },
  'settings.createCredential': { response: { 201: CreatedApiCredentialSchema } },
  'settings.revokeCredential': { params: CredentialParams, response: { 200: ApiCredentialSchema } },
  'settings.resetStaffSecret': { params: StaffParams, body: ResetStaffSecretRequestSchema, response: { 200: ResetStaffSecretSchema } },
  'settings.disableStaff': { params: StaffParams, response: { 200: StaffMemberSchema } },
  'settings.smtp': { response: { 200: SmtpSettingsSchema } },
  'settings.setSmtp': { body: UpdateSmtpRequestSchema, response: { 200: SmtpSettingsSchema } },
  'settings.testSmtp': { body: SmtpTestRequestSchema, response: { 200: SmtpTestResultSchema } },
  'settings.auditLog': { querystring: AuditLogQuerySchema, response: { 200: AuditLogPageSchema } },
} as const satisfies SchemasOf<'settings'>;
