#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so `npx tourdesk` works in a checkout without a build step.
import { register } from 'tsx/esm/api';

register();
process.env.TOURDESK_CLI_ENTRY = '1';
await import('../main/cli.ts');
