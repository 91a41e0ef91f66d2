/**
 * The centre is the only authority (D20; docs/decisions.md "The centre holds the keys").
 *
 * `centre_link.shop_till_ids` (at a till): the shop's till ids from the centre's replica (JSON
 * array), so that a sale the till stores while the centre is away may not name another till, the
 * same rule the centre holds online.
 *
 * Nothing else changes shape: the replica's staff hashes are kept sealed by the data key in the
 * existing columns (`sealed$` + the vault's AES-256-GCM form), and what the replica leaves out is
 * disabled or revoked in place (rows other tables point at are not deleted).
 */
export const up = `ALTER TABLE centre_link ADD COLUMN shop_till_ids TEXT;`;
