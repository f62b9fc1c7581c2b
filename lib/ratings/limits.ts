// Shared by the server's schema (lib/ratings/rate.ts) and the rating form, which checks it natively.
export const RATING_COMMENT_MAX = 1000;
export const RATING_VALUES = [1, 2, 3, 4, 5] as const;
