// Waiting and progress lines, shared by every bench.

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Progress on stderr, with the time: runs take minutes, and the figures go to stdout. */
export const progress = (line) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
