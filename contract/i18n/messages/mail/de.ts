/** German: the invoice e-mail and its reminder (keys as ./en.ts). */
import type { en } from './en.js';

export const de = {
  'mail.initial.subject': 'Ihre Rechnung {number} von {channel}',
  'mail.initial.intro': 'vielen Dank für Ihre Bestellung. Anbei erhalten Sie Ihre Rechnung {number} von {channel} über {amount}.',
  'mail.reminder.subject': 'Zahlungserinnerung: Rechnung {number} von {channel}',
  'mail.reminder.intro':
    'wir möchten Sie freundlich daran erinnern, dass die Rechnung {number} von {channel} über {amount} noch offen ist.',
  'mail.reminder.paidAlready': 'Falls Sie bereits bezahlt haben, betrachten Sie diese Nachricht bitte als gegenstandslos.',
  'mail.greeting': 'Guten Tag,',
  'mail.greetingNamed': 'Guten Tag {name},',
  'mail.payBy': 'Bitte bezahlen Sie bis zum {date}.',
  'mail.payOnline': 'Sie können hier online bezahlen:',
  'mail.closing': 'Mit freundlichen Grüßen\n{channel}',
} as const satisfies Record<keyof typeof en, string>;
