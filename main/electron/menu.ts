/** The application menu: Open and Quit for the gateway, plus the edit roles text fields need. */
import type { MenuItemTemplate } from './ports.js';

export interface MenuActions {
  openWindow(): void;
  quit(): void;
}

export function applicationMenuTemplate(actions: MenuActions, platform: NodeJS.Platform = process.platform): MenuItemTemplate[] {
  const tillgate: MenuItemTemplate = {
    label: 'Tillgate',
    submenu: [
      ...(platform === 'darwin' ? [{ role: 'about' as const }, { type: 'separator' as const }] : []),
      { label: 'Open Tillgate', accelerator: 'CmdOrCtrl+O', click: actions.openWindow },
      { type: 'separator' },
      ...(platform === 'darwin'
        ? [{ role: 'hide' as const }, { role: 'hideOthers' as const }, { role: 'unhide' as const }, { type: 'separator' as const }]
        : []),
      // Quit goes through before-quit, which drains the REST API and closes the database first.
      { label: 'Quit Tillgate', accelerator: 'CmdOrCtrl+Q', click: actions.quit },
    ],
  };
  // Without an Edit menu, copy and paste shortcuts do nothing on macOS.
  const edit: MenuItemTemplate = {
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'selectAll' },
    ],
  };
  return [tillgate, edit];
}
