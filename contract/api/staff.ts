/**
 * The back-office UI's own shapes (`/ui/...`): staff login by password or PIN and the session it
 * opens, the staff member's own PIN, a manager's approval of one action at the till, staff accounts
 * and the audit log. Sessions are a cookie, never the merchant's API password.
 */
import { Type, type Static } from '@sinclair/typebox';
import { APPROVAL_ACTIONS, STAFF_ROLES } from '../constants.js';
import { STAFF_LANGUAGES } from '../i18n/languages.js';
import { Nullable, StringEnum, StringIn } from './common.js';
import type { SchemasOf } from './operation-schemas.js';

const credentialFields = {
  login: Type.String({ minLength: 1, maxLength: 40 }),
  password: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  pin: Type.Optional(Type.String({ minLength: 4, maxLength: 8 })),
};

/** `POST /ui/session`: a login with its password or its PIN. */
export const LoginRequestSchema = Type.Object(credentialFields, { additionalProperties: false });
export type LoginRequest = Static<typeof LoginRequestSchema>;
/** What a person types to log in or to approve: a login with a PIN, or with a password. */
export type Credentials = { login: string; pin: string } | { login: string; password: string };

export const SessionSchema = Type.Object(
  {
    staff: Type.Object({
      staff_id: Type.String(),
      login: Type.String(),
      display_name: Type.String(),
      role: StringEnum(STAFF_ROLES),
      language: Nullable(StringEnum(STAFF_LANGUAGES), {
        description: "the staff member's own language for the staff screens (D21); null: the shop's",
      }),
    }),
    merchant: Type.Object({
      merchant_id: Type.String(),
      name: Type.String(),
      currency: Type.String(),
      time_zone: Type.String({
        description:
          "the shop's time zone (IANA), in which staff screens show times (setting timeZone; the first start sets this computer's)",
      }),
      language: Type.String({
        description: "the shop's language (Settings): staff screens speak it unless the staff member chose their own (D21)",
      }),
    }),
    expires_at: Type.String({ format: 'date-time' }),
    idle_timeout_seconds: Type.Integer(),
  },
  { title: 'Staff session' },
);
/** The logged-in staff member, their shop, and when the session ends. */
export type Session = Static<typeof SessionSchema>;

export const OwnPinRequestSchema = Type.Object(
  { password: Type.String({ minLength: 1, maxLength: 200 }), pin: Type.String({ pattern: '^[0-9]{4,8}$', description: '4 to 8 digits' }) },
  { additionalProperties: false },
);
export type OwnPinRequest = Static<typeof OwnPinRequestSchema>;
export const OwnPinResultSchema = Type.Object({ has_pin: Type.Literal(true) });

export const OwnLanguageRequestSchema = Type.Object(
  { language: Nullable(StringIn(STAFF_LANGUAGES), { description: "en, de, pt or hr; null: follow the shop's language" }) },
  { additionalProperties: false },
);
export type OwnLanguageRequest = Static<typeof OwnLanguageRequestSchema>;
export const OwnLanguageSchema = Type.Object(
  { language: Nullable(StringEnum(STAFF_LANGUAGES), { description: "en, de, pt or hr; null: follow the shop's language" }) },
  { additionalProperties: false, title: 'Own language' },
);
/** `PUT /ui/session/language`: the staff member's own language for the staff screens (D21). */
export type OwnLanguage = Static<typeof OwnLanguageSchema>;

export const ApprovalRequestSchema = Type.Object(
  { action: StringIn(APPROVAL_ACTIONS, { description: 'refund, or day_close (a Z report)' }), ...credentialFields },
  { additionalProperties: false },
);
export type ApprovalRequest = Static<typeof ApprovalRequestSchema>;

export const ApprovalSchema = Type.Object({
  approval_token: Type.String({ description: 'send it as X-Manager-Approval with the approved request' }),
  approver: Type.String({ description: "the manager's name" }),
  expires_at: Type.String({ format: 'date-time' }),
});
/** A manager's single-use approval of one action (2 minutes). */
export type Approval = Static<typeof ApprovalSchema>;

export const StaffMemberSchema = Type.Object({
  staff_id: Type.String(),
  login: Type.String(),
  display_name: Type.String(),
  role: StringEnum(STAFF_ROLES),
  has_pin: Type.Boolean(),
  created_at: Type.String(),
  disabled: Type.Boolean(),
});
export type StaffMember = Static<typeof StaffMemberSchema>;

export const CreateStaffRequestSchema = Type.Object(
  {
    role: StringIn(STAFF_ROLES),
    login: Type.Optional(Type.String({ maxLength: 40 })),
    display_name: Type.Optional(Type.String({ maxLength: 80 })),
    pin: Type.Optional(Type.String({ maxLength: 8 })),
    password: Type.Optional(Type.String({ maxLength: 200, description: 'at least 8 characters; omitted: generated and answered once' })),
  },
  { additionalProperties: false },
);
export type CreateStaffRequest = Static<typeof CreateStaffRequestSchema>;

export const CreatedStaffSchema = Type.Object({
  staff_id: Type.String(),
  login: Type.String(),
  password: Type.String({ description: 'shown once: the generated password, or the one the request gave' }),
  role: StringEnum(STAFF_ROLES),
  merchant_id: Type.String(),
});
export type CreatedStaff = Static<typeof CreatedStaffSchema>;

export const AuditEntrySchema = Type.Object({
  created_at: Type.String(),
  action: Type.String(),
  staff_id: Nullable(Type.String()),
  staff_name: Nullable(Type.String({ description: 'display name of the staff member who did it' })),
  approved_by: Nullable(Type.String()),
  approved_by_name: Nullable(Type.String({ description: 'display name of the manager who approved it' })),
  subject_id: Nullable(Type.String()),
  detail: Nullable(Type.String()),
  partner_id: Nullable(Type.String({ description: 'the partner whose credentials made the change (merchant management)' })),
  old_value: Type.Unknown({ description: 'a changed setting before the change (null: none)' }),
  new_value: Type.Unknown({ description: 'a changed setting after the change (null: removed)' }),
});
export type AuditEntry = Static<typeof AuditEntrySchema>;

/** `GET /ui/whoami`: the session, or null when nobody is logged in (not an error). */
export const CurrentSessionSchema = Type.Object({ session: Nullable(SessionSchema) });

/** The staff operations (contract/operation-table.ts). */
export const staffOperations = {
  'staff.login': { body: LoginRequestSchema, response: { 200: SessionSchema } },
  'staff.whoami': { response: { 200: CurrentSessionSchema } },
  'staff.session': { response: { 200: SessionSchema } },
  'staff.logout': {},
  'staff.setOwnPin': { body: OwnPinRequestSchema, response: { 200: OwnPinResultSchema } },
  'staff.setOwnLanguage': { body: OwnLanguageRequestSchema, response: { 200: OwnLanguageSchema } },
  'staff.approve': { body: ApprovalRequestSchema, response: { 200: ApprovalSchema } },
  'staff.list': { response: { 200: Type.Array(StaffMemberSchema) } },
  'staff.create': { body: CreateStaffRequestSchema, response: { 201: CreatedStaffSchema } },
  'staff.audit': { response: { 200: Type.Array(AuditEntrySchema) } },
} as const satisfies SchemasOf<'staff'>;
