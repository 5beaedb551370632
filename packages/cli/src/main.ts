#!/usr/bin/env node
// The `signalbox` command: wiring only; everything testable lives in cli.ts and commands/.
import { runCli } from './cli.js';

process.exitCode = await runCli(process.argv.slice(2));
