/** Entry of the load generator's own process: config as JSON in argv[2], result as JSON on stdout. */
import { runLoadInProcess, type LoadConfig } from './loadgen.js';

const config = JSON.parse(process.argv[2] ?? '{}') as LoadConfig;
const result = await runLoadInProcess(config);
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
