/**
 * The staff calls of the till and the back office (main/http/routes/staff): the session (who is
 * logged in, log in, log out), the logged-in staff member's own PIN and language, a manager's
 * single-use approval of one till action, and the staff accounts of Settings (the list, a new one).
 * Typed by the contract (contract/api/staff.ts); same
 * transports and error shape as the other clients (api/call.ts, api/transport.ts).
 */
import type { Approval, CreatedStaff, CreateStaffRequest, Credentials, Session, StaffMember } from '../../../contract/api/staff.js';
import type { ApprovalAction, StaffRole } from '../../../contract/constants.js';
import type { StaffLanguage } from '../../../contract/i18n/languages.js';
import { caller } from '../api/call.js';
import { defaultTransport, type Transport } from '../api/transport.js';

export type { Approval, CreatedStaff, Credentials, Session, StaffMember, StaffRole };

export interface StaffClient {
  /** The current staff session, or null when nobody is logged in (or the session ended). */
  session(): Promise<Session | null>;
  login(credentials: Credentials): Promise<Session>;
  logout(): Promise<void>;
  /** Sets the logged-in staff member's own PIN, confirmed with their password. */
  setOwnPin(password: string, pin: string): Promise<void>;
  /** The logged-in staff member's own language for the staff screens (null: the shop's); answers the one kept. */
  setOwnLanguage(language: StaffLanguage | null): Promise<StaffLanguage | null>;
  /** A manager's single-use approval of one till action. */
  approve(action: ApprovalAction, credentials: Credentials): Promise<Approval>;
  /** The merchant's staff accounts (managers). */
  list(): Promise<StaffMember[]>;
  /** A new staff account (admin). */
  create(request: CreateStaffRequest): Promise<CreatedStaff>;
}

export function createStaffClient(transport: Transport = defaultTransport()): StaffClient {
  const call = caller(transport);
  return {
    // Not logged in is an answer here (session null), not a 401 in the console.
    session: async () => (await call('staff.whoami')).session,
    login: (credentials) => call('staff.login', { body: credentials }),
    async logout() {
      await call('staff.logout');
    },
    async setOwnPin(password, pin) {
      await call('staff.setOwnPin', { body: { password, pin } });
    },
    setOwnLanguage: async (language) => (await call('staff.setOwnLanguage', { body: { language } })).language,
    approve: (action, credentials) => call('staff.approve', { body: { action, ...credentials } }),
    list: () => call('staff.list'),
    create: (request) => call('staff.create', { body: request }),
  };
}

export const staffClient: StaffClient = createStaffClient();
