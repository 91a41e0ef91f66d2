/**
 * The first-run cashier was named "Till 1", which read like a till beside "Till TILL-1" on the Z
 * report (issue 25). Accounts that still have that untouched default become "Cashier"; a name an
 * admin chose stays. Closed Z reports keep the names of their day (they never change).
 */
export const up = `
UPDATE staff SET display_name = 'Cashier' WHERE login = 'till' AND display_name = 'Till 1';
`;
