/**
 * PostgreSQL: a change to the configuration a sale reads before its unit is told to every instance
 * (issue 38; docs/decisions.md "The sale's configuration, remembered"). Each instance remembers
 * those reads between sales (main/core/configuration-cache.ts) and listens on
 * `tillgate_configuration` (db/postgres/configuration-listener.ts); a statement trigger on each of
 * the tables sends a notification there, which PostgreSQL delivers when the change commits (and
 * never when it rolls back). The tables and columns are db/configuration-tables.ts's: for tills and
 * their links only the columns a sale reads (a screen's hold and heartbeat, a joined till's
 * heartbeat and forwards are not configuration, and are frequent).
 *
 * One notification per statement, not per row; notifications of one transaction with the same
 * payload are folded into one. A change costs its transaction a queue entry at commit; a sale
 * writes none of these tables.
 *
 * SQLite: nothing (one process writes; the store counts its own configuration writes and reads
 * `PRAGMA data_version` for other processes', db/sqlite-store.ts).
 */
export const up = `SELECT 1;`;

export const postgres = `
CREATE FUNCTION configuration_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('tillgate_configuration', TG_TABLE_NAME);
  RETURN NULL;
END
$$;

CREATE TRIGGER terminals_configuration AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON terminals
  FOR EACH STATEMENT EXECUTE FUNCTION configuration_changed();
CREATE TRIGGER payment_method_settings_configuration AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON payment_method_settings
  FOR EACH STATEMENT EXECUTE FUNCTION configuration_changed();
CREATE TRIGGER receipt_printers_configuration AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON receipt_printers
  FOR EACH STATEMENT EXECUTE FUNCTION configuration_changed();
CREATE TRIGGER tills_configuration AFTER INSERT OR UPDATE OF merchant_id, till_id, retired_at OR DELETE OR TRUNCATE ON tills
  FOR EACH STATEMENT EXECUTE FUNCTION configuration_changed();
CREATE TRIGGER till_links_configuration AFTER INSERT OR UPDATE OF merchant_id, till_id OR DELETE OR TRUNCATE ON till_links
  FOR EACH STATEMENT EXECUTE FUNCTION configuration_changed();
`;
