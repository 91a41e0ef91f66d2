/** Die Texte der Mitarbeiter-Bildschirme auf Deutsch (Schlüssel wie contract/i18n/messages/en.ts). */
import type { MessageId } from './en.js';

export const de = {
  'login.title': 'Anmeldung',
  'login.lead': 'Melden Sie sich an, um an der Kasse zu kassieren oder im Backoffice zu arbeiten.',
  'login.joined': 'Dieser Computer ist jetzt {till} ({tillId}) von {shop}. Melden Sie sich mit Ihrer Mitarbeiter-Anmeldung des Geschäfts an.',
  'login.login': 'Benutzername',
  'login.with': 'Anmelden mit',
  'login.missing': '{method, select, pin {Geben Sie Ihren Benutzernamen und Ihre PIN ein.} other {Geben Sie Ihren Benutzernamen und Ihr Passwort ein.}}',
  'login.busy': 'Anmeldung läuft…',
  'login.submit': 'Anmelden',
  'secret.pin': 'PIN',
  'secret.password': 'Passwort',
  'secret.label': '{method, select, pin {PIN} other {Passwort}}',
  'secret.managerLabel': '{method, select, pin {PIN der Filialleitung} other {Passwort der Filialleitung}}',
} as const satisfies Record<MessageId, string>;
