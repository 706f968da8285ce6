// Entry point of the single executable (scripts/build-sea.ts builds it with a V8 startup snapshot): the fire
// path's modules (zod, the settings schemas, the runners' dispatch) are evaluated once, at build time, and
// each start deserialises them instead. Nothing here may read the environment, the clock or the terminal:
// those would be frozen into the snapshot.
import { startupSnapshot } from 'node:v8';
import { run } from './main.ts';
import './commands/fire.ts';

startupSnapshot.setDeserializeMainFunction(() => run(process.argv.slice(2)));
