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
import { caller, filled } from '../api/call.js';
import { defaultTransport, type Transport } from '../api/client.js';

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
  const call = caller(transport);
  return {
    profile: () => call('admin-settings.profile'),
    saveProfile: (profile) => call('admin-settings.setProfile', { body: profile }),
    channels: () => call('admin-settings.channels'),
    createChannel: (channel) => call('admin-settings.createChannel', { body: channel }),
    updateChannel: (urlName, channel) => call('admin-settings.updateChannel', { params: { url_name: urlName }, body: channel }),
    credentials: () => call('admin-settings.credentials'),
    createCredential: () => call('admin-settings.createCredential'),
    revokeCredential: (id) => call('admin-settings.revokeCredential', { params: { credential_id: id } }),
    staff: () => call('staff.list'),
    createStaff: (request) => call('staff.create', { body: request }),
    resetStaff: (id, secret, value) => call('admin-settings.resetStaffSecret', { params: { staff_id: id }, body: value === undefined ? { secret } : { secret, value } }),
    disableStaff: (id) => call('admin-settings.disableStaff', { params: { staff_id: id } }),
    smtp: () => call('admin-settings.smtp'),
    saveSmtp: (settings) => call('admin-settings.setSmtp', { body: settings }),
    testSmtp: (to) => call('admin-settings.testSmtp', { body: { to } }),
    audit: (query) => call('admin-settings.auditLog', { query: filled(query) }),
  };
}

export const adminClient: AdminClient = createAdminClient();
