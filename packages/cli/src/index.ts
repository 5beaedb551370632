export { createProgram, runCli } from './cli.js';
export { bufferIo, processIo, type CliIo, type CommandResult } from './io.js';
export { CliError, UsageError } from './errors.js';
export {
  PACKS_DIR,
  parseRuleOptions,
  registryCheck,
  registryDiff,
  registryExport,
  registryImport,
  registryLint,
  registryPublish,
  registryVersion,
  SNAPSHOT_FILE,
  type ImportFormat,
  type StoreCliOptions,
} from './commands/registry.js';
