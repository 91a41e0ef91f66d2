/** Portuguese (Portugal): this till and the shop: joining, the centre banner, the till gate (keys as ./en.ts). */
import type { en } from './en.js';

export const pt = {
  'tills.duration.lessThanMinute': '< 1 min',
  'tills.duration.minutes': '{minutes} min',
  'tills.duration.hours': '{hours} h {minutes} min',
  'tills.unreachable.title': 'Gateway indisponível',
  'tills.unreachable.text':
    'Este ecrã não consegue contactar o gateway, por isso não é possível aceitar pagamentos com cartão aqui até que volte a responder. Entretanto, nada é cobrado; verifique a rede ou o computador do gateway.',
  'tills.away.title': 'A central não responde: as vendas com cartão são guardadas nesta caixa',
  'tills.away.none': 'Ainda nada guardado.',
  'tills.away.stored': '{count, plural, one {# venda guardada} other {# vendas guardadas}} · {totals} · a mais antiga há {age}.',
  'tills.away.limit':
    '{fresh, select, yes {É possível guardar vendas durante até {left}} other {É possível guardar vendas durante mais {left}}}, até {perPayment} cada.',
  'tills.away.left':
    '{fresh, select, yes {É possível guardar vendas durante até {left}} other {É possível guardar vendas durante mais {left}}}.',
  'tills.away.sent': 'São encaminhadas assim que a central responder.',
  'tills.sending': 'A encaminhar {count, plural, one {# venda guardada} other {# vendas guardadas}} ({totals}) para a central…',
  'tills.sending.label': 'A encaminhar vendas guardadas',
  'tills.declined.title': 'Uma venda guardada foi recusada: {amount}',
  'tills.declined.text':
    '{card} · encomenda {order} · registada às {time} · o banco respondeu «{reason}». O cliente já recebeu os artigos: peça-lhe outro pagamento. Está listada em «Requer atenção» no backoffice.',
  'tills.declined.reason': 'recusado',
  'tills.declined.seen': 'Visto',
  'tills.declined.seenLabel': 'Visto: venda guardada recusada de {amount}, encomenda {order}',
  'tills.declined.seenFailed': 'Não foi possível marcar como visto',
  'tills.holder': 'aberta noutro ecrã, ativa às {time}',
  'tills.holder.named': 'aberta noutro ecrã ({name}), ativa às {time}',
  'tills.opening': 'A abrir a caixa…',
  'tills.failed': 'Não foi possível abrir a caixa',
  'tills.choose.title': 'Que caixa é esta?',
  'tills.choose.lead':
    'Esta loja tem {count, plural, one {# caixa} other {# caixas}}. Escolha a caixa em que este ecrã vende; este navegador memoriza-a.',
  'tills.inUse.title': '{till} está aberta noutro ecrã',
  'tills.inUse.text':
    '{reason}. Dois ecrãs na mesma caixa partilhariam as vendas e o dia. Use-a aqui apenas se esse ecrã não estiver a ser utilizado; esse ecrã é então informado de que este ficou com a caixa.',
  'tills.inUse.useAnyway': 'Usar {till} aqui mesmo assim',
  'tills.inUse.other': 'Ou escolha outra caixa',
  'tills.lost.title': 'Este ecrã já não é {till}',
  'tills.lost.choose': 'Escolher uma caixa',
  'tills.lost.takeBack': 'Recuperar {till}',
  'tills.lost.message': '{reason}. Este ecrã já não vende em {till}.',
  'tills.badge.title': 'ID do terminal {id}',
  'tills.badge.change': 'Mudar',
  'tills.badge.changeLabel': 'Mudar de caixa',
  'tills.openFailed': 'Não foi possível abrir a caixa. Tente novamente.',
  'tills.listFailed': 'Não foi possível ler as caixas. Verifique a ligação e tente novamente.',
  'tills.join.title': 'Ligar à central de uma loja',
  'tills.join.lead':
    'Este computador passa a ser mais uma caixa de uma loja cuja central funciona noutro computador. Nesse computador, abra Definições → Caixas, escolha a caixa e «Ligar a partir de outro computador», e introduza aqui o endereço da central e o código de emparelhamento.',
  'tills.join.address': 'Endereço da central',
  'tills.join.code': 'Código de emparelhamento',
  'tills.join.joining': 'A ligar…',
  'tills.join.submit': 'Ligar à loja',
  'tills.join.addressMissing': 'Introduza o endereço da central, por exemplo https://backoffice.local:8420.',
  'tills.join.codeMissing': 'Introduza o código de emparelhamento de Definições → Caixas na central.',
  'tills.join.addressProblem': 'Endereço da central: {problem}.',
  'tills.join.codeProblem': 'Código de emparelhamento: {problem}. Crie um novo na central.',
  'tills.join.failed': 'Este computador não foi ligado à loja.',
} as const satisfies Record<keyof typeof en, string>;
