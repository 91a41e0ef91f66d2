/**
 * The staff screens' words in English: the log-in and the PIN or password field. Every area's en.ts
 * is the catalogue the other languages translate key for key (ICU MessageFormat: `{name}`
 * arguments, `{n, plural, ...}`, `{x, select, ...}`); keys start with the area's name, and
 * docs/glossary.md holds the terms every language keeps the same.
 */
export const en = {
  'login.title': 'Staff login',
  'login.lead': 'Log in to take payments at the till or to work in the back office.',
  'login.joined': 'This computer is now {till} ({tillId}) of {shop}. Log in with your staff login of the shop.',
  'login.login': 'Login',
  'login.with': 'Log in with',
  'login.missing': 'Enter your login and your {method, select, pin {PIN} other {password}}.',
  'login.busy': 'Logging in…',
  'login.submit': 'Log in',
  'login.secret.pin': 'PIN',
  'login.secret.password': 'Password',
  'login.secret.label': '{method, select, pin {PIN} other {Password}}',
  'login.secret.managerLabel': '{method, select, pin {Manager PIN} other {Manager password}}',
} as const;
