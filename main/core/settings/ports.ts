/**
 * The back office's Settings: a screen over other features' records (the merchant's profile, channels,
 * API credentials, SMTP server, audit log); it owns no table of its own.
 */
import type { KernelUnit } from '../unit-of-work.js';
import type { SmtpSettingsRepository } from '../mail/ports.js';
import type { ChannelRepository, CredentialRepository, MerchantRepository } from '../merchants/ports.js';
import type { StaffRepository } from '../staff/ports.js';

/** The settings feature's view of a unit of work: each record it shows or changes through its owner's port. */
export interface SettingsUnit extends KernelUnit {
  merchants: Pick<MerchantRepository, 'get' | 'updateProfile'>;
  channels: Pick<ChannelRepository, 'findByUrlName' | 'insert' | 'update' | 'listByMerchant'>;
  credentials: Pick<CredentialRepository, 'get' | 'insert' | 'revoke' | 'listByMerchant'>;
  smtpSettings: Pick<SmtpSettingsRepository, 'get' | 'save'>;
  staff: Pick<StaffRepository, 'auditPage' | 'auditActions' | 'listByMerchant'>;
}
