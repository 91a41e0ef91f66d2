/**
 * Temporary directories for tests, removed when the test file's process exits (each test file
 * runs in a process of its own), so a full run leaves nothing behind in the system's temp folder.
 * KEEP_TEST_DIRS=1 keeps them for a post-mortem.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const created: string[] = [];
let registered = false;

export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  if (!registered && process.env.KEEP_TEST_DIRS !== '1') {
    registered = true;
    process.once('exit', () => {
      for (const path of created) rmSync(path, { recursive: true, force: true, maxRetries: 2 });
    });
  }
  return dir;
}
