/**
 * The shop's receipt printer (PUT /ui/receipt-printer, admin): ESC/POS over the network (host and
 * port 9100) or a USB printer's device file, the paper width in characters, and whether approved
 * sales print at once. Everyone may send a test print; the gateway prints, not this window.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { ApiError } from '../api/transport.js';
import { receiptsClient, type ReceiptPrinterInput, type ReceiptPrinterSetting } from './receipts-client.js';
import type { Translate } from '../../../contract/i18n/format.js';
import { useSession } from '../session-store.js';
import { useT } from '../ui/i18n.js';
import { PrinterIcon } from '../ui/icons.js';
import { Modal } from '../ui/modal.js';
import { printerName, usePrinter } from './receipt-printer-store.js';

type Connection = ReceiptPrinterSetting['connection'];

/** Examples in the fields (addresses, not words). */
const HOST_EXAMPLE = '192.168.1.50';

/** The paper rolls: millimetres and characters per line. */
const ROLLS: readonly { mm: number; chars: number }[] = [
  { mm: 58, chars: 32 },
  { mm: 80, chars: 42 },
  { mm: 80, chars: 48 },
];

function describe(t: Translate, setting: ReceiptPrinterSetting | null): string {
  const name = printerName(setting);
  if (!setting || !name) return t('receipts.printer.none');
  return t('receipts.printer.summary', {
    kind: setting.connection === 'network' ? 'network' : 'usb',
    name,
    width: setting.characters_per_line,
    auto: setting.auto_print ? 'on' : 'off',
  });
}

/** The cashier bar's button that opens the printer dialog. */
export function PrinterButton() {
  const [open, setOpen] = useState(false);
  const t = useT();
  return (
    <>
      <button type="button" className="button button-quiet printer-open" onClick={() => setOpen(true)}>
        <PrinterIcon size={20} /> {t('receipts.printer.button')}
      </button>
      {open && <PrinterDialog onClose={() => setOpen(false)} />}
    </>
  );
}

export function PrinterDialog({ onClose }: { onClose: () => void }) {
  const admin = useSession((s) => s.session?.staff.role === 'admin');
  const setting = usePrinter((s) => s.setting);
  const load = usePrinter((s) => s.load);
  const saved = usePrinter((s) => s.saved);
  const [connection, setConnection] = useState<Connection>('none');
  const [host, setHost] = useState('');
  const [port, setPort] = useState('9100');
  const [device, setDevice] = useState('/dev/usb/lp0');
  const [width, setWidth] = useState(42);
  const [autoPrint, setAutoPrint] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; problem: boolean } | null>(null);
  const t = useT();

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (!setting) return;
    setConnection(setting.connection);
    if (setting.host) setHost(setting.host);
    if (setting.port) setPort(String(setting.port));
    if (setting.device) setDevice(setting.device);
    setWidth(setting.characters_per_line);
    setAutoPrint(setting.auto_print);
  }, [setting]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const input: ReceiptPrinterInput =
      connection === 'network'
        ? { connection, host: host.trim(), port: Number(port), characters_per_line: width, auto_print: autoPrint }
        : connection === 'usb'
          ? { connection, device: device.trim(), characters_per_line: width, auto_print: autoPrint }
          : { connection };
    if (connection === 'network' && !(Number.isInteger(input.port) && Number(port) >= 1 && Number(port) <= 65535)) {
      setMessage({ text: t('receipts.printer.portProblem'), problem: true });
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      saved(await receiptsClient.setPrinter(input));
      setMessage({ text: t('common.saved'), problem: false });
    } catch (error) {
      const fields = error instanceof ApiError ? error.errors.map((e) => `${e.field} ${e.message}`).join('; ') : '';
      setMessage({
        text: fields
          ? t('receipts.printer.notSavedFields', { fields })
          : error instanceof Error
            ? error.message
            : t('receipts.printer.notSaved'),
        problem: true,
      });
    } finally {
      setBusy(false);
    }
  };

  const testPrint = async () => {
    if (busy) return;
    setBusy(true);
    setMessage(null);
    try {
      const result = await receiptsClient.testPrint();
      // The printer's own answer (the gateway's words) goes as it came.
      setMessage({
        text: result.printed ? t('receipts.printer.testPrinted', { printer: result.printer }) : `${result.message}.`,
        problem: !result.printed,
      });
    } catch (error) {
      setMessage({ text: error instanceof Error ? error.message : t('receipts.printer.testFailed'), problem: true });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title={t('receipts.printer.title')} onClose={onClose} busy={busy} className="modal-narrow">
      <p className="printer-summary">{describe(t, setting)}</p>
      {admin ? (
        <form className="printer-form" onSubmit={(event) => void save(event)} noValidate>
          <label className="field">
            <span className="field-label">{t('receipts.printer.connection')}</span>
            <select
              className="input"
              value={connection}
              data-autofocus
              onChange={(event) => setConnection(event.target.value as Connection)}
            >
              <option value="none">{t('receipts.printer.connection.none')}</option>
              <option value="network">{t('receipts.printer.connection.network')}</option>
              <option value="usb">{t('receipts.printer.connection.usb')}</option>
            </select>
          </label>
          {connection === 'network' && (
            <div className="field-row">
              <label className="field">
                <span className="field-label">{t('receipts.printer.host')}</span>
                <input
                  className="input"
                  value={host}
                  autoComplete="off"
                  spellCheck={false}
                  placeholder={HOST_EXAMPLE}
                  onChange={(event) => setHost(event.target.value)}
                />
              </label>
              <label className="field">
                <span className="field-label">{t('receipts.printer.port')}</span>
                <input
                  className="input"
                  value={port}
                  inputMode="numeric"
                  autoComplete="off"
                  onChange={(event) => setPort(event.target.value)}
                />
              </label>
            </div>
          )}
          {connection === 'usb' && (
            <label className="field">
              <span className="field-label">{t('receipts.printer.device')}</span>
              <input
                className="input"
                value={device}
                autoComplete="off"
                spellCheck={false}
                onChange={(event) => setDevice(event.target.value)}
              />
              <span className="field-note">{t('receipts.printer.deviceNote')}</span>
            </label>
          )}
          {connection !== 'none' && (
            <>
              <label className="field">
                <span className="field-label">{t('receipts.printer.width')}</span>
                <select className="input" value={width} onChange={(event) => setWidth(Number(event.target.value))}>
                  {ROLLS.map((roll) => (
                    <option key={roll.chars} value={roll.chars}>
                      {t('receipts.printer.roll', roll)}
                    </option>
                  ))}
                </select>
              </label>
              <label className="printer-check">
                <input type="checkbox" checked={autoPrint} onChange={(event) => setAutoPrint(event.target.checked)} />
                {t('receipts.printer.autoPrint')}
              </label>
            </>
          )}
          <p className={message?.problem ? 'form-problem' : 'field-note'} role={message?.problem ? 'alert' : 'status'}>
            {message?.text ?? ''}
          </p>
          <div className="modal-actions">
            <button type="button" className="button button-lg" onClick={() => void testPrint()} disabled={!printerName(setting)}>
              {t('receipts.printer.test')}
            </button>
            <button type="submit" className="button button-primary button-lg" aria-disabled={busy}>
              {t(busy ? 'common.saving' : 'common.save')}
            </button>
          </div>
        </form>
      ) : (
        <>
          <p className="muted">{t('receipts.printer.adminOnly')}</p>
          <p className={message?.problem ? 'form-problem' : 'field-note'} role={message?.problem ? 'alert' : 'status'}>
            {message?.text ?? ''}
          </p>
          <div className="modal-actions">
            <button type="button" className="button button-lg" onClick={() => void testPrint()} disabled={!printerName(setting)}>
              {t('receipts.printer.test')}
            </button>
            <button type="button" className="button button-primary button-lg" data-autofocus onClick={onClose}>
              {t('common.close')}
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}
