/**
 * The desktop app's first start: main/first-run.ts creates the shop and its accounts; the shell
 * shows their credentials once, in this dialog.
 */
import type { MessageBoxOptions } from './ports.js';

export { FIRST_RUN_ADMIN_LOGIN, FIRST_RUN_MERCHANT_NAME, FIRST_RUN_TILL_LOGIN, FIRST_RUN_TILL_PIN, setUpFirstRun, type FirstRunCredentials } from '../first-run.js';
import type { FirstRunCredentials } from '../first-run.js';

/** The one-time dialog with the credentials (never logged). */
export function firstRunMessage(credentials: FirstRunCredentials): MessageBoxOptions {
  return {
    type: 'info',
    title: 'Tillgate is set up',
    message: `First start: created the shop "${credentials.merchantName}". Its credentials are shown this once; write them down now.`,
    detail: [
      `Till login (cashier): ${credentials.cashier.login} / ${credentials.cashier.password}  or PIN ${credentials.cashier.pin}`,
      `Admin login: ${credentials.admin.login} / ${credentials.admin.password}`,
      '',
      'For POS software (HTTP Basic on the REST API):',
      `API key: ${credentials.apiKey}`,
      `API password: ${credentials.apiPassword}`,
      `Webhook key: ${credentials.webhookKey}`,
    ].join('\n'),
    buttons: ['I have written them down'],
    defaultId: 0,
    noLink: true,
  };
}
