// The data of SPEC point 3 and what the later features need, one file per domain (issue 37).
// camelCase in TypeScript, snake_case in SQL; every row a user owns carries its owner.
// drizzle.config.ts reads this folder; the app imports `@/lib/db/schema` (this index).
export * from './accounts';
export * from './configuration';
export * from './rooms';
export * from './contacts';
export * from './events';
export * from './support';
export * from './billing';
export * from './mail';
export * from './audit';
export * from './ratings';
