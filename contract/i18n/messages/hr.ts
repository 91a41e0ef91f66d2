/** Tekstovi zaslona za djelatnike na hrvatskom (ključevi kao u contract/i18n/messages/en.ts). */
import type { MessageId } from './en.js';

export const hr = {
  'login.title': 'Prijava djelatnika',
  'login.lead': 'Prijavite se za naplatu na blagajni ili za rad u administraciji.',
  'login.joined': 'Ovo računalo sada je {till} ({tillId}) trgovine {shop}. Prijavite se svojim korisničkim imenom u trgovini.',
  'login.login': 'Korisničko ime',
  'login.with': 'Prijava pomoću',
  'login.missing': 'Unesite korisničko ime i {method, select, pin {PIN} other {lozinku}}.',
  'login.busy': 'Prijava u tijeku…',
  'login.submit': 'Prijava',
  'secret.pin': 'PIN',
  'secret.password': 'Lozinka',
  'secret.label': '{method, select, pin {PIN} other {Lozinka}}',
  'secret.managerLabel': '{method, select, pin {PIN voditelja} other {Lozinka voditelja}}',
} as const satisfies Record<MessageId, string>;
