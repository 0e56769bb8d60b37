// Worker-thread entry of the recognition pool (piscina `filename`): loads the TypeScript task module through
// tsx's scoped loader, so it works the same under `tsx` and Vitest (running from source), whatever hooks the
// parent process has. Production (dist/) never loads this file: the compiled pool uses pool-tasks.js directly. The tasks themselves are in pool-tasks.ts.
import { tsImport } from 'tsx/esm/api';

const tasks = await tsImport('./pool-tasks.ts', import.meta.url);
export const checkImageTask = tasks.checkImageTask;
export const recognizeTask = tasks.recognizeTask;
export const shrinkForAiTask = tasks.shrinkForAiTask;
export default tasks.checkImageTask;
