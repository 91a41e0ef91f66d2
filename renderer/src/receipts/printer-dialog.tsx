/**
 * The shop's receipt printer (PUT /ui/receipt-printer, admin): ESC/POS over the network (host and
 * port 9100) or a USB printer's device file, the paper width in characters, and whether approved
 * sales print at once. Everyone may send a test print; the gateway prints, not this window.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { ApiError, client, type ReceiptPrinterInput, type ReceiptPrinterSetting } from '../api/client.js';
import { useSession } from '../session-store.js';
import { PrinterIcon } from '../ui/icons.js';
import { Modal } from '../ui/modal.js';
import { printerName, usePrinter } from './receipt-printer-store.js';

type Connection = ReceiptPrinterSetting['connection'];

function describe(setting: ReceiptPrinterSetting | null): string {
  const name = printerName(setting);
  if (!setting || !name) return "No receipt printer is set up: receipts print through this computer's print dialog.";
  const kind = setting.connection === 'network' ? 'Network printer' : 'USB printer';
  return `${kind} ${name}, ${setting.characters_per_line} characters per line, auto-print ${setting.auto_print ? 'on' : 'off'}.`;
}

/** The cashier bar's button that opens the printer dialog. */
export function PrinterButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button button-quiet printer-open" onClick={() => setOpen(true)}>
        <PrinterIcon size={20} /> Printer
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
      setMessage({ text: 'The port is a number from 1 to 65535 (receipt printers use 9100).', problem: true });
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      saved(await client.setReceiptPrinter(input));
      setMessage({ text: 'Saved.', problem: false });
    } catch (error) {
      const fields = error instanceof ApiError ? error.errors.map((e) => `${e.field} ${e.message}`).join('; ') : '';
      setMessage({ text: fields ? `Not saved: ${fields}.` : error instanceof Error ? error.message : 'Not saved.', problem: true });
    } finally {
      setBusy(false);
    }
  };

  const testPrint = async () => {
    if (busy) return;
    setBusy(true);
    setMessage(null);
    try {
      const result = await client.testPrint();
      setMessage({ text: result.printed ? `Test page printed on ${result.printer}.` : `${result.message}.`, problem: !result.printed });
    } catch (error) {
      setMessage({ text: error instanceof Error ? error.message : 'The test print failed.', problem: true });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title="Receipt printer" onClose={onClose} busy={busy} className="modal-narrow">
      <p className="printer-summary">{describe(setting)}</p>
      {admin ? (
        <form className="printer-form" onSubmit={(event) => void save(event)} noValidate>
          <label className="field">
            <span className="field-label">Connection</span>
            <select className="input" value={connection} data-autofocus onChange={(event) => setConnection(event.target.value as Connection)}>
              <option value="none">No receipt printer</option>
              <option value="network">Network (ESC/POS, TCP)</option>
              <option value="usb">USB</option>
            </select>
          </label>
          {connection === 'network' && (
            <div className="field-row">
              <label className="field">
                <span className="field-label">Host or IP address</span>
                <input className="input" value={host} autoComplete="off" spellCheck={false} placeholder="192.168.1.50" onChange={(event) => setHost(event.target.value)} />
              </label>
              <label className="field">
                <span className="field-label">Port</span>
                <input className="input" value={port} inputMode="numeric" autoComplete="off" onChange={(event) => setPort(event.target.value)} />
              </label>
            </div>
          )}
          {connection === 'usb' && (
            <label className="field">
              <span className="field-label">Device</span>
              <input className="input" value={device} autoComplete="off" spellCheck={false} onChange={(event) => setDevice(event.target.value)} />
              <span className="field-note">Linux: /dev/usb/lp0; Windows: COM3 or a shared printer such as \\localhost\Receipts.</span>
            </label>
          )}
          {connection !== 'none' && (
            <>
              <label className="field">
                <span className="field-label">Paper width</span>
                <select className="input" value={width} onChange={(event) => setWidth(Number(event.target.value))}>
                  <option value={32}>58 mm roll (32 characters)</option>
                  <option value={42}>80 mm roll (42 characters)</option>
                  <option value={48}>80 mm roll (48 characters)</option>
                </select>
              </label>
              <label className="printer-check">
                <input type="checkbox" checked={autoPrint} onChange={(event) => setAutoPrint(event.target.checked)} />
                Print the receipt of every approved sale at once
              </label>
            </>
          )}
          <p className={message?.problem ? 'form-problem' : 'field-note'} role={message?.problem ? 'alert' : 'status'}>
            {message?.text ?? ''}
          </p>
          <div className="modal-actions">
            <button type="button" className="button button-lg" onClick={() => void testPrint()} disabled={!printerName(setting)}>
              Test print
            </button>
            <button type="submit" className="button button-primary button-lg" aria-disabled={busy}>
              {busy ? 'Saving…' : 'Save'}
            </button>
          </div>
        </form>
      ) : (
        <>
          <p className="muted">An admin sets up the receipt printer.</p>
          <p className={message?.problem ? 'form-problem' : 'field-note'} role={message?.problem ? 'alert' : 'status'}>
            {message?.text ?? ''}
          </p>
          <div className="modal-actions">
            <button type="button" className="button button-lg" onClick={() => void testPrint()} disabled={!printerName(setting)}>
              Test print
            </button>
            <button type="button" className="button button-primary button-lg" data-autofocus onClick={onClose}>
              Close
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}
