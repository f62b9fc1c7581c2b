/** Application version (SPEC points 2 and 9). */
export const APP_VERSION = '1.7.0';
