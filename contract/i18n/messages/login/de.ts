/** German: the log-in and the PIN or password field (keys as ./en.ts). */
import type { en } from './en.js';

export const de = {
  'login.title': 'Anmeldung',
  'login.lead': 'Melden Sie sich an, um an der Kasse zu kassieren oder im Backoffice zu arbeiten.',
  'login.joined':
    'Dieser Computer ist jetzt {till} ({tillId}) von {shop}. Melden Sie sich mit Ihrer Mitarbeiter-Anmeldung des Geschäfts an.',
  'login.login': 'Benutzername',
  'login.with': 'Anmelden mit',
  'login.missing':
    '{method, select, pin {Geben Sie Ihren Benutzernamen und Ihre PIN ein.} other {Geben Sie Ihren Benutzernamen und Ihr Passwort ein.}}',
  'login.busy': 'Anmeldung läuft…',
  'login.submit': 'Anmelden',
  'login.secret.pin': 'PIN',
  'login.secret.password': 'Passwort',
  'login.secret.label': '{method, select, pin {PIN} other {Passwort}}',
  'login.secret.managerLabel': '{method, select, pin {PIN der Filialleitung} other {Passwort der Filialleitung}}',
} as const satisfies Record<keyof typeof en, string>;
