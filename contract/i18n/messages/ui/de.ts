/** German: shared back-office parts: tables, pagers, filters, forms, dialogs (keys as ./en.ts). */
import type { en } from './en.js';

export const de = {
  'ui.table.rows': '{count, plural, one {# Zeile} other {# Zeilen}}',
  'ui.table.more': '{count, plural, one {# Zeile angezeigt – für weitere scrollen} other {# Zeilen angezeigt – für weitere scrollen}}',
  'ui.pager.range': '{from, number}–{to, number} von {count, number}',
  'ui.pager.nothing': 'Nichts auf Seite {page, number} von {pages, number}',
  'ui.pager.page': 'Seite {page, number} von {pages, number}',
  'ui.pager.previous': 'Vorherige Seite',
  'ui.pager.next': 'Nächste Seite',
  'ui.filters.clear': 'Filter zurücksetzen',
  'ui.filters.createdFrom': 'Erstellt ab',
  'ui.filters.createdTo': 'Erstellt bis',
  'ui.filters.anyStatus': 'Alle Status',
  'ui.field.optional': 'optional',
  'ui.form.toFix': '{count, plural, one {Eine Angabe ist zu korrigieren} other {# Angaben sind zu korrigieren}}',
  'ui.copy.copy': 'Kopieren',
  'ui.copy.copyNamed': '{label} kopieren',
  'ui.copy.copied': 'Kopiert.',
  'ui.copy.selected': 'Markiert: Drücken Sie Strg+C, um es zu kopieren.',
  'ui.copy.link': 'Link kopieren',
  'ui.link.localOnly':
    'Links auf {origin} öffnen sich nur auf diesem Computer, nicht auf dem Telefon eines Kunden. Stellen Sie die öffentliche URL des Gateways ({env} oder „{file}“ in settings.json) auf eine Adresse ein, die Kunden erreichen.',
} as const satisfies Record<keyof typeof en, string>;
