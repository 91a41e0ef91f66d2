/**
 * The desktop app's first start: main/first-run.ts creates the shop and its accounts; the shell
 * shows their credentials once, in this dialog.
 */
import type { MessageBoxOptions } from './ports.js';

export {
  FIRST_RUN_ADMIN_LOGIN,
  FIRST_RUN_MERCHANT_NAME,
  FIRST_RUN_TILL_LOGIN,
  FIRST_RUN_TILL_PIN,
  setUpFirstRun,
  type FirstRunCredentials,
} from '../first-run.js';
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

/** The first start's question: this computer is the shop's gateway (button 0), or it joins one (button 1). */
export const FIRST_START_OWN = 0;
export function firstStartChoice(): MessageBoxOptions {
  return {
    type: 'question',
    title: 'Welcome to Tillgate',
    message: 'How does this computer take part in the shop?',
    detail: [
      "This computer is the shop's gateway: it keeps the shop's payments and back office (the first or only till).",
      '',
      "Join a shop's gateway: this computer is another till of a shop whose gateway runs on another computer. You need its address and a pairing code (Settings -> Tills there). It keeps selling while that computer cannot be reached.",
    ].join('\n'),
    buttons: ["This computer is the shop's gateway", "Join a shop's gateway"],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
  };
}
