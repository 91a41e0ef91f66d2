/** Croatian: this till and the shop: joining, the centre banner, the till gate (keys as ./en.ts). */
import type { en } from './en.js';

export const hr = {
  'tills.duration.lessThanMinute': '< 1 min',
  'tills.duration.minutes': '{minutes} min',
  'tills.duration.hours': '{hours} h {minutes} min',
  'tills.unreachable.title': 'Pristupnik nije dostupan',
  'tills.unreachable.text':
    'Ovaj zaslon ne može doći do pristupnika pa se ovdje ne mogu primati plaćanja karticom dok pristupnik ponovno ne odgovori. U međuvremenu se ništa ne naplaćuje; provjerite mrežu ili računalo pristupnika.',
  'tills.away.title': 'Središnjica ne odgovara: prodaje karticom spremaju se na ovoj blagajni',
  'tills.away.none': 'Još ništa nije spremljeno.',
  'tills.away.stored':
    '{count, plural, one {# spremljena prodaja} few {# spremljene prodaje} other {# spremljenih prodaja}} · {totals} · najstarija prije {age}.',
  'tills.away.limit':
    '{fresh, select, yes {Prodaje se mogu spremati do {left}} other {Prodaje se mogu spremati još {left}}}, do {perPayment} po prodaji.',
  'tills.away.left': '{fresh, select, yes {Prodaje se mogu spremati do {left}} other {Prodaje se mogu spremati još {left}}}.',
  'tills.away.sent': 'Proslijedit će se čim središnjica odgovori.',
  'tills.sending':
    'Prosljeđivanje {count, plural, one {# spremljene prodaje} few {# spremljene prodaje} other {# spremljenih prodaja}} ({totals}) središnjici…',
  'tills.sending.label': 'Prosljeđivanje spremljenih prodaja',
  'tills.declined.title': 'Spremljena prodaja je odbijena: {amount}',
  'tills.declined.text':
    '{card} · narudžba {order} · primljeno u {time} · banka je javila „{reason}”. Kupac je za nju već dobio robu: zatražite od njega drugo plaćanje. Navedena je pod „Zahtijeva pažnju” u administraciji.',
  'tills.declined.reason': 'odbijeno',
  'tills.declined.seen': 'Viđeno',
  'tills.declined.seenLabel': 'Viđeno: odbijena spremljena prodaja {amount}, narudžba {order}',
  'tills.declined.seenFailed': 'Nije moguće označiti kao viđeno',
  'tills.holder': 'otvorena na drugom zaslonu, aktivna u {time}',
  'tills.holder.named': 'otvorena na drugom zaslonu ({name}), aktivna u {time}',
  'tills.opening': 'Otvaranje blagajne…',
  'tills.failed': 'Blagajnu nije moguće otvoriti',
  'tills.choose.title': 'Koja je ovo blagajna?',
  'tills.choose.lead':
    'Ova trgovina ima {count, plural, one {# blagajnu} few {# blagajne} other {# blagajni}}. Odaberite blagajnu na kojoj ovaj zaslon prodaje; ovaj preglednik će je zapamtiti.',
  'tills.inUse.title': '{till} je otvorena na drugom zaslonu',
  'tills.inUse.text':
    '{reason}. Dva zaslona na jednoj blagajni dijelila bi njezinu prodaju i njezin dan. Koristite je ovdje samo ako se taj zaslon ne koristi; on će tada dobiti obavijest da je ovaj zaslon preuzeo blagajnu.',
  'tills.inUse.useAnyway': 'Ipak koristi {till} ovdje',
  'tills.inUse.other': 'Ili odaberite drugu blagajnu',
  'tills.lost.title': 'Ovaj zaslon više nije {till}',
  'tills.lost.choose': 'Odaberi blagajnu',
  'tills.lost.takeBack': 'Ponovno preuzmi {till}',
  'tills.lost.message': '{reason}. Ovaj zaslon više ne prodaje na {till}.',
  'tills.badge.title': 'ID terminala {id}',
  'tills.badge.change': 'Promijeni',
  'tills.badge.changeLabel': 'Promijeni blagajnu',
  'tills.openFailed': 'Blagajnu nije moguće otvoriti. Pokušajte ponovno.',
  'tills.listFailed': 'Blagajne nije moguće učitati. Provjerite vezu i pokušajte ponovno.',
  'tills.join.title': 'Pridruživanje središnjici trgovine',
  'tills.join.lead':
    'Ovo računalo postaje još jedna blagajna trgovine čija središnjica radi na drugom računalu. Na tom računalu otvorite Postavke → Blagajne, odaberite blagajnu i „Pridruži s drugog računala”, pa ovdje unesite adresu središnjice i kôd za uparivanje.',
  'tills.join.address': 'Adresa središnjice',
  'tills.join.code': 'Kôd za uparivanje',
  'tills.join.joining': 'Pridruživanje…',
  'tills.join.submit': 'Pridruži se trgovini',
  'tills.join.addressMissing': 'Unesite adresu središnjice, npr. https://backoffice.local:8420.',
  'tills.join.codeMissing': 'Unesite kôd za uparivanje iz Postavke → Blagajne na središnjici.',
  'tills.join.addressProblem': 'Adresa središnjice: {problem}.',
  'tills.join.codeProblem': 'Kôd za uparivanje: {problem}. Izradite novi na središnjici.',
  'tills.join.failed': 'Ovo se računalo nije pridružilo trgovini.',
} as const satisfies Record<keyof typeof en, string>;
