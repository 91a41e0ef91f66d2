// electron-builder hooks (electron-builder.yml). beforePack: refuse to package an app without the
// Electron-ABI build of better-sqlite3 for the target, since it would fail at its first start.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// electron-builder's Arch enum (builder-util): the numbers it passes in the hook context.
const ARCH_NAMES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];

export async function beforePack(context) {
  const platform = context.electronPlatformName;
  const arch = typeof context.arch === 'number' ? ARCH_NAMES[context.arch] : String(context.arch);
  const projectDir = context.packager.projectDir;
  const dir = join(projectDir, 'native', 'electron', `${platform}-${arch}`);
  const binary = join(dir, 'better_sqlite3.node');
  if (!existsSync(binary)) {
    throw new Error(
      `${binary} is missing: run \`node scripts/build-native-electron.mjs --platform ${platform} --arch ${arch}\` (needs network access) before packaging`,
    );
  }
  const wanted = context.packager.config.electronVersion;
  const infoFile = join(dir, 'build-info.json');
  const built = existsSync(infoFile) ? JSON.parse(readFileSync(infoFile, 'utf8')).electron : undefined;
  if (wanted && built !== wanted) {
    throw new Error(`${binary} was built for Electron ${built ?? 'an unknown version'}, the app packages Electron ${wanted}: rebuild it`);
  }
}
