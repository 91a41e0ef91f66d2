/** Croatian: the dashboard (keys as ./en.ts). */
import type { en } from './en.js';

export const hr = {
  'dashboard.title': 'Nadzorna ploča',
  'dashboard.period': 'Razdoblje',
  'dashboard.period.today': 'Danas',
  'dashboard.period.7d': 'Zadnjih 7 dana',
  'dashboard.period.month': 'Ovaj mjesec',
  'dashboard.timeZone': 'Dani i sati u vremenskoj zoni trgovine, {zone}',
  'dashboard.updating': 'Ažuriranje…',
  'dashboard.asOf': 'Stanje u {time}',
  'dashboard.loading': 'Učitavanje podataka…',
  'dashboard.loadFailed': 'Nadzornu ploču nije bilo moguće učitati.',
  'dashboard.noAnswer': 'Nadzornu ploču nije bilo moguće učitati: gateway se nije javio.',
  'dashboard.kpi.volume': 'Promet',
  'dashboard.kpi.volumeNote': 'naplaćeno, iz {count, plural, one {# plaćanja} few {# plaćanja} other {# plaćanja}}',
  'dashboard.kpi.noMoney': 'Još nema naplate',
  'dashboard.kpi.payments': 'Plaćanja',
  'dashboard.kpi.paymentsNote': '{approved, number} odobreno · {declined, number} odbijeno{other, plural, =0 {} other { · # ostalo}}',
  'dashboard.kpi.approvalRate': 'Stopa odobrenja',
  'dashboard.kpi.approvalNote': 'Odobreno {approved, number} od {decided, number}',
  'dashboard.kpi.noDecided': 'Još nema odobrenih ni odbijenih plaćanja',
  'dashboard.kpi.refunds': 'Povrati',
  'dashboard.kpi.refundsNote': '{count, plural, one {# povrat} few {# povrata} other {# povrata}}',
  'dashboard.kpi.noRefunds': 'Nema povrata',
  'dashboard.chart.asTable': '{title} kao tablica',
  'dashboard.chart.table': 'Tablica',
  'dashboard.volume.title': '{unit, select, hour {Promet po satu} other {Promet po danu}}',
  'dashboard.volume.in': 'Promet u {currency}',
  'dashboard.volume.empty':
    '{period, select, today {Danas još nema naplate.} 7d {U zadnjih 7 dana još nema naplate.} other {Ovaj mjesec još nema naplate.}}',
  'dashboard.volume.describe': '{bucket}: {amount} iz {count, plural, one {# plaćanja} few {# plaćanja} other {# plaćanja}}',
  'dashboard.volume.caption':
    '{unit, select, hour {Promet po satu} other {Promet po danu}}, {period, select, today {danas} 7d {zadnjih 7 dana} other {ovaj mjesec}}: naplaćeni iznosi i povrati po valuti',
  'dashboard.volume.column': 'Promet {currency}',
  'dashboard.refunds.column': 'Povrati {currency}',
  'dashboard.unit': '{unit, select, hour {Sat} other {Dan}}',
  'dashboard.payments.title': '{unit, select, hour {Plaćanja po satu} other {Plaćanja po danu}}',
  'dashboard.payments.caption':
    '{unit, select, hour {Plaćanja po satu} other {Plaćanja po danu}}, {period, select, today {danas} 7d {zadnjih 7 dana} other {ovaj mjesec}}',
  'dashboard.payments': 'Plaćanja',
  'dashboard.other': 'Ostalo',
  'dashboard.approvalRate': 'Stopa odobrenja',
  'dashboard.counts':
    '{payments, plural, one {# plaćanje} few {# plaćanja} other {# plaćanja}} ({approved, number} odobreno, {declined, number} odbijeno{other, plural, =0 {} other {, # ostalo}}){rate, select, none {} other {, {rate} odobreno}}',
  'dashboard.types.title': 'Vrste plaćanja',
  'dashboard.types.empty':
    '{period, select, today {Danas još nema plaćanja.} 7d {U zadnjih 7 dana još nema plaćanja.} other {Ovaj mjesec još nema plaćanja.}}',
  'dashboard.types.caption':
    'Vrste plaćanja, {period, select, today {danas} 7d {zadnjih 7 dana} other {ovaj mjesec}}: plaćanja i naplaćeni iznosi',
  'dashboard.types.type': 'Vrsta plaćanja',
  'dashboard.volume': 'Promet',
  'dashboard.attention.title': 'Zahtijeva pažnju',
  'dashboard.attention.count': '{count, plural, =0 {ništa} one {# stavka} few {# stavke} other {# stavki}}',
  'dashboard.attention.more': 'i još {count, number}',
  'dashboard.attention.someClear': '{count, plural, one {Još # provjera} few {Još # provjere} other {Još # provjera}}: sve u redu',
  'dashboard.attention.allClear':
    '{count, plural, one {# provjera: sve u redu} few {Sve # provjere: sve u redu} other {Svih # provjera: sve u redu}}',
  'dashboard.attention.notHandled': 'Nije bilo moguće označiti kao riješeno',
  'dashboard.attention.expires': '{what} · {amount} · istječe {when}',
  'dashboard.declines.title':
    '{count, plural, one {# spremljena prodaja odbijena pri prosljeđivanju} few {# spremljene prodaje odbijene pri prosljeđivanju} other {# spremljenih prodaja odbijeno pri prosljeđivanju}}',
  'dashboard.declines.none': 'Nema odbijenih spremljenih prodaja',
  'dashboard.declines.help':
    'Blagajna ih je prihvatila dok ovaj gateway nije bio dostupan; kupac je otišao s robom, a banka je nakon toga odbila karticu. Javite se kupcu (narudžba pokazuje tko je to) pa označite kao riješeno.',
  'dashboard.declines.example':
    '{staff, select, none {{till}} other {{till} ({name})}} · {amount} · {card} · narudžba {order} · {message} · prihvaćeno {when}',
  'dashboard.declines.card': 'kartica',
  'dashboard.declines.declined': 'odbijeno',
  'dashboard.declines.handled': 'Riješeno',
  'dashboard.declines.handledLabel': 'Označi kao riješeno: {amount}, narudžba {order}',
  'dashboard.authorizations.title':
    '{count, plural, one {# nenaplaćena autorizacija istječe u sljedeća 24 sata} few {# nenaplaćene autorizacije istječu u sljedeća 24 sata} other {# nenaplaćenih autorizacija istječe u sljedeća 24 sata}}',
  'dashboard.authorizations.none': 'Nijedna autorizacija uskoro ne istječe',
  'dashboard.authorizations.help': 'Naplatite ili oslobodite novac prije isteka 7 dana.',
  'dashboard.authorizations.link': 'Autorizirane transakcije',
  'dashboard.invoices.title':
    '{count, plural, one {# račun istječe u sljedeća 24 sata} few {# računa istječu u sljedeća 24 sata} other {# računa istječe u sljedeća 24 sata}}',
  'dashboard.invoices.none': 'Nijedan račun uskoro ne istječe',
  'dashboard.invoices.help': 'Tada im poveznice za plaćanje prestaju raditi.',
  'dashboard.invoices.link': 'Računi na čekanju',
  'dashboard.invoiceEmails.title':
    '{count, plural, one {# e-poruka s računom nije poslana} few {# e-poruke s računom nisu poslane} other {# e-poruka s računom nije poslano}}',
  'dashboard.invoiceEmails.none': 'Nema neuspjelih e-poruka s računom',
  'dashboard.invoiceEmails.help': 'Provjerite adresu pa iz računa pošaljite podsjetnik.',
  'dashboard.invoiceEmails.example':
    '{invoice} · {type, select, initial {prva e-poruka} reminder {podsjetnik e-poštom} other {e-poruka {type}}} · {when}',
  'dashboard.postbacksFailed.title':
    '{count, plural, one {# postback nije uspio} few {# postbacka nisu uspjela} other {# postbackova nije uspjelo}}',
  'dashboard.postbacksFailed.none': 'Nema neuspjelih postbackova',
  'dashboard.postbacksFailed.help':
    'Sustav vaše trgovine nije ih prihvatio u 3 dana. Dok ne bude zaslona za postbackove, <code>{call}</code> ih ponovno šalje.',
  'dashboard.postbacksFailed.link': 'Postbackovi u dokumentaciji API-ja',
  'dashboard.postbacksRetrying.title':
    '{count, plural, one {# postback se ponovno pokušava} few {# postbacka se ponovno pokušavaju} other {# postbackova se ponovno pokušava}}',
  'dashboard.postbacksRetrying.none': 'Nijedan postback se ne pokušava ponovno',
  'dashboard.postbacksRetrying.help':
    'Još nisu prihvaćeni; ponovni pokušaji traju 3 dana. Dok ne bude zaslona za postbackove: <code>{call}</code>.',
  'dashboard.tokens.title':
    '{count, plural, one {# mrežni token suspendiran} few {# mrežna tokena suspendirana} other {# mrežnih tokena suspendirano}}',
  'dashboard.tokens.none': 'Nema suspendiranih mrežnih tokena',
  'dashboard.tokens.help': 'Plaćanja njima odbijaju se dok ih kartična mreža ponovno ne aktivira.',
  'dashboard.tokens.link': 'Suspendirani mrežni tokeni',
} as const satisfies Record<keyof typeof en, string>;
