/** Os textos dos ecrãs do pessoal em português de Portugal (chaves como contract/i18n/messages/en.ts). */
import type { MessageId } from './en.js';

export const pt = {
  'login.title': 'Iniciar sessão',
  'login.lead': 'Inicie sessão para receber pagamentos na caixa ou trabalhar no backoffice.',
  'login.joined': 'Este computador é agora {till} ({tillId}) de {shop}. Inicie sessão com o seu utilizador da loja.',
  'login.login': 'Utilizador',
  'login.with': 'Iniciar sessão com',
  'login.missing': 'Introduza o seu utilizador e {method, select, pin {o seu PIN} other {a sua palavra-passe}}.',
  'login.busy': 'A iniciar sessão…',
  'login.submit': 'Iniciar sessão',
  'secret.pin': 'PIN',
  'secret.password': 'Palavra-passe',
  'secret.label': '{method, select, pin {PIN} other {Palavra-passe}}',
  'secret.managerLabel': '{method, select, pin {PIN do gerente} other {Palavra-passe do gerente}}',
} as const satisfies Record<MessageId, string>;
