// SPEC points 3 and 9: rooms, contacts and groups each take one of 20 colours, numbered 1 to 20.
// No zod here: lists on every app page draw these colours, and only forms need the schema
// (lib/color-field.ts).

export const COLORS = [
  '#dc2626',
  '#ea580c',
  '#d97706',
  '#ca8a04',
  '#65a30d',
  '#16a34a',
  '#059669',
  '#0d9488',
  '#0891b2',
  '#0284c7',
  '#2563eb',
  '#4f46e5',
  '#7c3aed',
  '#9333ea',
  '#c026d3',
  '#db2777',
  '#e11d48',
  '#92400e',
  '#475569',
  '#1e293b',
] as const;

/**
 * The colour of a new room, contact or group when none is chosen: slate (19), a neutral that
 * reads as "no colour chosen". Colour 1 is red, which beside a name reads as an error (issue 33).
 * The columns' database default stays 1 so that no migration touches existing rows; every insert
 * names its colour.
 */
export const DEFAULT_COLOR = 19;

/** The CSS colour of colour number `color` (1–20). */
export function colorOf(color: number): string {
  return COLORS[color - 1] ?? (COLORS[DEFAULT_COLOR - 1] as string);
}
