/** The staff screens' words in English: the till: keypad, card prompt, PIN, results, banners, store-and-forward, shortcuts help. Keys start with `till.` (contract/i18n/catalogues.ts). */
export const en = {
  // The Cashier bar and its tabs.
  'till.cashier.title': 'Cashier',
  'till.cashier.till': 'Till',
  'till.cashier.sales': 'Today’s sales',
  'till.cashier.close': 'Close the day',
  'till.cashier.shortcuts': 'Shortcuts',

  // Key legends (<kbd>): the words printed on a keyboard's keys.
  'till.key.enter': 'Enter',
  'till.key.esc': 'Esc',
  'till.key.backspace': 'Backspace',
  'till.key.delete': 'Delete',

  // The amount screen and its keypad.
  'till.sale.title': 'New sale',
  'till.sale.currency': "The shop's currency",
  'till.sale.reference': 'Order reference',
  'till.sale.optional': 'optional',
  'till.sale.referenceExample': 'e.g. table 12 or invoice no.',
  'till.sale.charge': 'Charge',
  'till.sale.chargeAmount': 'Charge {amount}',
  'till.sale.checkThenCharge': 'Check the last payment, then charge {amount}',
  'till.sale.hint': 'Type the amount, then <kbd>Enter</kbd>. <kbd>Backspace</kbd> removes a digit, <kbd>Esc</kbd> clears.',
  'till.keypad.label': 'Amount keys',
  'till.keypad.back': 'Delete last digit',
  'till.keypad.clear': 'Clear amount',

  // Above the till's usual limit.
  'till.confirm.title': 'Charge {amount}?',
  'till.confirm.text': 'That is above this till’s usual limit of {limit}. Check the amount with the customer before the card.',
  'till.confirm.back': 'Go back',

  // The card prompt.
  'till.card.title': 'Tap, insert or swipe the card',
  'till.card.waiting': 'Waiting for the card…',
  'till.card.insertTitle': 'Insert the card and enter the PIN',
  'till.card.insertText': 'The bank asks for the PIN: the card goes into the chip reader.',
  'till.card.line': '{card} · {entry}',

  // What the reader says.
  'till.reader.removedTooEarly': 'The card was removed too early. Present it again and keep it there until the till says so.',
  'till.reader.multipleCards': 'More than one card was presented. Present one card only.',
  'till.reader.unreadable': 'The card could not be read. Swipe again, or insert or tap it.',
  'till.reader.invalidCard': 'This card number is not valid. Try another card.',
  'till.reader.chipNeeded': 'This card needs its chip: insert it into the reader, then enter the PIN.',

  // How a card was read (entry mode).
  'till.entry.contactless': 'Contactless',
  'till.entry.chip': 'Chip',
  'till.entry.swipe': 'Swipe',
  'till.entry.manual': 'Keyed',

  // Processing.
  'till.processing.title': 'Processing…',
  'till.processing.bank': 'Waiting for the bank…',
  'till.processing.keepCard': 'Do not remove the card.',
  'till.processing.slow':
    'This is taking longer than usual: the bank has not answered yet. Keep the card at hand. The payment is sent only once.',

  // The PIN pad.
  'till.pin.title': 'Enter the PIN',
  'till.pin.insertedTitle': 'Card inserted: enter the PIN',
  'till.pin.shield': 'Shield your PIN with your other hand.',
  'till.pin.triesLeft': '{tries, plural, one {# try} other {# tries}} left',
  'till.pin.entered': '{count, plural, =0 {No digits entered} one {# digit entered} other {# digits entered}}',
  'till.pin.keys': 'PIN keys',
  'till.pin.clear': 'Clear',
  'till.pin.ok': 'OK',
  'till.pin.tooShort': 'The PIN has at least {min, plural, one {# digit} other {# digits}}.',
  'till.pin.notReady': 'The PIN pad is getting ready. Press OK again in a moment.',
  'till.pin.encryptFailed': 'The PIN could not be encrypted. Cancel and try again.',

  // Declined, in words a cashier can say to a customer.
  'till.decline.05': 'The card was declined by the bank. Try another card or another way to pay.',
  'till.decline.51.title': 'Declined: not enough funds',
  'till.decline.51': 'There is not enough money on the card. Try another card or another way to pay.',
  'till.decline.54.title': 'Declined: card expired',
  'till.decline.54': 'The card has expired. Ask for another card or another way to pay.',
  'till.decline.55.noPin.title': 'Declined: PIN problem',
  'till.decline.55.noPin': 'The bank answered "incorrect PIN" although no PIN was entered. Try another card or another way to pay.',
  'till.decline.55.title': 'Wrong PIN',
  'till.decline.55': 'The PIN was not correct. The customer can enter it again: {tries, plural, one {# try} other {# tries}} left.',
  'till.decline.55.noTries': 'The PIN was not correct and no tries are left. Ask for another card or another way to pay.',
  'till.decline.75.title': 'Too many PIN tries',
  'till.decline.75':
    'The PIN was entered wrongly too many times, so the bank refuses this card for now. Ask for another card or another way to pay.',
  'till.decline.14.title': 'Declined: card number not valid',
  'till.decline.14': 'The bank does not know this card number. Try another card.',
  'till.decline.13.title': 'Declined: amount refused',
  'till.decline.13': 'The bank refused this amount. Check the amount, or try another card.',
  'till.decline.error.title': 'Not completed',
  'till.decline.error': 'The card network reported a problem. Nothing was charged. Try again with the same card, or another card.',
  'till.decline.error.reason':
    'The card network reported a problem ({reason}). Nothing was charged. Try again with the same card, or another card.',
  'till.decline.other': 'The card was declined (code {code}). Try another card or another way to pay.',
  'till.decline.other.reason': 'The card was declined: {reason} (code {code}). Try another card or another way to pay.',
  'till.decline.retryPin': 'Enter the PIN again',
  'till.decline.insertCard': 'Insert the card',
  'till.decline.anotherCard': 'Try another card',
  'till.decline.otherPayment': 'Other payment',
  'till.decline.code': 'Bank response {code}',
  'till.decline.codeError': 'Bank response error',

  // The approved sale.
  'till.approved.card': '{card} · {entry}{pin, select, yes { · PIN verified} other {}}',
  'till.approved.stored':
    "Stored at this till while the shop's gateway is away: it is sent there as soon as it answers. Keep the customer's receipt as usual.",
  'till.approved.recovered': 'This payment went through although its answer did not reach the till. It is not charged again.',
  'till.approved.printAndNew': 'Print receipt · New sale',
  'till.approved.noReceiptAndNew': 'No receipt · New sale',
  'till.approved.newSale': 'New sale',
  'till.approved.noReceipt': 'No receipt',
  'till.approved.autoPrint': 'Receipt printing on {printer}',
  'till.approved.receiptFor': 'Receipt for the customer',

  // Checking how a payment ended (never charged twice).
  'till.checking.title': 'Checking the payment',
  'till.checking.lastTitle': 'Checking the last payment',
  'till.checking.again': 'Check again',
  'till.checking.stop': 'Stop checking',
  'till.checking.resolving': 'Checking how the last payment at this till ended…',
  'till.checking.resending': 'Checking whether the payment went through…',
  'till.checking.unreachable':
    'The gateway cannot be reached, so the till cannot tell yet whether the last payment went through. Nothing more is charged until it can. The till asks again by itself as soon as the gateway answers; check the connection meanwhile.',
  'till.checking.inProgress':
    'The payment of {amount} is still being processed by the bank. Waiting for its outcome; nothing is charged twice.',
  'till.checking.noAnswer': 'The gateway did not answer. Checking whether the payment went through; the card is not charged twice.',
  'till.checking.stillNoAnswer':
    'Still no answer from the gateway. The till asks again by itself as soon as it answers; check the connection meanwhile. The card is not charged twice.',

  // The payment could not be sent.
  'till.failed.cancelSale': 'Cancel sale',
  'till.failed.unexpected.title': 'Unexpected answer',
  'till.failed.unexpected': 'The gateway answered with status "{status}". Check today\'s sales before charging again.',
  'till.failed.network.title': 'Card network not reachable',
  'till.failed.network': 'The card network cannot be reached right now. Nothing was charged. Try again in a moment.',
  'till.failed.centreAway.title': 'Cannot take this card payment now',
  'till.failed.centreAway': '{reason} Nothing was charged.',
  'till.failed.notSent.title': 'Payment not sent',
  'till.failed.notSent': '{reason}. Nothing was charged.',
  'till.failed.notSent.details': '{reason} ({details}). Nothing was charged.',
  'till.failed.somethingWrong': 'Something went wrong',
  'till.failed.gateway.title': 'Gateway not reachable',
  'till.failed.gateway': 'The gateway did not answer, so the payment was not sent. Nothing was charged. Try again.',

  // One line on the amount screen after a sale ended without a charge.
  'till.notice.cancelled': 'Sale cancelled. The card was not charged.',
  'till.notice.amountFirst': 'Type the amount first, then present the card.',
  'till.notice.pinCancelled': 'PIN entry cancelled. The card was not charged. Enter charges {amount} again; typing starts a new amount.',
  'till.notice.otherPayment':
    '{amount}: take the payment another way (cash, voucher). The card was not charged, and the till is ready for the next sale.',
  'till.notice.otherPaymentNoAmount':
    'Take the payment another way (cash, voucher). The card was not charged, and the till is ready for the next sale.',
  'till.notice.notCharged': 'The last payment of {amount} did not go through: nothing was charged.',
  'till.notice.unknown':
    'The outcome of {amount} is not known yet, so this sale is kept open. Before any new charge the till asks the gateway how it ended; the card is never charged twice.',
  'till.notice.unknownLast':
    'The outcome of the last payment is not known yet, so this sale is kept open. Before any new charge the till asks the gateway how it ended; the card is never charged twice.',
  'till.session.endedCheck': 'Your session ended. Log in again; the last payment is checked before the next one.',
  'till.session.endedSale': 'Your session ended during the sale. Log in again; the sale was not completed.',

  // The Test environment's card reader.
  'till.testReader.title': 'Test card reader',
  'till.testReader.simulated': 'Simulated',
  'till.testReader.note': 'Every test card’s PIN is {pin}. A USB swipe reader works too.',
  'till.testReader.tap': 'Tap',
  'till.testReader.insert': 'Insert',
  'till.testReader.swipe': 'Swipe',
  'till.testReader.present': '{method, select, tap {Tap} insert {Insert} other {Swipe}} {brand} {number}',
  'till.testReader.approves': 'Approves',
  'till.testReader.alwaysPin': 'Always asks for the PIN',
  'till.testReader.declines': 'Declines ({code})',
  'till.testReader.noFunds': 'No funds ({code})',
  'till.testReader.expired': 'Expired ({code})',
  'till.testReader.networkError': 'Network error (11)',
  'till.testReader.slow': 'Bank answers after 15 s',
  'till.testReader.lostAnswer': 'Approves, answer lost',
  'till.testReader.declinesForwarded': 'Stored: approves; declines when forwarded',
  'till.testReader.problems': 'Reader problems',
  'till.testReader.problemsLabel': 'Problems:',
  'till.testReader.removedEarly': 'Removed early',
  'till.testReader.twoCards': 'Two cards',
  'till.testReader.badRead': 'Bad read',

  // The keyboard shortcuts (`?`).
  'till.shortcuts.title': 'Keyboard shortcuts',
  'till.shortcuts.amount': 'Amount',
  'till.shortcuts.amount.type': 'Type the amount (1, 2, 0, 0 is {example})',
  'till.shortcuts.removeDigit': 'Remove the last digit',
  'till.shortcuts.amount.clear': 'Clear the amount',
  'till.shortcuts.amount.charge': 'Charge',
  'till.shortcuts.waiting': 'Waiting for the card',
  'till.shortcuts.waiting.cancel': 'Cancel the sale',
  'till.shortcuts.pin': 'PIN pad',
  'till.shortcuts.pin.digits': 'PIN digits (shown as dots)',
  'till.shortcuts.pin.clear': 'Clear',
  'till.shortcuts.pin.ok': 'OK',
  'till.shortcuts.pin.cancel': 'Cancel',
  'till.shortcuts.result': 'Result',
  'till.shortcuts.result.enter': 'The highlighted step: after an approval, the usual receipt and a new sale',
  'till.shortcuts.result.print': 'Print the receipt',
  'till.shortcuts.result.email': 'E-mail the receipt',
  'till.shortcuts.result.qr': 'Receipt by QR code',
  'till.shortcuts.result.none': 'No receipt: new sale',
  'till.shortcuts.result.other': 'Other payment (after a decline)',
  'till.shortcuts.anywhere': 'Anywhere',
  'till.shortcuts.anywhere.help': 'This list',
  'till.shortcuts.note':
    'Shortcuts are off while a dialog is open or while you type in a field. A USB swipe reader works on the till screen.',
} as const;
