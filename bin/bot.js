#!/usr/bin/env -S node --max-semi-space-size=64
// --max-semi-space-size=64 (MB; V8's default is 16): young-generation scavenges are a few ms each and land on whatever
// request is in flight; a larger nursery makes them about four times rarer, which takes them out of the order path's
// p99 (see README, Performance). `npm start`, `npm run bot` and `npm run bench` pass the same flag.
// The `bot` command. Sources are TypeScript run through tsx's loader, so there is no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
await main(process.argv);
