/** QR codes as PNG data URLs (the `qrcode` package), for the invoice pay links. */
import QRCode from 'qrcode';
import type { QrCodes } from '../core/kernel.js';

export const qrCodes: QrCodes = {
  pngDataUrl: (text, width) => QRCode.toDataURL(text, { width, type: 'image/png' }),
};
