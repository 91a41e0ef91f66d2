/** Croatian: the log-in and the PIN or password field (keys as ./en.ts). */
import type { en } from './en.js';

export const hr = {
  'login.title': 'Prijava djelatnika',
  'login.lead': 'Prijavite se za naplatu na blagajni ili za rad u administraciji.',
  'login.joined': 'Ovo računalo sada je {till} ({tillId}) trgovine {shop}. Prijavite se svojim korisničkim imenom u trgovini.',
  'login.login': 'Korisničko ime',
  'login.with': 'Prijava pomoću',
  'login.missing': 'Unesite korisničko ime i {method, select, pin {PIN} other {lozinku}}.',
  'login.busy': 'Prijava u tijeku…',
  'login.submit': 'Prijava',
  'login.secret.pin': 'PIN',
  'login.secret.password': 'Lozinka',
  'login.secret.label': '{method, select, pin {PIN} other {Lozinka}}',
  'login.secret.managerLabel': '{method, select, pin {PIN voditelja} other {Lozinka voditelja}}',
} as const satisfies Record<keyof typeof en, string>;
