/**
 * The calls of Settings beside shops (admin; main/http/routes/settings/back-office.ts and staff/routes.ts's
 * /ui/staff): the merchant's profile, channels, API credentials, staff accounts, the SMTP server and
 * its test e-mail, and the audit log's pages. Typed by the contract (contract/api/settings.ts,
 * contract/api/staff.ts); same transports and error shape as the other clients (api/call.ts, api/transport.ts).
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
import type { CreatedStaff, CreateStaffRequest, StaffMember } from '../../../contract/api/staff.js';
import type { StaffSecret } from '../../../contract/constants.js';
import { caller, filled } from '../api/call.js';
import { defaultTransport, type Transport } from '../api/transport.js';

export type {
  ApiCredential,
  AuditLogEntry,
  AuditLogPage,
  Channel,
  CreatedApiCredential,
  CreatedStaff,
  MerchantProfile,
  ResetStaffSecret,
  SmtpSettings,
  SmtpTestResult,
  StaffMember,
};

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
    profile: () => call('settings.profile'),
    saveProfile: (profile) => call('settings.setProfile', { body: profile }),
    channels: () => call('settings.channels'),
    createChannel: (channel) => call('settings.createChannel', { body: channel }),
    updateChannel: (urlName, channel) => call('settings.updateChannel', { params: { url_name: urlName }, body: channel }),
    credentials: () => call('settings.credentials'),
    createCredential: () => call('settings.createCredential'),
    revokeCredential: (id) => call('settings.revokeCredential', { params: { credential_id: id } }),
    staff: () => call('staff.list'),
    createStaff: (request) => call('staff.create', { body: request }),
    resetStaff: (id, secret, value) =>
      call('settings.resetStaffSecret', { params: { staff_id: id }, body: value === undefined ? { secret } : { secret, value } }),
    disableStaff: (id) => call('settings.disableStaff', { params: { staff_id: id } }),
    smtp: () => call('settings.smtp'),
    saveSmtp: (settings) => call('settings.setSmtp', { body: settings }),
    testSmtp: (to) => call('settings.testSmtp', { body: { to } }),
    audit: (query) => call('settings.auditLog', { query: filled(query) }),
  };
}

export const adminClient: AdminClient = createAdminClient();
