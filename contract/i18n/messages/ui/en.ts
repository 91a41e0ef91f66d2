/** The staff screens' words in English: shared back-office parts: tables, pagers, filters, forms, dialogs. Keys start with `ui.` (contract/i18n/catalogues.ts). */
export const en = {
  'ui.table.rows': '{count, plural, one {# row} other {# rows}}',
  'ui.table.more': '{count, plural, one {# shown; scroll for more} other {# shown; scroll for more}}',
  'ui.pager.range': '{from, number}–{to, number} of {count, number}',
  'ui.pager.nothing': 'Nothing on page {page, number} of {pages, number}',
  'ui.pager.page': 'Page {page, number} of {pages, number}',
  'ui.pager.previous': 'Previous page',
  'ui.pager.next': 'Next page',
  'ui.filters.clear': 'Clear filters',
  'ui.filters.createdFrom': 'Created from',
  'ui.filters.createdTo': 'Created to',
  'ui.filters.anyStatus': 'Any status',
  'ui.field.optional': 'optional',
  'ui.form.toFix': '{count, plural, one {One thing to fix} other {# things to fix}}',
  'ui.copy.copy': 'Copy',
  'ui.copy.copyNamed': 'Copy {label}',
  'ui.copy.copied': 'Copied.',
  'ui.copy.selected': 'Selected: press Ctrl+C to copy it.',
  'ui.copy.link': 'Copy link',
  'ui.link.localOnly':
    'Only this computer opens links to {origin}: a customer\'s phone cannot. Set the gateway\'s public URL ({env}, or "{file}" in settings.json) to an address customers reach.',
} as const;
