// Kept in step with package.json by scripts/build.ts, which checks it; the bundle reads no files at run time.
export const VERSION = '0.1.0';
