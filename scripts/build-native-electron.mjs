#!/usr/bin/env node
// Builds better-sqlite3 for Electron's ABI into native/electron/<platform>-<arch>/better_sqlite3.node,
// next to (never over) the Node build in node_modules/better-sqlite3/build that tests and the
// headless gateway use. The Electron shell loads it through better-sqlite3's `nativeBinding`
// option (main/electron/native.ts); electron-builder packs it as an extra resource.
//
// NEEDS NETWORK ACCESS. It cannot run on an offline machine (such as the one this project is
// developed on): it downloads either better-sqlite3's Electron prebuild from GitHub releases or
// Electron's headers from electronjs.org. Run it in CI or on a machine with internet access, before
// `npm run dist`, once per target platform and architecture:
//
//   node scripts/build-native-electron.mjs                        # this machine's platform/arch
//   node scripts/build-native-electron.mjs --platform win32 --arch x64   # a prebuild for another OS
//   node scripts/build-native-electron.mjs --from-source          # compile (needs a C++ toolchain)
//
// How: copy node_modules/better-sqlite3 (without its build folder) to a temporary folder, then in
// that copy run prebuild-install with `--runtime electron --target <electron version>`; if no
// prebuild can be had, compile it there with node-gyp against Electron's headers. Rebuilding in
// place (electron-rebuild's default) would flip node_modules to Electron's ABI and break `npm test`
// (WiseLibs/better-sqlite3#545, #662), which is why the copy exists.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

const { values } = parseArgs({
  options: {
    platform: { type: 'string', default: process.platform },
    arch: { type: 'string', default: process.arch },
    electron: { type: 'string' },
    'from-source': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log('usage: node scripts/build-native-electron.mjs [--platform P] [--arch A] [--electron VERSION] [--from-source]');
  process.exit(0);
}

function electronVersion() {
  if (values.electron) return values.electron;
  const installed = join(root, 'node_modules', 'electron', 'package.json');
  if (existsSync(installed)) return JSON.parse(readFileSync(installed, 'utf8')).version;
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const wanted = manifest.optionalDependencies?.electron ?? manifest.devDependencies?.electron;
  if (!wanted) throw new Error('no electron version: pass --electron VERSION');
  return wanted.replace(/^[~^=]/, '');
}

const electron = electronVersion();
const { platform, arch } = values;
const moduleDir = join(root, 'node_modules', 'better-sqlite3');
const sqliteVersion = JSON.parse(readFileSync(join(moduleDir, 'package.json'), 'utf8')).version;
const outDir = join(root, 'native', 'electron', `${platform}-${arch}`);
const abi = require('node-abi').getAbi(electron, 'electron');

console.log(`better-sqlite3 ${sqliteVersion} for Electron ${electron} (ABI ${abi}) on ${platform}-${arch}`);

const staging = mkdtempSync(join(tmpdir(), 'tillgate-native-'));
const stagedModule = join(staging, 'better-sqlite3');
cpSync(moduleDir, stagedModule, {
  recursive: true,
  // The Node build stays where it is; the copy starts without one.
  filter: (source) => {
    const inside = relative(moduleDir, source);
    return !['build', 'node_modules'].some((skipped) => inside === skipped || inside.startsWith(`${skipped}${sep}`));
  },
});

function run(label, script, args) {
  console.log(`> ${label}`);
  const result = spawnSync(process.execPath, [script, ...args], {
    cwd: stagedModule,
    stdio: 'inherit',
    env: { ...process.env, npm_config_build_from_source: '' },
  });
  return result.status === 0;
}

let method;
try {
  if (!values['from-source']) {
    const prebuildInstall = require.resolve('prebuild-install/bin.js');
    if (
      run('prebuild-install (download the Electron prebuild)', prebuildInstall, [
        '--runtime=electron',
        `--target=${electron}`,
        `--platform=${platform}`,
        `--arch=${arch}`,
        '--tag-prefix=v',
        '--verbose',
      ])
    )
      method = 'prebuild-install';
  }
  if (!method) {
    if (platform !== process.platform || arch !== process.arch) {
      throw new Error(`no prebuild for ${platform}-${arch}, and compiling for another platform or architecture is not possible here`);
    }
    const nodeGyp = require.resolve('node-gyp/bin/node-gyp.js');
    if (
      run('node-gyp (compile against Electron headers)', nodeGyp, [
        'rebuild',
        '--release',
        '--runtime=electron',
        `--target=${electron}`,
        `--arch=${arch}`,
        '--dist-url=https://electronjs.org/headers',
      ])
    )
      method = 'node-gyp';
  }
  const built = join(stagedModule, 'build', 'Release', 'better_sqlite3.node');
  if (!method || !existsSync(built)) {
    throw new Error(
      'could not get an Electron build of better-sqlite3. Both ways need the network (GitHub releases for the prebuild, ' +
        'electronjs.org for the headers); on an offline machine this script cannot succeed. Run it where the network is ' +
        'reachable (CI, a developer machine) and copy native/electron/ back, or build the installer there.',
    );
  }

  // Under this Node the Electron build must refuse to load (other ABI); loading means we got the wrong one.
  if (platform === process.platform && arch === process.arch) {
    try {
      require(built);
      throw new Error(`${built} loads in Node ${process.version}: it is a Node build, not an Electron one`);
    } catch (error) {
      if (!/NODE_MODULE_VERSION/.test(String(error?.message))) throw error;
    }
  }

  mkdirSync(outDir, { recursive: true });
  // Build output, not source: keep it out of git.
  const ignoreFile = join(root, 'native', '.gitignore');
  if (!existsSync(ignoreFile)) writeFileSync(ignoreFile, '# made by scripts/build-native-electron.mjs\n*\n');
  copyFileSync(built, join(outDir, 'better_sqlite3.node'));
  writeFileSync(
    join(outDir, 'build-info.json'),
    `${JSON.stringify({ module: 'better-sqlite3', version: sqliteVersion, electron, abi, platform, arch, method, builtAt: new Date().toISOString() }, null, 2)}\n`,
  );
  console.log(`wrote ${relative(root, join(outDir, 'better_sqlite3.node'))} (${method})`);
} catch (error) {
  console.error(`build-native-electron: ${error.message}`);
  process.exitCode = 1;
} finally {
  rmSync(staging, { recursive: true, force: true });
}
