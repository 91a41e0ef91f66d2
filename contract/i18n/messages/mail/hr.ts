/** Croatian: the invoice e-mail and its reminder (keys as ./en.ts). No channel sends Croatian e-mails yet (INVOICE_LOCALES); the catalogue is complete for when one does. */
import type { en } from './en.js';

export const hr = {
  'mail.initial.subject': 'Vaš račun {number} od {channel}',
  'mail.initial.intro': 'hvala vam na narudžbi. Ovo je vaš račun {number} od {channel} na iznos od {amount}.',
  'mail.reminder.subject': 'Podsjetnik: račun {number} od {channel}',
  'mail.reminder.intro': 'ljubazno vas podsjećamo da račun {number} od {channel} na iznos od {amount} još nije plaćen.',
  'mail.reminder.paidAlready': 'Ako ste račun već platili, zanemarite ovu poruku.',
  'mail.greeting': 'Dobar dan,',
  'mail.greetingNamed': 'Dobar dan, {name},',
  'mail.payBy': 'Molimo da račun platite do {date}.',
  'mail.payOnline': 'Račun možete platiti putem ove poveznice:',
  'mail.closing': 'Srdačan pozdrav,\n{channel}',
} as const satisfies Record<keyof typeof en, string>;
