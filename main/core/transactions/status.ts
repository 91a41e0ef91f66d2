/** Transaction status codes and names (decisions.md D2, the complete list). */
export const TransactionStatus = {
  started: 1,
  pending: 2,
  completed: 3,
  authorized: 4,
  reversed: 5,
  declined: 6,
  refunded: 7,
  partly_refunded: 8,
  cancelled: 9,
  expired: 10,
  error: 11,
  chargeback: 12,
} as const;
export type TransactionStatusName = keyof typeof TransactionStatus;
export type TransactionStatusCode = (typeof TransactionStatus)[TransactionStatusName];

const nameByCode = new Map<number, TransactionStatusName>(
  Object.entries(TransactionStatus).map(([name, code]) => [code, name as TransactionStatusName]),
);

export function statusName(code: number): TransactionStatusName {
  const name = nameByCode.get(code);
  if (!name) throw new Error(`unknown transaction status code ${code}`);
  return name;
}

export function isStatusCode(code: number): code is TransactionStatusCode {
  return nameByCode.has(code);
}
