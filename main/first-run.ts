/**
 * What a host does on its first start (no merchant in the database yet): create the merchant
 * "My Shop" with an `admin` and a `till` cashier (PIN 2580). Both hosts use it; they show the
 * credentials once (the headless host in the terminal, the desktop app in a dialog), because only
 * hashes are stored.
 */
import type { Gateway } from './core/gateway.js';

export const FIRST_RUN_MERCHANT_NAME = 'My Shop';
export const FIRST_RUN_ADMIN_LOGIN = 'admin';
export const FIRST_RUN_TILL_LOGIN = 'till';
export const FIRST_RUN_TILL_PIN = '2580';

export interface FirstRunCredentials {
  merchantId: string;
  merchantName: string;
  apiKey: string;
  apiPassword: string;
  webhookKey: string;
  admin: { login: string; password: string };
  cashier: { login: string; password: string; pin: string };
}

/** Creates the first merchant and its two staff accounts when there is no merchant; else undefined. */
export async function setUpFirstRun(gateway: Gateway): Promise<FirstRunCredentials | undefined> {
  if ((await gateway.merchants.list()).length > 0) return undefined;
  const merchant = await gateway.merchants.create({ name: FIRST_RUN_MERCHANT_NAME });
  if (!merchant.ok) throw new Error(`could not create the first merchant: ${merchant.error.message}`);
  const m = merchant.value;
  const admin = await gateway.staff.create({
    merchantId: m.merchant_id,
    role: 'admin',
    login: FIRST_RUN_ADMIN_LOGIN,
    displayName: 'Administrator',
  });
  if (!admin.ok) throw new Error(`could not create the first admin: ${admin.error.message}`);
  const cashier = await gateway.staff.create({
    merchantId: m.merchant_id,
    role: 'cashier',
    login: FIRST_RUN_TILL_LOGIN,
    // A person's name, never a till's: reports say "Closed by ..." beside "Till TILL-1".
    displayName: 'Cashier',
    pin: FIRST_RUN_TILL_PIN,
  });
  if (!cashier.ok) throw new Error(`could not create the first cashier: ${cashier.error.message}`);
  return {
    merchantId: m.merchant_id,
    merchantName: m.name,
    apiKey: m.api_key,
    apiPassword: m.api_password,
    webhookKey: m.webhook_key,
    admin: { login: admin.value.login, password: admin.value.password },
    cashier: { login: cashier.value.login, password: cashier.value.password, pin: FIRST_RUN_TILL_PIN },
  };
}
