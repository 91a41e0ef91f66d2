/** German: the till: keypad, card prompt, PIN, results, banners, store-and-forward, shortcuts help (keys as ./en.ts). */
import type { en } from './en.js';

export const de = {
  'till.cashier.title': 'Kasse',
  'till.cashier.till': 'Verkauf',
  'till.cashier.sales': 'Heutige Umsätze',
  'till.cashier.close': 'Tagesabschluss',
  'till.cashier.shortcuts': 'Tastenkürzel',

  'till.key.enter': 'Enter',
  'till.key.esc': 'Esc',
  'till.key.backspace': 'Rücktaste',
  'till.key.delete': 'Entf',

  'till.sale.title': 'Neuer Verkauf',
  'till.sale.currency': 'Die Währung des Geschäfts',
  'till.sale.reference': 'Bestellreferenz',
  'till.sale.optional': 'optional',
  'till.sale.referenceExample': 'z. B. Tisch 12 oder Rechnungsnr.',
  'till.sale.charge': 'Kassieren',
  'till.sale.chargeAmount': '{amount} kassieren',
  'till.sale.checkThenCharge': 'Letzte Zahlung prüfen, dann {amount} kassieren',
  'till.sale.hint': 'Betrag eingeben, dann <kbd>Enter</kbd>. <kbd>Rücktaste</kbd> löscht eine Ziffer, <kbd>Esc</kbd> löscht den Betrag.',
  'till.keypad.label': 'Betragstasten',
  'till.keypad.back': 'Letzte Ziffer löschen',
  'till.keypad.clear': 'Betrag löschen',

  'till.confirm.title': '{amount} kassieren?',
  'till.confirm.text':
    'Das liegt über dem üblichen Limit dieser Kasse von {limit}. Prüfen Sie den Betrag mit dem Kunden, bevor er die Karte vorhält.',
  'till.confirm.back': 'Zurück',

  'till.card.title': 'Karte einstecken, auflegen oder durchziehen',
  'till.card.waiting': 'Warten auf die Karte…',
  'till.card.insertTitle': 'Karte einstecken und PIN eingeben',
  'till.card.insertText': 'Die Bank verlangt die PIN: Die Karte muss in den Chipleser.',
  'till.card.line': '{card} · {entry}',

  'till.reader.removedTooEarly':
    'Die Karte wurde zu früh entfernt. Halten Sie sie erneut vor und lassen Sie sie dort, bis die Kasse es anzeigt.',
  'till.reader.multipleCards': 'Mehr als eine Karte erkannt. Halten Sie nur eine Karte vor.',
  'till.reader.unreadable':
    'Die Karte konnte nicht gelesen werden. Ziehen Sie sie erneut durch, oder stecken Sie sie ein bzw. legen Sie sie auf.',
  'till.reader.invalidCard': 'Diese Kartennummer ist ungültig. Versuchen Sie es mit einer anderen Karte.',
  'till.reader.chipNeeded': 'Diese Karte braucht ihren Chip: Stecken Sie sie in den Leser und geben Sie dann die PIN ein.',

  'till.entry.contactless': 'Kontaktlos',
  'till.entry.chip': 'Chip',
  'till.entry.swipe': 'Magnetstreifen',
  'till.entry.manual': 'Manuelle Eingabe',

  'till.processing.title': 'Wird verarbeitet…',
  'till.processing.bank': 'Warten auf die Bank…',
  'till.processing.keepCard': 'Karte nicht entfernen.',
  'till.processing.slow':
    'Das dauert länger als üblich: Die Bank hat noch nicht geantwortet. Halten Sie die Karte bereit. Die Zahlung wird nur einmal gesendet.',

  'till.pin.title': 'PIN eingeben',
  'till.pin.insertedTitle': 'Karte eingesteckt: PIN eingeben',
  'till.pin.shield': 'Verdecken Sie die PIN-Eingabe mit der anderen Hand.',
  'till.pin.triesLeft': 'Noch {tries, plural, one {# Versuch} other {# Versuche}}',
  'till.pin.entered': '{count, plural, =0 {Keine Ziffer eingegeben} one {# Ziffer eingegeben} other {# Ziffern eingegeben}}',
  'till.pin.keys': 'PIN-Tasten',
  'till.pin.clear': 'Korrektur',
  'till.pin.ok': 'OK',
  'till.pin.tooShort': 'Die PIN hat mindestens {min, plural, one {# Ziffer} other {# Ziffern}}.',
  'till.pin.notReady': 'Das PIN-Pad wird vorbereitet. Drücken Sie gleich noch einmal OK.',
  'till.pin.encryptFailed': 'Die PIN konnte nicht verschlüsselt werden. Brechen Sie ab und versuchen Sie es erneut.',

  'till.decline.05': 'Die Karte wurde von der Bank abgelehnt. Versuchen Sie eine andere Karte oder eine andere Zahlungsart.',
  'till.decline.51.title': 'Abgelehnt: Deckung nicht ausreichend',
  'till.decline.51': 'Das Kartenkonto ist nicht ausreichend gedeckt. Versuchen Sie eine andere Karte oder eine andere Zahlungsart.',
  'till.decline.54.title': 'Abgelehnt: Karte abgelaufen',
  'till.decline.54': 'Die Karte ist abgelaufen. Fragen Sie nach einer anderen Karte oder einer anderen Zahlungsart.',
  'till.decline.55.noPin.title': 'Abgelehnt: PIN-Problem',
  'till.decline.55.noPin':
    'Die Bank meldet „Falsche PIN“, obwohl keine PIN eingegeben wurde. Versuchen Sie eine andere Karte oder eine andere Zahlungsart.',
  'till.decline.55.title': 'Falsche PIN',
  'till.decline.55': 'Die PIN war falsch. Der Kunde kann sie erneut eingeben: noch {tries, plural, one {# Versuch} other {# Versuche}}.',
  'till.decline.55.noTries':
    'Die PIN war falsch, und es sind keine Versuche mehr übrig. Fragen Sie nach einer anderen Karte oder einer anderen Zahlungsart.',
  'till.decline.75.title': 'Zu viele PIN-Versuche',
  'till.decline.75':
    'Die PIN wurde zu oft falsch eingegeben, daher lehnt die Bank diese Karte vorerst ab. Fragen Sie nach einer anderen Karte oder einer anderen Zahlungsart.',
  'till.decline.14.title': 'Abgelehnt: Kartennummer ungültig',
  'till.decline.14': 'Die Bank kennt diese Kartennummer nicht. Versuchen Sie es mit einer anderen Karte.',
  'till.decline.13.title': 'Abgelehnt: Betrag nicht zulässig',
  'till.decline.13': 'Die Bank hat diesen Betrag abgelehnt. Prüfen Sie den Betrag oder versuchen Sie es mit einer anderen Karte.',
  'till.decline.error.title': 'Nicht abgeschlossen',
  'till.decline.error':
    'Das Kartennetzwerk meldet ein Problem. Es wurde nichts abgebucht. Versuchen Sie es erneut mit derselben oder einer anderen Karte.',
  'till.decline.error.reason':
    'Das Kartennetzwerk meldet ein Problem ({reason}). Es wurde nichts abgebucht. Versuchen Sie es erneut mit derselben oder einer anderen Karte.',
  'till.decline.other': 'Die Karte wurde abgelehnt (Code {code}). Versuchen Sie eine andere Karte oder eine andere Zahlungsart.',
  'till.decline.other.reason':
    'Die Karte wurde abgelehnt: {reason} (Code {code}). Versuchen Sie eine andere Karte oder eine andere Zahlungsart.',
  'till.decline.retryPin': 'PIN erneut eingeben',
  'till.decline.insertCard': 'Karte einstecken',
  'till.decline.anotherCard': 'Andere Karte versuchen',
  'till.decline.otherPayment': 'Andere Zahlungsart',
  'till.decline.code': 'Antwort der Bank: {code}',
  'till.decline.codeError': 'Antwort der Bank: Fehler',

  'till.approved.card': '{card} · {entry}{pin, select, yes { · PIN geprüft} other {}}',
  'till.approved.stored':
    'An dieser Kasse gespeichert, solange die Zentrale nicht antwortet: Die Zahlung wird weitergeleitet, sobald sie antwortet. Geben Sie dem Kunden den Beleg wie gewohnt.',
  'till.approved.recovered':
    'Diese Zahlung ist durchgegangen, obwohl ihre Antwort die Kasse nicht erreicht hat. Sie wird nicht noch einmal abgebucht.',
  'till.approved.printAndNew': 'Beleg drucken · Neuer Verkauf',
  'till.approved.noReceiptAndNew': 'Kein Beleg · Neuer Verkauf',
  'till.approved.newSale': 'Neuer Verkauf',
  'till.approved.noReceipt': 'Kein Beleg',
  'till.approved.autoPrint': 'Beleg wird auf {printer} gedruckt',
  'till.approved.receiptFor': 'Beleg für den Kunden',

  'till.checking.title': 'Zahlung wird geprüft',
  'till.checking.lastTitle': 'Letzte Zahlung wird geprüft',
  'till.checking.again': 'Erneut prüfen',
  'till.checking.stop': 'Prüfung beenden',
  'till.checking.resolving': 'Es wird geprüft, wie die letzte Zahlung an dieser Kasse ausgegangen ist…',
  'till.checking.resending': 'Es wird geprüft, ob die Zahlung durchgegangen ist…',
  'till.checking.unreachable':
    'Das Gateway ist nicht erreichbar, daher weiß die Kasse noch nicht, ob die letzte Zahlung durchgegangen ist. Bis dahin wird nichts weiter abgebucht. Die Kasse fragt von selbst erneut, sobald das Gateway antwortet; prüfen Sie in der Zwischenzeit die Verbindung.',
  'till.checking.inProgress':
    'Die Zahlung über {amount} wird noch von der Bank verarbeitet. Die Kasse wartet auf das Ergebnis; nichts wird doppelt abgebucht.',
  'till.checking.noAnswer':
    'Das Gateway hat nicht geantwortet. Es wird geprüft, ob die Zahlung durchgegangen ist; die Karte wird nicht doppelt belastet.',
  'till.checking.stillNoAnswer':
    'Immer noch keine Antwort vom Gateway. Die Kasse fragt von selbst erneut, sobald es antwortet; prüfen Sie in der Zwischenzeit die Verbindung. Die Karte wird nicht doppelt belastet.',

  'till.failed.cancelSale': 'Verkauf abbrechen',
  'till.failed.unexpected.title': 'Unerwartete Antwort',
  'till.failed.unexpected':
    'Das Gateway hat mit dem Status „{status}“ geantwortet. Prüfen Sie die heutigen Umsätze, bevor Sie erneut kassieren.',
  'till.failed.network.title': 'Kartennetzwerk nicht erreichbar',
  'till.failed.network': 'Das Kartennetzwerk ist gerade nicht erreichbar. Es wurde nichts abgebucht. Versuchen Sie es gleich noch einmal.',
  'till.failed.centreAway.title': 'Diese Kartenzahlung ist gerade nicht möglich',
  'till.failed.centreAway': '{reason} Es wurde nichts abgebucht.',
  'till.failed.notSent.title': 'Zahlung nicht gesendet',
  'till.failed.notSent': '{reason}. Es wurde nichts abgebucht.',
  'till.failed.notSent.details': '{reason} ({details}). Es wurde nichts abgebucht.',
  'till.failed.somethingWrong': 'Etwas ist schiefgelaufen',
  'till.failed.gateway.title': 'Gateway nicht erreichbar',
  'till.failed.gateway':
    'Das Gateway hat nicht geantwortet, daher wurde die Zahlung nicht gesendet. Es wurde nichts abgebucht. Versuchen Sie es erneut.',

  'till.notice.cancelled': 'Verkauf abgebrochen. Die Karte wurde nicht belastet.',
  'till.notice.amountFirst': 'Geben Sie zuerst den Betrag ein und halten Sie dann die Karte vor.',
  'till.notice.pinCancelled':
    'PIN-Eingabe abgebrochen. Die Karte wurde nicht belastet. Enter kassiert {amount} erneut; mit der nächsten Ziffer beginnt ein neuer Betrag.',
  'till.notice.otherPayment':
    '{amount}: Nehmen Sie die Zahlung auf andere Weise an (bar, Gutschein). Die Karte wurde nicht belastet, und die Kasse ist bereit für den nächsten Verkauf.',
  'till.notice.otherPaymentNoAmount':
    'Nehmen Sie die Zahlung auf andere Weise an (bar, Gutschein). Die Karte wurde nicht belastet, und die Kasse ist bereit für den nächsten Verkauf.',
  'till.notice.notCharged': 'Die letzte Zahlung über {amount} ist nicht durchgegangen: Es wurde nichts abgebucht.',
  'till.notice.unknown':
    'Das Ergebnis der Zahlung über {amount} ist noch nicht bekannt, daher bleibt dieser Verkauf offen. Vor jeder neuen Zahlung fragt die Kasse das Gateway, wie sie ausgegangen ist; die Karte wird nie doppelt belastet.',
  'till.notice.unknownLast':
    'Das Ergebnis der letzten Zahlung ist noch nicht bekannt, daher bleibt dieser Verkauf offen. Vor jeder neuen Zahlung fragt die Kasse das Gateway, wie sie ausgegangen ist; die Karte wird nie doppelt belastet.',
  'till.session.endedCheck': 'Ihre Sitzung ist abgelaufen. Melden Sie sich erneut an; die letzte Zahlung wird vor der nächsten geprüft.',
  'till.session.endedSale':
    'Ihre Sitzung ist während des Verkaufs abgelaufen. Melden Sie sich erneut an; der Verkauf wurde nicht abgeschlossen.',

  'till.testReader.title': 'Testkartenleser',
  'till.testReader.simulated': 'Simuliert',
  'till.testReader.note': 'Die PIN jeder Testkarte ist {pin}. Ein USB-Magnetstreifenleser funktioniert auch.',
  'till.testReader.tap': 'Auflegen',
  'till.testReader.insert': 'Stecken',
  'till.testReader.swipe': 'Ziehen',
  'till.testReader.present': '{method, select, tap {Auflegen} insert {Stecken} other {Ziehen}} {brand} {number}',
  'till.testReader.approves': 'Genehmigt',
  'till.testReader.alwaysPin': 'Fragt immer nach der PIN',
  'till.testReader.declines': 'Abgelehnt ({code})',
  'till.testReader.noFunds': 'Keine Deckung ({code})',
  'till.testReader.expired': 'Abgelaufen ({code})',
  'till.testReader.networkError': 'Netzwerkfehler (11)',
  'till.testReader.slow': 'Bank antwortet nach 15 s',
  'till.testReader.lostAnswer': 'Genehmigt, Antwort geht verloren',
  'till.testReader.declinesForwarded': 'Gespeichert: genehmigt; beim Weiterleiten abgelehnt',
  'till.testReader.problems': 'Leserprobleme',
  'till.testReader.problemsLabel': 'Probleme:',
  'till.testReader.removedEarly': 'Zu früh entfernt',
  'till.testReader.twoCards': 'Zwei Karten',
  'till.testReader.badRead': 'Lesefehler',

  'till.shortcuts.title': 'Tastenkürzel',
  'till.shortcuts.amount': 'Betrag',
  'till.shortcuts.amount.type': 'Betrag eingeben (1, 2, 0, 0 ergibt {example})',
  'till.shortcuts.removeDigit': 'Letzte Ziffer löschen',
  'till.shortcuts.amount.clear': 'Betrag löschen',
  'till.shortcuts.amount.charge': 'Kassieren',
  'till.shortcuts.waiting': 'Warten auf die Karte',
  'till.shortcuts.waiting.cancel': 'Verkauf abbrechen',
  'till.shortcuts.pin': 'PIN-Pad',
  'till.shortcuts.pin.digits': 'PIN-Ziffern (als Punkte angezeigt)',
  'till.shortcuts.pin.clear': 'Korrektur',
  'till.shortcuts.pin.ok': 'OK',
  'till.shortcuts.pin.cancel': 'Abbrechen',
  'till.shortcuts.result': 'Ergebnis',
  'till.shortcuts.result.enter': 'Der hervorgehobene Schritt: nach einer Genehmigung der übliche Beleg und ein neuer Verkauf',
  'till.shortcuts.result.print': 'Beleg drucken',
  'till.shortcuts.result.email': 'Beleg per E-Mail senden',
  'till.shortcuts.result.qr': 'Beleg per QR-Code',
  'till.shortcuts.result.none': 'Kein Beleg: neuer Verkauf',
  'till.shortcuts.result.other': 'Andere Zahlungsart (nach einer Ablehnung)',
  'till.shortcuts.anywhere': 'Überall',
  'till.shortcuts.anywhere.help': 'Diese Liste',
  'till.shortcuts.note':
    'Tastenkürzel sind aus, solange ein Dialog offen ist oder Sie in ein Feld tippen. Ein USB-Magnetstreifenleser funktioniert auf dem Kassenbildschirm.',
} as const satisfies Record<keyof typeof en, string>;
