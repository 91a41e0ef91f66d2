/** Portuguese (Portugal): the log-in and the PIN or password field (keys as ./en.ts). */
import type { en } from './en.js';

export const pt = {
  'login.title': 'Iniciar sessão',
  'login.lead': 'Inicie sessão para receber pagamentos na caixa ou trabalhar no backoffice.',
  'login.joined': 'Este computador é agora {till} ({tillId}) de {shop}. Inicie sessão com o seu utilizador da loja.',
  'login.login': 'Utilizador',
  'login.with': 'Iniciar sessão com',
  'login.missing': 'Introduza o seu utilizador e {method, select, pin {o seu PIN} other {a sua palavra-passe}}.',
  'login.busy': 'A iniciar sessão…',
  'login.submit': 'Iniciar sessão',
  'login.secret.pin': 'PIN',
  'login.secret.password': 'Palavra-passe',
  'login.secret.label': '{method, select, pin {PIN} other {Palavra-passe}}',
  'login.secret.managerLabel': '{method, select, pin {PIN do gerente} other {Palavra-passe do gerente}}',
} as const satisfies Record<keyof typeof en, string>;
