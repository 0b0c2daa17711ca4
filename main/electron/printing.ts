import type { WebContentsPrintOptions } from 'electron';
import type { PrintResult } from './channels';

/** The part of `webContents` that prints. */
export interface Printable {
  print(options: WebContentsPrintOptions, callback: (success: boolean, failureReason: string) => void): void;
}

/** The system print dialog, with backgrounds (state colours on the manifest rows). */
export const PRINT_OPTIONS: WebContentsPrintOptions = { silent: false, printBackground: true };

/** Prints what the window shows (the manifest's print stylesheet decides the page) and says how it went. */
export function printContents(contents: Printable): Promise<PrintResult> {
  return new Promise((resolve) => {
    try {
      contents.print(PRINT_OPTIONS, (success, failureReason) => resolve(success ? { printed: true } : { printed: false, reason: failureReason || 'failed' }));
    } catch (error) {
      resolve({ printed: false, reason: error instanceof Error ? error.message : String(error) });
    }
  });
}
