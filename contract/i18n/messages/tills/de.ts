/** German: this till and the shop: joining, the centre banner, the till gate (keys as ./en.ts). */
import type { en } from './en.js';

export const de = {
  'tills.duration.lessThanMinute': '< 1 min',
  'tills.duration.minutes': '{minutes} min',
  'tills.duration.hours': '{hours} h {minutes} min',
  'tills.unreachable.title': 'Gateway nicht erreichbar',
  'tills.unreachable.text':
    'Dieser Bildschirm erreicht das Gateway nicht, daher können hier keine Kartenzahlungen angenommen werden, bis es wieder antwortet. In der Zwischenzeit wird nichts abgebucht; prüfen Sie das Netzwerk oder den Computer des Gateways.',
  'tills.away.title': 'Die Zentrale antwortet nicht: Kartenzahlungen werden an dieser Kasse gespeichert',
  'tills.away.none': 'Noch nichts gespeichert.',
  'tills.away.stored': '{count, plural, one {# gespeicherte Zahlung} other {# gespeicherte Zahlungen}} · {totals} · die älteste vor {age}.',
  'tills.away.limit':
    '{fresh, select, yes {Zahlungen können bis zu {left} lang gespeichert werden} other {Zahlungen können noch {left} lang gespeichert werden}}, bis zu {perPayment} pro Zahlung.',
  'tills.away.left':
    '{fresh, select, yes {Zahlungen können bis zu {left} lang gespeichert werden} other {Zahlungen können noch {left} lang gespeichert werden}}.',
  'tills.away.sent': 'Sie werden weitergeleitet, sobald die Zentrale antwortet.',
  'tills.sending':
    '{count, plural, one {# gespeicherte Zahlung ({totals}) wird} other {# gespeicherte Zahlungen ({totals}) werden}} an die Zentrale weitergeleitet…',
  'tills.sending.label': 'Gespeicherte Zahlungen werden weitergeleitet',
  'tills.declined.title': 'Eine gespeicherte Zahlung wurde abgelehnt: {amount}',
  'tills.declined.text':
    '{card} · Bestellung {order} · angenommen um {time} · die Bank meldete „{reason}“. Der Kunde hat die Ware dafür schon erhalten: Bitten Sie ihn um eine andere Zahlung. Sie steht im Backoffice unter „Handlungsbedarf“.',
  'tills.declined.reason': 'abgelehnt',
  'tills.declined.seen': 'Gesehen',
  'tills.declined.seenLabel': 'Gesehen: abgelehnte gespeicherte Zahlung {amount}, Bestellung {order}',
  'tills.declined.seenFailed': 'Konnte nicht als gesehen markiert werden',
  'tills.holder': 'auf einem anderen Bildschirm geöffnet, zuletzt aktiv um {time}',
  'tills.holder.named': 'auf einem anderen Bildschirm geöffnet ({name}), zuletzt aktiv um {time}',
  'tills.opening': 'Kasse wird geöffnet…',
  'tills.failed': 'Die Kasse konnte nicht geöffnet werden',
  'tills.choose.title': 'Welche Kasse ist das?',
  'tills.choose.lead':
    'Dieses Geschäft hat {count, plural, one {# Kasse} other {# Kassen}}. Wählen Sie die Kasse, an der dieser Bildschirm verkauft; dieser Browser merkt sie sich.',
  'tills.inUse.title': '{till} ist auf einem anderen Bildschirm geöffnet',
  'tills.inUse.text':
    '{reason}. Zwei Bildschirme an einer Kasse würden sich ihre Verkäufe und ihren Tag teilen. Verwenden Sie sie hier nur, wenn der andere Bildschirm nicht benutzt wird; er erfährt dann, dass dieser Bildschirm die Kasse übernommen hat.',
  'tills.inUse.useAnyway': '{till} trotzdem hier verwenden',
  'tills.inUse.other': 'Oder eine andere Kasse wählen',
  'tills.lost.title': 'Dieser Bildschirm ist nicht mehr {till}',
  'tills.lost.choose': 'Kasse wählen',
  'tills.lost.takeBack': '{till} zurückholen',
  'tills.lost.message': '{reason}. Dieser Bildschirm verkauft nicht mehr an {till}.',
  'tills.badge.title': 'Terminal-ID {id}',
  'tills.badge.change': 'Wechseln',
  'tills.badge.changeLabel': 'Kasse wechseln',
  'tills.openFailed': 'Die Kasse konnte nicht geöffnet werden. Versuchen Sie es erneut.',
  'tills.listFailed': 'Die Kassen konnten nicht gelesen werden. Prüfen Sie die Verbindung und versuchen Sie es erneut.',
  'tills.join.title': 'Mit der Zentrale eines Geschäfts verbinden',
  'tills.join.lead':
    'Dieser Computer wird eine weitere Kasse eines Geschäfts, dessen Zentrale auf einem anderen Computer läuft. Öffnen Sie dort Einstellungen → Kassen, wählen Sie die Kasse und „Von einem anderen Computer verbinden“, und geben Sie hier deren Adresse und den Kopplungscode ein.',
  'tills.join.address': 'Adresse der Zentrale',
  'tills.join.code': 'Kopplungscode',
  'tills.join.joining': 'Wird verbunden…',
  'tills.join.submit': 'Mit dem Geschäft verbinden',
  'tills.join.addressMissing': 'Geben Sie die Adresse der Zentrale ein, z. B. https://backoffice.local:8420.',
  'tills.join.codeMissing': 'Geben Sie den Kopplungscode aus Einstellungen → Kassen der Zentrale ein.',
  'tills.join.addressProblem': 'Adresse der Zentrale: {problem}.',
  'tills.join.codeProblem': 'Kopplungscode: {problem}. Erstellen Sie in der Zentrale einen neuen.',
  'tills.join.failed': 'Dieser Computer wurde nicht mit dem Geschäft verbunden.',
} as const satisfies Record<keyof typeof en, string>;
