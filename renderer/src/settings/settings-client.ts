/**
 * The settings calls of the back office (admin; main/http/routes/settings/back-office.ts): the
 * merchant's profile, channels, API credentials, a staff account's new secret and its disabling, the
 * SMTP server and its test e-mail, and the audit log's pages. The staff list and a new staff member
 * are the staff client's (staff/staff-client.ts). Typed by the contract (contract/api/settings.ts);
 * same transports and error shape as the other clients (api/call.ts, api/transport.ts).
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
} from '../../../contract/api/settings.js';
import type { StaffMember } from '../../../contract/api/staff.js';
import type { StaffSecret } from '../../../contract/constants.js';
import { caller, filled } from '../api/call.js';
import { defaultTransport, type Transport } from '../api/transport.js';

export type {
  ApiCredential,
  AuditLogEntry,
  AuditLogPage,
  Channel,
  CreatedApiCredential,
  MerchantProfile,
  ResetStaffSecret,
  SmtpSettings,
  SmtpTestResult,
};

export interface SettingsClient {
  profile(): Promise<MerchantProfile>;
  saveProfile(profile: UpdateProfileRequest): Promise<MerchantProfile>;
  channels(): Promise<Channel[]>;
  createChannel(channel: CreateChannelRequest): Promise<Channel>;
  updateChannel(urlName: string, channel: UpdateChannelRequest): Promise<Channel>;
  credentials(): Promise<ApiCredential[]>;
  createCredential(): Promise<CreatedApiCredential>;
  revokeCredential(id: string): Promise<ApiCredential>;
  resetStaff(id: string, secret: StaffSecret, value?: string): Promise<ResetStaffSecret>;
  disableStaff(id: string): Promise<StaffMember>;
  smtp(): Promise<SmtpSettings>;
  saveSmtp(settings: UpdateSmtpRequest): Promise<SmtpSettings>;
  testSmtp(to: string): Promise<SmtpTestResult>;
  audit(query: AuditLogQuery): Promise<AuditLogPage>;
}

export function createSettingsClient(transport: Transport = defaultTransport()): SettingsClient {
  const call = caller(transport);
  return {
    profile: () => call('settings.profile'),
    saveProfile: (profile) => call('settings.setProfile', { body: profile }),
    channels: () => call('settings.channels'),
    createChannel: (channel) => call('settings.createChannel', { body: channel }),
    updateChannel: (urlName, channel) => call('settings.updateChannel', { params: { url_name: urlName }, body: channel }),
    credentials: () => call('settings.credentials'),
    createCredential: () => call('settings.createCredential'),
    revokeCredential: (id) => call('settings.revokeCredential', { params: { credential_id: id } }),
    resetStaff: (id, secret, value) =>
      call('settings.resetStaffSecret', { params: { staff_id: id }, body: value === undefined ? { secret } : { secret, value } }),
    disableStaff: (id) => call('settings.disableStaff', { params: { staff_id: id } }),
    smtp: () => call('settings.smtp'),
    saveSmtp: (settings) => call('settings.setSmtp', { body: settings }),
    testSmtp: (to) => call('settings.testSmtp', { body: { to } }),
    audit: (query) => call('settings.auditLog', { query: filled(query) }),
  };
}

export const settingsClient: SettingsClient = createSettingsClient();
