/**
 * The staff screens' messages in English: the catalogue every other language translates, key for
 * key (ICU MessageFormat: `{name}` arguments, `{n, plural, ...}`, `{x, select, ...}`). A key names
 * where the text is (screen.part); docs/glossary.md holds the terms every language keeps the same.
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
  'secret.pin': 'PIN',
  'secret.password': 'Password',
  'secret.label': '{method, select, pin {PIN} other {Password}}',
  'secret.managerLabel': '{method, select, pin {Manager PIN} other {Manager password}}',
} as const;

export type MessageId = keyof typeof en;
