// bench:join's knobs (environment variables, described in run.mjs) and its browser launcher.
import { chromiumArgs, launchChromium } from '../../tests/support/chromium.mjs';

export const port = Number(process.env.BENCH_PORT ?? 3610);
export const runs = Number(process.env.RUNS ?? 10);
export const pairs = Number(process.env.PAIRS ?? 3);
export const sizes = (process.env.SIZES ?? '2,3,4').split(',').map(Number);
export const MODES = ['on', 'off', 'identity'];
export const modes = (process.env.E2EE ?? MODES.join(',')).split(',').map((mode) => mode.trim());
export const steadySeconds = Number(process.env.STEADY_S ?? 15);
export const settleSeconds = Number(process.env.SETTLE_S ?? 60);
/** CAMERA=640x360: the camera size asked for instead of the app's own (1280x720, which four browsers on two cores cannot encode). */
export const camera = process.env.CAMERA?.split('x').map(Number);
if (camera && (camera.length !== 2 || camera.some((n) => !Number.isInteger(n) || n <= 0)))
  throw new Error(`CAMERA must look like 640x360, not ${process.env.CAMERA}`);
export const baseURL = `http://localhost:${port}`;

if (modes.length === 0 || modes.some((mode) => !MODES.includes(mode))) throw new Error(`E2EE must list some of ${MODES.join(', ')}, not ${process.env.E2EE}`);

/** A Chromium with the shared flags, plus EXTRA_CHROMIUM_ARGS (space-separated) when set. */
export const launchBrowser = () =>
  launchChromium({ args: [...chromiumArgs, ...(process.env.EXTRA_CHROMIUM_ARGS ? process.env.EXTRA_CHROMIUM_ARGS.split(' ') : [])] });
