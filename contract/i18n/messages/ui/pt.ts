/** Portuguese (Portugal): shared back-office parts: tables, pagers, filters, forms, dialogs (keys as ./en.ts). */
import type { en } from './en.js';

export const pt = {
  'ui.table.rows': '{count, plural, one {# linha} other {# linhas}}',
  'ui.table.more':
    '{count, plural, one {# linha apresentada; desloque para ver mais} other {# linhas apresentadas; desloque para ver mais}}',
  'ui.pager.range': '{from, number}–{to, number} de {count, number}',
  'ui.pager.nothing': 'Nada na página {page, number} de {pages, number}',
  'ui.pager.page': 'Página {page, number} de {pages, number}',
  'ui.pager.previous': 'Página anterior',
  'ui.pager.next': 'Página seguinte',
  'ui.filters.clear': 'Limpar filtros',
  'ui.filters.createdFrom': 'Criado desde',
  'ui.filters.createdTo': 'Criado até',
  'ui.filters.anyStatus': 'Todos os estados',
  'ui.field.optional': 'opcional',
  'ui.form.toFix': '{count, plural, one {Há um problema a corrigir} other {Há # problemas a corrigir}}',
  'ui.copy.copy': 'Copiar',
  'ui.copy.copyNamed': 'Copiar {label}',
  'ui.copy.copied': 'Copiado.',
  'ui.copy.selected': 'Selecionado: prima Ctrl+C para copiar.',
  'ui.copy.link': 'Copiar link',
  'ui.link.localOnly':
    'Só este computador abre links para {origin}: o telemóvel de um cliente não consegue. Defina o URL público do gateway ({env}, ou "{file}" em settings.json) com um endereço a que os clientes tenham acesso.',
} as const satisfies Record<keyof typeof en, string>;
