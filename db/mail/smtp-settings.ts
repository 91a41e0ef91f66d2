/** A merchant's own SMTP server (its password sealed). Statements built with Kysely (db/typed-sql.ts), rows typed by db/schema.ts. */
import type { SqlDatabase } from '../sql.js';
import type { Database } from '../schema.js';
import { typed, rowPlaces } from '../typed-sql.js';
import type { MailUnit } from '../../main/core/mail/ports.js';

export function createSmtpSettingsRepository(db: SqlDatabase): Pick<MailUnit, 'smtpSettings'> {
  const s = {
    smtpGet: typed<{ merchantId: string }>()(db, (k, p) =>
      k.selectFrom('smtp_settings').selectAll().where('merchant_id', '=', p('merchantId')),
    ),
    // Kysely quotes "user" (a reserved word in PostgreSQL: there, bare, it is the session's user).
    smtpSave: typed<Database['smtp_settings']>()(db, (k, p) =>
      k
        .insertInto('smtp_settings')
        .values(rowPlaces('smtp_settings', p))
        .onConflict((oc) =>
          oc.column('merchant_id').doUpdateSet((eb) => ({
            host: eb.ref('excluded.host'),
            port: eb.ref('excluded.port'),
            security: eb.ref('excluded.security'),
            user: eb.ref('excluded.user'),
            password_sealed: eb.ref('excluded.password_sealed'),
            mail_from: eb.ref('excluded.mail_from'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        ),
    ),
  };
  return {
    smtpSettings: {
      get: async (merchantId) => {
        const row = await s.smtpGet.get({ merchantId });
        return (
          row && {
            merchantId: row.merchant_id,
            host: row.host,
            port: row.port,
            security: row.security,
            user: row.user ?? null,
            passwordSealed: row.password_sealed ?? null,
            mailFrom: row.mail_from,
            updatedAt: row.updated_at,
          }
        );
      },
      // Mail that waited for the merchant's SMTP server may go now.
      save: async (r) =>
        void (
          db.touch?.('mail'),
          await s.smtpSave.run({
            merchant_id: r.merchantId,
            host: r.host,
            port: r.port,
            security: r.security,
            user: r.user,
            password_sealed: r.passwordSealed,
            mail_from: r.mailFrom,
            updated_at: r.updatedAt,
          })
        ),
    },
  };
}
