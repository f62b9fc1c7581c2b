// The app's route handlers, found from the route files, for the standing sweeps (issues 16 and
// 32): a new route cannot be forgotten by them.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { call } from './api';

export const appDir = path.join(process.cwd(), 'app');

/** Every route file under app/, relative to it ("api/room/route.ts"), sorted. */
export const routeFiles = (readdirSync(appDir, { recursive: true }) as string[]).filter((file) => /(^|\/)route\.tsx?$/.test(file)).sort();

export type Handler = Parameters<typeof call>[0] & { bodySchema?: z.ZodType };

export const STATE_CHANGING = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = 'GET' | (typeof STATE_CHANGING)[number];

/** The handlers a route file exports for `methods`, as [method, handler]. */
export async function handlersOf(file: string, methods: readonly Method[] = STATE_CHANGING): Promise<[Method, Handler][]> {
  const loaded = (await import(`@/app/${file.replace(/\.tsx?$/, '')}`)) as Record<string, unknown>;
  return methods.filter((method) => typeof loaded[method] === 'function').map((method) => [method, loaded[method] as Handler]);
}

/** A path for the route file, with a value in each dynamic segment. */
export const routePath = (file: string) =>
  `/${path
    .dirname(file)
    .replace(/\[\.\.\.\w+\]/g, 'x/y')
    .replace(/\[\w+\]/g, 'x')}`;

/** The dynamic segments' names of a route file ("api/tickets/[id]/reply/route.ts" → ["id"]). */
export const segmentsOf = (file: string) => [...file.matchAll(/\[(?:\.\.\.)?(\w+)\]/g)].map((match) => match[1]!);

interface SchemaDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  in?: z.ZodType;
  out?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;

/** The top-level field names a body schema reads (objects inside pipes, unions and optionals). */
export function bodyFields(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  const def = defOf(schema);
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? def.shape;
  if (def.type === 'object' && shape) return Object.keys(shape);
  const parts = [def.in, def.out, def.innerType, def.left, def.right, ...(def.options ?? [])].filter(Boolean) as z.ZodType[];
  return [...new Set(parts.flatMap(bodyFields))];
}
