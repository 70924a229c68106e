#!/usr/bin/env node
// The `bot` command. Sources are TypeScript run through tsx's loader, so there is no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
await main(process.argv);
