#!/usr/bin/env node
// The `gateway` command: runs main/cli.ts through tsx's loader, so no build step is needed.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../main/cli.ts');
const code = await runCli(process.argv.slice(2));
if (code >= 0) process.exitCode = code;
