/** The customer's e-mails in English: the invoice e-mail and its reminder (plain text). Keys start with `mail.` (contract/i18n/catalogues.ts); main/core/mail/templates.ts formats them. */
export const en = {
  'mail.initial.subject': 'Your invoice {number} from {channel}',
  'mail.initial.intro': 'thank you for your order. Here is your invoice {number} from {channel} for {amount}.',
  'mail.reminder.subject': 'Reminder: invoice {number} from {channel}',
  'mail.reminder.intro': 'this is a friendly reminder that invoice {number} from {channel} for {amount} is still open.',
  'mail.reminder.paidAlready': 'If you have already paid, please ignore this message.',
  'mail.greeting': 'Hello,',
  'mail.greetingNamed': 'Hello {name},',
  'mail.payBy': 'Please pay by {date}.',
  'mail.payOnline': 'You can pay online here:',
  'mail.closing': 'Kind regards,\n{channel}',
} as const;
