/** Croatian: shared back-office parts: tables, pagers, filters, forms, dialogs (keys as ./en.ts). */
import type { en } from './en.js';

export const hr = {
  'ui.table.rows': '{count, plural, one {# redak} few {# retka} other {# redaka}}',
  'ui.table.more':
    '{count, plural, one {Prikazan # redak – pomaknite se za više} few {Prikazana # retka – pomaknite se za više} other {Prikazano # redaka – pomaknite se za više}}',
  'ui.pager.range': '{from, number}–{to, number} od {count, number}',
  'ui.pager.nothing': 'Ništa na stranici {page, number} od {pages, number}',
  'ui.pager.page': 'Stranica {page, number} od {pages, number}',
  'ui.pager.previous': 'Prethodna stranica',
  'ui.pager.next': 'Sljedeća stranica',
  'ui.filters.clear': 'Poništi filtre',
  'ui.filters.createdFrom': 'Stvoreno od',
  'ui.filters.createdTo': 'Stvoreno do',
  'ui.filters.anyStatus': 'Svi statusi',
  'ui.field.optional': 'neobavezno',
  'ui.form.toFix': '{count, plural, one {Ispravite # stavku} few {Ispravite # stavke} other {Ispravite # stavki}}',
  'ui.copy.copy': 'Kopiraj',
  'ui.copy.copyNamed': 'Kopiraj: {label}',
  'ui.copy.copied': 'Kopirano.',
  'ui.copy.selected': 'Označeno: pritisnite Ctrl+C za kopiranje.',
  'ui.copy.link': 'Kopiraj poveznicu',
  'ui.link.localOnly':
    'Poveznice na {origin} otvara samo ovo računalo, mobitel kupca ne može. Postavite javni URL pristupnika ({env} ili „{file}” u settings.json) na adresu koju kupci mogu otvoriti.',
} as const satisfies Record<keyof typeof en, string>;
