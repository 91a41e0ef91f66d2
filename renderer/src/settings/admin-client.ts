/**
 * The calls of Settings beside shops (admin; main/http/routes/settings-back-office.ts and ui.ts's
 * /ui/staff): the merchant's profile, channels, API credentials, staff accounts, the SMTP server and
 * its test e-mail, and the audit log's pages. Typed by the contract (contract/api/admin-settings.ts,
 * contract/api/staff.ts); same transports and error shape as api/client.ts.
 */
import type {
  ApiCredential,
  AuditLogEntry,
  AuditLogPage,
  AuditLogQuery,
  Channel,
  CreateChannelRequest,
  CreatedApiCredential,
  MerchantProfile,
  ResetStaffSecret,
  SmtpSettings,
  SmtpTestResult,
  UpdateChannelRequest,
  UpdateProfileRequest,
  UpdateSmtpRequest,
} from '../../../contract/api/admin-settings.js';
import type { CreatedStaff, CreateStaffRequest, StaffMember } from '../../../contract/api/staff.js';
import type { StaffSecret } from '../../../contract/constants.js';
import { defaultTransport, expectArray, expectObject, type Transport } from '../api/client.js';

export type { ApiCredential, AuditLogEntry, AuditLogPage, Channel, CreatedApiCredential, CreatedStaff, MerchantProfile, ResetStaffSecret, SmtpSettings, SmtpTestResult, StaffMember };

export interface AdminClient {
  profile(): Promise<MerchantProfile>;
  saveProfile(profile: UpdateProfileRequest): Promise<MerchantProfile>;
  channels(): Promise<Channel[]>;
  createChannel(channel: CreateChannelRequest): Promise<Channel>;
  updateChannel(urlName: string, channel: UpdateChannelRequest): Promise<Channel>;
  credentials(): Promise<ApiCredential[]>;
  createCredential(): Promise<CreatedApiCredential>;
  revokeCredential(id: string): Promise<ApiCredential>;
  staff(): Promise<StaffMember[]>;
  createStaff(request: CreateStaffRequest): Promise<CreatedStaff>;
  resetStaff(id: string, secret: StaffSecret, value?: string): Promise<ResetStaffSecret>;
  disableStaff(id: string): Promise<StaffMember>;
  smtp(): Promise<SmtpSettings>;
  saveSmtp(settings: UpdateSmtpRequest): Promise<SmtpSettings>;
  testSmtp(to: string): Promise<SmtpTestResult>;
  audit(query: AuditLogQuery): Promise<AuditLogPage>;
}

export function createAdminClient(transport: Transport = defaultTransport()): AdminClient {
  return {
    async profile() {
      return expectObject<MerchantProfile>(await transport.send({ method: 'GET', path: '/ui/profile' }), ['merchant_id']);
    },
    async saveProfile(profile) {
      return expectObject<MerchantProfile>(await transport.send({ method: 'PUT', path: '/ui/profile', body: profile }), ['merchant_id']);
    },
    async channels() {
      return expectArray<Channel>(await transport.send({ method: 'GET', path: '/ui/channels' }));
    },
    async createChannel(channel) {
      return expectObject<Channel>(await transport.send({ method: 'POST', path: '/ui/channels', body: channel }), ['url_name']);
    },
    async updateChannel(urlName, channel) {
      return expectObject<Channel>(await transport.send({ method: 'PUT', path: `/ui/channels/${encodeURIComponent(urlName)}`, body: channel }), ['url_name']);
    },
    async credentials() {
      return expectArray<ApiCredential>(await transport.send({ method: 'GET', path: '/ui/credentials' }));
    },
    async createCredential() {
      return expectObject<CreatedApiCredential>(await transport.send({ method: 'POST', path: '/ui/credentials' }), ['api_key', 'api_password']);
    },
    async revokeCredential(id) {
      return expectObject<ApiCredential>(await transport.send({ method: 'POST', path: `/ui/credentials/${encodeURIComponent(id)}/revoke` }), ['credential_id']);
    },
    async staff() {
      return expectArray<StaffMember>(await transport.send({ method: 'GET', path: '/ui/staff' }));
    },
    async createStaff(request) {
      return expectObject<CreatedStaff>(await transport.send({ method: 'POST', path: '/ui/staff', body: request }), ['staff_id', 'password']);
    },
    async resetStaff(id, secret, value) {
      const body = value === undefined ? { secret } : { secret, value };
      return expectObject<ResetStaffSecret>(await transport.send({ method: 'POST', path: `/ui/staff/${encodeURIComponent(id)}/reset`, body }), ['secret']);
    },
    async disableStaff(id) {
      return expectObject<StaffMember>(await transport.send({ method: 'POST', path: `/ui/staff/${encodeURIComponent(id)}/disable` }), ['staff_id']);
    },
    async smtp() {
      return expectObject<SmtpSettings>(await transport.send({ method: 'GET', path: '/ui/smtp' }), ['configured']);
    },
    async saveSmtp(settings) {
      return expectObject<SmtpSettings>(await transport.send({ method: 'PUT', path: '/ui/smtp', body: settings }), ['configured']);
    },
    async testSmtp(to) {
      return expectObject<SmtpTestResult>(await transport.send({ method: 'POST', path: '/ui/smtp/test', body: { to } }), ['accepted', 'response']);
    },
    async audit(query) {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
      return expectObject<AuditLogPage>(await transport.send({ method: 'GET', path: `/ui/audit-log?${params.toString()}` }), ['data_set', 'metadata']);
    },
  };
}

export const adminClient: AdminClient = createAdminClient();
