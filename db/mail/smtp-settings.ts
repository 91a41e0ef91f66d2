/** A merchant's own SMTP server (its password sealed). */
import type { SqlDatabase } from '../sql.js';
import { optStr, str, type Row } from '../rows.js';
import type { MailUnit, SmtpSettingsRecord } from '../../main/core/mail/ports.js';

export function createSmtpSettingsRepository(db: SqlDatabase): Pick<MailUnit, 'smtpSettings'> {
  const s = {
    smtpGet: db.prepare('SELECT * FROM smtp_settings WHERE merchant_id = ?'),
    smtpSave: db.prepare(
      // "user" quoted: a reserved word in PostgreSQL (there, bare, it is the session's user).
      `INSERT INTO smtp_settings (merchant_id, host, port, security, "user", password_sealed, mail_from, updated_at)
       VALUES (@merchantId, @host, @port, @security, @user, @passwordSealed, @mailFrom, @updatedAt)
       ON CONFLICT (merchant_id) DO UPDATE SET host = excluded.host, port = excluded.port, security = excluded.security, "user" = excluded."user",
         password_sealed = excluded.password_sealed, mail_from = excluded.mail_from, updated_at = excluded.updated_at`,
    ),
  };
  return {
    smtpSettings: {
      get: async (merchantId) => {
        const row = (await s.smtpGet.get(merchantId)) as Row | undefined;
        return (
          row && {
            merchantId: str(row.merchant_id),
            host: str(row.host),
            port: row.port as number,
            security: row.security as SmtpSettingsRecord['security'],
            user: optStr(row.user),
            passwordSealed: optStr(row.password_sealed),
            mailFrom: str(row.mail_from),
            updatedAt: str(row.updated_at),
          }
        );
      },
      // Mail that waited for the merchant's SMTP server may go now.
      save: async (record) => void (db.touch?.('mail'), await s.smtpSave.run(record)),
    },
  };
}
