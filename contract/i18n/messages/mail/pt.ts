/** Portuguese (Portugal): the invoice e-mail and its reminder (keys as ./en.ts). */
import type { en } from './en.js';

export const pt = {
  'mail.initial.subject': 'A sua fatura {number} de {channel}',
  'mail.initial.intro': 'obrigado pela sua encomenda. Segue a sua fatura {number} de {channel} no valor de {amount}.',
  'mail.reminder.subject': 'Lembrete: fatura {number} de {channel}',
  'mail.reminder.intro': 'lembramos que a fatura {number} de {channel} no valor de {amount} ainda está por pagar.',
  'mail.reminder.paidAlready': 'Se já efetuou o pagamento, ignore esta mensagem.',
  'mail.greeting': 'Olá,',
  'mail.greetingNamed': 'Olá {name},',
  'mail.payBy': 'Por favor, pague até {date}.',
  'mail.payOnline': 'Pode pagar online aqui:',
  'mail.closing': 'Com os melhores cumprimentos,\n{channel}',
} as const satisfies Record<keyof typeof en, string>;
